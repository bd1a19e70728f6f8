"""Store tests run on both backends where the behaviour is the store's:
the embedded SQLite file, and a real PostgreSQL server (``tests/pgserver.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from errordex.store.postgres.store import PostgresStore
from errordex.store.sqlite import SqliteStore

#: a store of either backend (both have ``conn.execute`` with ``?`` placeholders)
AnyStore = SqliteStore | PostgresStore


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def new_store(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[AnyStore]:
    """An empty store, open to write."""
    store: AnyStore
    if backend == "sqlite":
        store = SqliteStore(tmp_path / "db.sqlite")
    else:
        store = PostgresStore(request.getfixturevalue("pg_url"))
    yield store
    store.close()
