"""The README's 30-second tour runs as printed.

Every `$ ` line between the tour markers is run, in order, in one bash
session started at the checkout (so `. .venv/bin/activate` and `cd` carry
over), with nothing on PATH that the tour does not put there. The lines a
reader checks first (the error, where it was thrown, the values) must come
out as printed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

#: the lines of printed output the tour's reader is told to look at
_CHECKED = re.compile(r"^(error: |  your (error|panic|values): |  You called )")
_SEP = "@@ end of a tour block @@"


def tour_blocks(text: str) -> list[tuple[list[str], list[str]]]:
    """Each console block of the tour: its commands and the output lines
    printed after them (all output of the block, in order)."""
    tour = text.split("<!-- tour:start -->", 1)[1].split("<!-- tour:end -->", 1)[0]
    blocks = []
    for body in re.findall(r"```console\n(.*?)```", tour, flags=re.S):
        commands: list[str] = []
        output: list[str] = []
        for line in body.splitlines():
            (commands if line.startswith("$ ") else output).append(line.removeprefix("$ "))
        blocks.append((commands, output))
    return blocks


def test_tour_blocks_are_read_from_the_readme() -> None:
    blocks = tour_blocks(README.read_text(encoding="utf-8"))
    assert blocks[0][0][0] == ". .venv/bin/activate"
    assert any("errordex explain -" in c for cs, _ in blocks for c in cs)


@pytest.mark.slow
@pytest.mark.corpus
def test_readme_tour_runs_as_printed(tmp_path: Path) -> None:
    if not (ROOT / ".venv" / "bin" / "activate").exists():
        pytest.skip("no .venv at the checkout (make run or make test creates it)")
    text = README.read_text(encoding="utf-8")
    if "cargo " in text and (
        shutil.which("cargo") is None
        or not Path("/usr/share/cargo/registry").is_dir()
        or not list(Path("/usr/share/cargo/registry").glob("bytes-1.2.1"))
    ):
        pytest.skip("cargo or Debian's librust-bytes-dev is missing")
    demo = tmp_path / "demo"
    env = {
        # a user's plain shell: errordex is not on PATH until the tour activates it
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": os.environ.get("HOME", str(tmp_path)),
        "ERRORDEX_DB": str(tmp_path / "tour.db"),
        "CARGO_HOME": os.environ.get("CARGO_HOME", str(Path.home() / ".cargo")),
        "RUSTUP_HOME": os.environ.get("RUSTUP_HOME", str(Path.home() / ".rustup")),
        "CARGO_TARGET_DIR": str(tmp_path / "target"),
        "TERM": "dumb",
    }
    cargo = shutil.which("cargo")
    if cargo:
        env["PATH"] += ":" + str(Path(cargo).parent)
    blocks = tour_blocks(text)
    # one shell for the whole tour, as a reader's: what a block activates or
    # `cd`s into holds for the next
    script = "set -e\n" + "".join(
        "\n".join(c.replace("/tmp/demo", str(demo)) for c in commands) + f"\necho {_SEP}\n"
        for commands, _ in blocks
    )
    done = subprocess.run(
        ["bash", "-c", f"cd {ROOT}\n{script}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    outputs = done.stdout.split(_SEP + "\n")
    assert len(outputs) == len(blocks) + 1
    for (commands, printed), out in zip(blocks, outputs, strict=False):
        shown = out.splitlines()
        checked = [line for line in printed if _CHECKED.match(line)]
        for line in checked:
            assert line in shown, f"printed in the README but not by {commands}: {line!r}"
