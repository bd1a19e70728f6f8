"""A check on the object's own state names the method that set it (issue
16, solutions): what the user called before the call that failed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errordex.languages.python.advice import holds_with
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from errordex.views import entry_json
from tests.repo_files import index_files


def _page(store: SqliteStore, sid: int, message: str) -> dict[str, Any]:
    (entry,) = [e for e in store.entries() if e.message == message]
    return entry_json(entry, store.snapshot(sid), store)


def test_a_progress_bar_used_outside_with_says_to_enter_it_first(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # click's ProgressBar.__iter__ checks `not self.entered`; __enter__ sets it
    store = SqliteStore(tmp_path_factory.mktemp("click") / "db.sqlite")
    sid = index("pkg:click", store, jobs=1).snapshot_id
    page = _page(store, sid, "You need to use progress bars in a with block.")
    (said,) = [
        s["text"] for s in page["analysis"]["solutions"] if "ProgressBar.__enter__" in s["text"]
    ]
    assert said.startswith(
        "Call `ProgressBar.__enter__` before `ProgressBar.__iter__`: it sets `self.entered = True` "
        "(click/_termui_impl.py:"
    )


#: werkzeug's ResponseStream: `close` sets `self.closed = True`, `write` checks it
_STREAM = {
    "streams/__init__.py": (
        "class Stream:\n"
        "    def __init__(self):\n"
        "        self.closed = False\n\n"
        "    def close(self):\n"
        "        self.closed = True\n\n"
        "    def reopen(self, mode):\n"
        "        self.closed = mode\n\n"
        "    def write(self, value):\n"
        "        if self.closed:\n"
        '            raise ValueError("I/O operation on closed file")\n'
        "        return len(value)\n"
    ),
}


def test_a_closed_stream_says_to_write_before_closing(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _STREAM, "acme/streams")
    texts = [
        s["text"]
        for s in _page(store, sid, "I/O operation on closed file")["analysis"]["solutions"]
    ]
    assert (
        "Call `Stream.write` before `Stream.close`, not after: `Stream.close` sets "
        "`self.closed = True` (streams/__init__.py:6), and then `Stream.write` raises "
        "`ValueError` (streams/__init__.py:12)."
    ) in texts
    # the constructor's value is where the state starts; an unknown value says nothing
    assert not any("Stream.__init__" in t or "Stream.reopen" in t for t in texts)


def test_holds_with_reads_only_what_it_knows() -> None:
    assert holds_with("self.x is None", "self.x", "None") is True
    assert holds_with("not self.entered", "self.entered", "True") is False
    assert holds_with("self.closed", "self.closed", "mode") is None
    assert holds_with("self.closed or other", "self.closed", "False") is None


@pytest.fixture(scope="module")
def werkzeug_pages(tmp_path_factory: pytest.TempPathFactory) -> tuple[SqliteStore, int]:
    store = SqliteStore(tmp_path_factory.mktemp("werkzeug") / "db.sqlite")
    return store, index("pkg:werkzeug", store, jobs=1).snapshot_id


def test_a_state_check_is_said_as_the_call_that_set_the_state(
    werkzeug_pages: tuple[SqliteStore, int],
) -> None:
    # ResponseStream.write checks `self.closed`, which ResponseStream.close sets
    page = _page(*werkzeug_pages, "I/O operation on closed file")
    summary = page["analysis"]["summary"]["text"]
    assert "raises `ValueError` once `ResponseStream.close` has run on the same object" in summary
    assert "its own check finds" not in summary


def test_a_private_state_check_never_names_the_private_attribute(
    werkzeug_pages: tuple[SqliteStore, int],
) -> None:
    # Client.get_cookie checks `self._cookies is None`, set only in __init__
    page = _page(*werkzeug_pages, "Cookies are disabled. Create a client with 'use_cookies=True'.")
    summary = page["analysis"]["summary"]["text"]
    assert "_cookies" not in summary
    assert "on the `Client` object, whose state the check at werkzeug/test.py:" in summary


#: flask's split (src/flask/sansio/app.py, src/flask/app.py), cut down: the
#: check is in the base class, the state is set by a subclass in another file;
#: a test's own subclass of the same name is not the library's
_SETUP = {
    "flask/__init__.py": "from .app import Flask\n",
    "flask/sansio/__init__.py": "",
    "flask/sansio/app.py": (
        "class App:\n"
        "    def __init__(self):\n"
        "        self._got_first_request = False\n\n"
        "    def add_url_rule(self, rule):\n"
        "        if self._got_first_request:\n"
        '            raise AssertionError("The setup method can no longer be called")\n'
    ),
    "flask/app.py": (
        "from .sansio.app import App\n\n\n"
        "class Flask(App):\n"
        "    def full_dispatch_request(self):\n"
        "        self._got_first_request = True\n"
        "        return None\n"
    ),
    "tests/test_config.py": (
        "import flask\n\n\ndef test_custom():\n    class Flask(flask.Flask):\n        pass\n"
    ),
}


def test_a_state_set_by_a_subclass_in_another_file_is_found(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _SETUP, "pallets/flask")
    page = _page(store, sid, "The setup method can no longer be called")
    assert [s["function"] for s in page["facts"]["setters"]] == ["Flask.full_dispatch_request"]
    summary = page["analysis"]["summary"]["text"]
    assert "once `Flask.full_dispatch_request` has run on the same object" in summary
    assert "_got_first_request" not in summary


def test_a_page_nothing_else_explains_quotes_its_objects_class_when_it_is_about_the_message(
    werkzeug_pages: tuple[SqliteStore, int],
) -> None:
    # ResponseStream.write has no docstring; its class's is about a stream's file
    page = _page(*werkzeug_pages, "I/O operation on closed file")
    meaning = page["analysis"]["meaning"]["text"]
    assert meaning.startswith(
        "It is raised by a method of `ResponseStream`, which is documented as:"
    )
    # Local's "Create a namespace of context-local data" says nothing of `{name}`
    store, sid = werkzeug_pages
    local = [
        entry_json(e, store.snapshot(sid), store)
        for e in store.entries()
        if e.sites[0].symbol in ("Local.__getattr__", "Local.__delattr__")
    ]
    assert len(local) == 2
    for p in local:
        assert "It is raised by a method of `Local`" not in (
            p["analysis"].get("meaning") or {}
        ).get("text", "")
