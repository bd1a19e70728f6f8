"""Garbage pasted into `errordex explain` exits 5 (not found), as the README
says, even where the index has catch-all templates like ``{msg} ({e.strerror})``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from errordex.cli import main
from errordex.errors import EXIT_NOT_FOUND
from tests.cli.test_cli import git

SOURCE = """def read(path, msg):
    try:
        return open(path).read()
    except OSError as e:
        raise OSError(f"{msg} ({e.strerror})")


def pair(a, b):
    if a != b:
        raise ValueError(f"{a}: {b}")


def check(x):
    if x is None:
        raise ValueError(f"[{x}]")
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("catchall")
    repo = root / "catchall"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "io_errors.py").write_text(SOURCE)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "v1")
    db = str(root / "db.sqlite")
    res = CliRunner().invoke(main, ["index", str(repo), "--name", "acme/catchall", "--db", db])
    assert res.exit_code == 0, res.output
    return repo, db


def test_random_bytes_pasted_into_explain_exit_not_found(project: tuple[Path, str]) -> None:
    _, db = project
    for _ in range(20):
        res = CliRunner().invoke(main, ["explain", "-", "--db", db], input=os.urandom(3000))
        assert res.exit_code == EXIT_NOT_FOUND, res.stdout


def test_a_real_traceback_through_a_catch_all_raise_is_still_found(
    project: tuple[Path, str],
) -> None:
    repo, db = project
    code = "import io_errors; io_errors.read('/nonexistent/x', 'cannot read config')"
    tb = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, capture_output=True, text=True
    ).stderr
    res = CliRunner().invoke(main, ["explain", "-", "--db", db], input=tb)
    assert res.exit_code == 0
    assert "your error: io_errors.py:5 in read" in res.stdout
    assert "msg = cannot read config, e.strerror = No such file or directory" in res.stdout
