"""``PostgresStore``: opening a PostgreSQL store, and what it reads
differently from SQLite."""

from __future__ import annotations

import json
import math
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from errordex.errors import NotFound, NotOurDatabase, StoreError, StoreMissing
from errordex.model import ErrorEntry, ThrowSite
from errordex.store import postings
from errordex.store.base import EntryPage, MatchRow
from errordex.store.postgres import migrations
from errordex.store.postgres.connect import (
    CONNECT_TIMEOUT,
    ConnSql,
    PooledSql,
    connect,
    lost,
    renew,
    shown,
)
from errordex.store.postgres.writer import PgSnapshotWriter
from errordex.store.reads import SqlReads, analysis_value
from errordex.store.writer import SnapshotData

__all__ = ["POOL_SIZE", "PostgresStore"]

#: connections one process keeps to the server at most: a page reads on one
#: at a time, and a process renders on one core, so a few are enough
POOL_SIZE = 4
#: seconds a read waits for a connection of the pool: a server that is gone
#: is a 503 this soon, not after psycopg's 30 s
POOL_TIMEOUT = 5.0
#: seconds the store's version (``data_version``) is trusted before it is read
#: again: the page caches ask it on every request, and a round trip to the
#: server there cost a cached page 4x its throughput (bench/web.py: 1,638
#: against SQLite's 6,748 requests/s). Another process's snapshot shows this late.
VERSION_TTL = 0.5


class _Version:
    """The store's version as last read, shared by a store's thread views.
    Once known, a stale one is read again in a thread of its own while the
    old one is answered (the page cache asks from the server's event loop,
    which must not wait on the database: on a loaded machine that wait was
    the p99 of cached pages)."""

    def __init__(self, read: Callable[[], int]) -> None:
        self._read = read
        self._lock = threading.Lock()
        self._refreshing = False
        self.value: int | None = None
        self.at = -math.inf

    def get(self) -> int:
        now = time.monotonic()
        if self.value is None or (now - self.at > VERSION_TTL and self.at == -math.inf):
            self.value, self.at = self._read(), now
        elif now - self.at > VERSION_TTL:
            with self._lock:
                if self._refreshing:
                    return self.value
                self._refreshing = True
            threading.Thread(target=self._refresh, name="errordex-version", daemon=True).start()
        return self.value

    def _refresh(self) -> None:
        try:
            self.value, self.at = self._read(), time.monotonic()
        except Exception:  # the server is away: the next ask tries again (reads say why)
            pass
        finally:
            self._refreshing = False

    def forget(self) -> None:
        """This process wrote a snapshot: read the version at the next ask."""
        self.at = -math.inf


