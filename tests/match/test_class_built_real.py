"""Messages an exception class builds around the raise's text (issue 15,
patterns 2 and 4; session 13), on code modelled on four free libraries and
really run; the exception line alone answers at the raise:

- Mako's ``Base.__init__(self, message + _format_filepos(...))``: the class
  joins the text to a helper's, shown as a hole (``extract._joined_to_param``);
- ruamel.yaml's ``ScannerError(None, None, "mapping values ...", mark)``: a
  leading None is a part left out, not the message;
- Arpeggio's ``self.nm = NoMatch(...)`` then ``raise self.nm``
  (``built.attribute_constructions``);
- elementpath's ``raise left.error("XPST0017", "unknown function ...")``: a
  code in capitals comes before the text (``formats``), the class prints a
  position before it (``match.prefixed``), and a method that builds the
  exception names no class that could disagree with the pasted one.

A competitor, ``"%s at %s"``, verifies on every one of these lines: without
the rules it is the answer, or nothing is."""

from __future__ import annotations

import importlib
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.match.test_rewrapped_real import first_entry, reaches

FIXTURES = Path(__file__).parent / "fixtures" / "classbuilt"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("classbuilt") / "libs"
    shutil.copytree(FIXTURES, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(scope="module")
def store(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    s = SqliteStore(tmp_path_factory.mktemp("classbuilt-db") / "store.db")
    index(str(tree), s, name="probe/classbuilt", jobs=1)
    return s


def _line(tree: Path, monkeypatch: pytest.MonkeyPatch, module: str, call: str) -> str:
    """The exception line ``module.call`` really raises (its first line)."""
    monkeypatch.syspath_prepend(str(tree))
    lib = importlib.import_module(module)
    run: Callable[[], object] = lambda: eval(call, {"lib": lib})  # noqa: E731
    with pytest.raises(Exception) as caught:
        run()
    cls = type(caught.value)
    return f"{cls.__module__}.{cls.__qualname__}: {str(caught.value).splitlines()[0]}"


@pytest.mark.parametrize(
    ("module", "call", "line", "message", "site"),
    [
        (
            "makolike",
            "lib.parse(['for'])",
            "makolike.SyntaxException: Unterminated control keyword: 'for' at line: 1 char: 1",
            "Unterminated control keyword: '%s'{_format_filepos(lineno, pos, filename)}",
            "makolike.py:26",
        ),
        (
            "yamllike",
            "lib.fetch_value(False)",
            "yamllike.ScannerError: mapping values are not allowed here",
            "mapping values are not allowed here",
            "yamllike.py:30",
        ),
        (
            "peglike",
            "lib.Parser()._nm_raise(\"'a'\", 1)",
            "peglike.NoMatch: Expected 'a' at position 1 => '*'.",
            "Expected {} at position {} => '{}'.",
            "peglike.py:24",
        ),
        (
            "xpathlike",
            "lib.led_parenthesized(lib.Token('nope'))",
            "xpathlike.ElementPathTypeError: 'nope' name at line 1, column 1: "
            "[XPST0017] unknown function 'nope'",
            "unknown function {!r}",
            "xpathlike.py:46",
        ),
    ],
    ids=["mako", "ruamel", "arpeggio", "elementpath"],
)
def test_the_line_alone_answers_at_the_raise(
    tree: Path,
    store: SqliteStore,
    monkeypatch: pytest.MonkeyPatch,
    module: str,
    call: str,
    line: str,
    message: str,
    site: str,
) -> None:
    assert _line(tree, monkeypatch, module, call) == line
    match = first_entry(store, line)
    assert match["message"] == message
    assert site in reaches(match)
