"""Frame rules on real packages: click (indexed as pkg:click) and the standard
library's json, with tracebacks from really running them."""

from __future__ import annotations

import json
import subprocess
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest

from errordex.explain import explain_text
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore


def traceback_of(fn: Callable[[], object]) -> tuple[str, str, int]:
    """The printed traceback, and the raise frame's file and line."""
    try:
        fn()
    except Exception as e:  # the error under test
        frames = traceback.extract_tb(e.__traceback__)
        return "".join(traceback.format_exception(e)), frames[-1].filename, frames[-1].lineno or 0
    raise AssertionError("did not raise")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    s = SqliteStore(tmp_path_factory.mktemp("frames") / "store.db")
    index("pkg:click", s, jobs=1)
    index(str(Path(json.__file__).resolve().parent), s, name="python/cpython-json", jobs=1)
    return s


def via_lines(match: dict[str, object]) -> set[str]:
    sites = match["sites"]
    assert isinstance(sites, list)
    return {s["via"].split(" ")[0] for s in sites if s.get("via")}


def test_click_bad_choice_is_the_choice_message_through_the_fail_raise(
    store: SqliteStore,
) -> None:
    import click

    tb, path, line = traceback_of(lambda: click.Choice(["a", "b"]).convert("c", None, None))
    part = explain_text(store, tb)["parts"][-1]
    best = part["matches"][0]
    assert best["exact"] and "is not one of" in best["message"]
    # the site is the self.fail(...) call; its via is the raise frame
    assert f"click/types.py:{line}" in via_lines(best)
    assert path.endswith("click/types.py")
    assert part["raised_in"]["raise_statement"] is True


def test_json_loads_empty_is_expecting_value(store: SqliteStore) -> None:
    tb, _, line = traceback_of(lambda: json.loads(""))
    part = explain_text(store, tb)["parts"][-1]
    best = part["matches"][0]
    assert best["message"].startswith("Expecting value")
    assert part["raised_in"]["repo"] == "python/cpython-json"
    assert part["raised_in"]["path"] == "decoder.py" and part["raised_in"]["line"] == line


def test_json_scanner_error_names_the_template_and_the_call_frame(store: SqliteStore) -> None:
    # the C scanner raises; the traceback ends at the scan_once call, and the
    # message is the one of the pure-Python scanner's raise
    tb, _, line = traceback_of(lambda: json.loads('{"a" 1}'))
    part = explain_text(store, tb)["parts"][-1]
    best = part["matches"][0]
    assert best["exact"] and best["message"].startswith("Expecting ':' delimiter")
    where = part["raised_in"]
    assert (where["path"], where["line"]) == ("decoder.py", line)


def test_interpreter_raised_error_names_the_library_frame(store: SqliteStore) -> None:
    import click

    tb, path, line = traceback_of(lambda: click.wrap_text(1.5))  # type: ignore[arg-type]
    part = explain_text(store, tb)["parts"][-1]
    assert not part["found"]
    where = part["raised_in"]
    assert where["repo"] == "pallets/click" and path.endswith(where["path"])
    assert where["line"] == line and where["function"]
    assert where["raise_statement"] is False


def test_terminal_says_the_runtime_raised_it(store: SqliteStore) -> None:
    run = subprocess.run(
        [sys.executable, "-c", "import click; click.wrap_text(1.5)"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    from rich.console import Console

    from errordex.termview import print_explanations

    console = Console(record=True, width=200)
    print_explanations(console, explain_text(store, run.stderr))
    out = console.export_text()
    assert "raised by the runtime, not by a raise statement in pallets/click" in out
    assert "click/formatting.py:" in out
