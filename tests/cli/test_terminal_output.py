"""What the commands write to a terminal or a pipe: repository text never
drives the terminal, a pipe gets whole unpadded lines, and a reader that
leaves early (``| head -1``) ends the command quietly."""

from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import errordex.visible
from errordex.cli import main
from errordex.errors import EXIT_BROKEN_PIPE, EXIT_NOT_FOUND, EXIT_STORE
from errordex.visible import visible_controls
from tests.cli.test_cli import git

ERRORDEX = Path(sys.executable).parent / "errordex"
#: What a hostile repository writes in a message: clear the screen, set the
#: window title (OSC, ended by BEL), and an 8-bit CSI (C1).
HOSTILE = "bad\x1b[2Jvalue\x1b]0;pwned\x07 csi\x9b here"
LONG_CODE = "    total = " + " + ".join(f"weight_{i} * value_{i}" for i in range(12))
LONG_MESSAGE = "the configuration " + " ".join(f"option_{i}" for i in range(30)) + " is invalid"
SOURCE = f'''def f(x):
    if x:
        raise ValueError("{HOSTILE}")
{LONG_CODE}
    if total < 0:
        raise RuntimeError("{LONG_MESSAGE}")
    return total
'''


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "hostile"
    r.mkdir()
    git(r, "init", "-q", "-b", "main")
    (r / "mod.py").write_text(SOURCE)
    git(r, "add", ".")
    git(r, "commit", "-qm", "v1")
    return r


@pytest.fixture
def db(tmp_path: Path, repo: Path) -> str:
    path = str(tmp_path / "errordex.db")
    res = CliRunner().invoke(main, ["index", str(repo), "--name", "acme/hostile", "--db", path])
    assert res.exit_code == 0, res.output
    return path


def entry_id(db: str, text: str) -> str:
    res = CliRunner().invoke(main, ["list", "--json", "--grep", text, "--db", db])
    [entry] = json.loads(res.stdout)
    return str(entry["id"])


