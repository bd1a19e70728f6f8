"""Connecting to PostgreSQL: the URL, the errors a user can fix, and the
``Sql`` adapters (``store/sql.py``) the shared store code runs on.

Every failure to reach the server (a bad host, a refused connection, a wrong
password, a database that does not exist) is a ``StoreError`` that says
which database and why, in one line, never psycopg's traceback.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from errordex.errors import DiskFull, StoreError
from errordex.store.sql import Rows

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

__all__ = ["ConnSql", "PooledSql", "connect", "is_postgres_url", "lost", "renew", "shown"]

#: seconds to wait for the server to answer a connection
CONNECT_TIMEOUT = 10
_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(url: str) -> bool:
    return url.startswith(_SCHEMES)


def shown(url: str) -> str:
    """The URL as told to a user: its password left out.

    >>> shown("postgresql://me:secret@db.example.org:5432/errordex")
    'postgresql://me:***@db.example.org:5432/errordex'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreError(
            "a postgresql:// store needs psycopg: pip install 'errordex[postgres]'"
        ) from None
    return psycopg


def _reason(exc: BaseException) -> str:
    """psycopg's message in one line, without libpq's "connection failed: ..." preamble."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    text = " ".join(lines) or type(exc).__name__
    for noise in ("connection failed: ", "FATAL:  ", "FATAL: "):
        text = text.replace(noise, "")
    return text


def connect(url: str) -> psycopg.Connection[tuple[Any, ...]]:
    """A connection in autocommit mode; raises ``StoreError`` when the server
    cannot be reached or refuses us."""
    pg = _psycopg()
    try:
        conn: psycopg.Connection[tuple[Any, ...]] = pg.connect(
            url, autocommit=True, connect_timeout=CONNECT_TIMEOUT
        )
    except pg.Error as exc:
        raise StoreError(f"cannot connect to the database {shown(url)}: {_reason(exc)}") from None
    return conn


def lost(where: str, exc: BaseException, doing: str = "reading") -> StoreError:
    """The error for a connection lost (or a server gone) in the middle of work."""
    if isinstance(exc, _psycopg().errors.DiskFull):
        return DiskFull(
            f"the database server {where} has no space left ({_reason(exc)}); nothing was"
            " written, the previous snapshot is intact"
        )
    tail = "; nothing was written, the previous snapshot is intact" if doing == "writing" else ""
    return StoreError(f"lost the database {where} while {doing} ({_reason(exc)}){tail}")


@functools.lru_cache(maxsize=1024)
def _pg(sql: str) -> str:
    """``?`` placeholders as psycopg's ``%s`` (and a literal ``%`` doubled).
    The shared SQL never has a ``?`` or ``%`` inside a string literal."""
    return sql.replace("%", "%%").replace("?", "%s")


class _Rows:
    """Rows fetched in full (the connection went back to the pool)."""

    __slots__ = ("_rows",)

    def __init__(self, rows: list[Any]) -> None:
        self._rows = rows

    def fetchone(self) -> Any:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[Any]:
        return self._rows

    def __iter__(self) -> Iterator[Any]:
        return iter(self._rows)


class PooledSql:
    """Reads, each on a connection borrowed from the pool for that statement
    (autocommit: each is its own transaction, as SQLite's are). A statement
    that meets a connection the server dropped (a restart) is run once more
    on a fresh one, after the pool has let go of every dead one (``renew``);
    reads are idempotent."""

    dialect = "postgresql"

    def __init__(self, pool: ConnectionPool[Any], where: str) -> None:
        self.pool = pool
        self.where = where

    def execute(self, sql: str, parameters: Any = (), /) -> _Rows:
        pg = _psycopg()
        query = _pg(sql) if parameters else sql
        for attempt in (1, 2):
            try:
                with self.pool.connection() as conn:
                    cur = conn.execute(query, parameters or None)
                    return _Rows(cur.fetchall() if cur.description else [])
            except pg.OperationalError as exc:
                # the pool's timeout: no connection could be made (or was free) in time
                if attempt == 2 or type(exc).__name__ == "PoolTimeout":
                    raise lost(self.where, exc) from None
                renew(self.pool)
        raise AssertionError("unreachable")

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> None:
        raise TypeError("the readers' connections do not write")


def renew(pool: ConnectionPool[Any]) -> None:
    """A connection of ``pool`` was found dead (the server restarted): the
    others, idle in the pool, are dead too. Check them all now (one round
    trip each), so that each is not found dead by a statement in turn."""
    with contextlib.suppress(Exception):  # the server is still away: the next statement says so
        pool.check()


#: ``executemany`` of a plain insert, which PostgreSQL takes faster as a COPY
_INSERT = re.compile(r"INSERT INTO (\w+) VALUES \((\?(?:, \?)*)\)")


def text_value(value: Any) -> Any:
    """PostgreSQL's text holds no NUL (SQLite's does): it becomes U+FFFD."""
    if isinstance(value, str) and "\x00" in value:
        return value.replace("\x00", "\ufffd")
    return value


class ConnSql:
    """One connection's statements (a writer's, inside its transaction).
    ``executemany`` of ``INSERT INTO t VALUES (?, ...)`` is a COPY into t's
    first columns: the matcher's postings of a big snapshot are tens of
    thousands of rows (the stdlib's: 3.6 s as inserts, a COPY a fraction)."""

    dialect = "postgresql"

    def __init__(self, conn: psycopg.Connection[tuple[Any, ...]], where: str) -> None:
        self.conn = conn
        self.where = where
        self._columns: dict[str, list[str]] = {}

    def execute(self, sql: str, parameters: Any = (), /) -> Rows:
        return self.conn.execute(_pg(sql) if parameters else sql, parameters or None)

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> None:
        insert = _INSERT.fullmatch(sql)
        if insert is None:
            with self.conn.cursor() as cur:
                cur.executemany(_pg(sql), parameters)
            return
        table, n = insert[1], insert[2].count("?")
        self.copy(table, self.columns(table)[:n], parameters)

    def columns(self, table: str) -> list[str]:
        if table not in self._columns:
            self._columns[table] = [
                r[0]
                for r in self.conn.execute(
                    "SELECT column_name FROM information_schema.columns"
                    " WHERE table_schema = current_schema() AND table_name = %s"
                    " ORDER BY ordinal_position",
                    (table,),
                )
            ]
        return self._columns[table]

    def copy(self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        """COPY ``rows`` into ``table``'s ``columns`` (text with a NUL cleaned)."""
        names = ", ".join(f'"{c}"' for c in columns)
        with (
            self.conn.cursor() as cur,
            cur.copy(f"COPY {table} ({names}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row([text_value(v) for v in row])
