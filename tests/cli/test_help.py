"""The command line documents itself: every option has help text, and the
README's command table names every option of every command."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from errordex.cli import main

README = (Path(__file__).parents[2] / "README.md").read_text()
COMMANDS = sorted(main.commands)


def readme_row(command: str) -> str:
    """The README's command-table cell for ``command``."""
    [row] = re.findall(rf"^\| `errordex {command}\b([^`]*)` \|", README, re.M)
    return str(row)


def options(command: str) -> list[click.Option]:
    cmd = main.commands[command]
    return [p for p in cmd.params if isinstance(p, click.Option)]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_has_help_text(command: str) -> None:
    assert [o.name for o in options(command) if not o.help] == []


@pytest.mark.parametrize("command", COMMANDS)
def test_the_readme_command_table_names_every_option(command: str) -> None:
    row = readme_row(command)
    named = set(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", row))
    # --db and --help are common to all commands and said once, under the table
    have = {opt for o in options(command) for opt in o.opts if opt not in ("--db",)}
    assert have - named == set(), f"the README's row for {command} lacks them"
    assert named - have == set(), f"the README's row for {command} names options it has not"
    assert "Every command also takes `--db PATH`" in README


def test_jobs_default_reads_the_same_in_help_and_readme() -> None:
    [jobs] = [o for o in options("index") if o.name == "jobs"]
    assert "one per core, at most 4" in str(jobs.help)
    assert re.search(r"^\| `--jobs` \| one per core, at most 4 \|", README, re.M)
