"""Real npm packages for the JavaScript/TypeScript tests: the ones pinned by
tests/fixtures/npm/package-lock.json, installed once with ``npm ci`` into
.npm-corpus/ (``make npm-corpus``, which ``make test`` runs first; a test run
without it makes it here)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / ".npm-corpus"


def node_modules() -> Path:
    """The installed packages' directory; skips when npm cannot install them."""
    if not (CORPUS / ".installed").exists():
        if shutil.which("npm") is None or shutil.which("make") is None:
            pytest.skip("npm is not installed (make test installs it)")
        done = subprocess.run(
            ["make", "-s", "npm-corpus"], cwd=ROOT, capture_output=True, text=True, timeout=600
        )
        if done.returncode != 0:
            pytest.fail(f"make npm-corpus failed:\n{done.stdout}\n{done.stderr}")
    return CORPUS / "node_modules"


def package(name: str) -> Path:
    path = node_modules() / name
    assert (path / "package.json").exists(), f"{name} is not in the npm corpus"
    return path
