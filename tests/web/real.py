"""A store of a real package (click, a dependency of errordex) and a real traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore

#: Real code that fails inside click; its traceback is what a user pastes.
FAILING = "import click\nclick.style('hi', fg='purplish')\n"


def click_store(path: Path) -> SqliteStore:
    store = SqliteStore(path)
    index("pkg:click", store, jobs=1)
    return store


def click_traceback() -> str:
    run = subprocess.run(
        [sys.executable, "-c", FAILING], capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode == 1 and "Traceback" in run.stderr, run.stderr
    return run.stderr
