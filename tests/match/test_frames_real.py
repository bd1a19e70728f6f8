"""Frame rules on real packages: click, starlette and rich (indexed from
site-packages) and the standard library's json, with tracebacks from really
running them."""

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
    for pkg in ("click", "starlette", "rich"):
        index(f"pkg:{pkg}", s, jobs=1)
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
    # starlette's State.__getattr__ raises the same text as the runtime's
    # AttributeError; the traceback never entered starlette
    assert part["answer"]["kind"] == "location"
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
    assert "raised by the Python runtime at click/formatting.py:" in out
    assert "not by a raise statement in pallets/click" in out
    assert "click/formatting.py:" in out


def test_starlette_type_error_on_an_assert_line_is_the_runtime_not_a_click_entry(
    store: SqliteStore,
) -> None:
    from starlette.requests import HTTPConnection

    # `assert scope["type"] in (...)` with a float scope: the interpreter
    # raised the TypeError evaluating the condition; the assert raises only
    # AssertionError, and no entry of any repository raised it
    tb, path, line = traceback_of(lambda: HTTPConnection(1.5))  # type: ignore[arg-type]
    part = explain_text(store, tb)["parts"][-1]
    answer = part["answer"]
    assert answer["kind"] == "location"
    assert (answer["repo"], answer["path"], answer["line"]) == (
        "Kludex/starlette",
        "starlette/requests.py",
        line,
    )
    assert path.endswith(answer["path"])
    assert answer["raise_frame"] and not answer["raise_statement"]
    assert not part["found"]
    assert all(m["repo"] != "pallets/click" for m in part["matches"][:1])


def test_rich_comparison_error_is_the_runtime_at_the_rich_line(store: SqliteStore) -> None:
    from rich.console import Console

    tb, _, line = traceback_of(lambda: Console().line(None))  # type: ignore[arg-type]
    answer = explain_text(store, tb)["parts"][-1]["answer"]
    assert answer["kind"] == "location" and not answer["raise_statement"]
    assert (answer["path"], answer["line"]) == ("rich/console.py", line)


def test_a_frame_in_a_file_with_no_site_is_located_beside_its_repositorys_files(
    store: SqliteStore,
) -> None:
    from rich.control import Control

    # rich/control.py raises nothing itself, so the store keeps no text of it
    tb, _, line = traceback_of(lambda: Control(None))  # type: ignore[arg-type]
    where = explain_text(store, tb)["parts"][-1]["raised_in"]
    assert (where["repo"], where["path"], where["line"]) == (
        "Textualize/rich",
        "rich/control.py",
        line,
    )
    assert where["raise_frame"] and where["file_known"] is False


def test_json_init_frame_is_located_by_its_printed_line(store: SqliteStore) -> None:
    # "__init__.py" alone names no repository; the printed code line agrees
    tb, _, line = traceback_of(lambda: json.load(None))  # type: ignore[arg-type]
    where = explain_text(store, tb)["parts"][-1]["answer"]
    assert where["kind"] == "location"
    assert (where["repo"], where["path"], where["line"]) == (
        "python/cpython-json",
        "__init__.py",
        line,
    )
    assert where["same_version"] is True


def test_json_scanner_answer_is_the_call_into_compiled_code(store: SqliteStore) -> None:
    # the C scanner raised it from the scan_once call; the pure-Python
    # fallback raises the same text elsewhere, and is shown as that
    tb, _, line = traceback_of(lambda: json.loads('{"a" 1}'))
    part = explain_text(store, tb)["parts"][-1]
    assert part["answer"]["kind"] == "location"
    assert (part["answer"]["path"], part["answer"]["line"]) == ("decoder.py", line)
    assert part["found"] and part["matches"][0]["message"].startswith("Expecting ':' delimiter")


def test_click_choice_answer_is_the_call_that_built_the_message(store: SqliteStore) -> None:
    import click

    tb, _, line = traceback_of(lambda: click.Choice(["a", "b"]).convert("c", None, None))
    answer = explain_text(store, tb)["parts"][-1]["answer"]
    assert answer["kind"] == "entry" and "is not one of" in answer["message"]
    assert answer["via"].startswith(f"click/types.py:{line} ")
    assert answer["frame_level"] == 2


def test_store_names_the_repositories_with_a_site_in_a_directory(store: SqliteStore) -> None:
    assert store.repos_with_dir("rich") == ["Textualize/rich"]
    assert store.repos_with_dir("starlette/middleware") == ["Kludex/starlette"]
    assert store.repos_with_dir("ric") == [] and store.repos_with_dir("rich/nowhere") == []
