"""A library's error that carries the text of one the runtime raised (the
line alone, session 14): the raise that shows the error it caught of the
type whose form the text has is the answer, among the raises of that class
whose text is built at run time. Modelled on python-box's ``__getattr__``
(``except AttributeError as err: raise BoxKeyError(str(err))``, a KeyError
that prints its text quoted: without the rule, four raises of a caught
error's text leave no answer), and glom's ``Delete._del_one`` (one class, an
IndexError's or an AttributeError's text by branch of one function: one
entry, answered before the rule too, and still); really run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.match.test_class_built_real import _line
from tests.match.test_rewrapped_real import first_entry, reaches

FIXTURES = Path(__file__).parent / "fixtures" / "carried"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("carried") / "libs"
    shutil.copytree(FIXTURES, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(scope="module")
def store(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    s = SqliteStore(tmp_path_factory.mktemp("carried-db") / "store.db")
    index(str(tree), s, name="probe/carried", jobs=1)
    return s


@pytest.mark.parametrize(
    ("module", "call", "line", "site"),
    [
        (
            "boxlike",
            "lib.Box(a=1).b",
            "boxlike.BoxKeyError: \"'Box' object has no attribute 'b'\"",
            "boxlike.py:32",
        ),
        (
            "globlike",
            "lib.del_one([], '[', 3)",
            "globlike.PathDeleteError: list assignment index out of range",
            "globlike.py:15",
        ),
        (
            "globlike",
            "lib.del_one(object(), '.', 'x')",
            "globlike.PathDeleteError: 'object' object has no attribute 'x'",
            "globlike.py:20",
        ),
    ],
    ids=["box-getattr", "glom-index", "glom-attribute"],
)
def test_the_raise_that_shows_what_it_caught_answers(
    tree: Path,
    store: SqliteStore,
    monkeypatch: pytest.MonkeyPatch,
    module: str,
    call: str,
    line: str,
    site: str,
) -> None:
    assert _line(tree, monkeypatch, module, call) == line
    assert site in reaches(first_entry(store, line))


def test_a_text_of_no_runtime_form_names_none(store: SqliteStore) -> None:
    """A key's text (KeyError's form is any word) leaves the three raises
    of a caught KeyError's text apart: no answer by guess."""
    from errordex.explain import explain_text

    part = explain_text(store, "boxlike.BoxKeyError: \"'b'\"")["parts"][-1]
    assert part.get("answer") is None
