"""An exception class an object keeps (issue 15), on code modelled on
docopt-ng 0.9.0 and really run: ``Tokens(source, error=DocoptExit)`` keeps
its class in ``self.error``, ``Tokens.from_pattern`` builds one with
``DocoptLanguageError``, and ``raise tokens.error("...")`` prints either.
The exception line alone of each is answered at that raise
(``languages.python.keptclass``)."""

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

FIXTURES = Path(__file__).parent / "fixtures" / "keptclass"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("keptclass") / "libs"
    shutil.copytree(FIXTURES, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(scope="module")
def store(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    s = SqliteStore(tmp_path_factory.mktemp("keptclass-db") / "store.db")
    index(str(tree), s, name="probe/keptclass", jobs=1)
    return s


@pytest.mark.parametrize(
    ("call", "line", "message"),
    [
        (
            lambda d: d.parse_long(d.Tokens(""), "--x"),
            "docoptlike.DocoptExit: --x requires argument",
            "%s requires argument",
        ),
        (
            lambda d: d.parse_atom(d.Tokens.from_pattern("( a")),
            "docoptlike.DocoptLanguageError: unmatched '('",
            "unmatched '%s'",
        ),
    ],
)
def test_a_kept_class_is_the_class_its_raise_prints(
    tree: Path,
    store: SqliteStore,
    monkeypatch: pytest.MonkeyPatch,
    call: Callable[[Any], object],
    line: str,
    message: str,
) -> None:
    monkeypatch.syspath_prepend(str(tree))
    lib = importlib.import_module("docoptlike")
    try:
        call(lib)
    except (Exception, SystemExit) as e:  # the error under test
        frame = traceback.extract_tb(e.__traceback__)[-1]
        got = f"{type(e).__module__}.{type(e).__qualname__}: {e}"
        where = f"docoptlike/__init__.py:{frame.lineno}"
    else:
        raise AssertionError("did not raise")
    assert got == line
    match = first_entry(store, line)
    assert match["message"] == message
    assert line.split(": ", 1)[0].rsplit(".", 1)[1] in match["exception_types"]
    assert where in reaches(match)
