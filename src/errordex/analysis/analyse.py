"""``analyse``: facts and page sections for every entry of a snapshot (pure)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from errordex.analysis.evidence import FileEvidence
from errordex.analysis.facts import Fact, facts
from errordex.analysis.index import Index
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


def referenced_paths(facts: Iterable[dict[str, list[Fact]]]) -> set[str]:
    """Every file the facts of some analyses point at (each ``path``, nested
    ones too), so the store keeps those files. Their sections cite nothing
    else but the entry's sites, and a file with sites is stored anyway.

        >>> sorted(referenced_paths([{"features": [{"path": "src/a.rs", "line": 3,
        ...     "manifest": {"path": "Cargo.toml", "line": 7}}]}]))
        ['Cargo.toml', 'src/a.rs']
    """
    out: set[str] = set()

    def walk(values: Iterable[Any]) -> None:
        # Facts are plain JSON values: exact type checks are enough, and quick.
        for v in values:
            if type(v) is dict:
                path = v.get("path")
                if type(path) is str:
                    out.add(path)
                walk(v.values())
            elif type(v) is list:
                walk(v)

    walk(facts)
    return out
