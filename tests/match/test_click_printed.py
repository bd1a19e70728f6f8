"""What a real click command prints for its user's mistake, pasted whole or
as its ``Error:`` line, leads to the entry in click that wrote the text
(issue 16: a CLI framework's errors as the framework prints them).

The commands run for real in a subprocess; the truth is the line of click's
source that holds the message, found by searching click's installed source.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest

from errordex.explain import explain_text
from errordex.languages.python import clickpaste
from errordex.paste.clean import clean_lines
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from errordex.views import printed_with

pytestmark = pytest.mark.corpus

APP = """\
import click

@click.command()
@click.option("--n", type=int)
@click.option("--mode", type=click.Choice(["fast", "slow"]))
@click.option("--ratio", type=click.FloatRange(0, 1))
def main(n, mode, ratio):
    click.echo(n)

main()
"""

CLICK = Path(click.__file__).parent


def printed(tmp_path: Path, *args: str) -> str:
    """What the command printed for ``args`` (click prints errors to stderr)."""
    app = tmp_path / "app.py"
    app.write_text(APP)
    run = subprocess.run(
        [sys.executable, str(app), *args], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2, run
    return run.stderr


def source_line(needle: str) -> tuple[str, int]:
    """Where click's source writes ``needle`` (its path in the package, line)."""
    for path in sorted(CLICK.glob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if needle in line:
                return path.name, n
    raise AssertionError(f"{needle!r} is not in click's source")


def source_text(name: str, line: int) -> str:
    return (CLICK / name).read_text().splitlines()[line - 1]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    s = SqliteStore(tmp_path_factory.mktemp("click") / "store.db")
    index(str(CLICK), s, jobs=1)
    return s


@pytest.mark.parametrize(
    ("args", "needle", "values"),
    [
        (("--n", "x"), "is not a valid {number_type}.", {"value": "'x'", "number_type": "integer"}),
        (("--mode", "medium"), "is not one of {choices}.", {"value": "'medium'"}),
        (("--ratio", "2"), "is not in the range {range}.", {"value": "2.0"}),
    ],
)
def test_bad_parameter_leads_to_the_types_message(
    store: SqliteStore, tmp_path: Path, args: tuple[str, ...], needle: str, values: dict[str, str]
) -> None:
    text = printed(tmp_path, *args)
    assert "Error: Invalid value for" in text  # click's words, around the message
    path, line = source_line(needle)
    for paste in (text, text.strip().splitlines()[-1]):  # all it printed, or the line
        part = explain_text(store, paste)["parts"][-1]
        answer = part["answer"]
        assert answer is not None and answer["kind"] == "entry", part
        # the entry whose text it is: at the line that writes it, or at the
        # call that passes it on (a helper's returned text: issue 15)
        assert needle in answer["message"] and answer["path"] == path, answer
        assert answer["line"] == line or needle not in source_text(path, answer["line"])
        got = part["matches"][0]["values"]
        assert values.items() <= got.items(), got
        # the option's name is click's, not the first placeholder's value
        assert not any("Invalid value" in v for v in got.values()), got
        # and it is kept, so the printed form reads back as the user saw it
        assert got["param_hint"] == f"'{args[0]}'"
        best = part["matches"][0]
        yours = printed_with(best, got)
        assert yours is not None and yours.endswith(text.strip().splitlines()[-1]), yours


def test_the_error_line_is_peeled_of_clicks_words() -> None:
    [found] = clickpaste.find(clean_lines("Error: Invalid value for '-n' / '--n': 'x' is bad."))
    assert found.error.message == "'x' is bad."
    assert found.error.exception_type == "BadParameter"
    assert found.error.values == {"param_hint": "'-n' / '--n'"}


def test_a_usage_block_marks_any_error_line_as_clicks(tmp_path: Path) -> None:
    text = printed(tmp_path, "--x", "1")
    [found] = clickpaste.find(clean_lines(text))
    assert found.error.message.startswith("No such option")
    assert found.error.values == {"printed_by": "click"}


def test_a_lone_error_line_in_other_words_is_not_claimed() -> None:
    assert clickpaste.find(clean_lines("Error: connection refused")) == []
