"""Writing one snapshot into the PostgreSQL store, spread over the index run.

As in SQLite (``store/writer.py``): what the run hands over before
(file texts, analyses, entries' rows, identifiers) waits in the writer
connection's temporary tables, filled with COPY; ``finish`` writes the
snapshot, brings the matcher's postings in line and makes the snapshot
current in one transaction, holding the store's lock (``migrations.LOCK``)
so that writers from several processes or machines take turns. Until it
commits, readers see the previous snapshot; if the connection is lost
(the server restarts, the process is killed), the server rolls it back and
the previous snapshot stays current.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from functools import wraps
from typing import Any, ParamSpec, TypeVar

import psycopg

from errordex.store import postings
from errordex.store.postgres.connect import ConnSql, connect, lost
from errordex.store.postgres.migrations import LOCK
from errordex.store.rows import EntryRows
from errordex.store.writer import (
    PENDING_ROWS,
    SnapshotData,
    _failpoint,
    analysis_blob,
    compress,
)

__all__ = ["PgSnapshotWriter"]

P = ParamSpec("P")
R = TypeVar("R")

#: the temp tables of entries' rows (``EntryRows``), in ``EntryRows`` order:
#: SQLite's, but for its FTS table (PostgreSQL searches with the postings)
_PENDING_ROWS = {t: cols for t, cols in PENDING_ROWS.items() if t != "pending_fts"}
_INT_COLUMNS = {"dynamic", "n_sites", "n_test", "seq", "line"}


def _writing(method: Callable[P, R]) -> Callable[P, R]:
    """A lost connection or a full server, as a ``StoreError`` that says the
    previous snapshot is intact."""

    @wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except (psycopg.OperationalError, psycopg.errors.DiskFull) as exc:
            writer = args[0]
            assert isinstance(writer, PgSnapshotWriter)
            raise lost(writer.where, exc, "writing") from None

    return wrapper


class PgSnapshotWriter:
    """One snapshot's write (``errordex.store.base.SnapshotWriting``) on a
    connection of its own, held for the index run."""

    def __init__(self, url: str, where: str, committed: Callable[[], None] = lambda: None) -> None:
        self.where = where
        self._committed = committed
        self.conn = connect(url)
        self.sql = ConnSql(self.conn, where)
        #: paths whose text is written
        self.paths: set[str] = set()
        self._idents_kept = False
        self._rows_kept = False
        try:
            self._create_pending()
        except BaseException:
            self.conn.close()
            raise

    @_writing
    def _create_pending(self) -> None:
        ex = self.conn.execute
        ex("CREATE TEMP TABLE pending_files (path TEXT PRIMARY KEY, text BYTEA)")
        ex("CREATE TEMP TABLE pending_analyses (n BIGSERIAL, entry_id TEXT, data BYTEA)")
        ex("CREATE TEMP TABLE pending_idents (name TEXT)")
        for table, columns in _PENDING_ROWS.items():
            cols = ", ".join(f"{c} {'INTEGER' if c in _INT_COLUMNS else 'TEXT'}" for c in columns)
            ex(f"CREATE TEMP TABLE {table} (n BIGSERIAL, {cols})")

    def __enter__(self) -> PgSnapshotWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        # the temp tables go with the connection; an open transaction is rolled back
        try:
            self.conn.close()
        except psycopg.Error:
            if kind is None:
                raise

    def _copy(self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        self.sql.copy(table, columns, rows)

    @_writing
    def add_compressed(self, files: Iterable[tuple[str, bytes]]) -> None:
        rows = []
        for path, blob in files:
            if path not in self.paths:
                self.paths.add(path)
                rows.append((path, blob))
        self._copy("pending_files", ("path", "text"), rows)
        _failpoint("files")

    @_writing
    def add_analyses(self, analyses: Iterable[tuple[str, bytes]]) -> None:
        self._copy("pending_analyses", ("entry_id", "data"), analyses)
        _failpoint("analyses")

    @_writing
    def add_entry_rows(self, rows: EntryRows) -> None:
        self._rows_kept = True
        values: tuple[Sequence[Sequence[Any]], ...] = (rows.entries, rows.sites, rows.docs)
        for (table, columns), some in zip(_PENDING_ROWS.items(), values, strict=True):
            self._copy(table, columns, some)

    @_writing
    def add_idents(self, idents: Iterable[str]) -> None:
        self._idents_kept = True
        self._copy("pending_idents", ("name",), ((i,) for i in idents))

    @_writing
    def finish(self, data: SnapshotData) -> int:
        """Write the snapshot with the kept files, make it current, and commit."""
        snap, sql = data.snapshot, self.sql
        with self.conn.transaction():
            sql.execute("SELECT pg_advisory_xact_lock(?)", (LOCK,))
            sql.execute(
                "INSERT INTO repos (slug, url, default_branch) VALUES (?, ?, ?)"
                " ON CONFLICT (slug) DO UPDATE SET url = coalesce(excluded.url, repos.url),"
                " default_branch = coalesce(excluded.default_branch, repos.default_branch)",
                (snap.repo.slug, snap.repo.url, snap.repo.default_branch),
            )
            row = sql.execute("SELECT id FROM repos WHERE slug = ?", (snap.repo.slug,)).fetchone()
            repo_id = int(row[0])
            old = sql.execute(
                'SELECT id FROM snapshots WHERE repo_id = ? AND "commit" = ?',
                (repo_id, snap.commit),
            ).fetchone()
            if old:
                _delete_snapshot(sql, old[0])
            sid = sql.execute(
                'INSERT INTO snapshots (repo_id, "commit", commit_date, indexed_at, tool_version,'
                " version_label, forge_ref, stats, commit_kind)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
            ).fetchone()[0]
            if not self._rows_kept:
                self.add_entry_rows(EntryRows.of(data.entries))
            self._write(sid, repo_id, data)
            docs = sql.execute("SELECT entry_id, keys, types FROM pending_docs ORDER BY n")
            postings.sync(sql, {sid: docs})
            sql.execute("UPDATE store_version SET version = version + 1")
        self._committed()
        return int(sid)

    def _write(self, sid: int, repo_id: int, data: SnapshotData) -> None:
        sql, commit = self.sql, data.snapshot.commit
        sql.execute(
            "INSERT INTO entries (snapshot_id, id, message, key, template, kinds,"
            " exception_types, dynamic, n_sites, n_test_sites)"
            " SELECT ?, id, message, key, template, kinds, types, dynamic, n_sites, n_test"
            " FROM pending_entries ORDER BY n",
            (sid,),
        )
        sql.execute(
            "INSERT INTO sites SELECT ?, entry_id, seq, path, line, data FROM pending_sites"
            " ORDER BY n",
            (sid,),
        )
        sql.execute(
            "INSERT INTO entry_history SELECT ?, id, ?, ? FROM pending_entries ORDER BY n"
            " ON CONFLICT (repo_id, entry_id) DO UPDATE SET last_seen = excluded.last_seen",
            (repo_id, commit, commit),
        )
        _failpoint("save")
        self._copy(
            "packages",
            ("snapshot_id", "name", "data"),
            ((sid, p.name, json.dumps(p.to_json())) for p in data.packages),
        )
        self._copy(
            "classes",
            ("snapshot_id", "name", "data"),
            ((sid, c.name, json.dumps(c.to_json())) for c in data.classes),
        )
        self._copy(
            "skips",
            ("snapshot_id", "path", "reason"),
            ((sid, s.path, s.reason) for s in data.skips),
        )
        sql.execute("INSERT INTO files SELECT ?, path, text FROM pending_files", (sid,))
        self._copy(
            "files",
            ("snapshot_id", "path", "text"),
            ((sid, p, compress(t)) for p, t in data.files.items() if p not in self.paths),
        )
        sql.execute(
            "INSERT INTO analyses SELECT ?, entry_id, data FROM pending_analyses ORDER BY n",
            (sid,),
        )
        self._copy(
            "analyses",
            ("snapshot_id", "entry_id", "data"),
            ((sid, k, analysis_blob(v)) for k, v in data.analyses.items()),
        )
        self._copy("pending_idents", ("name",), ((i,) for i in data.idents))
        sql.execute(
            "INSERT INTO snapshot_ident_names SELECT DISTINCT ?::integer, name FROM pending_idents",
            (sid,),
        )
        sql.execute("UPDATE repos SET current_snapshot = ? WHERE id = ?", (sid, repo_id))


def _delete_snapshot(sql: ConnSql, sid: int) -> None:
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
        sql.execute(f"DELETE FROM {table} WHERE snapshot_id = ?", (sid,))
    sql.execute("UPDATE repos SET current_snapshot = NULL WHERE current_snapshot = ?", (sid,))
    sql.execute("DELETE FROM snapshots WHERE id = ?", (sid,))
