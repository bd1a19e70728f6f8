"""The store seam: what the CLI, the web app, the matcher and the pipeline ask
of a store, whichever database holds it.

    store = open_store("postgresql://…" or a path, write=True)
    if not store.has_snapshot("pallets/click", commit):
        pipeline.index("pkg:click", store)

``Store`` is the protocol; ``SqliteStore`` (the embedded default) and
``PostgresStore`` (``postgresql://``, shared by several processes and
machines) implement it. A snapshot is written by a ``SnapshotWriting``
(``store.writer()``) in one transaction: until it commits, readers see the
previous snapshot, and a crash leaves that one current.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from errordex.model import ClassDef, ErrorEntry, Package, Repo, Skip, Snapshot

if TYPE_CHECKING:
    from errordex.store.postings import Status
    from errordex.store.rows import EntryRows
    from errordex.store.sql import Sql
    from errordex.store.writer import SnapshotData

__all__ = ["EntryPage", "RepoSummary", "SnapshotWriting", "Store", "StoredSnapshot"]


@dataclass(frozen=True)
class StoredSnapshot:
    """A snapshot as stored, with its row id."""

    id: int
    snapshot: Snapshot
    forge_ref: str | None

    @property
    def repo(self) -> Repo:
        return self.snapshot.repo

    @property
    def commit(self) -> str:
        return self.snapshot.commit


@dataclass(frozen=True)
class EntryPage:
    """What an error's page reads of the store (``Store.entry_page``): the
    entry, the current snapshot that holds it, its stored {"facts",
    "analysis"} (None: none was stored), and the checked prose written for it
    (``errordex.llm.prose``), the latest first; None when the store left that
    to be read later (SQLite, where a read is a call, not a round trip)."""

    entry: ErrorEntry
    snapshot: StoredSnapshot
    analysis: dict[str, Any] | None
    prose: list[dict[str, Any]] | None = None


@dataclass(frozen=True)
class RepoSummary:
    repo: Repo
    snapshot: StoredSnapshot
    entries: int


#: (snapshot id, entry id, repo slug, template JSON, exception types JSON): a matcher's row
MatchRow = tuple[int, str, str, str, str]


class SnapshotWriting(Protocol):
    """One snapshot's write, spread over an index run (``store.writer()``).
    What is handed over before ``finish`` waits in the database's scratch
    space; ``finish`` writes the snapshot and makes it current in one
    transaction. Leaving the ``with`` block without ``finish`` (an error,
    Ctrl-C) leaves the previous snapshot current."""

    def __enter__(self) -> SnapshotWriting: ...
    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None: ...
    def add_compressed(self, files: Iterable[tuple[str, bytes]]) -> None: ...
    def add_analyses(self, analyses: Iterable[tuple[str, bytes]]) -> None: ...
    def add_entry_rows(self, rows: EntryRows) -> None: ...
    def add_idents(self, idents: Iterable[str]) -> None: ...
    def finish(self, data: SnapshotData) -> int: ...


class Store(Protocol):
    """A store of snapshots: what every part of errordex reads and writes."""

    @property
    def conn(self) -> Sql:
        """Statements on the store's own tables outside a snapshot (the
        model's prose, ``errordex.llm.prose``), in the dialect both share."""
        ...

    @property
    def url(self) -> str:
        """How another process opens this store (``open_store(url)``)."""
        ...

    @property
    def where(self) -> str:
        """Where it is, as told to a user (a path; a URL without its password)."""
        ...

    def close(self) -> None: ...

    def for_thread(self) -> Store:
        """A store that reads the same database, for another thread (its
        ``close`` closes only what it opened)."""
        ...

    def check(self) -> None:
        """Raise ``StoreDamaged`` if the database finds damaged pages."""
        ...

    def data_version(self) -> int:
        """Changes whenever a snapshot is written (cache validation)."""
        ...

    # -- writing --
    def writer(self) -> SnapshotWriting: ...
    def save(self, data: SnapshotData) -> int: ...
    def has_snapshot(self, slug: str, commit: str) -> bool:
        """Whether the repository ``slug`` at ``commit`` (a commit or a content
        hash) is stored and current: indexing it again would change nothing."""
        ...

    # -- snapshots and entries --
    def repos(self) -> list[RepoSummary]: ...
    def current(self, slug: str) -> StoredSnapshot: ...
    def snapshot(self, sid: int) -> StoredSnapshot: ...
    def current_snapshot_ids(self) -> list[int]: ...
    def entries(
        self,
        repo: str | None = None,
        kind: str | None = None,
        text: str | None = None,
        include_test_only: bool = False,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[ErrorEntry]: ...
    def count_entries(
        self,
        repo: str | None = None,
        kind: str | None = None,
        text: str | None = None,
        include_test_only: bool = False,
    ) -> int: ...
    def entry(self, entry_id: str, repo: str | None = None) -> ErrorEntry: ...
    def entries_by_id(self, snapshot_id: int, ids: list[str]) -> dict[str, ErrorEntry]: ...
    def entry_snapshot(self, entry_id: str, repo: str | None = None) -> StoredSnapshot: ...
    def entry_page(self, entry_id: str, repo: str | None = None) -> EntryPage:
        """``entry``, ``entry_snapshot`` and ``analysis`` of one entry, read
        together (PostgreSQL: in one round trip). Raises ``NotFound``."""
        ...

    def entry_ids_starting(
        self, prefix: str, repo: str | None = None, limit: int = 64
    ) -> list[tuple[str, str]]: ...
    def entry_ids(self, snapshot_id: int) -> list[str]:
        """Ids of a snapshot's entries with a non-test site, in id order."""
        ...

    def file_text(self, snapshot_id: int, path: str) -> str | None: ...
    def analysis(self, snapshot_id: int, entry_id: str) -> dict[str, Any] | None: ...
    def analyses(self, snapshot_id: int) -> Iterator[tuple[str, dict[str, Any]]]: ...
    def idents(self, snapshot_id: int) -> set[str]: ...
    def idents_known(self, slug: str, names: Iterable[str]) -> set[str]: ...
    def packages(self, snapshot_id: int) -> list[Package]: ...
    def classes(self, snapshot_id: int) -> list[ClassDef]: ...
    def skips(self, snapshot_id: int) -> list[Skip]: ...

    # -- the matcher (errordex.store.candidates.StoreIndex) --
    def fts_term_counts(self, terms: list[str]) -> dict[str, int]: ...
    def match_candidates(
        self, query: str, limit: int = 50, dynamic_only: bool = False
    ) -> list[MatchRow]: ...
    def match_status(self) -> Status: ...
    def match_term_counts(self, keys: Iterable[str]) -> dict[str, int]: ...
    def match_postings(
        self, key: str, cap: int, dead: Sequence[tuple[int, int]] = ()
    ) -> Sequence[int]: ...
    def match_postings_many(
        self, wants: Mapping[str, int], dead: Sequence[tuple[int, int]] = ()
    ) -> dict[str, Sequence[int]]: ...
    def match_docs(self, docs: Iterable[int]) -> dict[int, tuple[list[str], list[str]]]: ...
    def match_wordless_keys(self) -> list[str]: ...
    def match_rows(self, docs: list[int]) -> dict[int, MatchRow]: ...
    def site_paths(self, snapshot_id: int, entry_id: str) -> list[str]: ...
    def site_locations(
        self, snapshot_id: int, entry_id: str
    ) -> list[tuple[str, int, str | None]]: ...
    def site_locations_of(
        self, keys: list[tuple[int, str]]
    ) -> dict[tuple[int, str], list[tuple[str, int, str | None]]]: ...
    def sites_at(self, paths: list[str], line: int, limit: int = 20) -> list[MatchRow]: ...
    def known_files(self, paths: list[str]) -> list[tuple[str, str]]: ...
    def repos_with_dir(self, directory: str, limit: int = 3) -> list[str]: ...

    # -- the catalog (web) --
    def catalog_order(self, snapshot_id: int) -> list[str]: ...
    def catalog_ids(
        self,
        snapshot_id: int,
        kind: str | None = None,
        text: str | None = None,
        path: str | None = None,
    ) -> set[str]: ...
    def kind_counts(self, snapshot_id: int) -> dict[str, int]: ...
    def package_counts(self, snapshot_id: int) -> dict[str, int]: ...
