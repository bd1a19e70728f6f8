"""What a page says an error means, in the library's own words (issue 16):
the docstring's condition before a private sentinel, and the docstring of
the private function that throws when no public one documents it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from errordex.views import entry_json
from tests.repo_files import index_files


def _store(spec: str, tmp: pytest.TempPathFactory) -> tuple[SqliteStore, int]:
    store = SqliteStore(tmp.mktemp(spec.replace(":", "-")) / "db.sqlite")
    return store, index(spec, store, jobs=1).snapshot_id


def _page(got: tuple[SqliteStore, int], message: str) -> dict[str, Any]:
    store, sid = got
    (entry,) = [e for e in store.entries() if e.message == message]
    return entry_json(entry, store.snapshot(sid), store)


def test_the_docstrings_condition_leads_before_a_private_sentinel(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # diskcache's Deque.peek checks `value is ENOVAL`; its docstring says
    # "IndexError: if deque is empty"
    page = _page(_store("pkg:diskcache", tmp_path_factory), "peek from an empty deque")
    summary = page["analysis"]["summary"]["text"]
    assert summary.startswith(
        "You called `diskcache.Deque.peek` (`diskcache/persistent.py`), and it raises "
        "`IndexError` “if deque is empty”, as the docstring of `Deque.peek` says"
    )
    assert "ENOVAL" not in summary


def test_a_private_functions_docstring_says_what_the_throwing_code_is_for(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # click's `_get_binary_stream` is no public call, but it says what it does
    page = _page(_store("pkg:click", tmp_path_factory), "Unknown standard stream '{name}'")
    meaning = page["analysis"]["meaning"]
    assert meaning["text"] == (
        "`_get_binary_stream`, where it is thrown, is documented as: "
        "“Returns a system stream for byte processing”."
    )
    assert meaning["evidence"][0].startswith("click/utils.py:")


_NUMPYDOC = {
    "plots/__init__.py": (
        "def _process_kwargs(func, data):\n"
        '    """\n'
        "    Parameters\n"
        "    ----------\n"
        "    func : plotting function\n"
        '    """\n'
        "    if data is None:\n"
        '        raise ValueError("no data to plot")\n'
        "    return func(data)\n\n\n"
        "def plot(data):\n"
        "    return _process_kwargs(print, data)\n"
    ),
}


def test_a_docstring_that_opens_with_its_sections_has_no_summary(tmp_path: Path) -> None:
    # xarray's `_process_cmap_cbar_kwargs` docstring opens with "Parameters"
    store, sid = index_files(tmp_path, _NUMPYDOC, "acme/plots")
    page = _page((store, sid), "no data to plot")
    assert "Parameters" not in str(page["analysis"].get("meaning"))
    assert not [d for d in page["facts"]["docs"] if d["section"] == "Summary"]


#: flask (pallets/flask, src/flask/sansio/app.py and docs/lifecycle.rst),
#: cut down: the docs show the message, over several lines, after the
#: sentences that say what it means; a reST code sample is no such sentence
_LIFECYCLE = {
    "flask/__init__.py": "from .app import App\n",
    "flask/app.py": (
        "class App:\n"
        "    def add_url_rule(self, rule):\n"
        "        if self._got_first_request:\n"
        "            raise AssertionError(\n"
        '                "The setup method can no longer be called on the application. It has"\n'
        '                " already handled its first request, any changes will not be applied"\n'
        '                " consistently. Make sure all imports, decorators, functions, etc. needed"\n'
        '                " to set up the application are done before running it."\n'
        "            )\n"
    ),
    "docs/lifecycle.rst": (
        "Setup\n=====\n\n"
        "Flask tries to help developers catch some of these setup ordering issues by showing an\n"
        "error if setup-related methods are called after requests are handled. In that case\n"
        "you'll see this error:\n\n"
        "    The setup method 'route' can no longer be called on the application. It has already\n"
        "    handled its first request, any changes will not be applied consistently.\n"
        "    Make sure all imports, decorators, functions, etc. needed to set up the application\n"
        "    are done before running it.\n"
    ),
    "docs/other.rst": (
        "Example\n=======\n\n::\n\n    def add(rule):\n        x = 1\n\n"
        "    Make sure all imports, decorators, functions, etc. needed to set up the application\n"
        "    are done before running it.\n"
    ),
}


def test_a_doc_that_shows_a_message_of_several_sentences_is_quoted_for_what_precedes_it(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _LIFECYCLE, "pallets/flask")
    (entry,) = [e for e in store.entries() if e.message.startswith("The setup method")]
    page = entry_json(entry, store.snapshot(sid), store)
    meaning = page["analysis"]["meaning"]["text"]
    assert meaning.startswith(
        "The repository's docs say (docs/lifecycle.rst:4): “Flask tries to help developers "
        "catch some of these setup ordering issues by showing an error if setup-related "
        "methods are called after requests are handled. In that case you'll see this error”, "
        "and show this message (docs/lifecycle.rst:8)."
    ), meaning
    # the code sample before the same sentence in other.rst is not read as its meaning
    assert "x = 1" not in meaning


def test_a_sphinx_raises_field_reads_its_text_on_the_lines_under_it(tmp_path: Path) -> None:
    # packaging's Version.__init__: ``:raises InvalidVersion:`` then its text
    files = {
        "ver/__init__.py": "",
        "ver/version.py": (
            "class InvalidVersion(ValueError):\n    pass\n\n\n"
            "class Version:\n"
            "    def __init__(self, version):\n"
            '        """Initialize a Version object.\n\n'
            "        :param version:\n"
            "            The string representation of a version.\n"
            "        :raises InvalidVersion:\n"
            "            If the ``version`` does not conform to PEP 440 in any way then this\n"
            "            exception will be raised.\n"
            '        """\n'
            "        if not version[:1].isdigit():\n"
            '            raise InvalidVersion(f"Invalid version: {version!r}")\n'
        ),
    }
    page = _page(index_files(tmp_path, files, "acme/ver"), "Invalid version: {version!r}")
    said = " ".join(s["text"] for s in page["analysis"].get("solutions", []))
    said += page["analysis"]["meaning"]["text"]
    assert "InvalidVersion: If the `version` does not conform to PEP 440 in any way" in said
