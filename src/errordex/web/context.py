"""One context builder per page. The HTML page and its JSON twin (``.json``,
``/api/...``) both render the dict a builder returns, so they cannot drift.

Every dict has ``"version"`` (the schema version of the public JSON) and holds
only JSON values; links are made by the templates from ``Urls``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any
from urllib.parse import urlencode, urlsplit

from errordex import __version__
from errordex.called import public_call
from errordex.errors import InputError
from errordex.explain import explain_text
from errordex.runtime import title
from errordex.store.base import Store, StoredSnapshot
from errordex.views import (
    SCHEMA_VERSION,
    entry_json,
    entry_summary,
    led_by_your_call,
    printed_with,
)
from errordex.web.once import OnceCache

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


def home_context(store: Store) -> dict[str, Any]:
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


_CATALOGS: OnceCache[tuple[str, int, str], _Catalog] = OnceCache(32)


def _catalog(store: Store, snap: StoredSnapshot) -> _Catalog:
    # a re-index of the same commit may reuse the row id; indexed_at tells them apart
    key = (store.where, snap.id, snap.snapshot.indexed_at)
    catalog = _CATALOGS.get(
        key,
        lambda: _Catalog(
            store.catalog_order(snap.id), store.kind_counts(snap.id), store.package_counts(snap.id)
        ),
    )
    assert catalog is not None
    return catalog


_FILTERED: OnceCache[tuple[str, int, str, str | None, str | None, str | None], list[str]] = (
    OnceCache(64)
)


def _filtered(
    store: Store,
    snap: StoredSnapshot,
    cat: _Catalog,
    kind: str | None,
    path: str | None,
    q: str | None,
) -> list[str]:
    """The catalog order narrowed by the filters, kept for the next pages of the
    same filters (the filter query scans every site; a page is a slice)."""
    key = (store.where, snap.id, snap.snapshot.indexed_at, kind, path, q)

    def build() -> list[str]:
        keep = store.catalog_ids(snap.id, kind=kind, text=q, path=path)
        return [i for i in cat.order if i in keep]

    return _FILTERED.get(key, build) or []


def catalog_context(
    store: Store,
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


def call_query(called: Mapping[str, Any]) -> str:
    """The ``call.*`` query parameters that carry where a pasted stack went
    into the library (``explain.entered_at``) to its entry's page."""
    came = called["caller"]
    return urlencode(
        {
            "call.from": f"{came['path']}:{came['line']}",
            **({"call.by": came["repo"]} if came.get("repo") else {}),
            **({"call.code": called["code"]} if called.get("code") else {}),
            "call.into": f"{called['path']}:{called['line']}",
            **({"call.fn": called["function"]} if called.get("function") else {}),
            # the public call on the stack that the page leads with (``led_by``)
            **(
                {"call.via": f"{called['via']['path']}:{called['via']['function']}"}
                if called.get("via")
                else {}
            ),
            # the library's frames from the user's call inward, which say
            # which public function the user called (``called.public_call``)
            **(
                {"call.stack": ";".join(f"{p}:{n}:{fn}" for p, n, fn in called["stack"])}
                if called.get("stack")
                else {}
            ),
        }
    )


def clean_call(raw: Mapping[str, str]) -> dict[str, str] | None:
    """The ``call.*`` query parameters of a link from a paste, bounded; None
    without the two places."""
    got = {
        key: raw[f"call.{key}"][:MAX_VALUE_CHARS]
        for key in ("from", "by", "code", "into", "fn", "via", "stack")
        if raw.get(f"call.{key}")
    }
    return got if "from" in got and "into" in got else None


def stack_frames(text: str) -> list[tuple[str, int, str]]:
    """``call.stack`` read back: (path, line, function) of each frame;
    a frame that does not read so is left out.

    >>> stack_frames("a/b.py:3:get;a/c.py:x:y;a/d.py:9:C.send")
    [('a/b.py', 3, 'get'), ('a/d.py', 9, 'C.send')]
    """
    out: list[tuple[str, int, str]] = []
    for frame in text.split(";") if text else ():
        path, line, function = [*frame.split(":", 2), "", ""][:3]
        if path and line.isdigit() and function:
            out.append((path, int(line), function))
    return out


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
        self._files: OnceCache[tuple[str, int, str, str], tuple[tuple[str, ...], str]] = OnceCache(
            max_chars, weight=lambda lines_text: len(lines_text[1])
        )

    def get(self, store: Store, snap: StoredSnapshot, path: str) -> tuple[str, ...] | None:
        """The lines of ``path`` (``str.splitlines``), or None for a file not stored."""
        return self.get_text(store, snap, path)[0]

    def get_text(
        self, store: Store, snap: StoredSnapshot, path: str
    ) -> tuple[tuple[str, ...] | None, str | None]:
        """The lines and the text of ``path``; a file asked for by several
        threads at once is read from the store by the first only."""

        def read() -> tuple[tuple[str, ...], str] | None:
            text = store.file_text(snap.id, path)
            return None if text is None else (tuple(text.splitlines()), text)

        # a re-index of the same commit may reuse the row id; indexed_at tells them apart
        hit = self._files.get((store.where, snap.id, snap.snapshot.indexed_at, path), read)
        return hit if hit is not None else (None, None)


