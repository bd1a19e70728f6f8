"""``analyse``: facts and page sections for every entry of a snapshot (pure)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from errordex.analysis.evidence import FileEvidence
from errordex.analysis.facts import Index, facts
from errordex.analysis.write import Analysis, write
from errordex.model import ClassDef, ErrorEntry, Package, Repo


def analyse(
    entries: list[ErrorEntry],
    evidence: Mapping[str, FileEvidence] | Iterable[FileEvidence],
    packages: Iterable[Package],
    classes: Iterable[ClassDef],
    repo: Repo | str,
) -> dict[str, Analysis]:
    """An Analysis per entry with at least one site outside test code."""
    ix = index_of(entries, evidence, packages, classes)
    return {e.id: a for e, a in analyse_some(entries, ix, repo)}


def index_of(
    entries: list[ErrorEntry],
    evidence: Mapping[str, FileEvidence] | Iterable[FileEvidence],
    packages: Iterable[Package],
    classes: Iterable[ClassDef],
) -> Index:
    """The lookups ``analyse_some`` reads, built once per snapshot."""
    files = evidence.values() if isinstance(evidence, Mapping) else evidence
    return Index(files, packages, classes, entries)


def analyse_some(
    entries: Iterable[ErrorEntry], ix: Index, repo: Repo | str
) -> list[tuple[ErrorEntry, Analysis]]:
    """``analyse`` for some of a snapshot's entries, over its whole Index (so
    the entries can be split among processes that share one Index)."""
    slug = repo if isinstance(repo, str) else repo.slug
    return [(e, write(e, facts(e, ix, repo), slug)) for e in entries if e.catalog_sites]


_SPACE = re.compile(r"\s")


def referenced_paths(data: Any) -> set[str]:
    """Every ``path`` an analysis (JSON) points at, so the store keeps those files."""
    out: set[str] = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            p = x.get("path")
            if isinstance(p, str):
                out.add(p)
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
        elif isinstance(x, str) and ":" in x:
            head, _, tail = x.rpartition(":")
            if ((tail.isdigit() and "/" in head) or head.endswith((".rs", ".py", ".toml"))) and (
                _SPACE.search(x) is None  # prose such as "(tests/a.rs:12) for ..." is not
            ):
                out.add(head)
    return out
