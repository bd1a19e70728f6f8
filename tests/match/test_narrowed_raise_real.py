"""A value a call returned, raised once an isinstance test says it is an
error (issue 15, pattern 4), on code modelled on Pint 0.25 and really run:
``factor = self._get_conversion_factor(src, dst)``; ``if isinstance(factor,
DimensionalityError): raise factor``. The raise is of that class, with its
message, so the exception line alone is answered by the class's entry,
at that raise."""

from __future__ import annotations

import importlib
import shutil
import traceback
from pathlib import Path

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.match.test_rewrapped_real import first_entry, reaches

FIXTURES = Path(__file__).parent / "fixtures" / "narrowed"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("narrowed") / "libs"
    shutil.copytree(FIXTURES, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(scope="module")
def store(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    s = SqliteStore(tmp_path_factory.mktemp("narrowed-db") / "store.db")
    index(str(tree), s, name="probe/narrowed", jobs=1)
    return s


def test_a_raise_an_isinstance_test_narrows_answers_the_line_alone(
    tree: Path, store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tree))
    registry = importlib.import_module("unitlike.registry")
    with pytest.raises(TypeError) as caught:
        registry.Registry().convert(1, "meter", "kilogram")
    frame = traceback.extract_tb(caught.value.__traceback__)[-1]
    line = f"unitlike.errors.DimensionalityError: {caught.value}"
    assert line.endswith("Cannot convert from 'meter' ([length]) to 'kilogram' ([mass])")
    match = first_entry(store, line)
    assert match["message"] == (
        "Cannot convert from '{self.units1}' ({self.dim1}) to '{self.units2}' ({self.dim2})"
    )
    assert f"unitlike/registry.py:{frame.lineno}" in reaches(match)
