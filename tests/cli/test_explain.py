"""`errordex explain` on real output: a traceback from running the installed
click package, against click indexed from site-packages."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from errordex.cli import main
from errordex.errors import EXIT_NOT_FOUND
from errordex.termview import SIMILAR_SCORE

MISUSE = """
import click
@click.command()
@click.option("--count", type=int, count=True, is_flag=True)
def f(count):
    pass
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("explain") / "db.sqlite")
    for pkg in ("pkg:click", "pkg:starlette", "pkg:rich"):
        res = CliRunner().invoke(main, ["index", pkg], env={"ERRORDEX_DB": path})
        assert res.exit_code == 0, res.output
    return path


STARLETTE_MISUSE = "from starlette.requests import Request; Request(1.5)"


def real_traceback(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode != 0
    return proc.stderr


def test_pasted_traceback_finds_the_raise_site(db: str) -> None:
    tb = real_traceback(MISUSE)
    res = CliRunner().invoke(main, ["explain", "--json"], input=tb, env={"ERRORDEX_DB": db})
    assert res.exit_code == 0, res.output
    [part] = json.loads(res.stdout)["parts"]
    best = part["matches"][0]
    assert best["message"] == "'count' is not valid with 'is_flag'."
    assert best["sites"][0]["path"] == "click/core.py"
    assert part["exception_type"] == "TypeError"


def test_explain_prints_the_page_in_the_terminal(db: str) -> None:
    tb = real_traceback(MISUSE)
    res = CliRunner().invoke(main, ["explain", tb], env={"ERRORDEX_DB": db})
    assert res.exit_code == 0
    assert "best match" in res.stdout and "Thrown at click/core.py:" in res.stdout


def test_a_traceback_cut_before_its_exception_line_is_read_by_its_frames(db: str) -> None:
    tb = real_traceback(MISUSE)
    cut = "\n".join(tb.rstrip("\n").splitlines()[:-1]) + "\n"  # no "TypeError: ..."
    res = CliRunner().invoke(main, ["explain", cut], env={"ERRORDEX_DB": db})
    assert res.exit_code == 0
    first = res.stdout.splitlines()[0]
    assert first.startswith("error: (no exception line: the paste ends before it")
    assert "'count' is not valid with 'is_flag'." in res.stdout


def test_no_match_says_so_and_exits_not_found(db: str) -> None:
    res = CliRunner().invoke(
        main, ["explain", "zxqv frobnicated the wibble"], env={"ERRORDEX_DB": db}
    )
    assert res.exit_code == EXIT_NOT_FOUND
    assert "no match" in res.stdout


@pytest.mark.parametrize("text", ["", "\x00\xff\xfe garbage \x1b[31m", "x" * 2_000_000])
def test_bad_input_never_crashes(db: str, text: str) -> None:
    res = CliRunner().invoke(main, ["explain", "-"], input=text, env={"ERRORDEX_DB": db})
    assert res.exit_code in (0, EXIT_NOT_FOUND)
    assert res.exception is None or isinstance(res.exception, SystemExit)


def test_ten_thousand_frame_traceback_is_handled(db: str, tmp_path: Path) -> None:
    frames = "".join(f'  File "m{i}.py", line {i}, in f{i}\n    f()\n' for i in range(10_000))
    tb = f"Traceback (most recent call last):\n{frames}TypeError: 'count' is not valid with 'is_flag'.\n"
    res = CliRunner().invoke(main, ["explain", "--json", "-"], input=tb, env={"ERRORDEX_DB": db})
    assert res.exit_code == 0
    assert json.loads(res.stdout)["parts"][0]["found"]


def test_json_answer_names_the_runtime_location_and_keeps_version_1(db: str) -> None:
    tb = real_traceback(STARLETTE_MISUSE)
    res = CliRunner().invoke(main, ["explain", "--json", "-"], input=tb, env={"ERRORDEX_DB": db})
    data = json.loads(res.stdout)
    assert data["version"] == 1
    [part] = data["parts"]
    answer = part["answer"]
    assert answer["kind"] == "location" and answer["path"] == "starlette/requests.py"
    assert answer["raise_frame"] and not answer["raise_statement"]
    assert answer == {"kind": "location", **part["raised_in"]}
    assert not part["matches"] or part["matches"][0]["repo"] != "pallets/click"
    assert not part["found"]  # only the location is known: that is an answer too
    assert res.exit_code == 0


def test_terminal_leads_with_the_runtime_location(db: str) -> None:
    tb = real_traceback(STARLETTE_MISUSE)
    res = CliRunner().invoke(main, ["explain", tb], env={"ERRORDEX_DB": db})
    first = [ln for ln in res.stdout.splitlines() if ln.strip()][1]
    assert first.startswith("raised by the Python runtime at starlette/requests.py:")
    assert "not by a raise statement in Kludex/starlette" in " ".join(res.stdout.split())
    assert "best match" not in res.stdout
    assert res.exit_code == 0


def test_json_answer_is_the_entry_when_a_raise_statement_threw_it(db: str) -> None:
    res = CliRunner().invoke(
        main, ["explain", "--json", "-"], input=real_traceback(MISUSE), env={"ERRORDEX_DB": db}
    )
    [part] = json.loads(res.stdout)["parts"]
    assert part["answer"]["kind"] == "entry"
    assert part["answer"]["id"] == part["matches"][0]["id"]
    assert part["answer"]["path"] == "click/core.py"


def test_one_line_in_the_runtimes_own_form_gets_no_entry_answer(db: str) -> None:
    # starlette's State.__getattr__ raises the same text as the interpreter
    line = real_traceback("None.write").strip().splitlines()[-1]
    assert line == "AttributeError: 'NoneType' object has no attribute 'write'"
    res = CliRunner().invoke(main, ["explain", "--json", line], env={"ERRORDEX_DB": db})
    [part] = json.loads(res.stdout)["parts"]
    assert part["runtime_form"] and part["answer"] is None
    assert part["matches"][0]["repo"] == "Kludex/starlette"  # listed, not answered
    res = CliRunner().invoke(main, ["explain", line], env={"ERRORDEX_DB": db})
    assert "the Python runtime raises messages of this form itself" in " ".join(res.stdout.split())
    assert "best match" not in res.stdout


def test_a_missing_key_alone_is_the_runtimes_form_not_a_list_of_near_misses(db: str) -> None:
    # a dict lookup prints the key alone; before, five unrelated entries
    # sharing the word came back as "closest"
    line = real_traceback("{}['name']").strip().splitlines()[-1]
    assert line == "KeyError: 'name'"
    res = CliRunner().invoke(main, ["explain", "--json", line], env={"ERRORDEX_DB": db})
    [part] = json.loads(res.stdout)["parts"]
    assert part["runtime_form"] and part["answer"] is None
    res = CliRunner().invoke(main, ["explain", line], env={"ERRORDEX_DB": db})
    assert "the Python runtime raises messages of this form itself" in " ".join(res.stdout.split())
    assert "closest" not in res.stdout
    # a KeyError that says more is read by its text, as any message
    res = CliRunner().invoke(
        main, ["explain", "--json", "KeyError: 'no such key here'"], env={"ERRORDEX_DB": db}
    )
    assert not json.loads(res.stdout)["parts"][0]["runtime_form"]


def test_runtime_answer_lists_no_entry_that_shares_only_a_word(db: str) -> None:
    # rich's Console.line(None): a TypeError in `assert count >= 0, ...`
    tb = real_traceback("from rich.console import Console; Console().line(None)")
    res = CliRunner().invoke(main, ["explain", tb], env={"ERRORDEX_DB": db})
    assert "raised by the Python runtime at rich/console.py:" in res.stdout
    scores = [float(s) for s in re.findall(r"\((\d\.\d\d)\)$", res.stdout, re.M)]
    assert all(s >= SIMILAR_SCORE for s in scores), res.stdout
    assert res.exit_code == 0


def test_a_traceback_names_your_call_into_the_library(db: str, tmp_path: Path) -> None:
    script = tmp_path / "paint.py"
    script.write_text(
        "import click\n\n\ndef paint():\n    click.style('x', fg='purplish')\n\n\npaint()\n"
    )
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    res = CliRunner().invoke(
        main, ["explain", "--json"], input=proc.stderr, env={"ERRORDEX_DB": db}
    )
    [part] = json.loads(res.stdout)["parts"]
    called = part["matches"][0]["your_call"]
    assert (called["path"], called["function"]) == ("click/termui.py", "style")
    assert called["caller"]["path"] == str(script) and called["caller"]["line"] == 5
    assert called["code"] == "click.style('x', fg='purplish')"
    assert "repo" not in called["caller"]  # the user's own file
    res = CliRunner().invoke(
        main, ["explain"], input=proc.stderr, env={"ERRORDEX_DB": db, "COLUMNS": "300"}
    )
    assert (
        f"  your call: {script}:5: click.style('x', fg='purplish') → click/termui.py:" in res.stdout
    )
    # a stack that starts in the library has no call of yours to name
    inside = "\n".join(ln for ln in proc.stderr.splitlines() if "paint" not in ln)
    inside = inside.replace("    click.style('x', fg='purplish')\n", "")
    res = CliRunner().invoke(main, ["explain", "--json"], input=inside, env={"ERRORDEX_DB": db})
    assert "your_call" not in json.loads(res.stdout)["parts"][0]["matches"][0]


def test_your_call_is_the_innermost_way_into_the_library(db: str, tmp_path: Path) -> None:
    """A click command's callback calls ``click.style``: the script started
    click (``paint()``), but the call that failed is the callback's."""
    script = tmp_path / "paint.py"
    script.write_text(
        "import click\n\n\n@click.command()\n@click.option('--colour', default='purplish')\n"
        "def paint(colour):\n    click.echo(click.style('wet', fg=colour))\n\n\npaint()\n"
    )
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert proc.stderr.count(str(script)) == 2  # two ways into click
    res = CliRunner().invoke(
        main, ["explain", "--json"], input=proc.stderr, env={"ERRORDEX_DB": db}
    )
    called = json.loads(res.stdout)["parts"][0]["matches"][0]["your_call"]
    assert (called["path"], called["function"]) == ("click/termui.py", "style")
    assert (called["caller"]["line"], called["caller"]["function"]) == (7, "paint")


def test_the_standard_librarys_frames_are_nobodys_call(db: str, tmp_path: Path) -> None:
    """A thread that runs ``click.style`` itself: ``threading``'s frame
    passes the call on, and is not a call of the user's to name."""
    script = tmp_path / "bg.py"
    script.write_text(
        "import threading\n\nimport click\n\n"
        "t = threading.Thread(target=click.style, args=('x',), kwargs={'fg': 'purplish'})\n"
        "t.start()\nt.join()\n"
    )
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert "threading.py" in proc.stderr and "termui.py" in proc.stderr
    res = CliRunner().invoke(
        main, ["explain", "--json"], input=proc.stderr, env={"ERRORDEX_DB": db}
    )
    [best, *_] = json.loads(res.stdout)["parts"][0]["matches"]
    assert best["message"] == "Unknown color {colour!r}"
    assert "your_call" not in best


def test_code_a_library_generates_is_nobodys_call(db: str, tmp_path: Path) -> None:
    """sqlalchemy's ``create_engine`` is wrapped by a function it compiles at
    run time (``<sqlalchemy generated warned() wrapper for …>``): the call is
    the user's line that called it, not the generated frame."""
    script = tmp_path / "gen.py"
    script.write_text(
        "import click\n\n"
        "ns = {'click': click}\n"
        "exec(compile('def paint(c):\\n    return click.style(\"x\", fg=c)\\n',"
        " '<acme generated paint() wrapper>', 'exec'), ns)\n"
        "ns['paint']('purplish')\n"
    )
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert "<acme generated paint() wrapper>" in proc.stderr
    res = CliRunner().invoke(
        main, ["explain", "--json"], input=proc.stderr, env={"ERRORDEX_DB": db}
    )
    called = json.loads(res.stdout)["parts"][0]["matches"][0]["your_call"]
    assert (called["path"], called["function"]) == ("click/termui.py", "style")
    assert called["caller"]["path"] == str(script) and called["caller"]["line"] == 5