class PostgresStore(SqlReads):
    """The store in a PostgreSQL database, named by a ``postgresql://`` URL.

    Opening it connects once to check it: a server that cannot be reached,
    or refuses us, is a ``StoreError``; a database that holds other tables
    and no errordex store is refused (``NotOurDatabase``) and left as it is.
    Pending migrations run then (under the store's lock), and the matcher's
    postings are brought in line if an older errordex wrote them.
    """

    conn: PooledSql

    _EACH = "jsonb_array_elements_text({col}::jsonb) AS k(value)"
    _FIELD = "({col}::jsonb ->> '{key}')"
    _FALSE = "'false'"
    _INSTR = "strpos"
    _PREFIX = ("LIKE", "%")
    _JOIN_IN_ORDER = "JOIN"

    def __init__(self, url: str, *, write: bool = True, pool_size: int = POOL_SIZE) -> None:
        self._url = url
        self._where = shown(url)
        self._owner = True
        conn = connect(url)
        try:
            _prepare(conn, self._where, write)
        except psycopg.OperationalError as exc:
            raise lost(self._where, exc, "opening") from None
        except psycopg.Error as exc:
            raise StoreError(f"cannot use the database {self._where}: {exc}") from None
        finally:
            conn.close()
        self.pool: ConnectionPool[Any] = ConnectionPool(
            url,
            min_size=1,
            max_size=max(1, pool_size),
            # the process is named in pg_stat_activity: which one holds what
            kwargs={
                "autocommit": True,
                "connect_timeout": CONNECT_TIMEOUT,
                "application_name": f"errordex {os.getpid()}",
            },
            open=True,
            name="errordex",
            timeout=POOL_TIMEOUT,
        )
        self.conn = PooledSql(self.pool, self._where)
        self._version = _Version(
            lambda: int(self.conn.execute("SELECT version FROM store_version").fetchone()[0])
        )

    @property
    def url(self) -> str:
        return self._url

    @property
    def where(self) -> str:
        return self._where

    def close(self) -> None:
        if self._owner:
            self.pool.close()

    def for_thread(self) -> PostgresStore:
        """This store, sharing its pool (psycopg's pool serves every thread);
        its ``close`` leaves the pool open."""
        view = PostgresStore.__new__(PostgresStore)
        view.__dict__.update(self.__dict__)
        view._owner = False
        return view

    @contextmanager
    def locked(self, table: str) -> Iterator[ConnSql]:
        """One transaction on a connection of the pool that holds ``table``'s
        write lock from its start (the queue's records, ``store/tasks.py``:
        two workers never both take a task).

        A connection the server dropped (it restarted) fails at ``BEGIN``,
        before anything is done: the pool lets go of its dead connections and
        the transaction begins on a fresh one. A connection lost later is a
        ``StoreError`` (the server rolled the transaction back)."""
        for attempt in (1, 2):
            with ExitStack() as stack:
                try:
                    conn = stack.enter_context(self.pool.connection())
                    stack.enter_context(conn.transaction())
                    sql = ConnSql(conn, self._where)
                    sql.execute(f"LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE")
                except psycopg.OperationalError as exc:
                    if attempt == 2 or type(exc).__name__ == "PoolTimeout":
                        raise lost(self._where, exc, "recording") from None
                    renew(self.pool)
                    continue
                try:
                    yield sql
                except psycopg.OperationalError as exc:
                    raise lost(self._where, exc, "recording") from None
                return

    def check(self) -> None:
        """PostgreSQL checks its own pages; this only asks that it answers."""
        self.conn.execute("SELECT 1")

    def data_version(self) -> int:
        """Counts the snapshots written (``store_version``), as read at most
        ``VERSION_TTL`` ago (a snapshot this store wrote: at once)."""
        return self._version.get()

    # -- an error's page and a catalog's: each statement is a round trip -----

    #: an entry's sites (``data``, in site order), as a column of its row
    _SITES = (
        ", ARRAY(SELECT st.data FROM sites st WHERE st.snapshot_id = e.snapshot_id"
        " AND st.entry_id = e.id ORDER BY st.seq)"
    )

    def _entry_with_sites(self, row: tuple[Any, ...]) -> ErrorEntry:
        """An entry from an ``_entry_rows`` row with ``_SITES`` after its 8 columns."""
        sites = tuple(ThrowSite.from_json(json.loads(d)) for d in row[8])
        return self._entry_from_row(row, sites)

    def entry_page(self, entry_id: str, repo: str | None = None) -> EntryPage:
        """The entry, its sites, its snapshot, its analysis and its prose in
        one statement: five round trips on the shared path, whose waits and
        pool checkouts made a page cost 2.6x SQLite's CPU (bench/web.py)."""
        where, params = self._entry_where(entry_id, repo)
        more = (
            f"{self._SITES}, {self._SNAP_COLS},"
            " (SELECT a.data FROM analyses a WHERE a.snapshot_id = e.snapshot_id"
            " AND a.entry_id = e.id),"
            " ARRAY(SELECT p.data FROM llm_prose p WHERE p.repo = r.slug AND p.entry_id = e.id"
            " ORDER BY p.written_at DESC, p.model)"
        )
        rows = self._entry_rows(where, params, 1, 0, more)
        if not rows:
            raise NotFound(f"no error with id {entry_id!r}", hint="see `errordex list`")
        row = rows[0]
        snap_end = 9 + len(self._SNAP_COLS.split(","))
        return EntryPage(
            entry=self._entry_with_sites(row),
            snapshot=self._snapshot_from_row(row[9:snap_end]),
            analysis=analysis_value(row[snap_end]) if row[snap_end] is not None else None,
            prose=[json.loads(d) for d in row[snap_end + 1]],
        )

    def entries_by_id(self, snapshot_id: int, ids: list[str]) -> dict[str, ErrorEntry]:
        """The entries of one current snapshot with these ids, their sites
        with them, in one statement (a catalog page, an error's related ones)."""
        if not ids:
            return {}
        rows = self._entry_rows(
            "s.id = ? AND e.id = ANY(?)", [snapshot_id, ids], None, 0, self._SITES
        )
        return {r[1]: self._entry_with_sites(r) for r in rows}

    # -- writing -----------------------------------------------------------

    def writer(self) -> PgSnapshotWriter:
        """Start writing one snapshot, on a connection of its own."""
        return PgSnapshotWriter(self._url, self._where, self._version.forget)

    def save(self, data: SnapshotData) -> int:
        with self.writer() as w:
            return w.finish(data)

    # -- no FTS: the postings are always in line (``_prepare``) --------------

    def fts_term_counts(self, terms: list[str]) -> dict[str, int]:
        return {}

    def match_candidates(
        self, query: str, limit: int = 50, dynamic_only: bool = False
    ) -> list[MatchRow]:
        return []


def _prepare(conn: psycopg.Connection[tuple[Any, ...]], where: str, write: bool) -> None:
    """Refuse a database that is not ours; migrate it; bring the postings in
    line. Only ``index`` (``write``) creates a store in an empty database."""
    have = migrations.tables(conn)
    if have and "_migrations" not in have:
        shown_tables = ", ".join(sorted(have)[:3]) + (", ..." if len(have) > 3 else "")
        raise NotOurDatabase(
            f"the database {where} holds other tables ({shown_tables}), not an errordex"
            " store; errordex leaves it untouched: name another database with --db or ERRORDEX_DB"
        )
    if not write and "_migrations" not in have:
        raise StoreMissing(
            f"there is no errordex store in the database {where}: run `errordex index SOURCE`"
            " to create it, or name the right one with --db or ERRORDEX_DB"
        )
    migrations.apply(conn)
    sql = ConnSql(conn, where)
    if not postings.status(sql).ready:
        with conn.transaction():
            sql.execute("SELECT pg_advisory_xact_lock(?)", (migrations.LOCK,))
            postings.sync(sql)
