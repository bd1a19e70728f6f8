"""An exception whose str is the repr of a container (issue 15, the line
alone), on code modelled on rfc3986 2.0.0 and really run: several arguments
to ``Exception.__init__`` print the args tuple (``('scheme was required but
missing', {...}, ['scheme'])``). The sentence the code wrote is one of the
strings inside, and answers the line.
A word the class picks on two branches (``verb = "was"``; ``if ...: verb =
"were"``) stays a placeholder, so either verifies."""

from __future__ import annotations

import importlib
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.match.test_rewrapped_real import first_entry, reaches

FIXTURES = Path(__file__).parent / "fixtures" / "reprs"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("reprs") / "libs"
    shutil.copytree(FIXTURES, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(scope="module")
def store(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    s = SqliteStore(tmp_path_factory.mktemp("reprs-db") / "store.db")
    index(str(tree), s, name="probe/reprs", jobs=1)
    return s


def _line(call: Callable[[], object]) -> str:
    with pytest.raises(Exception) as caught:
        call()
    cls = type(caught.value)
    return f"{cls.__module__}.{cls.__qualname__}: {caught.value}"


def test_an_args_tuple_is_answered_by_the_sentence_inside(
    tree: Path, store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tree))
    validators = importlib.import_module("urilike.validators")
    line = _line(lambda: validators.allow_schemes({"scheme": "http"}, ["https"]))
    assert line.startswith(
        "urilike.exceptions.UnpermittedComponentError: "
        "(\"scheme was required to be one of ['https'] but was 'http'\", 'scheme'"
    )
    match = first_entry(store, line)
    # the call's constant "scheme" may be read into the text
    assert match["message"].endswith("was required to be one of {!r} but was {!r}")
    assert "urilike/validators.py:14" in reaches(match)


def test_a_word_chosen_on_two_branches_stays_a_placeholder(
    tree: Path, store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tree))
    validators = importlib.import_module("urilike.validators")
    for names, verb in ((("scheme",), "was"), (("scheme", "host"), "were")):

        def call(names: tuple[str, ...] = names) -> None:
            validators.require_presence_of({}, *names)

        line = _line(call)
        assert f" {verb} required but missing" in line
        match = first_entry(store, line)
        assert match["message"] == "{components} {verb} required but missing"
        assert "urilike/validators.py:9" in reaches(match)


def test_the_whole_message_still_answers_when_it_verifies(store: SqliteStore) -> None:
    match = first_entry(
        store, "urilike.exceptions.MissingComponentError: scheme was required but missing"
    )
    assert match["message"] == "{components} {verb} required but missing"


def test_a_whole_text_set_on_two_branches_is_still_read(
    tree: Path, store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tree))
    validators = importlib.import_module("urilike.validators")
    line = _line(lambda: validators.check_scheme("ftp"))
    assert line.endswith("URL had unsupported scheme ftp, should use http:// or https://")
    match = first_entry(store, line)
    assert match["message"] == "URL had unsupported scheme {scheme}, should use http:// or https://"
