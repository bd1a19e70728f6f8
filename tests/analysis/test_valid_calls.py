"""Reproducing tests and the example fix built from them (issue 16, point 4):
a test counts only when its check is positive and about this error; the
fix's "before" is the test's call as the user makes it, its "after" the
same call another test of the repository makes with input the library takes.

Real code: semver 1.0.14 and arrayvec 0.7.2 from Debian's cargo registry
(their own tests and test helpers); a small Python repository for the
Python forms."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from errordex.analysis import scan
from errordex.analysis.validcall import calls_in, literal_args
from errordex.cli import main
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.repo_files import index_files

REGISTRY = Path("/usr/share/cargo/registry")
SEMVER = REGISTRY / "semver-1.0.14"
ARRAYVEC = REGISTRY / "arrayvec-0.7.2"


def _pages(store: SqliteStore, sid: int) -> dict[str, dict[str, Any]]:
    return {store.entry(i).message: data for i, data in store.analyses(sid)}


def _ungrounded(db: Path) -> list[Any]:
    done = CliRunner().invoke(main, ["verify", "--json", "--db", str(db)])
    problems: list[Any] = json.loads(done.output)["repos"][0]["problems"]
    return problems


@pytest.fixture(scope="module")
def semver(tmp_path_factory: pytest.TempPathFactory) -> tuple[SqliteStore, int]:
    if not SEMVER.is_dir():
        pytest.skip("needs Debian's librust-semver-dev")
    store = SqliteStore(tmp_path_factory.mktemp("semver") / "db.sqlite")
    return store, index(str(SEMVER), store, name="dtolnay/semver", jobs=1).snapshot_id


def test_semver_fix_is_the_failing_parse_beside_a_parse_its_tests_make(
    semver: tuple[SqliteStore, int],
) -> None:
    store, sid = semver
    page = _pages(store, sid)["unexpected end of input while parsing {}"]
    fix = page["analysis"]["example_fix"]
    before = fix["before"]["code"].splitlines()[-1]
    after = fix["after"]["code"].splitlines()[-1]
    # the test helper `version_err(text)` is inlined: the user calls `Version::parse`
    assert re.fullmatch(r'(Version|VersionReq|Comparator)::parse\("[^"]*"\);', before), before
    assert after.split("(")[0] == before.split("(")[0] and after != before
    # "before" names the message the test expects, not the template
    assert "“unexpected end of input while parsing" in fix["before"]["code"]
    assert "{}" not in fix["before"]["code"]
    # both are the repository's lines: the failing one asserts this message;
    # the valid one is a call of a helper that unwraps (no error there)
    test_at, valid_at = fix["evidence"][:2]
    lines = {
        at: (SEMVER / at.split(":")[0]).read_text().splitlines()[int(at.split(":")[1]) - 1]
        for at in (test_at, valid_at)
    }
    literal = re.search(r'\("([^"]*)"\)', after)
    assert literal is not None and f'"{literal.group(1)}"' in lines[valid_at]
    assert "_err(" not in lines[valid_at]
    assert "parse" not in fix["text"] or "through the test helper" in fix["text"]


def test_semver_pages_with_a_test_have_a_fix_and_stay_grounded(
    semver: tuple[SqliteStore, int],
) -> None:
    store, sid = semver
    pages = _pages(store, sid)
    tested = [p for p in pages.values() if p["facts"]["tests"]]
    fixed = [p for p in tested if p["analysis"].get("example_fix")]
    assert len(tested) >= 6
    # every fix stands on one of its page's reproducing tests
    for p in fixed:
        paths = {f"{t['path']}:{t['line']}" for t in p["facts"]["tests"]}
        assert fix_cites(p, paths)
    assert len(fixed) >= len(tested) - 2
    assert _ungrounded(store.path) == []


def fix_cites(page: dict[str, Any], tests: set[str]) -> bool:
    return bool(set(page["analysis"]["example_fix"]["evidence"]) & tests)


@pytest.fixture(scope="module")
def arrayvec(tmp_path_factory: pytest.TempPathFactory) -> tuple[SqliteStore, int]:
    if not ARRAYVEC.is_dir():
        pytest.skip("needs Debian's librust-arrayvec-dev")
    store = SqliteStore(tmp_path_factory.mktemp("arrayvec") / "db.sqlite")
    return store, index(str(ARRAYVEC), store, name="bluss/arrayvec", jobs=1).snapshot_id


def test_an_is_err_assertion_is_about_the_call_whose_result_it_checks(
    arrayvec: tuple[SqliteStore, int],
) -> None:
    text = (ARRAYVEC / "tests" / "tests.rs").read_text(encoding="utf-8")
    got = [t for t in scan("tests/tests.rs", text, "rust").tests if t.kind == "error-result"]
    found = {t.line: t.calls for t in got}
    # `assert!(vec.try_push(0).is_err())`, `assert_matches!(v.try_push(1), Err(_))`,
    # and a `let res = …;` the assertion reads: one call, the checked one
    for t in got:
        assert len(t.calls) == 1 and f"{t.calls[0]}(" in t.body, t
    assert ("try_push",) in found.values()
    assert ("try_extend_from_slice",) in found.values()
    # `let mut t = ArrayString::<2>::new(); assert!(t.try_push_str(text).is_err())`
    # checks `try_push_str`, not `new`: no test reaches `CapacityError::new`'s
    # page by the name `new` alone
    store, sid = arrayvec
    tests = _pages(store, sid)["insufficient capacity"]["facts"]["tests"]
    assert all("ArrayString::<2>::new()" not in t["body"] for t in tests), tests


_SPINNERS = {
    "spin/__init__.py": (
        'SPINNERS = {"dots": ".", "line": "-"}\n\n\n'
        "class Spinner:\n"
        "    def __init__(self, name):\n"
        "        self.frames = SPINNERS[name]\n"
        "        if not self.frames:\n"
        '            raise KeyError(f"no spinner {name!r}")\n\n\n'
        "class Style:\n"
        "    def __init__(self, bold=True):\n"
        "        self.bold = bold\n\n"
        "    def __str__(self):\n"
        '        return "bold" if self.bold else "not bold"\n\n\n'
        "def check(value):\n"
        "    if value == 'x':\n"
        '        raise ValueError("Invalid input type.")\n'
        "    if value == 'y':\n"
        '        raise ValueError("Invalid input.")\n'
        "    if value == 'z':\n"
        '        raise ValueError("not bold")\n'
        "    return value\n"
    ),
    "tests/test_spin.py": (
        "import pytest\n\nfrom spin import Spinner, Style, check\n\n\n"
        "def test_unknown_spinner():\n"
        "    with pytest.raises(KeyError):\n"
        '        Spinner("foobar")\n\n\n'
        "def test_spinner():\n"
        '    assert Spinner("dots").frames == "."\n\n\n'
        "def test_style_text():\n"
        '    assert str(Style(bold=False)) == "not bold"\n\n\n'
        "def test_invalid():\n"
        '    with pytest.raises(ValueError, match="Invalid input."):\n'
        '        check("y")\n\n\n'
        "def test_valid():\n"
        '    assert check("ok") == "ok"\n'
    ),
}


def test_python_fix_of_a_typed_raises_is_the_call_with_a_value_a_test_passes(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _SPINNERS, "acme/spin")
    pages = _pages(store, sid)
    page = next(p for m, p in pages.items() if m.startswith("no spinner"))
    fix = page["analysis"]["example_fix"]
    assert fix["before"]["code"].splitlines()[-1] == 'Spinner("foobar")'
    assert fix["after"]["code"].splitlines()[-1] == 'Spinner("dots")'
    assert fix["evidence"][:2] == ["tests/test_spin.py:7", "tests/test_spin.py:12"]
    assert _ungrounded(tmp_path / "db.sqlite") == []


def test_a_text_assertion_on_no_error_and_an_unescaped_dot_pin_nothing(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _SPINNERS, "acme/spin")
    pages = _pages(store, sid)
    # `assert str(Style(bold=False)) == "not bold"` checks a str(), not an error
    text = json.dumps(pages["not bold"]["facts"]["tests"])
    assert "test_style_text" not in text
    # match="Invalid input." means the text "Invalid input.", not "Invalid input type."
    typed = pages["Invalid input type."]["facts"]["tests"]
    assert [t["test"] for t in typed] == []
    plain = pages["Invalid input."]["facts"]["tests"]
    assert [t["test"] for t in plain] == ["test_invalid"]


def test_literal_arguments_and_the_call_that_fails() -> None:
    assert literal_args('"1.2.3", 7, b"x", &[1, 2]')
    assert literal_args("fields.TimeDelta.SECONDS", frozenset({"fields"}))
    assert not literal_args("value")
    assert not literal_args('f"py3-none-{t}"')
    assert not literal_args("")
    assert literal_args("", empty=True)
    # the second call fails, not the constructor whose result it calls
    assert calls_in("validate.Range(2, 3)(1)", last=True) == []
    assert calls_in('Version::parse("1").unwrap_err()', last=True) == [("Version::parse", '"1"')]
