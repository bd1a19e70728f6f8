"""What Python really prints for an error, checked against a real run of
the same code: ``raise SystemExit(...)`` prints no traceback, and a
``KeyError`` prints its message's repr."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from errordex.languages.python.runtime import EXIT_UNPRINTED
from errordex.runtime import title
from errordex.views import entry_json
from tests.repo_files import index_files

TOOL = (
    "import sys\n\n\n"
    "def stop(code):\n"
    "    if code:\n"
    '        raise SystemExit("no configuration found")\n'
    "    raise SystemExit(3)\n\n\n"
    "def spinner(name):\n"
    "    if name == 'x':\n"
    '        raise KeyError(f"no spinner called {name!r}")\n'
    '    raise KeyError("unknown spinner")\n\n\n'
    "if sys.argv[1] in ('x', 'y'):\n"
    "    spinner(sys.argv[1])\n"
    "stop(int(sys.argv[1]))\n"
)


def run(tmp_path: Path, arg: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "run.py"
    script.write_text(TOOL)
    return subprocess.run(
        [sys.executable, str(script), arg], capture_output=True, text=True, timeout=60
    )


@pytest.fixture
def printed(tmp_path: Path) -> dict[str, str]:
    store, sid = index_files(tmp_path / "repo", {"tool/stop.py": TOOL}, "acme/tool")
    snap = store.snapshot(sid)
    return {title(e): entry_json(e, snap, store)["printed"] for e in store.entries()}


def test_a_text_code_is_printed_alone(tmp_path: Path, printed: dict[str, str]) -> None:
    real = run(tmp_path, "1")
    assert real.returncode == 1 and "Traceback" not in real.stderr
    assert printed["no configuration found"] == real.stderr.strip()


def test_a_number_code_prints_nothing(tmp_path: Path, printed: dict[str, str]) -> None:
    real = run(tmp_path, "0")
    assert real.returncode == 3 and real.stderr == ""
    assert printed["SystemExit"] == EXIT_UNPRINTED


@pytest.mark.parametrize(
    ("arg", "title", "value"),
    [("x", "no spinner called {name!r}", "'x'"), ("y", "unknown spinner", None)],
)
def test_a_key_error_prints_its_messages_repr(
    tmp_path: Path, printed: dict[str, str], arg: str, title: str, value: str | None
) -> None:
    last = run(tmp_path, arg).stderr.strip().splitlines()[-1]
    shown = printed[title].splitlines()[-1]
    if value is not None:
        shown = shown.replace("{name!r}", value)
    assert shown == last
