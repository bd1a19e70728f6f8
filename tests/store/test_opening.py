"""Opening a store's file (store/opening.py): whose it is, and what opening
it to read or to write may do to it."""

from __future__ import annotations

import multiprocessing
import sqlite3
import time
from pathlib import Path

import pytest

from errordex.errors import NotOurDatabase, StoreMissing
from errordex.store import open_store
from errordex.store.opening import APPLICATION_ID
from errordex.store.sqlite import SqliteStore


def test_opening_a_missing_store_to_read_raises_and_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(StoreMissing, match="there is no errordex store at"):
        open_store(str(tmp_path / "a" / "b.db"))
    with pytest.raises(StoreMissing):
        SqliteStore.reader(tmp_path / "c.db")
    assert list(tmp_path.iterdir()) == []


def test_opening_to_write_creates_the_store_and_its_directory(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "a" / "b.db"), write=True)
    assert isinstance(store, SqliteStore)
    assert store.conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    store.close()
    assert open_store(str(tmp_path / "a" / "b.db")).repos() == []


def test_a_reader_migrates_a_store_from_before_the_last_migration(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    SqliteStore(path).close()
    with sqlite3.connect(path) as conn:  # as errordex wrote it before m004 and the stamp
        conn.execute("DROP TABLE snapshot_ident_names")
        conn.execute("DELETE FROM _migrations WHERE name = 'm004_ident_names'")
        conn.execute("PRAGMA application_id = 0")
    conn.close()
    store = SqliteStore.reader(path)
    assert store.idents(1) == set()  # reads the table m004 made
    assert store.conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_another_tools_migrations_table_is_not_taken_for_ours(tmp_path: Path) -> None:
    path = tmp_path / "theirs.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
        conn.execute("INSERT INTO _migrations VALUES ('0001_users', 'now')")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(NotOurDatabase, match="it holds _migrations"):
        SqliteStore(path)
    assert path.read_bytes() == before


def test_a_store_another_process_is_writing_opens_without_waiting(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    SqliteStore(path).close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # as an index's final transaction
    try:
        started = time.perf_counter()
        SqliteStore(path).close()
        assert time.perf_counter() - started < 5  # the lock's timeout is 30 s
    finally:
        other.execute("ROLLBACK")
        other.close()


def _open_and_close(path: str) -> str:
    try:
        SqliteStore(Path(path)).close()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return "ok"


def test_processes_opening_a_new_store_at_once_all_succeed(tmp_path: Path) -> None:
    # the queue's workers start together on a store that is not there yet
    for round_ in range(8):
        path = str(tmp_path / f"new-{round_}.db")
        with multiprocessing.get_context("fork").Pool(6) as pool:
            assert pool.map(_open_and_close, [path] * 6) == ["ok"] * 6
