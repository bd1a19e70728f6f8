"""A runtime's own class pasted alone, with no text (the line alone,
session 14): it was raised with none. A raise of it with a text of its
own did not print it; the one raise with no text in the library is the
answer. Modelled on mpmath's ``mpf_div`` (``raise ZeroDivisionError``
beside ``raise ZeroDivisionError("polygamma pole")``) and intervaltree's
``IntervalTree.remove`` (``raise ValueError``); really run."""

from __future__ import annotations

import importlib
import shutil
from pathlib import Path

import pytest

from errordex.explain import explain_text
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.match.test_rewrapped_real import first_entry, reaches

FIXTURES = Path(__file__).parent / "fixtures" / "bare"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("bare") / "libs"
    shutil.copytree(FIXTURES, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(scope="module")
def store(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    s = SqliteStore(tmp_path_factory.mktemp("bare-db") / "store.db")
    index(str(tree), s, name="probe/bare", jobs=1)
    return s


@pytest.mark.parametrize(
    ("module", "call", "site"),
    [
        ("mpflike", "lib.mpf_div((1, 1, 0, 1), lib.fzero)", "mpflike.py:11"),
        ("treelike", "lib.IntervalTree().remove((1, 2))", "treelike.py:19"),
    ],
    ids=["mpmath", "intervaltree"],
)
def test_the_raise_with_no_text_answers(
    tree: Path,
    store: SqliteStore,
    monkeypatch: pytest.MonkeyPatch,
    module: str,
    call: str,
    site: str,
) -> None:
    monkeypatch.syspath_prepend(str(tree))
    lib = importlib.import_module(module)
    with pytest.raises(Exception) as caught:
        eval(call, {"lib": lib})
    assert str(caught.value) == ""
    line = type(caught.value).__qualname__  # what Python prints for it: the name alone
    match = first_entry(store, line)
    assert match["message"] == ""
    assert site in reaches(match)


def test_a_raise_with_a_text_is_not_shown_for_none(store: SqliteStore) -> None:
    part = explain_text(store, "ZeroDivisionError")["parts"][-1]
    assert all(m["message"] == "" for m in part["matches"])


def test_among_several_the_one_raised_in_more_places_comes_first(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Bare asserts in two libraries: no answer by guess; the one raised in
    three places before the one raised in one, whichever was indexed first."""
    root = tmp_path_factory.mktemp("asserts") / "libs"
    shutil.copytree(Path(__file__).parent / "fixtures" / "bare_asserts", root)
    s = SqliteStore(tmp_path_factory.mktemp("asserts-db") / "store.db")
    index(str(root / "few"), s, name="probe/few", jobs=1)
    index(str(root / "many"), s, name="probe/many", jobs=1)
    part = explain_text(s, "AssertionError")["parts"][-1]
    assert part.get("answer") is None
    assert [m["repo"] for m in part["matches"][:2]] == ["probe/many", "probe/few"]
