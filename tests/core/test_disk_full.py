"""A full disk, under the database or under the index's scratch files, is
one clear error, and the previous snapshot stays as it was."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

import pytest

from errordex import pipeline
from errordex.errors import EXIT_STORE, DiskFull
from errordex.scratch.spill import TempBytes
from errordex.store.sqlite import SqliteStore

FIXTURES = Path(__file__).parents[1] / "analysis" / "fixtures"


def _tree(tmp_path: Path) -> Path:
    src = tmp_path / "py"
    shutil.copytree(FIXTURES / "py", src)
    for f in list(src.rglob("*.py_")):
        f.rename(f.with_suffix(".py"))
    return src


def _state(store: SqliteStore) -> tuple[int, list[str]]:
    snap = store.current("fixture/py")
    ids = [e.id for e in store.entries(repo="fixture/py", include_test_only=True)]
    return snap.id, ids


def test_a_full_database_disk_is_a_disk_full_error_and_keeps_the_snapshot(tmp_path: Path) -> None:
    src = _tree(tmp_path)
    store = SqliteStore(tmp_path / "errordex.db")
    pipeline.index(str(src), store, name="fixture/py", jobs=1)
    before = _state(store)
    (src / "extra.py").write_text('def f():\n    raise ValueError("one more")\n')
    # A real SQLITE_FULL: the database may not grow.
    pages = store.conn.execute("PRAGMA main.page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA main.max_page_count = {pages}")
    with pytest.raises(DiskFull) as got:
        pipeline.index(str(src), store, name="fixture/py", jobs=1)
    assert got.value.exit_code == EXIT_STORE
    assert "no space left" in str(got.value) and str(store.path) in str(got.value)
    assert _state(store) == before
    store.conn.execute(f"PRAGMA main.max_page_count = {1 << 30}")
    pipeline.index(str(src), store, name="fixture/py", jobs=1)
    assert len(_state(store)[1]) == len(before[1]) + 1


def test_a_full_scratch_disk_is_a_disk_full_error_and_keeps_the_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = _tree(tmp_path)
    store = SqliteStore(tmp_path / "errordex.db")
    pipeline.index(str(src), store, name="fixture/py", jobs=1)
    before = _state(store)

    def full(self: TempBytes, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(TempBytes, "append", full)
    with pytest.raises(DiskFull, match="temp directory"):
        pipeline.index(str(src), store, name="fixture/py", jobs=1)
    assert _state(store) == before


def test_other_os_errors_are_not_taken_for_a_full_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = _tree(tmp_path)
    store = SqliteStore(tmp_path / "errordex.db")

    def broken(self: TempBytes, data: bytes) -> int:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(TempBytes, "append", broken)
    with pytest.raises(OSError, match="Input/output"):
        pipeline.index(str(src), store, name="fixture/py", jobs=1)
