"""Which tests reproduce an error, and the example fixes built from them
(issue 16, points 4 and 6), on real code:

- a test whose literal fails the membership a raise checks reproduces it,
  and its fix passes a member of the checked values (click's ``CliRunner``);
- a test's number over a limit the raise checks gives a fix with the limit
  itself (anyio's ``Semaphore(-1)``: ``initial_value < 0``, so ``Semaphore(0)``);
- a test's expected text belongs to the message that prints most of it
  as its own words (marshmallow's "Not a valid integer." is ``Integer``'s,
  not "Not a valid {awareness} {obj_type}.");
- a test with no expected text that calls a method on a value of unknown
  type (click's ``type.convert(…)``, one of a dozen ``convert``s) reproduces
  none of them;
- an error variant no other entry has is pinned by a test that compares
  the error with it, whatever public call the test makes (ron 0.7.1's
  ``assert_eq!(ron::from_str(s).unwrap_err(), Error { code: ErrorCode::X, .. })``),
  and a generic call's fix is a call for the same type (``::<f64>``), one a
  test makes inside an ``assert!``;
- a builder's failing call (axum's ``Router::new().route("", …)``) is fixed
  with the nearest literal a test passes in that place on a new builder,
  only where the checks read that parameter;
- a doc line that shares only a generic word ("expected", "invalid") with a
  message is not about it.

Real code: click 8 and marshmallow from site-packages (their sources, with
a test written as theirs are), ron 0.7.1 from Debian's cargo registry (its
own tests), axum from its fetched mirror."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import anyio
import click
import marshmallow
import pytest
from click.testing import CliRunner

from errordex.analysis.about import is_about, words_of
from errordex.cli import main
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.repo_files import index_files

ANYIO = Path(anyio.__file__).parent
RON = Path("/usr/share/cargo/registry/ron-0.7.1")
CLICK = Path(click.__file__).parent
MARSHMALLOW = Path(marshmallow.__file__).parent


def _pages(store: SqliteStore, sid: int) -> dict[str, dict[str, Any]]:
    return {store.entry(i).message: data for i, data in store.analyses(sid)}


def _ungrounded(db: Path) -> list[Any]:
    done = CliRunner().invoke(main, ["verify", "--json", "--db", str(db)])
    problems: list[Any] = json.loads(done.output)["repos"][0]["problems"]
    return problems


def _click_repo(tmp_path: Path, tests: str) -> tuple[SqliteStore, int]:
    files = {
        f"src/click/{name}": (CLICK / name).read_text(encoding="utf-8")
        for name in ("testing.py", "types.py", "exceptions.py")
    }
    files["src/click/__init__.py"] = "from .testing import CliRunner\n"
    files["tests/test_it.py"] = tests
    return index_files(tmp_path, files, "pallets/click")


def test_a_literal_outside_the_checked_set_gives_a_fix_with_a_member(tmp_path: Path) -> None:
    tests = (
        "import pytest\nfrom click.testing import CliRunner\n\n\n"
        "def test_capture_invalid_mode():\n"
        '    with pytest.raises(ValueError, match="capture"):\n'
        '        CliRunner(capture="invalid")\n'
    )
    store, sid = _click_repo(tmp_path, tests)
    pages = _pages(store, sid)
    page = next(p for m, p in pages.items() if m.startswith("capture={capture!r} is not valid"))
    fix = page["analysis"]["example_fix"]
    assert fix["before"]["code"].splitlines()[-1] == 'CliRunner(capture="invalid")'
    after = fix["after"]["code"].splitlines()[-1]
    member = re.fullmatch(r"CliRunner\(capture=(['\"])(\w+)\1\)", after)
    # the member is one the code checks against, read at the indexed commit
    source = (CLICK / "testing.py").read_text(encoding="utf-8")
    checked = re.search(r"capture not in (\{[^}]*\})", source)
    assert member and checked and f'"{member.group(2)}"' in checked.group(1), after
    assert _ungrounded(tmp_path / "db.sqlite") == []


def test_a_member_of_the_checked_set_proves_nothing(tmp_path: Path) -> None:
    tests = (
        "import pytest\nfrom click.testing import CliRunner\n\n\n"
        "def test_capture_fd():\n"
        '    with pytest.raises(ValueError, match="capture"):\n'
        '        CliRunner(capture="fd")\n'
    )
    store, sid = _click_repo(tmp_path, tests)
    page = next(
        p for m, p in _pages(store, sid).items() if m.startswith("capture={capture!r} is not valid")
    )
    assert page["analysis"].get("example_fix") is None


def test_a_number_over_the_limit_gives_a_fix_with_the_limit(tmp_path: Path) -> None:
    source = (ANYIO / "_core" / "_synchronization.py").read_text(encoding="utf-8")
    tests = (
        "import pytest\nfrom anyio import Semaphore\n\n\n"
        "def test_negative_initial_value():\n"
        '    with pytest.raises(ValueError, match="initial_value must be >= 0"):\n'
        "        Semaphore(-1)\n"
    )
    store, sid = index_files(
        tmp_path,
        {
            "src/anyio/__init__.py": "from ._core._synchronization import Semaphore\n",
            "src/anyio/_core/_synchronization.py": source,
            "tests/test_synchronization.py": tests,
        },
        "agronholm/anyio",
    )
    fix = _pages(store, sid)["initial_value must be >= 0"]["analysis"]["example_fix"]
    assert fix["before"]["code"].splitlines()[-1] == "Semaphore(-1)"
    assert fix["after"]["code"].splitlines()[-1] == "Semaphore(0)"
    assert "initial_value < 0" in fix["text"]
    assert _ungrounded(tmp_path / "db.sqlite") == []


def test_a_method_called_on_a_value_of_unknown_type_reproduces_none(tmp_path: Path) -> None:
    tests = (
        "import click\nimport pytest\n\n\n"
        '@pytest.mark.parametrize("type", [click.IntRange(0, 5), click.FloatRange(0, 5)])\n'
        "def test_range_fail(type):\n"
        "    with pytest.raises(click.BadParameter):\n"
        "        type.convert(9, None, None)\n"
    )
    store, sid = _click_repo(tmp_path, tests)
    pages = _pages(store, sid)
    assert sum(len(p["facts"]["tests"]) for p in pages.values()) == 0, [
        m for m, p in pages.items() if p["facts"]["tests"]
    ]


def test_an_expected_text_belongs_to_the_message_that_prints_most_of_it(tmp_path: Path) -> None:
    fields = (MARSHMALLOW / "fields.py").read_text(encoding="utf-8")
    tests = (
        "import pytest\nfrom marshmallow import fields, ValidationError\n\n\n"
        "def test_integer_field_invalid():\n"
        "    field = fields.Integer()\n"
        '    with pytest.raises(ValidationError, match="Not a valid integer."):\n'
        '        field.deserialize("42.0")\n'
    )
    store, sid = index_files(
        tmp_path,
        {"src/marshmallow/fields.py": fields, "tests/test_fields.py": tests},
        "marshmallow-code/marshmallow",
    )
    pages = _pages(store, sid)
    with_test = {m for m, p in pages.items() if p["facts"]["tests"]}
    assert "Not a valid integer." in with_test
    assert "Not a valid {awareness} {obj_type}." in pages
    assert not with_test & {"Not a valid {awareness} {obj_type}.", "Not a valid {obj_type}."}


@pytest.fixture(scope="module")
def ron(tmp_path_factory: pytest.TempPathFactory) -> tuple[SqliteStore, int, Path]:
    if not RON.is_dir():
        pytest.skip("needs Debian's librust-ron-dev")
    db = tmp_path_factory.mktemp("ron") / "db.sqlite"
    store = SqliteStore(db)
    return store, index(str(RON), store, name="ron-rs/ron", jobs=1).snapshot_id, db


def test_a_test_comparing_the_error_with_its_variant_reproduces_it(
    ron: tuple[SqliteStore, int, Path],
) -> None:
    store, sid, _ = ron
    page = _pages(store, sid)["Expected comma"]
    found = {(t["path"], t["exception"]) for t in page["facts"]["tests"]}
    # `ron::from_str` is far above the site: the variant, not the call, says which error
    assert ("tests/256_comma_error.rs", "ErrorCode::ExpectedComma") in found


def test_a_generic_parse_is_fixed_only_by_a_call_for_the_same_type(
    ron: tuple[SqliteStore, int, Path],
) -> None:
    store, sid, db = ron
    page = _pages(store, sid)["Unexpected underscore in float"]
    assert any(t["path"] == "tests/370_float_parsing.rs" for t in page["facts"]["tests"])
    # the test parses "1_0.1_0" as an `f64` (`ron::from_str::<f64>`); the "after"
    # is a call for an `f64` too, inside a test's `assert!(…)`, not
    # `ron::from_str("1.0")`, which another test makes for a type of its own
    fix = page["analysis"]["example_fix"]
    assert fix["before"]["code"].splitlines()[-1] == 'ron::from_str::<f64>("1_0.1_0");'
    after = fix["after"]["code"].splitlines()[-1]
    literal = re.fullmatch(r'ron::from_str::<f64>\(("[^"]*")\);', after)
    assert literal is not None, after
    at = fix["evidence"][1]
    line = (RON / at.split(":")[0]).read_text().splitlines()[int(at.split(":")[1]) - 1]
    assert f"ron::from_str::<f64>({literal.group(1)})" in line
    assert _ungrounded(db) == []


def test_a_doc_line_that_shares_only_a_generic_word_is_not_about_the_error() -> None:
    said = words_of(["expected an integer but found {}"])
    assert not is_about(
        "Returns an error if the input is invalid or not what is expected.", None, said
    )
    assert is_about("Returns an error if the text is not an integer.", None, said)


AXUM = Path("/work/.mirror/tokio-rs+axum/repo")


@pytest.mark.skipif(not AXUM.is_dir(), reason="needs the fetched tokio-rs/axum")
def test_a_builders_literal_is_swapped_for_the_nearest_one_a_test_passes(tmp_path: Path) -> None:
    db = tmp_path / "axum.db"
    store = SqliteStore(db)
    sid = index(str(AXUM), store, name="tokio-rs/axum", jobs=2).snapshot_id
    pages = _pages(store, sid)
    fix = pages['Paths must start with a `/`. Use "/" for root routes']["analysis"]["example_fix"]
    assert fix["before"]["code"].splitlines()[-1] == 'Router::new().route("", get(|| async {}));'
    assert fix["after"]["code"].splitlines()[-1] == 'Router::new().route("/", get(|| async {}));'
    # the literal is one a test passes to `route` on a new `Router`, read at its line
    path, line = fix["evidence"][1].split(":")
    text = "\n".join(
        subprocess.run(
            ["git", "--git-dir", str(AXUM), "show", f"HEAD:{path}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()[int(line) - 1 : int(line) + 1]
    )
    assert '.route("/"' in text
    # the chain's last call is the one that fails: the fix changes it alone
    overlap = next(
        p["analysis"]["example_fix"]
        for m, p in pages.items()
        if m.startswith("Overlapping method route. Handler for")
    )
    before, after = (overlap[k]["code"].splitlines()[-1] for k in ("before", "after"))
    assert before.count(".route(") == after.count(".route(") == 2
    assert before.split(".route(")[:2] == after.split(".route(")[:2] and before != after
    # `route_service` rejects the service it is given, not the path: no path swapped
    service = next(
        p for m, p in pages.items() if m.startswith("Invalid route: `Router::route_service`")
    )
    assert service["analysis"].get("example_fix") is None
    assert _ungrounded(db) == []
