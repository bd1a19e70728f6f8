"""A message constant of one module raised by another (issue 15), on code
abridged from Cerberus and really run: ``raise SchemaError(errors.
SCHEMA_ERROR_MISSING)`` in validator.py, the text in errors.py. The
exception line alone is answered by the constant's entry, whose site is
where the text is written and whose via is the raise the traceback ended
at (``languages.python.constants``)."""

from __future__ import annotations

import importlib
import shutil
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.match.test_rewrapped_real import first_entry, reaches

FIXTURES = Path(__file__).parent / "fixtures" / "constants"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("constants") / "libs"
    shutil.copytree(FIXTURES, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(scope="module")
def store(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    s = SqliteStore(tmp_path_factory.mktemp("constants-db") / "store.db")
    index(str(tree), s, name="probe/constants", jobs=1)
    return s


@pytest.mark.parametrize(
    ("call", "line", "text"),
    [
        (
            lambda v: v.Validator().validate({}),
            "cerberuslike.schema.SchemaError: validation schema missing",
            "errors.py",
        ),
        (
            lambda v: v.Validator({"a": {}}).validate(None),
            "cerberuslike.validator.DocumentError: document is missing",
            "errors.py",
        ),
    ],
)
def test_a_constant_of_another_module_answers_at_its_raise(
    tree: Path,
    store: SqliteStore,
    monkeypatch: pytest.MonkeyPatch,
    call: Callable[[Any], object],
    line: str,
    text: str,
) -> None:
    monkeypatch.syspath_prepend(str(tree))
    validator = importlib.import_module("cerberuslike.validator")
    try:
        call(validator)
    except Exception as e:  # the error under test
        frame = traceback.extract_tb(e.__traceback__)[-1]
        got = f"{type(e).__module__}.{type(e).__qualname__}: {e}"
        where = f"cerberuslike/{Path(frame.filename).name}:{frame.lineno}"
    else:
        raise AssertionError("did not raise")
    assert got == line
    match = first_entry(store, line)
    assert match["message"] == line.split(": ", 1)[1]
    assert any(s["path"].endswith(text) for s in match["sites"])  # where the text is
    assert where in reaches(match)  # the raise, as its via
