"""Errors printed, not raised (issue 15, pattern 6), on the standard
library's own code: what a user sees on the terminal, pasted alone, finds
the statement that printed it."""

from __future__ import annotations

import argparse
import gzip
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from errordex.explain import explain_text
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    tmp = tmp_path_factory.mktemp("printed")
    src = tmp / "src"
    src.mkdir()
    for module in (argparse, gzip):
        assert module.__file__ is not None
        shutil.copy(module.__file__, src / Path(module.__file__).name)
    s = SqliteStore(tmp / "store.db")
    index(str(src), s, name="python/cpython", jobs=1)
    return s


def answer(store: SqliteStore, pasted: str) -> tuple[str, str, int]:
    """(kind, path, line) of the first answer's entry for a paste."""
    part = explain_text(store, pasted)["parts"][-1]
    got: dict[str, Any] | None = part.get("answer")
    assert got is not None and got["kind"] == "entry", f"no answer for {pasted!r}"
    site = next(s for s in part["matches"][0]["sites"] if s["path"] == got["path"])
    return site["kind"], got["path"], got["line"]


def line_of(path: str, text: str) -> int:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return next(i for i, ln in enumerate(lines, 1) if text in ln)


def test_parser_error_printed_by_argparse_answers_its_call(store: SqliteStore) -> None:
    code = "import argparse; p = argparse.ArgumentParser(prog='tool'); p.add_argument('x'); p.parse_args([])"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 2
    assert run.stderr.splitlines()[-1] == "tool: error: the following arguments are required: x"
    assert argparse.__file__ is not None
    where = line_of(argparse.__file__, "self.error(_('the following arguments are required")
    assert answer(store, run.stderr) == ("parser-error", "argparse.py", where)
    # the last line alone, as a user pastes it
    assert answer(store, run.stderr.splitlines()[-1]) == ("parser-error", "argparse.py", where)


def test_sys_exit_message_printed_by_gzip_answers_its_call(
    store: SqliteStore, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("x")
    run = subprocess.run(
        [sys.executable, "-m", "gzip", "-d", "notes.txt"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1
    assert run.stderr.strip() == "filename doesn't end in .gz: 'notes.txt'"
    assert gzip.__file__ is not None
    where = line_of(gzip.__file__, "sys.exit(f\"filename doesn't end in .gz")
    assert answer(store, run.stderr) == ("exit", "gzip.py", where)


def test_deprecation_warning_of_argparse_answers_its_warn_call(store: SqliteStore) -> None:
    parser = argparse.ArgumentParser()
    group = parser.add_argument_group()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        group.add_argument_group()
    if not caught:
        pytest.skip("this Python's argparse does not warn on nested groups")
    w = caught[0]
    printed = warnings.formatwarning(w.message, w.category, w.filename, w.lineno).strip()
    assert "DeprecationWarning: Nesting argument groups is deprecated." in printed
    assert argparse.__file__ is not None
    where = line_of(argparse.__file__, '"Nesting argument groups is deprecated."') - 1
    assert answer(store, printed) == ("warning", "argparse.py", where)
    line = f"{w.category.__name__}: {w.message}"
    assert answer(store, line) == ("warning", "argparse.py", where)


def test_pages_of_printed_errors_say_what_the_statement_does(store: SqliteStore) -> None:
    said = {}
    for line in (
        "filename doesn't end in .gz: 'notes.txt'",
        "DeprecationWarning: Nesting argument groups is deprecated.",
    ):
        best = explain_text(store, line)["parts"][-1]["matches"][0]
        said[line] = best["analysis"]["summary"]["text"]
    assert "exits with this message" in said["filename doesn't end in .gz: 'notes.txt'"]
    assert (
        "warns with `DeprecationWarning`"
        in said["DeprecationWarning: Nesting argument groups is deprecated."]
    )


def test_a_warning_through_a_helper_answers_the_call_that_passes_its_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # platformdirs warns through warn_once(message) -> warnings.warn(message,
    # RuntimeDirWarning); its text is written at the call in unix.py
    import traceback

    import platformdirs

    store = SqliteStore(tmp_path / "store.db")
    index("pkg:platformdirs", store, jobs=1)
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o777)
    runtime.chmod(0o777)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(Warning) as got:
            platformdirs.user_runtime_dir()
    line = "".join(traceback.format_exception_only(got.value)).strip()
    assert line.startswith("platformdirs.api.RuntimeDirWarning: XDG_RUNTIME_DIR ")
    frame = traceback.extract_tb(got.value.__traceback__)[-1]
    assert frame.line is not None and frame.line.startswith("warnings.warn(message")
    part = explain_text(store, line)["parts"][-1]
    assert part["answer"] is not None and part["answer"]["kind"] == "entry"
    best = part["matches"][0]
    assert best["exception_types"] == ["RuntimeDirWarning"]
    vias = {s["via"].split(" ")[0] for s in best["sites"] if s.get("via")}
    assert f"platformdirs/_runtime.py:{frame.lineno}" in vias
    assert {s["kind"] for s in best["sites"]} == {"warning"}
