from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore

FIXTURES = Path(__file__).parent / "fixtures"


def index_fixture(name: str, tmp_path: Path) -> tuple[SqliteStore, int]:
    """Index a fixture copied out of this git repo (so its paths are its own)."""
    src = tmp_path / name
    shutil.copytree(FIXTURES / name, src)
    # Python fixture files end in .py_ so that pytest and mypy leave them alone.
    for f in list(src.rglob("*.py_")):
        f.rename(f.with_suffix(".py"))
    store = SqliteStore(tmp_path / "errordex.db")
    result = index(str(src), store, name=f"fixture/{name}", jobs=1)
    return store, result.snapshot_id


@pytest.fixture
def ws(tmp_path: Path) -> tuple[SqliteStore, int]:
    return index_fixture("ws", tmp_path)


@pytest.fixture
def py(tmp_path: Path) -> tuple[SqliteStore, int]:
    return index_fixture("py", tmp_path)


@pytest.fixture
def tables(tmp_path: Path) -> tuple[SqliteStore, int]:
    return index_fixture("tables", tmp_path)


#: every section of a page, for the tests that a language's pages have them all
PAGE_SECTIONS = (
    "question",
    "summary",
    "meaning",
    "trigger",
    "situations",
    "solutions",
    "example_fix",
    "defensive_patterns",
    "prevention",
    "reproductions",
    "related",
)
