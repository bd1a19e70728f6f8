"""Messages a class or a helper formats after the raise's text is written
(issue 15), on code abridged from real libraries and really run: the
exception line alone is answered by the entry whose text it shows, at the
line the traceback ended at (or a via to it).

- simpleeval: ``__init__`` keeps the text it builds in ``self.message`` and
  hands ``self.message`` to its base (``extract._kept_text``);
- lark: ``_grammar_error`` raises ``GrammarError(msg.format(**args))``, so
  its callers' ``{Type} '{name}' ...`` are placeholders
  (``Forwarder.formats``, ``languages.python.fields``);
- glom: a text handed to the base with the values it is formatted with
  (``super().__init__(fmt, expected, actual)``) is formatted later.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.match.test_rewrapped_real import first_entry, load, raised, reaches

FIXTURES = Path(__file__).parent / "fixtures" / "formatted"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("formatted") / "libs"
    shutil.copytree(FIXTURES, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(scope="module")
def store(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    s = SqliteStore(tmp_path_factory.mktemp("formatted-db") / "store.db")
    index(str(tree), s, name="probe/formatted", jobs=1)
    return s


@pytest.mark.parametrize(
    ("call", "line", "template"),
    [
        (
            lambda lib: lib.eval_name({}, "foo", "foo + 1"),
            "evallike.NameNotDefined: 'foo' is not defined for expression 'foo + 1'",
            "'{name}' is not defined for expression '{expression}'",
        ),
        (
            lambda lib: lib.eval_call({}, "bar", "bar(1)"),
            "evallike.FunctionNotDefined: Function 'bar' not defined, for expression 'bar(1)'.",
            "Function '{func_name}' not defined, for expression '{expression}'.",
        ),
    ],
)
def test_a_text_kept_in_self_then_handed_to_the_base_is_the_message(
    tree: Path, store: SqliteStore, call: Callable[[Any], object], line: str, template: str
) -> None:
    lib = load(tree, "evallike")
    got, where = raised(lambda: call(lib))
    assert got == line
    match = first_entry(store, line)
    assert match["message"] == template
    assert where in reaches(match)


@pytest.mark.parametrize(
    ("call", "line", "template"),
    [
        (
            lambda b: (b._define("a", False), b._define("a", False)),
            "grammarlike.GrammarError: Rule 'a' defined more than once",
            "{Type} '{name}' defined more than once",
        ),
        (
            lambda b: b.validate([("nope", "start")]),
            "grammarlike.GrammarError: Rule 'nope' used but not defined (in rule start)",
            "{Type} '{name}' used but not defined (in {type2} {name2})",
        ),
    ],
)
def test_a_text_the_helper_formats_reads_its_fields_as_placeholders(
    tree: Path, store: SqliteStore, call: Callable[[Any], object], line: str, template: str
) -> None:
    lib = load(tree, "grammarlike")
    got, where = raised(lambda: call(lib.GrammarBuilder()))
    assert got == line
    match = first_entry(store, line)
    assert match["message"] == template
    assert where in reaches(match)  # the raise in _grammar_error is the via


@pytest.mark.parametrize(
    ("call", "line", "template"),
    [
        (
            lambda lib: lib.match_type("a", int),
            "matchlike.TypeMatchError: expected type int, not str",
            "expected type {0.__name__}, not {1.__name__}",
        ),
        (
            lambda lib: lib.match_key({123: "a"}, ["id"]),
            "matchlike.MatchError: key 123 didn't match any of ['id']",
            "key {0!r} didn't match any of {1!r}",
        ),
    ],
)
def test_a_text_handed_on_with_its_values_is_formatted_later(
    tree: Path, store: SqliteStore, call: Callable[[Any], object], line: str, template: str
) -> None:
    """glom: ``super().__init__("expected type {0.__name__}, ...", expected,
    actual)`` and ``raise MatchError("key {0!r} ...", k, keys)``: the class
    formats its first argument with the rest (``fields.formatted_later``)."""
    lib = load(tree, "matchlike")
    got, where = raised(lambda: call(lib))
    assert got == line
    match = first_entry(store, line)
    assert match["message"] == template
    assert where in reaches(match)
