"""Pages of installed PyPI packages nobody here wrote, read as their users
would (issue 16): what the call a user made is documented to do."""

from __future__ import annotations

from typing import Any

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from errordex.views import entry_json


@pytest.fixture(scope="module")
def click_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[SqliteStore, int]:
    store = SqliteStore(tmp_path_factory.mktemp("click") / "db.sqlite")
    return store, index("pkg:click", store, jobs=1).snapshot_id


def _pages(got: tuple[SqliteStore, int]) -> list[dict[str, Any]]:
    store, sid = got
    return [entry_json(e, store.snapshot(sid), store) for e in store.entries()]


def _page(got: tuple[SqliteStore, int], message: str) -> dict[str, Any]:
    store, sid = got
    (entry,) = [e for e in store.entries() if e.message == message]
    return entry_json(entry, store.snapshot(sid), store)


def test_an_overloaded_functions_page_quotes_the_docstring_of_the_definition_that_runs(
    click_store: tuple[SqliteStore, int],
) -> None:
    # click/globals.py has two `@t.overload` stubs of get_current_context
    # before the definition that raises; the stubs have no docstring
    page = _page(click_store, "There is no active click context.")
    meaning = page["analysis"]["meaning"]
    assert "“Returns the current click context”" in meaning["text"]
    assert "click/globals.py:21" in meaning["evidence"]


def test_a_parameters_documented_error_is_quoted_with_the_parameter(
    click_store: tuple[SqliteStore, int],
) -> None:
    # get_current_context documents its RuntimeError under `:param silent:`,
    # not in a Raises section
    page = _page(click_store, "There is no active click context.")
    said = (
        "The docstring of `get_current_context` says: “`silent`: if set to `True` the return "
        "value is `None` if no context is available. The default behavior is to raise a "
        "`RuntimeError`”."
    )
    assert said in page["analysis"]["meaning"]["text"]
    assert "click/globals.py:31" in page["analysis"]["meaning"]["evidence"]
    assert page["analysis"]["prevention"]["items"] == [
        "Read the docstring of `get_current_context` (click/globals.py:31)."
    ]


def test_an_override_without_a_docstring_is_documented_by_the_method_it_overrides(
    click_store: tuple[SqliteStore, int],
) -> None:
    # Path.convert has no docstring of its own; help() and click's docs show
    # ParamType.convert's
    page = _page(click_store, "{name} {filename!r} is a directory.")
    assert (
        "`Path.convert`, the call you made, is documented on `ParamType.convert`, which it overrides, as: “Convert the value to "
        "the correct type”" in page["analysis"]["meaning"]["text"]
    )


def test_a_constructors_page_quotes_its_classs_docstring(
    click_store: tuple[SqliteStore, int],
) -> None:
    pages = [
        p["analysis"]["meaning"]["text"]
        for p in _pages(click_store)
        if p["analysis"]["summary"]["text"].startswith("You called `click.Option(")
        and p["analysis"].get("meaning")
    ]
    assert pages and all(
        "`Option`, the call you made, is documented as: “Options are usually optional "
        "values on the command line" in text
        for text in pages
    )
