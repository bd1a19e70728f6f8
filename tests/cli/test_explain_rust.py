"""`errordex explain` in the terminal on real Rust panics (tests/paste/fixtures),
against bytes, semver and regex-syntax from Debian's cargo registry."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from errordex.cli import main
from tests.paste.conftest import fixture
from tests.web.real import crates_missing, crates_store

pytestmark = pytest.mark.skipif(crates_missing(), reason="needs Debian's librust-*-dev crates")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("crates") / "db.sqlite"
    crates_store(path).close()
    return str(path)


def explain(db: str, text: str, *args: str) -> tuple[int, str]:
    res = CliRunner().invoke(
        main, ["explain", *args, "-"], input=text, env={"ERRORDEX_DB": db, "COLUMNS": "200"}
    )
    return res.exit_code, res.stdout


def test_terminal_names_the_site_the_panic_came_from(db: str) -> None:
    code, out = explain(db, fixture("rust_crate_assert_split_to"))
    assert code == 0
    assert "  your panic: src/bytes_mut.rs:379 in BytesMut::split_to\n" in out
    # that site is listed first, marked
    thrown = [ln for ln in out.splitlines() if ln.startswith("Thrown at ")]
    assert thrown[0].startswith("Thrown at src/bytes_mut.rs:379 in BytesMut::split_to")
    assert thrown[0].endswith("← your panic") and len(thrown) == 2


def test_json_names_the_matched_site_and_keeps_version_1(db: str) -> None:
    code, out = explain(db, fixture("rust_crate_assert_split_to"), "--json")
    data = json.loads(out)
    assert code == 0 and data["version"] == 1
    site = data["parts"][0]["matches"][0]["site"]
    assert (site["path"], site["line"]) == ("src/bytes_mut.rs", 379)


def test_panic_at_no_site_is_not_called_a_runtime_raise(db: str) -> None:
    text = fixture("rust_crate_assert").replace("bytes-1.2.1", "bytes-1.0.0")
    text = text.replace(":549:9:", ":534:9:").replace(
        "cannot advance past `remaining`", "advance out of bounds"
    )
    code, out = explain(db, text)
    flat = " ".join(out.split())
    assert "panicked at src/bytes.rs:534 (tokio-rs/bytes), which is not a panic site" in flat
    assert "the version you ran may differ" in flat and "1.0.0" in flat
    assert "runtime" not in flat and "raise statement" not in flat
    assert "same message" not in flat and "best match" not in flat
    assert code == 0  # the location is an answer


def test_unwrap_of_a_semver_error_shows_clean_values(db: str) -> None:
    code, out = explain(db, fixture("rust_unwrap_debug_str"))
    assert code == 0 and "best match" in out
    assert "your values: QuotedChar(*ch) = 'x', pos = minor version number\n" in out
    # the message as it printed, from the template and the values, not `{}`s
    assert "at run time, with your values:\n" in out
    assert "    unexpected character 'x' while parsing minor version number\n" in out


def test_a_moved_panic_in_a_directory_names_its_content_hash_not_a_commit(db: str) -> None:
    text = fixture("rust_crate_assert_split_to").replace("bytes_mut.rs:379:", "bytes_mut.rs:370:")
    assert "bytes_mut.rs:370:" in text
    code, out = explain(db, text)
    flat = " ".join(out.split())
    assert code == 0
    assert "src/bytes_mut.rs:370 is not a panic site at the indexed content hash" in flat
    assert "indexed commit" not in flat


def test_a_backtrace_names_your_call_into_the_crate(db: str) -> None:
    code, out = explain(db, fixture("rust_crate_assert_split_to_backtrace"), "--json")
    assert code == 0
    called = json.loads(out)["parts"][0]["matches"][0]["your_call"]
    assert (called["path"], called["line"]) == ("src/bytes_mut.rs", 379)
    assert called["function"] == "bytes::bytes_mut::BytesMut::split_to"
    assert called["caller"] == {"path": "./src/main.rs", "line": 9, "function": "demo::main"}
    # without a backtrace only the panic's place is printed: no call of yours
    code, out = explain(db, fixture("rust_crate_assert_split_to"), "--json")
    assert code == 0 and "your_call" not in json.loads(out)["parts"][0]["matches"][0]
