"""Writing one snapshot into the SQLite store, spread over the index run.

A snapshot is written in one transaction: until it commits, readers (and a
later run, after Ctrl-C or kill -9) see the previous snapshot unchanged.
What the run hands over before (file texts, analyses, entries' rows,
identifiers) waits in the connection's temp tables, so the index never holds
it all. Re-indexing the same commit replaces that snapshot inside the same
transaction, so it is idempotent.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from errordex.model import ClassDef, ErrorEntry, Package, Repo, Skip, Snapshot
from errordex.store import postings
from errordex.store.opening import reports_damage
from errordex.store.rows import EntryRows
from errordex.store.rows import text as _text

#: the writer's temp tables of entries' rows (``EntryRows``) and their columns
PENDING_ROWS = {
    "pending_entries": (
        "id",
        "message",
        "key",
        "template",
        "kinds",
        "types",
        "dynamic",
        "n_sites",
        "n_test",
    ),
    "pending_sites": ("entry_id", "seq", "path", "line", "data"),
    "pending_fts": ("entry_id", "literal", "types"),
    "pending_docs": ("entry_id", "keys", "types"),
}


def _failpoint(name: str) -> None:
    """Fault injection for tests: ERRORDEX_FAILPOINT=save kills the process
    in the middle of the write transaction, as kill -9 would ("files" and
    "analyses": once the first file texts or analyses are kept);
    ``files:int`` interrupts it there instead, as a SIGINT to it alone would."""
    point, _, how = os.environ.get("ERRORDEX_FAILPOINT", "").partition(":")
    if point == name:
        os.kill(os.getpid(), signal.SIGINT if how == "int" else signal.SIGKILL)


@dataclass(frozen=True)
class SnapshotData:
    """Everything one index run produces, written together."""

    snapshot: Snapshot
    forge_ref: str | None
    entries: list[ErrorEntry]
    packages: list[Package]
    classes: list[ClassDef]
    skips: list[Skip]
    files: dict[str, str]
    #: entry id -> {"facts": ..., "analysis": ...} (errordex.analysis), after
    #: those handed to ``SnapshotWriter.add_analyses``
    analyses: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: every identifier in the snapshot's parsed code, for `errordex verify`,
    #: with those handed to ``SnapshotWriter.add_idents``
    idents: Iterable[str] = frozenset()


def analysis_json(analysis: dict[str, Any]) -> str:
    """An analysis ({"facts", "analysis"}) as JSON text."""
    return _text(json.dumps(analysis, ensure_ascii=False))


def analysis_blob(analysis: dict[str, Any], facts_json: str | None = None) -> bytes:
    """An analysis as the store keeps it: its JSON, zlib-compressed (a fifth of
    the size, so the snapshot's write copies and commits a fifth as much).
    Snapshots written before keep JSON text; ``SqliteStore.analysis`` reads both.
    ``facts_json``: ``json.dumps(analysis["facts"], ensure_ascii=False)``,
    when the caller has it already."""
    if facts_json is None:
        text = analysis_json(analysis)
    else:  # the text json.dumps would give
        rest = json.dumps(analysis["analysis"], ensure_ascii=False)
        text = f'{{"facts": {facts_json}, "analysis": {rest}}}'
    try:
        # ``_text`` changes nothing in text UTF-8 can encode: the encoding
        # says at once, where ``_text`` reads every non-ASCII page again
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = _text(text).encode("utf-8")
    return zlib.compress(data, 1)


def compress(text: str) -> bytes:
    """A file's text as the ``files`` table keeps it."""
    return zlib.compress(text.encode("utf-8", "surrogatepass"), 1)


class SnapshotWriter:
    """One snapshot's write, spread over the index run.

    File texts and identifiers go in as extraction finds them, and analyses
    and entries' rows as they are written (to temporary tables, on disk), so
    the index never holds them all; ``finish`` writes the snapshot in one
    transaction. Until it commits, readers see the previous snapshot,
    and an exception, Ctrl-C or kill -9 leaves it as it was. A snapshot of the
    same commit is replaced inside that transaction.

        with store.writer() as w:
            w.add_compressed([("src/a.py", compress(text))])
            sid = w.finish(data)
    """

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self.where = str(path)  # for StoreDamaged (``opening.reports_damage``)
        #: paths whose text is written
        self.paths: set[str] = set()
        #: whether any identifiers were handed over before ``finish``
        self._idents_kept = False
        self.conn.execute(
            "CREATE TEMP TABLE IF NOT EXISTS pending_files (path TEXT PRIMARY KEY, text BLOB)"
        )
        # rows in the order they are added (rowid), which is the order they are stored in
        self.conn.execute(
            "CREATE TEMP TABLE IF NOT EXISTS pending_analyses (entry_id TEXT, data TEXT)"
        )
        self.conn.execute(
            "CREATE TEMP TABLE IF NOT EXISTS pending_idents (name TEXT PRIMARY KEY) WITHOUT ROWID"
        )
        # the entries' rows (store/rows.py), in entry order
        for table, columns in PENDING_ROWS.items():
            self.conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS {table} ({', '.join(columns)})")
        #: whether entries' rows were handed over before ``finish``
        self._rows_kept = False
        self._clear()

    def __enter__(self) -> SnapshotWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        try:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            self._clear()
        except sqlite3.Error:
            if kind is None:
                raise
            # The run failed already (on a full disk, the clean-up can fail
            # the same way): its own error is the one to report. The next
            # writer clears the temp tables as it starts.

    def _clear(self) -> None:
        for table in ("pending_files", "pending_analyses", "pending_idents", *PENDING_ROWS):
            self.conn.execute(f"DELETE FROM temp.{table}")

    def add_compressed(self, files: Iterable[tuple[str, bytes]]) -> None:
        """Keep file texts, each ``compress``-ed (by a worker process, say), for
        the snapshot; a path already kept is skipped."""
        rows = []
        for path, blob in files:
            if path not in self.paths:
                self.paths.add(path)
                rows.append((path, blob))
        self.conn.executemany("INSERT INTO temp.pending_files VALUES (?, ?)", rows)
        _failpoint("files")

    def add_analyses(self, analyses: Iterable[tuple[str, bytes]]) -> None:
        """Keep (entry id, ``analysis_blob``) rows for the snapshot, in order."""
        self.conn.executemany("INSERT INTO temp.pending_analyses VALUES (?, ?)", analyses)
        _failpoint("analyses")

    def add_entry_rows(self, rows: EntryRows) -> None:
        """Keep some entries' rows for the snapshot (``EntryRows.of``), in entry order."""
        self._rows_kept = True
        values: tuple[Sequence[tuple[Any, ...]], ...] = (
            rows.entries,
            rows.sites,
            rows.fts,
            rows.docs,
        )
        for (table, columns), some in zip(PENDING_ROWS.items(), values, strict=True):
            marks = ", ".join("?" * len(columns))
            self.conn.executemany(f"INSERT INTO temp.{table} VALUES ({marks})", some)

    def add_idents(self, idents: Iterable[str]) -> None:
        """Keep identifiers for the snapshot (one that is kept already is skipped)."""
        self._idents_kept = True
        self.conn.executemany(
            "INSERT OR IGNORE INTO temp.pending_idents VALUES (?)", ((i,) for i in idents)
        )

    @reports_damage
    def finish(self, data: SnapshotData) -> int:
        """Write the snapshot with the kept files, make it current, and commit."""
        snap, conn = data.snapshot, self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            repo_id = _upsert_repo(conn, snap.repo)
            old = conn.execute(
                'SELECT id FROM snapshots WHERE repo_id = ? AND "commit" = ?',
                (repo_id, snap.commit),
            ).fetchone()
            if old:
                _delete_snapshot(conn, old[0])
            cur = conn.execute(
                'INSERT INTO snapshots (repo_id, "commit", commit_date, indexed_at, tool_version,'
                " version_label, forge_ref, stats, commit_kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    repo_id,
                    snap.commit,
                    snap.commit_date,
                    snap.indexed_at,
                    snap.tool_version,
                    snap.version_label,
                    data.forge_ref,
                    json.dumps(snap.stats.to_json()),
                    snap.commit_kind,
                ),
            )
            sid = cur.lastrowid
            assert sid is not None
            if not self._rows_kept:
                self.add_entry_rows(EntryRows.of(data.entries))
            self._write(sid, repo_id, data)
            docs = conn.execute("SELECT * FROM temp.pending_docs ORDER BY rowid")
            postings.sync(conn, {sid: docs})  # the matcher's index (store/postings.py)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return sid

    def _write(self, sid: int, repo_id: int, data: SnapshotData) -> None:
        snap, conn = data.snapshot, self.conn
        _insert_entries(conn, sid, repo_id, snap.commit)
        _failpoint("save")
        conn.executemany(
            "INSERT INTO packages VALUES (?, ?, ?)",
            ((sid, p.name, json.dumps(p.to_json())) for p in data.packages),
        )
        conn.executemany(
            "INSERT INTO classes VALUES (?, ?, ?)",
            ((sid, c.name, json.dumps(c.to_json())) for c in data.classes),
        )
        conn.executemany(
            "INSERT INTO skips VALUES (?, ?, ?)",
            ((sid, s.path, s.reason) for s in data.skips),
        )
        conn.execute("INSERT INTO files SELECT ?, path, text FROM temp.pending_files", (sid,))
        conn.executemany(
            "INSERT INTO files VALUES (?, ?, ?)",
            ((sid, p, compress(t)) for p, t in data.files.items() if p not in self.paths),
        )
        conn.execute(
            "INSERT INTO analyses SELECT ?, entry_id, data FROM temp.pending_analyses"
            " ORDER BY rowid",
            (sid,),
        )
        conn.executemany(
            "INSERT INTO analyses VALUES (?, ?, ?)",
            ((sid, k, analysis_blob(v)) for k, v in data.analyses.items()),
        )
        if self._idents_kept:
            self.add_idents(data.idents)
            conn.execute(
                "INSERT INTO snapshot_ident_names SELECT ?, name FROM temp.pending_idents",
                (sid,),
            )
        else:  # all of them are here: no need to go through the temp table
            conn.executemany(
                "INSERT INTO snapshot_ident_names VALUES (?, ?)",
                ((sid, name) for name in sorted(set(data.idents))),
            )
        conn.execute("UPDATE repos SET current_snapshot = ? WHERE id = ?", (sid, repo_id))


