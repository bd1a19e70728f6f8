"""The CLI as a user runs it: a real git repository, a real SQLite file."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from click.testing import CliRunner

from errordex.cli import main
from errordex.errors import EXIT_INTERRUPTED, EXIT_NOT_FOUND, EXIT_SOURCE, EXIT_STORE
from errordex.store.sqlite import SqliteStore

SRC_V1 = """
def parse(value):
    if not isinstance(value, str):
        raise TypeError(f"expected str, got {type(value).__name__}")
    if not value:
        raise ValueError("empty input")
    return value
"""

SRC_V2 = SRC_V1.replace('"empty input"', '"empty input is not allowed"')


def git(repo: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@e",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@e",
    }
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "proj"
    r.mkdir()
    git(r, "init", "-q", "-b", "main")
    git(r, "remote", "add", "origin", "https://github.com/acme/parsers.git")
    (r / "parse.py").write_text(SRC_V1)
    git(r, "add", ".")
    git(r, "commit", "-qm", "v1")
    git(r, "tag", "v1")
    (r / "parse.py").write_text(SRC_V2)
    git(r, "commit", "-qam", "v2")
    # As if pushed: links are pinned only to commits the forge has.
    git(r, "update-ref", "refs/remotes/origin/main", "HEAD")
    return r


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "errordex.db")


@pytest.fixture
def empty_db(db: str) -> str:
    """A store with nothing indexed in it yet."""
    SqliteStore(Path(db)).close()
    return db


def run(db: str, *args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, [*args], env={"ERRORDEX_DB": db}, catch_exceptions=False)
    return res.exit_code, res.stdout, res.stderr


def test_index_then_list_shows_each_message(repo: Path, db: str) -> None:
    code, out, _ = run(db, "index", str(repo), "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["repo"] == "acme/parsers"
    assert summary["stats"]["sites"] == 2
    code, out, _ = run(db, "list", "--json")
    entries = json.loads(out)
    assert sorted(e["message"] for e in entries) == [
        "empty input is not allowed",
        "expected str, got {type(value).__name__}",
    ]
    assert all(e["version"] == 1 and len(e["id"]) == 16 for e in entries)


def test_list_by_kind_and_an_unknown_kind_is_a_usage_error(repo: Path, db: str) -> None:
    run(db, "index", str(repo))
    code, out, _ = run(db, "list", "--kind", "raise", "--json")
    assert code == 0 and {e["kinds"][0] for e in json.loads(out)} == {"raise"}
    code, out, _ = run(db, "list", "--kind", "panic", "--json")
    assert code == 0 and json.loads(out) == []
    code, _, err = run(db, "list", "--kind", "rasie")
    assert code == 2 and "'rasie' is not one of" in err and "'raise'" in err


def test_an_empty_database_says_nothing_is_indexed_yet(empty_db: str) -> None:
    for command in ("list", "stats", "verify"):
        code, out, err = run(empty_db, command)
        assert code == 0 and out.strip() == ""
        said = " ".join(err.split())  # unwrapped
        assert f"nothing is indexed in {empty_db} yet: run `errordex index SOURCE`" in said


def test_a_list_that_matches_nothing_says_so(repo: Path, db: str) -> None:
    run(db, "index", str(repo))
    code, out, err = run(db, "list", "--grep", "zxqv no such text")
    assert code == 0 and out.strip() == "" and "no errors match these filters" in err
    code, _, err = run(db, "list", "--limit", "-1")
    assert code == 2 and "--limit" in err


def test_export_somewhere_unwritable_is_one_clear_error(
    repo: Path, db: str, tmp_path: Path
) -> None:
    run(db, "index", str(repo))
    (tmp_path / "a-file").write_text("")
    code, _, err = run(db, "export", str(tmp_path / "a-file" / "site"))
    assert code == 2
    assert err.startswith(f"error: cannot write the site to {tmp_path / 'a-file'}")


@pytest.mark.parametrize("name", ["[bold]x[/bold]", "x[/]", "[link=y]z"])
def test_an_error_shows_a_path_with_brackets_as_written(db: str, tmp_path: Path, name: str) -> None:
    missing = tmp_path / name
    code, _, err = run(db, "index", str(missing))
    assert code == 3
    assert err.strip() == f"error: no such file or directory: {missing}"


def test_list_shows_each_message_and_its_first_site_whole_at_80_columns(
    repo: Path, db: str
) -> None:
    run(db, "index", str(repo))
    _, out, _ = run(db, "list")
    lines = out.splitlines()
    assert any("expected str, got {type(value).__name__}" in line for line in lines)
    # Under each message: its kind and first site, unbroken.
    assert any(line.strip() == "TypeError · parse.py:4" for line in lines)
    assert any(line.strip() == "ValueError · parse.py:6" for line in lines)


def test_index_at_a_tag_reads_that_revision(repo: Path, db: str) -> None:
    code, _, _ = run(db, "index", str(repo), "--rev", "v1")
    assert code == 0
    _, out, _ = run(db, "list", "--json")
    assert "empty input" in [e["message"] for e in json.loads(out)]


def test_show_json_has_sites_with_pinned_links(repo: Path, db: str) -> None:
    run(db, "index", str(repo))
    _, out, _ = run(db, "list", "--json", "--grep", "empty input")
    entry_id = json.loads(out)[0]["id"]
    code, out, _ = run(db, "show", entry_id, "--json")
    assert code == 0
    data = json.loads(out)
    [site] = data["sites"]
    assert site["path"] == "parse.py" and site["line"] == 6
    assert site["url"] == f"https://github.com/acme/parsers/blob/{data['commit']}/parse.py#L6"
    assert "raise ValueError" in "\n".join(site["snippet"]["lines"])


def test_unpushed_commit_gets_no_forge_link(repo: Path, db: str) -> None:
    (repo / "parse.py").write_text(SRC_V2 + "\nraise RuntimeError('local only')\n")
    git(repo, "commit", "-qam", "local")
    run(db, "index", str(repo))
    _, out, _ = run(db, "list", "--json", "--grep", "local only")
    assert json.loads(out)[0]["sites"][0]["url"] is None


def test_show_renders_snippet_in_terminal(repo: Path, db: str) -> None:
    run(db, "index", str(repo))
    _, out, _ = run(db, "list", "--json", "--grep", "expected str")
    code, out, _ = run(db, "show", json.loads(out)[0]["id"])
    assert code == 0
    assert "Thrown at parse.py:4" in out
    assert "isinstance" in out


def test_missing_path_is_one_clear_line(db: str, tmp_path: Path) -> None:
    code, _, err = run(db, "index", str(tmp_path / "nope"))
    assert code == EXIT_SOURCE
    assert "no such file or directory" in err and "Traceback" not in err


def test_unknown_revision_is_a_clear_error(repo: Path, db: str) -> None:
    code, _, err = run(db, "index", str(repo), "--rev", "no-such-tag")
    assert code == EXIT_SOURCE and "unknown revision" in err


def test_rev_on_a_plain_directory_is_a_clear_error(tmp_path: Path, db: str) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "a.py").write_text("raise ValueError('x')\n")
    code, _, err = run(db, "index", str(plain), "--rev", "HEAD")
    assert code == EXIT_SOURCE and "git" in err


def test_unreadable_database_is_a_clear_error(tmp_path: Path, repo: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"\x00garbage" * 1000)
    code, _, err = run(str(bad), "index", str(repo))
    assert code == EXIT_STORE and "is not an SQLite database" in err
    assert bad.read_bytes() == b"\x00garbage" * 1000


def test_show_unknown_id_exits_not_found(empty_db: str) -> None:
    code, _, err = run(empty_db, "show", "0123456789abcdef")
    assert code == EXIT_NOT_FOUND and "no error with id" in err


def test_kill_during_write_leaves_previous_snapshot_intact(repo: Path, db: str) -> None:
    run(db, "index", str(repo), "--rev", "v1")
    _, before, _ = run(db, "list", "--json")
    env = {**os.environ, "ERRORDEX_DB": db, "ERRORDEX_FAILPOINT": "save"}
    proc = subprocess.run(
        [sys.executable, "-m", "errordex.cli", "index", str(repo), "--rev", "v1"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == -9
    code, after, _ = run(db, "list", "--json")
    assert code == 0 and json.loads(after) == json.loads(before)
    code, out, _ = run(db, "stats", "--json")
    assert json.loads(out)["repos"][0]["commit"] == git(repo, "rev-parse", "v1")


def test_kill_during_extraction_leaves_previous_snapshot_intact(repo: Path, db: str) -> None:
    run(db, "index", str(repo), "--rev", "v1")
    _, before, _ = run(db, "list", "--json")
    # "files": killed right after the first file texts are written, mid-extraction.
    env = {**os.environ, "ERRORDEX_DB": db, "ERRORDEX_FAILPOINT": "files"}
    proc = subprocess.run(
        [sys.executable, "-m", "errordex.cli", "index", str(repo), "--jobs", "2"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == -9
    code, after, _ = run(db, "list", "--json")
    assert code == 0 and json.loads(after) == json.loads(before)
    code, out, _ = run(db, "stats", "--json")
    assert json.loads(out)["repos"][0]["commit"] == git(repo, "rev-parse", "v1")
    code, _, _ = run(db, "index", str(repo))
    assert code == 0


def test_show_prints_the_grounded_sections(repo: Path, db: str) -> None:
    run(db, "index", str(repo))
    _, out, _ = run(db, "list", "--json", "--grep", "expected str")
    entry = json.loads(out)[0]
    assert entry["analysis"]["provenance"] == {"kind": "static"}
    code, out, _ = run(db, "show", entry["id"])
    assert code == 0
    assert "What causes “expected str, got {type(value).__name__}” in acme/parsers?" in out
    assert "isinstance(value, str)" in out
    assert "Static analysis of acme/parsers@" in out


def test_file_name_that_is_not_utf8_is_skipped_not_a_crash(tmp_path: Path, db: str) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "good.py").write_text("raise ValueError('ok')\n")
    (plain / os.fsdecode(b"b\xffd.py")).write_text("raise ValueError('bad name')\n")
    code, out, _ = run(db, "index", str(plain), "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["stats"]["sites"] == 1
    assert [s["reason"] for s in summary["skipped"]] == ["file name is not UTF-8"]


def test_message_with_a_lone_surrogate_escape_is_stored(tmp_path: Path, db: str) -> None:
    plain = tmp_path / "surrogate"
    plain.mkdir()
    (plain / "m.py").write_text('def f():\n    raise ValueError("bad \\udcff byte")\n')
    code, _, _ = run(db, "index", str(plain))
    assert code == 0
    code, out, _ = run(db, "list")
    assert code == 0 and "bad" in out and "byte" in out


def test_index_exclude_leaves_out_directories_and_files(tmp_path: Path, db: str) -> None:
    plain = tmp_path / "plain"
    for path, msg in [("app.py", "kept"), ("test/t.py", "in test"), ("gen/api_pb2.py", "gen")]:
        (plain / path).parent.mkdir(parents=True, exist_ok=True)
        (plain / path).write_text(f"raise ValueError({msg!r})\n")
    code, out, _ = run(
        db, "index", str(plain), "--exclude", "test/", "--exclude", "*_pb2.py", "--json"
    )
    assert code == 0
    summary = json.loads(out)
    assert summary["stats"]["sites"] == 1
    assert summary["skipped"] == [
        {"path": "gen/api_pb2.py", "reason": "excluded by --exclude *_pb2.py"},
        {"path": "test", "reason": "excluded by --exclude test/"},
    ]
    _, out, _ = run(db, "list", "--json")
    assert [e["message"] for e in json.loads(out)] == ["kept"]


def test_index_negated_exclude_keeps_the_file(tmp_path: Path, db: str) -> None:
    plain = tmp_path / "plain"
    for path, msg in [("gen/keep_old.py", "kept"), ("gen/api_old.py", "gen")]:
        (plain / path).parent.mkdir(parents=True, exist_ok=True)
        (plain / path).write_text(f"raise ValueError({msg!r})\n")
    code, out, _ = run(
        db, "index", str(plain), "--exclude", "*_old.py", "--exclude", "!keep_old.py", "--json"
    )
    assert code == 0
    assert json.loads(out)["skipped"] == [
        {"path": "gen/api_old.py", "reason": "excluded by --exclude *_old.py"}
    ]
    _, out, _ = run(db, "list", "--json")
    assert [e["message"] for e in json.loads(out)] == ["kept"]


def _sigint_default() -> None:
    """SIGINT as a terminal gives it. A command a shell runs in the background
    without job control (``pytest &`` in a script) starts with SIGINT ignored,
    and Python then leaves it ignored: the index would run to the end."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_an_interrupt_mid_extraction_exits_130_and_writes_nothing(db: str) -> None:
    # A SIGINT to the index process alone (not its workers) while they
    # extract. (By hand, a SIGINT at a random moment hung the run in 2 of 7
    # tries before the pool's workers were killed on the way out; this
    # failpoint lands at one moment and checks the exit, not that hang.)
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    env = {**os.environ, "ERRORDEX_DB": db, "ERRORDEX_FAILPOINT": "files:int"}
    args = [
        "index",
        str(stdlib),
        "--jobs",
        "2",
        "--exclude",
        "/site-packages/",
        "--exclude",
        "/test/",
    ]
    for _ in range(3):
        proc = subprocess.run(
            [sys.executable, "-m", "errordex.cli", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            preexec_fn=_sigint_default,
        )
        assert proc.returncode == EXIT_INTERRUPTED, proc.stderr
        assert "interrupted: nothing was written" in proc.stderr
    code, out, _ = run(db, "list", "--json")
    assert code == 0 and json.loads(out) == []


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["index", ""], "error: SOURCE is empty: name a directory, a git URL or pkg:NAME"),
        (["index", ".", "--rev", ""], "error: --rev is empty: give a commit, a tag or a branch"),
        (["index", "pkg:"], "error: pkg: needs a distribution name, as in pkg:click"),
    ],
)
def test_an_empty_source_or_revision_is_a_usage_error(
    db: str, args: list[str], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # an empty SOURCE once meant "here"
    code, _, err = run(db, *args)
    assert code == 2 and err.strip() == said


def test_explain_in_an_unknown_repo_says_so(empty_db: str) -> None:
    code, _, err = run(empty_db, "explain", "ValueError: x", "--repo", "nope/x")
    assert code == 5 and "no indexed repository named 'nope/x'" in err


@pytest.mark.parametrize(("option", "value"), [("--jobs", "0"), ("--max-file-bytes", "-5")])
def test_index_options_out_of_range_are_usage_errors(db: str, option: str, value: str) -> None:
    code, _, err = run(db, "index", "pkg:click", option, value)
    assert code == 2 and f"Invalid value for '{option}'" in err
