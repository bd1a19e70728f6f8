"""Context builders: the one place the JSON of an entry is made.

The terminal view, ``--json`` output, the web pages and the API all render
these dicts, so they cannot drift. ``version`` is the schema version of the
public JSON contract (DESIGN.md): fields may be added, none renamed.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from errordex import plugins
from errordex.analysis.write import PER_SITE, at_site, led_by, paste_site
from errordex.errors import InputError, NotFound
from errordex.forge import file_url
from errordex.group import defines
from errordex.match.explain import value_keys
from errordex.model import ErrorEntry, ThrowSite
from errordex.runtime import message_line, one_line, printed_form, title
from errordex.store.base import EntryPage, Store, StoredSnapshot

SCHEMA_VERSION = 1
SNIPPET_RADIUS = 6

log = logging.getLogger(__name__)


def snippet(
    text: str | None, line: int, end_line: int, radius: int = SNIPPET_RADIUS
) -> dict[str, Any] | None:
    """Lines around a site: ``{"start": n, "lines": [...], "mark": [line..end_line]}``."""
    if text is None:
        return None
    return snippet_of_lines(text.splitlines(), line, end_line, radius)


def snippet_of_lines(
    lines: Sequence[str], line: int, end_line: int, radius: int = SNIPPET_RADIUS
) -> dict[str, Any]:
    """``snippet`` of a file already split into lines (``str.splitlines``)."""
    lo = max(1, line - radius)
    hi = min(len(lines), end_line + radius)
    return {"start": lo, "lines": list(lines[lo - 1 : hi]), "mark": [line, end_line]}


def site_json(
    site: ThrowSite, snap: StoredSnapshot, lines: Sequence[str] | None = None
) -> dict[str, Any]:
    out = site.to_json()
    if defines(site):
        out["defines"] = True  # the message's definition, not a place that throws it
    out["url"] = file_url(snap.repo.url, snap.forge_ref, site.path, site.line)
    if lines is not None:
        out["snippet"] = snippet_of_lines(lines, site.line, site.end_line)
    return out


def _collapsed(sites: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The sites whose throwing lines repeat an earlier site's (the same
    marked lines, indentation aside; the lines around them may differ, as
    in 18 copies of one feature stub) show them once: the later ones name
    the first (``same_code_as``: its ``path:line``) instead of a copy."""
    seen: dict[tuple[Any, ...], str] = {}
    for s in sites:
        snip = s.get("snippet")
        if not snip:
            continue
        lo, hi = snip["mark"]
        marked = snip["lines"][lo - snip["start"] : hi - snip["start"] + 1]
        key = (s.get("kind"), tuple(line.strip() for line in marked))
        first = seen.setdefault(key, f"{s['path']}:{s['line']}")
        if first != f"{s['path']}:{s['line']}":
            del s["snippet"]
            s["same_code_as"] = first
    return sites


def entry_json(
    entry: ErrorEntry,
    snap: StoredSnapshot,
    store: Store | None = None,
    with_snippets: bool = False,
    file_lines: Callable[[str], Sequence[str] | None] | None = None,
    first: tuple[str, int] | None = None,
    prose: bool = True,
    page: EntryPage | None = None,
) -> dict[str, Any]:
    """The public JSON of one error entry. ``file_lines(path)``, the lines of a
    file of ``snap`` (e.g. from a cache), is used for the snippets when given.

    ``first`` (path, line): the site a paste came from. It leads: it is
    listed first (with its own snippet), how it prints is shown, and where
    the entry's sites differ, the analysis is that site's (``by_site``).
    With ``prose``, sections a model wrote from the entry's current facts,
    and errordex checked, replace the static ones (``errordex.llm.prose``).
    ``page``, what ``Store.entry_page`` read with the entry: its analysis and
    prose are not read again."""
    mine = [s for s in entry.catalog_sites if first and (s.path, s.line) == first]
    given = entry
    if mine:
        entry = replace(entry, sites=(mine[0], *(s for s in entry.sites if s is not mine[0])))
    texts: dict[str, Sequence[str] | None] = {}
    if with_snippets and store is not None:
        for s in entry.catalog_sites:
            if s.path not in texts:
                if file_lines is not None:
                    texts[s.path] = file_lines(s.path)
                else:
                    text = store.file_text(snap.id, s.path)
                    texts[s.path] = text.splitlines() if text is not None else None
    if page is not None:
        stored = page.analysis
    else:
        stored = store.analysis(snap.id, entry.id) if store is not None else None
    lead = (
        entry.catalog_sites[0] if entry.catalog_sites else (entry.sites[0] if entry.sites else None)
    )
    out = {
        "version": SCHEMA_VERSION,
        "id": entry.id,
        "repo": entry.repo,
        "commit": snap.commit,
        "commit_kind": snap.snapshot.commit_kind,
        "commit_date": snap.snapshot.commit_date,
        "version_label": snap.snapshot.version_label,
        "title": title(entry),
        "message": entry.message,
        "runtime_message": message_line(lead) if lead else entry.message,
        "printed": printed_form(lead, _printed_exception(lead, stored)) if lead else entry.message,
        "template": entry.template.to_json(),
        "kinds": list(entry.kinds),
        "exception_types": list(entry.exception_types),
        "first_seen": entry.first_seen,
        "last_seen": entry.last_seen,
        "sites": _collapsed([site_json(s, snap, texts.get(s.path)) for s in entry.catalog_sites]),
        # a test's own `assert` checks the test's result: it is not this error thrown
        "test_sites": [site_json(s, snap) for s in entry.sites if s.in_test and s.kind != "assert"],
        "facts": stored["facts"] if stored else {},
        "analysis": stored["analysis"] if stored else None,
        "related": (
            [
                {k: r[k] for k in ("id", "message", "path", "line") if k in r}
                | {"title": one_line(r.get("message") or "")}
                for r in stored["facts"].get("related", [])
            ]
            if stored
            else []
        ),
    }
    # a page written again for the paste's site is not what a model wrote prose for
    reled = False
    if stored and mine:
        out["analysis"], reled = _at_paste_site(given, stored, f"{mine[0].path}:{mine[0].line}")
    if prose and store is not None and out["analysis"] and not reled:
        records = page.prose if page is not None else None
        out["analysis"] = with_prose(store, snap, out, file_lines, records)
    return out


