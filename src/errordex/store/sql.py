"""The little of a DB-API connection that the shared store code uses
(``store/reads.py``, ``store/postings.py``): an ``sqlite3.Connection`` is
one, and so is ``errordex.store.postgres.PgSql``.

SQL is written with ``?`` placeholders, in the dialect the two share.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Protocol

__all__ = ["Rows", "Sql", "dialect"]


class Rows(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


class Sql(Protocol):
    def execute(self, sql: str, parameters: Any = (), /) -> Rows: ...
    def executemany(self, sql: str, parameters: Iterable[Any], /) -> Any: ...


def dialect(conn: Sql) -> str:
    """``"sqlite"`` or ``"postgresql"``: for the few statements the two write differently."""
    name: str = getattr(conn, "dialect", "sqlite")
    return name