FILE_LINES = FileLines()


def error_context(
    store: Store,
    slug: str | None,
    entry_id: str,
    values: Mapping[str, str] | None = None,
    site: tuple[str, int] | None = None,
    report_to: str = ERRORDEX_ISSUES + "/new",
    call: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The JSON of one error, as on its page. Raises NotFound.

    ``report_to`` is where its "Report a wrong page" link goes (``report_target``).

    ``site`` (path, line), from a paste whose traceback shows which site threw
    it: that site comes first and ``data["site"]`` names it (ignored when the
    entry has no such site).
    """
    page = store.entry_page(entry_id, repo=slug)
    entry, snap = page.entry, page.snapshot
    data = entry_json(
        entry,
        snap,
        store,
        with_snippets=True,
        file_lines=lambda path: FILE_LINES.get(store, snap, path),
        first=site,
        page=page,
    )
    data["repo_url"] = public_url(snap.repo.url)
    data["forge_ref"] = snap.forge_ref
    data["related"] = _related(store, snap, data["related"])
    data["report_url"] = report_url(report_to, data)
    if values:
        data["values"] = dict(values)
        yours = printed_with(data, values)
        if yours is not None:
            data["printed_yours"] = yours
    if call:
        data["your_call"] = {k: v for k, v in call.items() if k != "stack"}
        path, _, function = call.get("via", "").partition(":")
        stack = stack_frames(call.get("stack", ""))
        if stack:  # the page leads with the call the pasted stack shows
            called = public_call(stack, partial(store.file_text, snap.id))
            led_by_your_call(data, entry, [(p, fn) for p, _, fn in stack], called)
        elif function:  # the page leads with the call the pasted stack went through
            led_by_your_call(data, entry, [(path, function)])
    if data["sites"] and site and (data["sites"][0]["path"], data["sites"][0]["line"]) == site:
        data["site"] = {"path": site[0], "line": site[1]}
    return data


def file_reader(store: Store, slug: str) -> Callable[[str], str | None]:
    """Read a file of the repo's current snapshot (for highlighting whole files)."""
    return lambda path: FILE_LINES.get_text(store, store.current(slug), path)[1]


def _related(
    store: Store, snap: StoredSnapshot, related: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The related entries of an entry of ``snap`` (the current snapshot of
    its repo), each with its repo and title (an empty message has a title
    too), read at once."""
    slug = snap.repo.slug
    found = store.entries_by_id(snap.id, list(dict.fromkeys(r["id"] for r in related)))
    return [
        {
            **rel,
            "repo": slug,
            "title": title(found[rel["id"]])
            if rel["id"] in found
            else rel.get("message") or rel["id"],
        }
        for rel in related
    ]


# -- search ----------------------------------------------------------------------


def search_context(store: Store, q: str, limit: int = SEARCH_LIMIT) -> dict[str, Any]:
    """Ranked entries for pasted text, per error found in it: the same builder
    as ``errordex explain --json`` (``errordex.explain``), plus the query."""
    q = q.strip()
    result = explain_text(store, q, limit=limit) if q else {"version": SCHEMA_VERSION, "parts": []}
    return {**result, "query": q}


def main_part(ctx: Mapping[str, Any]) -> dict[str, Any] | None:
    """The error the paste is about: the first part that is not a cause or
    context; but when the error wraps others (Go's ``a: b: c``, its parts
    innermost first), the first wrapped part an entry answers: what a library
    threw, inside the text its callers added. When the main part has no answer
    (a program's own error around a library's: node's ``[cause]:``, Python's
    ``raise ... from``), the innermost cause that has a page, the one printed
    farthest from it."""
    parts: list[dict[str, Any]] = ctx["parts"]
    for p in parts:
        answer = p.get("answer")
        if p.get("relation") == "wrapped" and answer and answer.get("kind") == "entry":
            return p
    main = [p for p in parts if p.get("relation") is None] or parts
    first = main[0] if main else None
    if first is None or first.get("answer"):
        return first
    at = parts.index(first)
    paged = [
        i
        for i, p in enumerate(parts)
        if p.get("relation") == "cause" and (p.get("answer") or {}).get("kind") == "entry"
    ]
    after = [i for i in paged if i > at]
    if after:
        return parts[after[-1]]
    return parts[paged[0]] if paged else first


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