def cli(db: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The real command, its stdout a pipe."""
    environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR")}
    return subprocess.run(
        [str(ERRORDEX), *args, "--db", db],
        env={**environ, **env},
        capture_output=True,
        text=True,
        errors="surrogateescape",
    )


# -- item 4: control characters from a repository are shown, not obeyed --


def test_visible_controls_docstring_example_holds() -> None:
    assert doctest.testmod(errordex.visible).failed == 0


def test_visible_controls_escapes_c0_and_c1_but_newline_and_tab() -> None:
    assert visible_controls(HOSTILE) == r"bad\x1b[2Jvalue\x1b]0;pwned\x07 csi\x9b here"
    assert visible_controls("\x00\r\x7f\x80\x9f\xa0\n\t") == "\\x00\\x0d\x7f\\x80\\x9f\xa0\n\t"


_INVISIBLE = re.compile(r"[\x00-\x08\x0b-\x1f\x80-\x9f\u202a-\u202e\u2066-\u2069]")


def test_visible_controls_shows_bidirectional_overrides() -> None:
    # Trojan Source: U+202E would show "txt.exe" as "exe.txt"
    assert visible_controls("file\u202etxt.exe\u2066x\u2069") == "file\\u202etxt.exe\\u2066x\\u2069"


@given(st.text())
def test_visible_controls_leaves_no_control_and_changes_nothing_else(text: str) -> None:
    shown = visible_controls(text)
    assert not _INVISIBLE.search(shown)
    assert visible_controls(shown) == shown
    if not _INVISIBLE.search(text):
        assert shown == text


@pytest.mark.parametrize("color", ["", "1"])
@pytest.mark.parametrize("command", ["list", "show", "explain"])
def test_escape_sequences_in_repository_text_are_shown_escaped(
    db: str, command: str, color: str
) -> None:
    args = {
        "list": ["list"],
        "show": ["show", entry_id(db, "csi")],
        # no match: the closest entries are listed, with their messages
        "explain": ["explain", "ValueError: bad value here"],
    }[command]
    proc = cli(db, *args, **({"FORCE_COLOR": color} if color else {}))
    assert proc.returncode in (0, EXIT_NOT_FOUND), proc.stderr
    out = proc.stdout
    assert r"bad\x1b[2Jvalue\x1b]0;pwned\x07 csi\x9b here" in out
    # the only escape sequences left are rich's own: colours (SGR, "ESC [ ... m")
    # and the forge links (OSC 8 hyperlinks, "ESC ] 8 ; ... ESC \\")
    uncoloured = re.sub(r"\x1b\[[0-9;]*m|\x1b\]8;[^\x00-\x1f]*\x1b\\", "", out)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x80-\x9f]", uncoloured)


def test_json_output_keeps_the_data_and_escapes_every_control(db: str) -> None:
    for args in (["list", "--json"], ["show", entry_id(db, "csi"), "--json"]):
        proc = cli(db, *args)
        assert proc.returncode == 0
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x80-\x9f]", proc.stdout)
        data = json.loads(proc.stdout)
        messages = [e["message"] for e in data] if isinstance(data, list) else [data["message"]]
        assert HOSTILE in messages  # the data as is
    assert "\\u009b" in proc.stdout and "\\u001b" in proc.stdout


# -- item 20: a pipe gets whole lines, without trailing spaces --


@pytest.mark.parametrize("columns", [None, "200", "40"])
def test_piped_output_is_not_wrapped_and_has_no_trailing_spaces(
    db: str, columns: str | None
) -> None:
    env = {"COLUMNS": columns} if columns else {}
    show = cli(db, "show", entry_id(db, "option_1 "), **env).stdout
    listed = cli(db, "list", **env).stdout
    for out in (show, listed):
        assert [line for line in out.splitlines() if line != line.rstrip()] == []
    assert show.splitlines()[1] == LONG_MESSAGE
    # the code line is one line of the snippet, with its number
    assert any(line.endswith(f"4 {LONG_CODE}") for line in show.splitlines())
    assert any(line.rstrip().endswith(LONG_MESSAGE) for line in listed.splitlines())


# -- item 13: a reader that leaves early ends the command quietly --


def test_a_closed_stdout_exits_quietly_not_as_a_bug(db: str) -> None:
    for args in (["list"], ["show", entry_id(db, "csi")], ["list", "--json"]):
        read, write = os.pipe()
        os.close(read)  # the reader has left before the first line
        try:
            proc = subprocess.run(
                [str(ERRORDEX), *args, "--db", db], stdout=write, stderr=subprocess.PIPE
            )
        finally:
            os.close(write)
        assert (proc.returncode, proc.stderr) == (EXIT_BROKEN_PIPE, b"")


def test_piping_a_long_output_into_head_ends_quietly(db: str, tmp_path: Path) -> None:
    # a message long enough that the output outlasts the pipe's buffer
    paste = "ValueError: " + "bad value here " * 5_000
    for args in (["list"], ["show", entry_id(db, "csi")], ["explain", paste]):
        script = f'"$@" --db "{db}" | head -1; echo "${{PIPESTATUS[0]}}" >&2'
        proc = subprocess.run(
            ["bash", "-c", script, "sh", str(ERRORDEX), *args], capture_output=True, text=True
        )
        assert len(proc.stdout.splitlines()) == 1
        code = int(proc.stderr.strip())
        assert proc.stderr.strip() == str(code) and code in (0, EXIT_NOT_FOUND, EXIT_BROKEN_PIPE)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_full_output_disk_is_one_line_not_a_traceback(db: str) -> None:
    for args in (["list"], ["show", entry_id(db, "csi")], ["list", "--json"]):
        with open("/dev/full", "wb") as full:
            proc = subprocess.run(
                [str(ERRORDEX), *args, "--db", db], stdout=full, stderr=subprocess.PIPE, text=True
            )
        assert proc.returncode == EXIT_STORE, proc.stderr
        assert proc.stderr.startswith("error: cannot write the output: No space left on device")
        assert "Traceback" not in proc.stderr
