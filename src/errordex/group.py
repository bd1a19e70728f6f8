"""Group throw sites into error entries (pure).

Sites with the same normalized message in one repo are one entry; its id is
the first 16 hex digits of sha256(repo slug + "\\0" + key), so it stays the same
when the code moves. A message with no readable text (empty, or built at run
time) cannot be told apart by text, so its key also carries what does tell it
apart: the kind and exception type, and for a dynamic message the enclosing
symbol and file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from errordex import plugins
from errordex.model import ErrorEntry, ThrowSite


def entry_id(slug: str, key: str) -> str:
    return hashlib.sha256(f"{slug}\0{key}".encode("utf-8", "surrogatepass")).hexdigest()[:16]


def group_key(site: ThrowSite) -> str:
    t = site.template
    if t.dynamic:
        return f"dynamic\0{site.exception_type or site.kind}\0{site.path}\0{site.symbol or ''}"
    if t.is_empty or not t.key():
        lang = plugins.find(site.language)
        key = lang.runtime.bare_key(site) if lang is not None else None
        if key:
            return key  # what it prints: `panic!()` as `panic!("explicit panic")`
        return f"empty\0{site.kind}\0{site.exception_type or ''}"
    return t.key()


def _site_order(s: ThrowSite) -> tuple[bool, str, int, int]:
    return (s.in_test, s.path, s.line, s.column)


def group(slug: str, sites: Iterable[ThrowSite]) -> list[ErrorEntry]:
    """Entries for ``sites``, ordered by id; each entry's sites in path order,
    test sites last."""
    buckets: dict[str, list[ThrowSite]] = {}
    for s in sites:
        buckets.setdefault(group_key(s), []).append(s)
    entries = [entry_of(entry_id(slug, key), slug, members) for key, members in buckets.items()]
    entries.sort(key=lambda e: e.id)
    return entries


def entry_of(id: str, slug: str, members: list[ThrowSite]) -> ErrorEntry:
    """The entry ``id`` of ``members`` (one key's sites, in any order; sorted here)."""
    members.sort(key=_site_order)
    lead = members[0]
    return ErrorEntry(
        id=id,
        repo=slug,
        template=lead.template,
        kinds=tuple(dict.fromkeys(s.kind for s in members)),
        exception_types=tuple(dict.fromkeys(s.exception_type for s in members if s.exception_type)),
        sites=tuple(members),
    )
