"""A message constant of one module raised by another (issue 15), on code
abridged from Cerberus and really run: ``raise SchemaError(errors.
SCHEMA_ERROR_MISSING)`` in validator.py, the text in errors.py. The
exception line alone is answered by the constant's entry, whose site is
where the text is written and whose via is the raise the traceback ended
at (``languages.python.constants``); so is one the raise formats
(``errors.DOCUMENT_FORMAT.format(document)``), its fields placeholders.
A constant written as an f-string and formatted at its raise (webcolors'
``_SPECIFICATION_ERROR_TEMPLATE``) reads its doubled braces as fields."""

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
    ("call", "line", "message"),
    [
        (
            lambda v: v.Validator().validate({}),
            "cerberuslike.schema.SchemaError: validation schema missing",
            "validation schema missing",
        ),
        (
            lambda v: v.Validator({"a": {}}).validate(None),
            "cerberuslike.validator.DocumentError: document is missing",
            "document is missing",
        ),
        (
            lambda v: v.Validator({"a": {}}).validate([1]),
            "cerberuslike.validator.DocumentError: '[1]' is not a document, must be a dict",
            "'{0}' is not a document, must be a dict",
        ),
    ],
)
def test_a_constant_of_another_module_answers_at_its_raise(
    tree: Path,
    store: SqliteStore,
    monkeypatch: pytest.MonkeyPatch,
    call: Callable[[Any], object],
    line: str,
    message: str,
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
    assert match["message"] == message
    assert any(s["path"].endswith("errors.py") for s in match["sites"])  # where the text is
    assert where in reaches(match)  # the raise, as its via


def test_an_fstring_constant_formatted_at_its_raise_answers_the_line_alone(
    tree: Path, store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tree))
    colors = importlib.import_module("webcolorslike")
    with pytest.raises(ValueError) as caught:
        colors.names("html5")
    frame = traceback.extract_tb(caught.value.__traceback__)[-1]
    line = f"ValueError: {caught.value}"
    assert line.startswith("ValueError: html5 is not a supported specification")
    match = first_entry(store, line)
    assert match["message"] == (
        "{spec} is not a supported specification for color name lookups; "
        "supported specifications are: {_SUPPORTED_SPECIFICATIONS}."
    )
    assert f"webcolorslike/__init__.py:{frame.lineno}" in reaches(match)
