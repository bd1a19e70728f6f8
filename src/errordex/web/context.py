"""One context builder per page. The HTML page and its JSON twin (``.json``,
``/api/...``) both render the dict a builder returns, so they cannot drift.

Every dict has ``"version"`` (the schema version of the public JSON) and holds
only JSON values; links are made by the templates from ``Urls``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from errordex.forge import parse_forge_url
from errordex.match.compile import compile_template
from errordex.model import ErrorEntry
from errordex.paste import python as paste_python
from errordex.paste import rust as paste_rust
from errordex.paste.clean import clean_lines
from errordex.store.sqlite import SqliteStore, StoredSnapshot
from errordex.template import Template
from errordex.views import SCHEMA_VERSION, entry_json, entry_summary

PER_PAGE = 50
MAX_PER_PAGE = 200
MAX_QUERY = 32_768  # a pasted traceback; longer input is refused with 422
MAX_FILTER = 500
MAX_VALUES = 20
MAX_VALUE_CHARS = 500
SEARCH_LIMIT = 20
_TOKEN = re.compile(r"\w{2,}")
_FTS_TOKENS = 16


def _snapshot_json(snap: StoredSnapshot) -> dict[str, Any]:
    s = snap.snapshot
    return {
        "commit": s.commit,
        "commit_date": s.commit_date,
        "indexed_at": s.indexed_at,
        "tool_version": s.tool_version,
        "version_label": s.version_label,
    }


def home_context(store: SqliteStore) -> dict[str, Any]:
    repos = [
        {
            "repo": r.repo.slug,
            "url": r.repo.url,
            "entries": r.entries,
            **_snapshot_json(r.snapshot),
        }
        for r in store.repos()
    ]
    return {
        "version": SCHEMA_VERSION,
        "repos": repos,
        "total_entries": sum(r["entries"] for r in repos),
    }


def catalog_context(
    store: SqliteStore,
    slug: str,
    kind: str | None = None,
    path: str | None = None,
    q: str | None = None,
    page: int = 1,
    per_page: int = PER_PAGE,
) -> dict[str, Any]:
    """One page of a repo's catalog. Raises NotFound for an unknown repo."""
    snap = store.current(slug)
    total = store.count_catalog(slug, kind=kind, text=q, path=path)
    pages = max(1, math.ceil(total / per_page))
    entries = store.catalog(
        slug, kind=kind, text=q, path=path, limit=per_page, offset=(page - 1) * per_page
    )
    return {
        "version": SCHEMA_VERSION,
        "repo": slug,
        "url": snap.repo.url,
        **_snapshot_json(snap),
        "filters": {"kind": kind, "path": path, "q": q},
        "kinds": store.kind_counts(snap.id),
        "packages": store.package_counts(snap.id),
        "total": total,
        "page": page,
        "per_page": per_page,
        "pages": pages,
        "errors": [entry_summary(e) for e in entries],
    }


def report_url(repo_url: str | None, ctx: Mapping[str, Any]) -> str | None:
    """A new-issue link on the repo for a GitHub repo, else None."""
    forge = parse_forge_url(repo_url) if repo_url else None
    if forge is None or forge.forge != "github":
        return None
    body = (
        f"The errordex page for error `{ctx['id']}` at commit {ctx['commit']} looks wrong.\n\n"
        f"Message: {ctx['message']}\n\nWhat is wrong:\n"
    )
    query = urlencode({"title": f"Wrong error page: {ctx['title'][:80]}", "body": body})
    return f"{forge.web_url}/issues/new?{query}"


def clean_values(raw: Mapping[str, str]) -> dict[str, str]:
    """The ``v.NAME`` query parameters of a link from a paste, bounded."""
    out: dict[str, str] = {}
    for key, value in raw.items():
        if key.startswith("v.") and 2 < len(key) <= 66 and len(out) < MAX_VALUES:
            out[key[2:]] = value[:MAX_VALUE_CHARS]
    return out


