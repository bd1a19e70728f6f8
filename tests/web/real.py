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


#: Debian's vendored crates (librust-*-dev), indexed as their upstream repositories.
CARGO_REGISTRY = Path("/usr/share/cargo/registry")
CRATES = {
    "bytes-1.2.1": "tokio-rs/bytes",
    "semver-1.0.14": "dtolnay/semver",
    "regex-syntax-0.6.27": "rust-lang/regex-syntax",
}


def crates_store(path: Path) -> SqliteStore:
    """bytes, semver and regex-syntax at the versions the captured panics ran."""
    store = SqliteStore(path)
    for crate, slug in CRATES.items():
        index(str(CARGO_REGISTRY / crate), store, name=slug, jobs=1)
    return store


def crates_missing() -> bool:
    return not all((CARGO_REGISTRY / c).is_dir() for c in CRATES)
