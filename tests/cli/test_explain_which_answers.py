"""Which error of a paste answers, and with what: an entry thrown only in
test code never answers before the library's own at the same score
(errordex's checkout, indexed beside a crate, keeps copies of crate code in
its test fixtures), and a program's own context around a library's error
says so instead of listing near misses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from errordex.cli import main
from tests.paste.conftest import fixture

REGEX_SYNTAX = Path("/usr/share/cargo/registry/regex-syntax-0.6.27")

#: a repository whose tests keep a copy of regex-syntax's Display arm
FIXTURE_COPY = {
    "src/lib.rs": "pub fn run() {}\n",
    "tests/fixtures/ast.rs": (
        "pub enum ErrorKind { GroupUnclosed }\n\n"
        "impl std::fmt::Display for ErrorKind {\n"
        "    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n"
        "        match *self {\n"
        '            ErrorKind::GroupUnclosed => write!(f, "unclosed group"),\n'
        "        }\n"
        "    }\n"
        "}\n"
    ),
}


@pytest.mark.skipif(not REGEX_SYNTAX.is_dir(), reason="librust-regex-syntax-dev is not installed")
def test_the_crates_entry_answers_before_a_test_fixtures_copy(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite")
    for path, text in FIXTURE_COPY.items():
        (tmp_path / "copy" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "copy" / path).write_text(text)
    # the copy first: a tie went to the entry met first
    for source, name in (
        (tmp_path / "copy", "acme/copy"),
        (REGEX_SYNTAX, "rust-lang/regex-syntax"),
    ):
        res = CliRunner().invoke(main, ["index", str(source), "--name", name, "--db", db])
        assert res.exit_code == 0, res.output
    # `regex::Regex::new("a(b").unwrap()`, as it panicked
    paste = fixture("rust_regex_unclosed_group_unwrap")
    res = CliRunner().invoke(main, ["explain", "--json", "--db", db], input=paste)
    matches = json.loads(res.stdout)["parts"][0]["matches"]
    assert matches[0]["repo"] == "rust-lang/regex-syntax"
    assert matches[0]["message"] == "unclosed group"
    copy = [m for m in matches if m["repo"] == "acme/copy"]
    assert copy and copy[0]["message"] == "unclosed group" and not copy[0]["sites"]


SEMVER = Path("/usr/share/cargo/registry/semver-1.0.14")


@pytest.mark.skipif(not SEMVER.is_dir(), reason="librust-semver-dev is not installed")
def test_a_programs_own_context_says_it_wraps_the_error_that_matched(tmp_path: Path) -> None:
    """``Version::parse(&req).with_context(|| format!("reading version {req:?}"))?``
    from ``main``: anyhow prints the program's context, then ``Caused by:``
    semver's error. The context is in no library: no list of near misses."""
    db = str(tmp_path / "db.sqlite")
    res = CliRunner().invoke(main, ["index", str(SEMVER), "--name", "dtolnay/semver", "--db", db])
    assert res.exit_code == 0, res.output
    paste = fixture("rust_anyhow_context_semver")
    res = CliRunner().invoke(main, ["explain", "--db", db], input=paste, env={"COLUMNS": "200"})
    lines = res.stdout.splitlines()
    assert lines[0] == 'error 1 of 2: reading version "1.x"'
    assert lines[2].strip().startswith("it wraps error 2, which did")
    assert "closest" not in res.stdout
    assert (
        "error 2 of 2 (cause): unexpected character 'x' while parsing minor version number" in lines
    )
