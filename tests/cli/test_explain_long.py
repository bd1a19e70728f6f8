"""`errordex explain` on a real deep traceback: a recursion 10,000 and 25,000
frames deep that ends in a ValueError raised by the installed click, as
Python prints it (every frame, no "[Previous line repeated]")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from errordex.cli import main

#: down() and up() call each other, so no two frames in a row are the same
#: line and Python prints every one of them.
DEEP = """
import sys

import click

sys.setrecursionlimit(100_000)
sys.tracebacklimit = 100_000


def down(n):
    if n <= 0:
        click.style("x", fg="purplish")
    up(n - 1)


def up(n):
    down(n - 1)


down(int(sys.argv[1]))
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("deep") / "db.sqlite")
    res = CliRunner().invoke(main, ["index", "pkg:click", "--db", path])
    assert res.exit_code == 0, res.output
    return path


def deep_traceback(tmp_path: Path, frames: int) -> str:
    script = tmp_path / "deep.py"
    script.write_text(DEEP)
    proc = subprocess.run(
        [sys.executable, str(script), str(frames)], capture_output=True, text=True
    )
    assert proc.returncode == 1
    assert proc.stderr.count('deep.py", line') >= frames
    return proc.stderr


def explained(db: str, text: str) -> tuple[int, dict[str, Any]]:
    res = CliRunner().invoke(main, ["explain", "-", "--json", "--db", db], input=text)
    return res.exit_code, json.loads(res.stdout)


@pytest.mark.parametrize("frames", [10_000, 25_000])
def test_a_deep_traceback_matches_as_a_shallow_one_does(
    db: str, tmp_path: Path, frames: int
) -> None:
    code, shallow = explained(db, deep_traceback(tmp_path, 10))
    assert code == 0
    [want] = shallow["parts"]
    assert want["answer"]["kind"] == "entry"
    tb = deep_traceback(tmp_path, frames)
    assert len(tb) > 1_000_000
    code, deep = explained(db, tb)
    assert code == 0
    [part] = deep["parts"]
    assert (part["exception_type"], part["message"]) == ("ValueError", "Unknown color 'purplish'")
    assert part["answer"] == want["answer"]
    assert part["matches"][0]["score"] == want["matches"][0]["score"]
    assert part["frames"][-1]["path"].endswith("click/termui.py")