def error_context(
    store: SqliteStore, slug: str | None, entry_id: str, values: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The JSON of one error, as on its page. Raises NotFound."""
    entry = store.entry(entry_id, repo=slug)
    snap = store.entry_snapshot(entry_id, repo=entry.repo)
    data = entry_json(entry, snap, store, with_snippets=True)
    data["repo_url"] = snap.repo.url
    data["report_url"] = report_url(snap.repo.url, data)
    if values:
        data["values"] = dict(values)
    return data


# -- search ----------------------------------------------------------------------


def parse_paste(text: str) -> dict[str, Any]:
    """The error a user pasted: a traceback, a panic, or one message line."""
    lines = clean_lines(text)
    found = paste_python.find(lines) or paste_rust.find(lines)
    main = [f.error for f in found if f.error.relation is None] or [f.error for f in found]
    if main:
        err = main[-1]
        return {
            "message": err.message,
            "exception_type": err.exception_type,
            "language": err.language,
            "values": dict(err.values),
        }
    line = next((ln.strip() for ln in reversed(lines) if ln.strip()), "")
    exc, message = paste_python.split_exception_line(line)
    return {"message": message, "exception_type": exc, "language": None, "values": {}}


def fts_query(message: str) -> str | None:
    """A safe FTS5 query: every token quoted, joined with OR; None if no token."""
    tokens = list(dict.fromkeys(_TOKEN.findall(message)))[:_FTS_TOKENS]
    if not tokens:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in tokens)


def _hole_values(result_values: tuple[tuple[Any, str], ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for i, (hole, value) in enumerate(result_values, start=1):
        name = hole.expr if hole.expr and len(hole.expr) <= 64 else str(i)
        out.setdefault(name, value[:MAX_VALUE_CHARS])
    return out


def search_context(store: SqliteStore, q: str, limit: int = SEARCH_LIMIT) -> dict[str, Any]:
    """Ranked entries for pasted text: full-text candidates, verified by each
    template's matcher (which also reads the placeholder values)."""
    q = q.strip()
    parsed = parse_paste(q) if q else None
    results: list[dict[str, Any]] = []
    if parsed and parsed["message"]:
        message = parsed["message"]
        query = fts_query(message)
        scored: list[tuple[float, int, str, dict[str, str], bool]] = []
        for rank, (_sid, eid, tjson) in enumerate(
            store.fts_candidates(query, limit=100) if query else []
        ):
            m = compile_template(Template.from_json(json.loads(tjson))).match(message)
            if m is not None:
                score = 1.0 + m.coverage - (0.5 if m.partial else 0.0)
                scored.append((score, rank, eid, _hole_values(m.values), True))
            else:
                scored.append((1.0 / (rank + 2), rank, eid, {}, False))
        scored.sort(key=lambda s: (-s[0], s[1]))
        for score, _rank, eid, values, matched in scored[:limit]:
            entry: ErrorEntry = store.entry(eid)
            bonus = (
                0.05
                if parsed["exception_type"]
                and any(
                    t.rsplit(".", 1)[-1] == parsed["exception_type"].rsplit(".", 1)[-1]
                    for t in entry.exception_types
                )
                else 0.0
            )
            results.append(
                {
                    **entry_summary(entry),
                    "score": round(min(score + bonus, 2.0), 4),
                    "matched": matched,
                    "values": values,
                }
            )
        results.sort(key=lambda r: -r["score"])
    return {
        "version": SCHEMA_VERSION,
        "query": q,
        "parsed": parsed,
        "engine": "fts+template",
        "results": results,
    }


def sole_match(ctx: Mapping[str, Any]) -> dict[str, Any] | None:
    """The one result whose template matched the pasted message, if exactly one
    did (a paste that several templates explain goes to the result list)."""
    matched = [r for r in ctx["results"] if r["matched"]]
    if len(matched) == 1 or (len(matched) > 1 and matched[0]["score"] - matched[1]["score"] >= 0.2):
        return dict(matched[0])
    return None
