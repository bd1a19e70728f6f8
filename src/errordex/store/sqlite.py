"""The embedded SQLite store: opening it (``store/opening.py``), writing a
snapshot (``store/writer.py``), FTS5, and the reads it shares with
PostgreSQL (``store/reads.py``).

A snapshot is written by ``store/writer.py`` in one transaction: until it
commits, readers (and a later run, after Ctrl-C or kill -9) see the previous
snapshot unchanged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

from errordex.store import opening, postings
from errordex.store.base import RepoSummary, StoredSnapshot
from errordex.store.opening import reports_damage
from errordex.store.reads import SqlReads
from errordex.store.writer import SnapshotData, SnapshotWriter

__all__ = ["RepoSummary", "SqliteStore", "StoredSnapshot"]


class SqliteStore(SqlReads):
    """The store in one SQLite file. ``SqliteStore(path)`` opens it to write
    (creating it when there is none), ``SqliteStore.reader(path)`` to read
    only; either refuses a file that is not an errordex store, and one whose
    pages are damaged (see ``store/opening.py``). A read that meets damaged
    pages raises ``StoreDamaged``."""

    conn: sqlite3.Connection

    def __init__(self, path: Path) -> None:
        self.path = path
        self.conn = opening.connect_writer(path)

    def close(self) -> None:
        self.conn.close()

    @property
    def url(self) -> str:
        return str(self.path.resolve())

    @property
    def where(self) -> str:
        return str(self.path)

    def for_thread(self) -> SqliteStore:
        """A read-only connection of its own to the same file (SQLite's
        connections are not shared between threads)."""
        return SqliteStore.reader(self.path)

    # -- writing -----------------------------------------------------------

    def save(self, data: SnapshotData) -> int:
        """Write one snapshot atomically and make it the repo's current one."""
        with self.writer() as w:
            return w.finish(data)

    def writer(self) -> SnapshotWriter:
        """Start writing one snapshot (see ``SnapshotWriter``)."""
        return SnapshotWriter(self.conn, self.path)

    @reports_damage
    def fts_candidates(self, query: str, limit: int = 50) -> Iterator[tuple[int, str, str]]:
        """(snapshot_id, entry id, template JSON) for an FTS5 query over the
        constant text of current entries, best first."""
        yield from self.conn.execute(
            "SELECT e.snapshot_id, e.id, e.template FROM entries_fts f"
            " JOIN entries e ON e.rowid = f.rowid JOIN snapshots s ON s.id = e.snapshot_id"
            " JOIN repos r ON r.current_snapshot = s.id"
            " WHERE entries_fts MATCH ? ORDER BY bm25(entries_fts) LIMIT ?",
            (query, limit),
        )

    # -- reads for the matcher (errordex.store.candidates.StoreIndex) -------------

    @reports_damage
    def fts_term_counts(self, terms: list[str]) -> dict[str, int]:
        """How many rows of ``entries_fts`` hold each term (terms as FTS5 tokenizes them)."""
        if not terms:
            return {}
        self.conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.entries_fts_vocab"
            " USING fts5vocab(main, entries_fts, row)"
        )
        out: dict[str, int] = {}
        for i in range(0, len(terms), 200):
            chunk = terms[i : i + 200]
            marks = ", ".join("?" * len(chunk))
            for term, doc in self.conn.execute(
                f"SELECT term, doc FROM temp.entries_fts_vocab WHERE term IN ({marks})", chunk
            ):
                out[term] = int(doc)
        return out

    @reports_damage
    def match_candidates(
        self, query: str, limit: int = 50, dynamic_only: bool = False
    ) -> list[tuple[int, str, str, str, str]]:
        """(snapshot id, entry id, repo slug, template JSON, exception types JSON)
        of current entries for an FTS5 query, best first. ``dynamic_only``
        keeps the entries whose message has no constant text."""
        # FTS5 ranks first, alone; the joins then read only those rows (by primary key).
        # dynamic_only reads (unranked, so streaming) the first 2000 rows that match.
        inner = 2000 if dynamic_only else limit * 2
        extra = " AND (e.dynamic = 1 OR e.key = '')" if dynamic_only else ""
        score, order = ("0", "") if dynamic_only else ("rank", " ORDER BY rank")
        rows = self.conn.execute(
            "SELECT e.snapshot_id, e.id, r.slug, e.template, e.exception_types, e.kinds FROM"
            f" (SELECT rowid AS rid, {score} AS score FROM entries_fts"
            f"  WHERE entries_fts MATCH ?{order} LIMIT ?) f"
            " JOIN entries e ON e.rowid = f.rid JOIN snapshots s ON s.id = e.snapshot_id"
            " JOIN repos r ON r.id = s.repo_id AND r.current_snapshot = s.id"
            f" WHERE 1{extra} ORDER BY f.score LIMIT ?",
            (query, inner, limit),
        ).fetchall()
        return [(int(r[0]), r[1], r[2], postings.matched_json(r[3], r[5]), r[4]) for r in rows]

    @reports_damage
    def data_version(self) -> int:
        """Changes whenever another connection commits (cache validation)."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    @classmethod
    def reader(cls, path: Path) -> SqliteStore:
        """A read-only connection to the existing store at ``path`` (one per
        thread of a server: it may be closed from another thread once the
        server has stopped). Raises ``StoreMissing`` when there is none."""
        store = cls.__new__(cls)
        store.path = path
        store.conn = opening.connect_reader(path)
        return store

    def check(self) -> None:
        """Raise ``StoreDamaged`` if SQLite finds damaged pages (``PRAGMA
        quick_check``, which reads the whole file)."""
        opening.check(self.conn, self.path)