def _at_paste_site(
    entry: ErrorEntry, stored: dict[str, Any], site: str
) -> tuple[dict[str, Any], bool]:
    """The stored analysis as the page of ``site``, the site a paste came
    from: its own page when its function has one (``at_site``), else the
    sections written again, led by it (``paste_site``); and whether they
    were written again."""
    analysis: dict[str, Any] = stored["analysis"]
    shown = at_site(analysis, site)
    if shown is not analysis or not analysis or not stored.get("facts"):
        return shown, False
    try:
        page = paste_site(entry, stored["facts"], entry.repo, site)
    except (KeyError, TypeError, ValueError):  # facts stored by an older errordex
        log.debug("could not lead the page with %s", site, exc_info=True)
        return analysis, False
    if page is None:
        return analysis, False
    return _written_again(analysis, page), True


def _written_again(analysis: dict[str, Any], page: dict[str, Any]) -> dict[str, Any]:
    """``analysis`` with its per-site sections replaced by ``page``'s, which
    were written again from the facts (static, whatever prose it had)."""
    kept = {k: v for k, v in analysis.items() if k not in PER_SITE and k != "provenance"}
    return {**kept, **page, "provenance": {"kind": "static"}}


def led_by_your_call(
    data: dict[str, Any],
    entry: ErrorEntry,
    through: Sequence[tuple[str, str]],
    called: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """Lead the page in ``data`` (``entry_json``) with the public call the
    user's pasted stack went through (``analysis.write.led_by``), when the
    page led with another way to the same raise; the prose a model wrote for
    that other lead is dropped. Returns the call that now leads, or None."""
    analysis = data.get("analysis")
    if not analysis or not through:
        return None
    site = data.get("site") or (data["sites"][0] if data.get("sites") else None)
    again = led_by(
        entry,
        data["facts"],
        entry.repo,
        through,
        f"{site['path']}:{site['line']}" if site else None,
        called,
    )
    if again is None:
        return None
    data["analysis"] = _written_again(analysis, again)
    if "summary" in analysis:
        # the page's own lead: the general way to the raise
        data["analysis"]["general_summary"] = analysis["summary"]
    return dict(again["via"])


def with_prose(
    store: Store,
    snap: StoredSnapshot,
    data: dict[str, Any],
    file_lines: Callable[[str], Sequence[str] | None] | None = None,
    records: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """``data``'s static analysis, with the checked prose written from its
    current facts laid over it, when there is any. ``records``: the entry's
    prose records, already read (``EntryPage.prose``); None reads them."""
    from errordex.llm import prose

    def lines(path: str) -> Sequence[str] | None:
        if file_lines is not None:
            return file_lines(path)
        text = store.file_text(snap.id, path)
        return text.splitlines() if text is not None else None

    analysis: dict[str, Any] = data["analysis"]
    record = prose.find(store.conn, data, lines, records)
    return prose.overlay(analysis, record) if record is not None else analysis


def _printed_exception(lead: ThrowSite, stored: dict[str, Any] | None) -> str | None:
    """The raised class as the runtime names it (``Language.printed_type``: a
    Python traceback, ``module.Qualname``), when the analysis found where the
    repository defines it (its ``hierarchy`` fact)."""
    lang = plugins.find(lead.language)
    if lang is None or lang.runtime.printed_type is None or not lead.exception_type or not stored:
        return None
    chain = stored["facts"].get("hierarchy") or []
    first = chain[0] if chain else {}
    if first.get("builtin") or not first.get("path"):
        return None
    if first.get("name") != lead.exception_type.rsplit(".", 1)[-1]:
        return None
    return lang.runtime.printed_type(first.get("qualname") or first["name"], first["path"])


def entry_summary(entry: ErrorEntry) -> dict[str, Any]:
    """One line of a catalog."""
    return {
        "id": entry.id,
        "repo": entry.repo,
        "title": title(entry),
        "message": entry.message,
        "kinds": list(entry.kinds),
        "exception_types": list(entry.exception_types),
        "dynamic": entry.template.dynamic,
        "sites": len(entry.catalog_sites),
        "first_site": (
            f"{entry.catalog_sites[0].path}:{entry.catalog_sites[0].line}"
            if entry.catalog_sites
            else None
        ),
    }


#: A short id: 4 to 15 hex digits (an id has 16).
_ID_PREFIX = re.compile(r"[0-9a-f]{4,15}")


def resolve_id(store: Store, entry_id: str, repo: str | None = None) -> str:
    """The full id of the entry that ``entry_id`` names: a whole id as given,
    or a prefix of 4 or more hex digits that only one entry's id starts with
    (``8aaa``). An ambiguous prefix raises InputError naming the candidates;
    one that starts no id raises NotFound."""
    prefix = entry_id.strip().lower()
    if not _ID_PREFIX.fullmatch(prefix):
        return entry_id
    found = store.entry_ids_starting(prefix, repo, limit=64)
    ids = sorted({i for i, _ in found})
    if len(ids) == 1:
        return ids[0]
    if not ids:
        raise NotFound(
            f"no error with an id starting with {entry_id!r}", hint="see `errordex list`"
        )
    named = ", ".join(f"{i} ({slug})" for i, slug in found[:10])
    more = f" and {len(found) - 10} more" if len(found) > 10 else ""
    many = f"{len(ids)} or more" if len(found) >= 64 else str(len(ids))
    raise InputError(f"{entry_id!r} starts {many} ids: {named}{more}; give more of it")


def printed_with(data: Mapping[str, Any], values: Mapping[str, str]) -> str | None:
    """What the error prints at run time with the pasted values in its
    placeholders (``jinja2.exceptions.UndefinedError: 'user' is undefined``),
    when every placeholder has one; else None."""
    template = data.get("template") or {}
    parts = template.get("parts") or []
    if template.get("dynamic") or not any("hole" in p for p in parts):
        return None
    holes = [p for p in parts if "hole" in p]
    keys = value_keys([(str(p["hole"]), str(p.get("spec", ""))) for p in holes])
    if any(k not in values for k in keys):
        return None
    by_part = {id(p): values[k] for p, k in zip(holes, keys, strict=True)}
    shown = "".join(str(p.get("text", p.get("spec", ""))) for p in parts)
    filled = "".join(str(p["text"]) if "text" in p else by_part[id(p)] for p in parts)
    printed = str(data.get("printed") or "")
    if not shown or shown not in printed:
        return None
    out = printed.replace(shown, filled)
    for key, value in values.items():
        # what the runtime prints around the message: click's ``{param_hint}``
        if key not in keys:
            out = out.replace("{" + key + "}", value)
    return out


def in_catalog_order(store: Store, entries: Sequence[ErrorEntry]) -> list[ErrorEntry]:
    """``entries`` ordered as each repository's catalog orders them
    (``Store.catalog_order``: what public API reaches first, then by how many
    places throw them, the generic ones after), repository by repository;
    an entry thrown only in tests, which the catalog leaves out, comes last."""
    order: dict[tuple[str, str], int] = {}
    for repo in dict.fromkeys(e.repo for e in entries):
        ids = store.catalog_order(store.current(repo).id)
        order.update(((repo, i), n) for n, i in enumerate(ids))
    repos = {r: n for n, r in enumerate(dict.fromkeys(e.repo for e in entries))}
    unseen = len(order)
    return sorted(entries, key=lambda e: (repos[e.repo], order.get((e.repo, e.id), unseen)))
