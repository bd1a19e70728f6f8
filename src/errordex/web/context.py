"""One context builder per page. The HTML page and its JSON twin (``.json``,
``/api/...``) both render the dict a builder returns, so they cannot drift.

Every dict has ``"version"`` (the schema version of the public JSON) and holds
only JSON values; links are made by the templates from ``Urls``.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit

from errordex import __version__
from errordex.errors import InputError, NotFound
from errordex.explain import explain_text
from errordex.runtime import title
from errordex.store.sqlite import SqliteStore, StoredSnapshot
from errordex.views import SCHEMA_VERSION, entry_json, entry_summary

PER_PAGE = 50
MAX_PER_PAGE = 200
MAX_QUERY = 32_768  # a pasted traceback; longer input is refused with 422
MAX_FILTER = 500
MAX_VALUES = 20
MAX_VALUE_CHARS = 500
SEARCH_LIMIT = 10


def _snapshot_json(snap: StoredSnapshot) -> dict[str, Any]:
    s = snap.snapshot
    return {
        "commit": s.commit,
        "commit_kind": s.commit_kind,
        "commit_date": s.commit_date,
        "indexed_at": s.indexed_at,
        "tool_version": s.tool_version,
        "version_label": s.version_label,
    }


def public_url(url: str | None) -> str | None:
    """A repository's URL as a page may show it: an http(s) address, else None.
    A local source (``file:///home/me/repo``, a path) has no page to link, and
    its URL would publish a path of this machine.

        >>> public_url("file:///home/me/repo"), public_url("https://github.com/o/r")
        (None, 'https://github.com/o/r')
    """
    return url if url and urlsplit(url).scheme in ("http", "https") else None


def home_context(store: SqliteStore) -> dict[str, Any]:
    repos = [
        {
            "repo": r.repo.slug,
            "url": public_url(r.repo.url),
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


@dataclass(frozen=True)
class _Catalog:
    """What every page of one snapshot's catalog shares: the order and the facets."""

    order: list[str]
    kinds: dict[str, int]
    packages: dict[str, int]


_CATALOGS: OrderedDict[tuple[str, int, str], _Catalog] = OrderedDict()
_CATALOGS_LOCK = threading.Lock()


def _catalog(store: SqliteStore, snap: StoredSnapshot) -> _Catalog:
    # a re-index of the same commit may reuse the row id; indexed_at tells them apart
    key = (str(store.path), snap.id, snap.snapshot.indexed_at)
    with _CATALOGS_LOCK:
        hit = _CATALOGS.get(key)
        if hit is not None:
            _CATALOGS.move_to_end(key)
            return hit
    cat = _Catalog(
        store.catalog_order(snap.id), store.kind_counts(snap.id), store.package_counts(snap.id)
    )
    with _CATALOGS_LOCK:
        _CATALOGS[key] = cat
        while len(_CATALOGS) > 32:
            _CATALOGS.popitem(last=False)
    return cat


_FILTERED: OrderedDict[tuple[str, int, str, str | None, str | None, str | None], list[str]] = (
    OrderedDict()
)


def _filtered(
    store: SqliteStore,
    snap: StoredSnapshot,
    cat: _Catalog,
    kind: str | None,
    path: str | None,
    q: str | None,
) -> list[str]:
    """The catalog order narrowed by the filters, kept for the next pages of the
    same filters (the filter query scans every site; a page is a slice)."""
    key = (str(store.path), snap.id, snap.snapshot.indexed_at, kind, path, q)
    with _CATALOGS_LOCK:
        hit = _FILTERED.get(key)
        if hit is not None:
            _FILTERED.move_to_end(key)
            return hit
    keep = store.catalog_ids(snap.id, kind=kind, text=q, path=path)
    order = [i for i in cat.order if i in keep]
    with _CATALOGS_LOCK:
        _FILTERED[key] = order
        while len(_FILTERED) > 64:
            _FILTERED.popitem(last=False)
    return order


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
    cat = _catalog(store, snap)
    order = cat.order
    if kind or path or q:
        order = _filtered(store, snap, cat, kind, path, q)
    total = len(order)
    pages = max(1, math.ceil(total / per_page))
    ids = order[(page - 1) * per_page : page * per_page]
    found = store.entries_by_id(snap.id, ids)
    return {
        "version": SCHEMA_VERSION,
        "repo": slug,
        "url": public_url(snap.repo.url),
        **_snapshot_json(snap),
        "filters": {"kind": kind, "path": path, "q": q},
        "kinds": cat.kinds,
        "packages": cat.packages,
        "total": total,
        "page": page,
        "per_page": per_page,
        "pages": pages,
        "errors": [entry_summary(found[i]) for i in ids if i in found],
    }


#: errordex's own tracker, where a wrong page is errordex's mistake to fix
#: (``[project.urls] Issues`` in pyproject.toml; a test keeps the two equal)
ERRORDEX_ISSUES = "https://github.com/errordex/errordex/issues"


def report_target(url: str | None = None) -> str:
    """Where "Report a wrong page" opens a new issue: ``url``, a site operator's
    choice (``--report-url``, ``$ERRORDEX_REPORT_URL``), or errordex's tracker.

        >>> report_target()
        'https://github.com/errordex/errordex/issues/new'

    Raises ``InputError`` for anything but an absolute http(s) URL.
    """
    if not url:
        return ERRORDEX_ISSUES + "/new"
    try:
        parts = urlsplit(url.strip())
        ok = parts.scheme in ("http", "https") and bool(parts.hostname)
    except ValueError:
        ok = False
    if not ok:
        raise InputError(f"--report-url {url!r}: give an absolute http(s) URL")
    return parts.geturl()


def report_url(report_to: str, ctx: Mapping[str, Any]) -> str:
    """The new-issue link for a wrong page: ``report_to`` (see ``report_target``)
    with a ``title`` and a ``body`` that name the page. It never goes to the
    indexed project's tracker: the page is errordex's work, not theirs."""
    body = (
        f"The errordex page for error `{ctx['id']}` of {ctx['repo']} at "
        f"{ctx['commit']} looks wrong.\n\nMessage: {ctx['message']}\n\n"
        f"errordex {__version__}\n\nWhat is wrong:\n"
    )
    query = urlencode({"title": f"Wrong error page: {ctx['title'][:80]}", "body": body})
    return f"{report_to}{'&' if '?' in report_to else '?'}{query}"


def site_query(site: Mapping[str, Any]) -> str:
    """The ``site=PATH:LINE`` query parameter that marks the site a pasted
    error came from on its entry's page (see ``clean_site``)."""
    return urlencode({"site": f"{site['path']}:{site['line']}"})


def clean_site(raw: Mapping[str, str]) -> tuple[str, int] | None:
    """The ``site`` query parameter of a link from a paste: (path, line), or None."""
    path, _, line = raw.get("site", "")[:MAX_VALUE_CHARS].rpartition(":")
    return (path, int(line)) if path and line.isdigit() and len(line) < 10 else None


def clean_values(raw: Mapping[str, str]) -> dict[str, str]:
    """The ``v.NAME`` query parameters of a link from a paste, bounded."""
    out: dict[str, str] = {}
    for key, value in raw.items():
        if key.startswith("v.") and 2 < len(key) <= 66 and len(out) < MAX_VALUES:
            out[key[2:]] = value[:MAX_VALUE_CHARS]
    return out


class FileLines:
    """The lines of snapshot files, decompressed and split once, in an LRU
    bounded by characters (every error page cuts its snippets from them)."""

    def __init__(self, max_chars: int = 64 * 2**20) -> None:
        self.max_chars = max_chars
        self.chars = 0
        self._data: OrderedDict[tuple[str, int, str, str], tuple[tuple[str, ...], str]] = (
            OrderedDict()
        )
        self._lock = threading.Lock()

    def get(self, store: SqliteStore, snap: StoredSnapshot, path: str) -> tuple[str, ...] | None:
        """The lines of ``path`` (``str.splitlines``), or None for a file not stored."""
        return self.get_text(store, snap, path)[0]

    def get_text(
        self, store: SqliteStore, snap: StoredSnapshot, path: str
    ) -> tuple[tuple[str, ...] | None, str | None]:
        # a re-index of the same commit may reuse the row id; indexed_at tells them apart
        key = (str(store.path), snap.id, snap.snapshot.indexed_at, path)
        with self._lock:
            hit = self._data.get(key)
            if hit is not None:
                self._data.move_to_end(key)
                return hit
        text = store.file_text(snap.id, path)
        if text is None:
            return None, None
        value = (tuple(text.splitlines()), text)
        if len(text) <= self.max_chars // 8:
            with self._lock:
                if key not in self._data:
                    self._data[key] = value
                    self.chars += len(text)
                while self.chars > self.max_chars:
                    _, (_, dropped) = self._data.popitem(last=False)
                    self.chars -= len(dropped)
        return value


FILE_LINES = FileLines()


def error_context(
    store: SqliteStore,
    slug: str | None,
    entry_id: str,
    values: Mapping[str, str] | None = None,
    site: tuple[str, int] | None = None,
    report_to: str = ERRORDEX_ISSUES + "/new",
) -> dict[str, Any]:
    """The JSON of one error, as on its page. Raises NotFound.

    ``report_to`` is where its "Report a wrong page" link goes (``report_target``).

    ``site`` (path, line), from a paste whose traceback shows which site threw
    it: that site comes first and ``data["site"]`` names it (ignored when the
    entry has no such site).
    """
    entry = store.entry(entry_id, repo=slug)
    snap = store.entry_snapshot(entry_id, repo=entry.repo)
    data = entry_json(
        entry,
        snap,
        store,
        with_snippets=True,
        file_lines=lambda path: FILE_LINES.get(store, snap, path),
    )
    data["repo_url"] = public_url(snap.repo.url)
    data["forge_ref"] = snap.forge_ref
    data["related"] = [_related(store, entry.repo, r) for r in data["related"]]
    data["report_url"] = report_url(report_to, data)
    if values:
        data["values"] = dict(values)
    mine = [s for s in data["sites"] if site and (s["path"], s["line"]) == site]
    if mine:
        data["sites"] = mine[:1] + [s for s in data["sites"] if s is not mine[0]]
        data["site"] = {"path": mine[0]["path"], "line": mine[0]["line"]}
    return data


def file_reader(store: SqliteStore, slug: str) -> Callable[[str], str | None]:
    """Read a file of the repo's current snapshot (for highlighting whole files)."""
    return lambda path: FILE_LINES.get_text(store, store.current(slug), path)[1]


def _related(store: SqliteStore, slug: str, rel: dict[str, Any]) -> dict[str, Any]:
    """A related entry with its repo and title (an empty message has a title too)."""
    try:
        other = store.entry(rel["id"], repo=slug)
    except NotFound:
        return {**rel, "repo": slug, "title": rel.get("message") or rel["id"]}
    return {**rel, "repo": slug, "title": title(other)}


# -- search ----------------------------------------------------------------------


def search_context(store: SqliteStore, q: str, limit: int = SEARCH_LIMIT) -> dict[str, Any]:
    """Ranked entries for pasted text, per error found in it: the same builder
    as ``errordex explain --json`` (``errordex.explain``), plus the query."""
    q = q.strip()
    result = explain_text(store, q, limit=limit) if q else {"version": SCHEMA_VERSION, "parts": []}
    return {**result, "query": q}


def main_part(ctx: Mapping[str, Any]) -> dict[str, Any] | None:
    """The error the paste is about: the first part that is not a cause or
    context; but when the error wraps others (Go's ``a: b: c``, its parts
    innermost first), the first wrapped part an entry answers: what a library
    threw, inside the text its callers added."""
    parts: list[dict[str, Any]] = ctx["parts"]
    for p in parts:
        answer = p.get("answer")
        if p.get("relation") == "wrapped" and answer and answer.get("kind") == "entry":
            return p
    main = [p for p in parts if p.get("relation") is None] or parts
    return main[0] if main else None


def sole_match(ctx: Mapping[str, Any]) -> dict[str, Any] | None:
    """The match to go straight to: the main error's answer, when that answer
    is an entry; otherwise None (show the answer and the list). A location
    answer is not an entry's page: an exact match there is the same message
    raised elsewhere (json's C scanner raising the pure-Python scanner's text).
    """
    part = main_part(ctx)
    answer = part.get("answer") if part is not None else None
    if part is None or not answer or answer.get("kind") != "entry":
        return None
    for m in part["matches"]:
        if m["id"] == answer["id"] and m["repo"] == answer["repo"]:
            return dict(m)
    return None
