"""``analyse``: facts and page sections for every entry of a snapshot (pure)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping

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


def facts_json(facts: dict[str, list[Fact]]) -> str:
    """The facts of an analysis as JSON text (as the store keeps them, and
    as ``referenced_paths`` reads them)."""
    return json.dumps(facts, ensure_ascii=False)


#: a "path" key with a string value: in JSON text a quote inside a string is
#: escaped, so this is never part of a string (the runs between escapes are
#: read whole: a third of the time of one character at a time)
_PATH = re.compile(r'"path": ("[^"\\]*(?:\\.[^"\\]*)*")')


def referenced_paths(facts: Iterable[str]) -> set[str]:
    """Every file the facts of some analyses point at (each ``path``, nested
    ones too), read from their ``facts_json``, so the store keeps those files.
    Their sections cite nothing else but the entry's sites, and a file with
    sites is stored anyway.

        >>> sorted(referenced_paths([facts_json({"features": [{"path": "src/a.rs", "line": 3,
        ...     "manifest": {"path": "Cargo.toml", "line": 7}}]})]))
        ['Cargo.toml', 'src/a.rs']
    """
    return {json.loads(m) if "\\" in m else m[1:-1] for text in facts for m in _PATH.findall(text)}