def _upsert_repo(conn: sqlite3.Connection, repo: Repo) -> int:
    conn.execute(
        "INSERT INTO repos (slug, url, default_branch) VALUES (?, ?, ?)"
        " ON CONFLICT(slug) DO UPDATE SET url = coalesce(excluded.url, url),"
        " default_branch = coalesce(excluded.default_branch, default_branch)",
        (repo.slug, repo.url, repo.default_branch),
    )
    row = conn.execute("SELECT id FROM repos WHERE slug = ?", (repo.slug,)).fetchone()
    return int(row[0])


def _insert_entries(conn: sqlite3.Connection, sid: int, repo_id: int, commit: str) -> None:
    """The entries' rows kept by the writer, in entry order (so rowids are as before)."""
    entries = ", ".join(PENDING_ROWS["pending_entries"])
    conn.execute(
        f"INSERT INTO entries SELECT ?, {entries} FROM temp.pending_entries ORDER BY rowid",
        (sid,),
    )
    conn.execute(
        "INSERT INTO entries_fts (rowid, literal, exception_types)"
        " SELECT e.rowid, p.literal, p.types FROM temp.pending_fts p"
        " JOIN entries e ON e.snapshot_id = ? AND e.id = p.entry_id ORDER BY p.rowid",
        (sid,),
    )
    conn.execute(
        "INSERT INTO sites SELECT ?, entry_id, seq, path, line, data FROM temp.pending_sites"
        " ORDER BY rowid",
        (sid,),
    )
    conn.execute(
        "INSERT INTO entry_history SELECT ?, id, ?, ? FROM temp.pending_entries WHERE true"
        " ORDER BY rowid ON CONFLICT(repo_id, entry_id) DO UPDATE SET last_seen = excluded.last_seen",
        (repo_id, commit, commit),
    )


def _delete_snapshot(conn: sqlite3.Connection, sid: int) -> None:
    conn.execute(
        "DELETE FROM entries_fts WHERE rowid IN (SELECT rowid FROM entries WHERE snapshot_id = ?)",
        (sid,),
    )
    for table in (
        "entries",
        "sites",
        "files",
        "packages",
        "classes",
        "skips",
        "analyses",
        "snapshot_idents",
        "snapshot_ident_names",
    ):
        conn.execute(f"DELETE FROM {table} WHERE snapshot_id = ?", (sid,))
    conn.execute("UPDATE repos SET current_snapshot = NULL WHERE current_snapshot = ?", (sid,))
    conn.execute("DELETE FROM snapshots WHERE id = ?", (sid,))
