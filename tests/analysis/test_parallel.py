from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore

from .conftest import FIXTURES


def _rows(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as c:
        return c.execute("select entry_id, data from analyses order by entry_id").fetchall()


@pytest.mark.parametrize("name", ["ws", "py"])
def test_forked_analysis_writes_what_the_serial_one_does(name: str, tmp_path: Path) -> None:
    src = tmp_path / name
    shutil.copytree(FIXTURES / name, src)
    for f in list(src.rglob("*.py_")):
        f.rename(f.with_suffix(".py"))
    got = []
    for jobs in (1, 2):
        db = tmp_path / f"{jobs}.db"
        index(str(src), SqliteStore(db), name=f"fixture/{name}", jobs=jobs)
        got.append(_rows(db))
    assert got[0] and got[0] == got[1]
