"""Real Rust panics (tests/paste/fixtures, captured from a crate that calls
bytes 1.2.1, semver 1.0.14 and regex 1.7) against those crates, indexed from
Debian's cargo registry."""

from __future__ import annotations

from typing import Any

import pytest

from errordex.explain import explain_text
from errordex.store.sqlite import SqliteStore
from tests.paste.conftest import fixture
from tests.web.real import crates_missing, crates_store

pytestmark = pytest.mark.skipif(crates_missing(), reason="needs Debian's librust-*-dev crates")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    return crates_store(tmp_path_factory.mktemp("crates") / "db.sqlite")


def only_part(store: SqliteStore, text: str) -> dict[str, Any]:
    parts: list[dict[str, Any]] = explain_text(store, text)["parts"]
    assert len(parts) == 1
    return parts[0]


def moved(text: str, line: int, message: str | None = None) -> str:
    """A captured panic as another version of the crate prints it: its
    location at ``line`` (and its message changed)."""
    head, msg, *rest = text.strip("\n").split("\n")
    head = head.replace("bytes-1.2.1", "bytes-1.0.0").replace(":549:9:", f":{line}:9:")
    return "\n".join([head, message or msg, *rest]) + "\n"


def test_panic_at_one_of_two_sites_names_that_site(store: SqliteStore) -> None:
    for name in ("rust_crate_assert_split_to", "rust_crate_assert_split_to_backtrace"):
        part = only_part(store, fixture(name))
        best = part["matches"][0]
        assert {(s["path"], s["line"]) for s in best["sites"]} == {
            ("src/bytes.rs", 412),
            ("src/bytes_mut.rs", 379),
        }
        assert best["site"] == {
            "path": "src/bytes_mut.rs",
            "line": 379,
            "symbol": "BytesMut::split_to",
            "via": None,
        }
        answer = part["answer"]
        assert answer["kind"] == "entry" and answer["id"] == best["id"]
        assert (answer["path"], answer["line"], answer["symbol"]) == (
            "src/bytes_mut.rs",
            379,
            "BytesMut::split_to",
        )
        assert best["values"] == {"at": "9", "self.len()": "2"}


def test_panic_location_that_is_no_site_says_another_version(store: SqliteStore) -> None:
    text = moved(fixture("rust_crate_assert"), 534, "advance out of bounds: 5 <= 3")
    part = only_part(store, text)
    answer = part["answer"]
    assert answer["kind"] == "location"
    assert (answer["path"], answer["line"]) == ("src/bytes.rs", 534)
    assert answer["other_version"] is True and answer["runtime"] is False
    assert answer["ran_version"] == "1.0.0" and len(answer["commit"]) == 40
    # "advance" (a test's unreachable!) shares one word: it is no twin
    assert not any(m["exact"] and not m["partial"] for m in part["matches"])


def test_moved_panic_with_a_matching_message_is_its_entry(store: SqliteStore) -> None:
    part = only_part(store, moved(fixture("rust_crate_assert"), 534))
    assert part["raised_in"]["other_version"] is True
    answer = part["answer"]
    assert answer["kind"] == "entry" and "cannot advance past" in answer["message"]
    # no site is at the panic location; the site in the same file is the nearest
    assert part["matches"][0]["site"] is None
    assert (answer["path"], answer["line"]) == ("src/bytes.rs", 549)


def test_unwrap_of_a_tuple_struct_error_matches_its_inner_message(store: SqliteStore) -> None:
    part = only_part(store, fixture("rust_unwrap_debug_str"))
    best = part["matches"][0]
    assert best["repo"] == "dtolnay/semver"
    assert best["message"] == "unexpected character {} while parsing {}"
    assert best["exact"] and not best["partial"]
    assert best["values"] == {"QuotedChar(*ch)": "'x'", "pos": "minor version number"}
    assert part["answer"]["kind"] == "entry" and part["answer"]["id"] == best["id"]


def test_expect_with_a_multiline_debug_report_matches_its_error_line(
    store: SqliteStore,
) -> None:
    part = only_part(store, fixture("rust_expect_debug_report"))
    best = part["matches"][0]
    assert (best["repo"], best["message"]) == ("rust-lang/regex-syntax", "unclosed group")
    assert best["exact"] and not best["partial"]
    assert part["answer"]["kind"] == "entry" and part["answer"]["id"] == best["id"]


def test_unwrap_in_crate_code_is_the_standard_librarys_panic(store: SqliteStore) -> None:
    # the location of an unwrap() is the line that called it, no panic site
    text = (
        "\nthread 'main' (1) panicked at /usr/share/cargo/registry/bytes-1.2.1/src/bytes.rs:544:9:\n"
        "called `Option::unwrap()` on a `None` value\n"
    )
    answer = only_part(store, text)["answer"]
    assert answer["kind"] == "location"
    assert answer["runtime"] is True and answer["other_version"] is False


@pytest.mark.parametrize(
    "name", ["rust_eyre_main", "rust_eyre_unwrap", "rust_anyhow_alone", "rust_eyre_alternate"]
)
def test_a_wrapped_semver_error_leads_to_semver_through_the_report(
    store: SqliteStore, name: str
) -> None:
    """eyre's and anyhow's reports of ``Version::parse("1.2")`` wrapped twice
    (``Caused by:`` lists, from ``main``, ``unwrap()`` and ``{:?}``; and the
    ``{:#}`` one-line chain): the last part is semver's message."""
    parts = explain_text(store, fixture(name))["parts"]
    top = parts[-1]["matches"][0]
    assert (top["repo"], top["message"]) == (
        "dtolnay/semver",
        "unexpected end of input while parsing {}",
    )


def test_dbg_of_a_semver_result_leads_to_semver(store: SqliteStore) -> None:
    top = explain_text(store, fixture("rust_dbg"))["parts"][-1]["matches"][0]
    assert top["message"] == "unexpected end of input while parsing {}"
