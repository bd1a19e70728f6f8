"""Rust error values as throw sites: where a variant with a message is built
(``Error::X { .. }.bt()``, ``Err(Error::X(..))``, ``.ok_or(Error::X)``,
``bail!(Error::X ..)``, ``Self::X``), with its definition as "defined at"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errordex.model import ErrorEntry
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from errordex.views import entry_json
from tests.analysis.conftest import index_fixture

CANDLE = Path("/work/.mirror/huggingface+candle/repo")
AXUM = Path("/work/.mirror/tokio-rs+axum/repo")


@pytest.fixture(scope="module")
def errtypes(tmp_path_factory: pytest.TempPathFactory) -> tuple[SqliteStore, int]:
    return index_fixture("errtypes", tmp_path_factory.mktemp("errtypes"))


def _entry(store: SqliteStore, sid: int, message: str) -> ErrorEntry:
    found = [e for e in store.entries(include_test_only=True) if e.message == message]
    assert len(found) == 1, [e.message for e in store.entries(include_test_only=True)]
    return found[0]


def _places(e: ErrorEntry) -> list[tuple[str, int, str]]:
    return [(s.path, s.line, s.kind) for s in e.sites]


def test_construction_sites_join_the_variant_entry_with_the_definition_last(
    errtypes: tuple[SqliteStore, int],
) -> None:
    store, sid = errtypes
    e = _entry(store, sid, "shape mismatch in {op}, lhs: {lhs:?}, rhs: {rhs:?}")
    assert _places(e) == [
        ("src/lib.rs", 9, "construct"),  # Err(Error::X { .. }.bt())?
        ("src/lib.rs", 19, "construct"),  # bail!(Error::X { .. })
        ("src/error.rs", 5, "error-attr"),
    ]
    assert e.sites[0].guards[-1].text == "lhs != rhs"
    assert e.sites[0].symbol == "add"
    # bail!(Error::X { .. }) is the value built, not a message built at run time
    assert not [
        x for x in store.entries(include_test_only=True) if "bail" in x.kinds and x.template.dynamic
    ]


def test_each_form_of_construction_is_a_site(errtypes: tuple[SqliteStore, int]) -> None:
    store, sid = errtypes
    empty = _entry(store, sid, "the tensor is empty")
    assert _places(empty)[:-1] == [("src/lib.rs", 25, "construct"), ("src/lib.rs", 31, "construct")]
    rank = _entry(store, sid, "unexpected rank {0}")
    assert [(s.line, s.kind) for s in rank.sites] == [(16, "construct"), (7, "error-attr")]
    # a hand-written Display matching on a kind: the kind's variant is built
    digit = _entry(store, sid, "invalid digit found in string")
    assert (digit.sites[0].path, digit.sites[0].line) == ("src/lib.rs", 40)
    assert digit.sites[0].exception_type == "ParseErrorKind::InvalidDigit"


def test_a_passthrough_variant_takes_the_message_written_where_it_is_built(
    errtypes: tuple[SqliteStore, int],
) -> None:
    store, sid = errtypes
    assert _places(_entry(store, sid, "cannot {what}")) == [("src/lib.rs", 57, "construct")]
    assert _places(_entry(store, sid, "message: {text}")) == [("src/error.rs", 27, "construct")]


def test_patterns_and_types_without_a_message_are_not_sites(
    errtypes: tuple[SqliteStore, int],
) -> None:
    store, _ = errtypes
    lines = {
        (s.path, s.line)
        for e in store.entries(include_test_only=True)
        for s in e.sites
        if s.kind == "construct"
    }
    assert not {("src/lib.rs", n) for n in range(44, 54)} & lines  # match arms, io::ErrorKind
    assert ("src/lib.rs", 29) not in lines  # .map_err(Error::Io): #[error(transparent)]


def test_a_variant_built_only_in_tests_says_so(errtypes: tuple[SqliteStore, int]) -> None:
    store, sid = errtypes
    only = store.analysis(sid, _entry(store, sid, "only tests build this").id)
    assert only is not None
    meaning = only["analysis"]["meaning"]["text"]
    assert "Only test code builds it (tests/build.rs:5)" in meaning
    none = store.analysis(sid, _entry(store, sid, "nothing builds this").id)
    assert none is not None
    assert "found no place that builds it" in none["analysis"]["meaning"]["text"]


def test_page_json_marks_the_definition_and_counts_the_builders(
    errtypes: tuple[SqliteStore, int],
) -> None:
    store, sid = errtypes
    e = _entry(store, sid, "the tensor is empty")
    snap = store.snapshot(sid)
    data = entry_json(e, snap, store)
    assert [s.get("defines", False) for s in data["sites"]] == [False, False, True]
    meaning = data["analysis"]["meaning"]["text"]
    assert (
        "`Error::Empty` is defined at src/error.rs:9. 2 places outside tests build it." in meaning
    )
    assert "returns this error" in data["analysis"]["summary"]["text"]


@pytest.mark.corpus
@pytest.mark.skipif(not CANDLE.is_dir(), reason="needs the fetched huggingface/candle")
def test_candle_shape_mismatch_lists_its_construction_sites(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "candle.db")
    sid = index(str(CANDLE), store, name="huggingface/candle", jobs=2).snapshot_id
    e = _entry(store, sid, "shape mismatch in {op}, lhs: {lhs:?}, rhs: {rhs:?}")
    built = [s for s in e.catalog_sites if s.kind == "construct"]
    assert len(built) >= 10
    assert {s.exception_type for s in built} == {"Error::ShapeMismatchBinaryOp"}
    assert e.catalog_sites[-1].kind == "error-attr"
    assert e.catalog_sites[-1].path == "candle-core/src/error.rs"


def test_where_and_when_a_panic_fails_is_on_its_page(errtypes: tuple[SqliteStore, int]) -> None:
    """``#[track_caller]``: reported at the caller's line; ``debug_assert!``:
    gone in release builds; a ``const``: a compile error (issue 14, item 4)."""
    store, sid = errtypes
    snap = store.snapshot(sid)

    def page(message: str) -> dict[str, Any]:
        return entry_json(_entry(store, sid, message), snap, store)

    split = page("split_to out of bounds: {:?} <= {:?}")
    assert (
        "`Buf::split_to` is `#[track_caller]`: the panic is reported at the line"
        in (split["analysis"]["meaning"]["text"])
    )
    assert split["printed"].startswith("thread 'main' panicked at <your file>:<line>:<column>:")
    advance = page("internal: advance out of bounds")
    assert "a release build does not check it" in advance["analysis"]["meaning"]["text"]
    limit = page("usize is too small for LIMIT")
    assert "compile error, not a panic at run time" in limit["analysis"]["meaning"]["text"]


def test_a_message_passed_to_a_macro_of_the_workspace_is_a_site(
    errtypes: tuple[SqliteStore, int],
) -> None:
    """axum's ``define_rejection! { #[body = "..."] pub struct X; }``, called
    by an alias in another file (issue 14, item 5)."""
    store, sid = errtypes
    e = _entry(store, sid, "Failed to parse the request body as JSON")
    assert _places(e) == [("src/rejection.rs", 5, "display-impl")]
    assert e.exception_types == ("JsonSyntaxError",)
    messages = {x.message for x in store.entries(include_test_only=True)}
    assert "hello there" not in messages


@pytest.mark.corpus
@pytest.mark.skipif(not AXUM.is_dir(), reason="needs the fetched tokio-rs/axum")
def test_axum_rejection_bodies_are_sites(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "axum.db")
    sid = index(str(AXUM), store, name="tokio-rs/axum", jobs=2).snapshot_id
    e = _entry(store, sid, "Failed to deserialize the JSON body into the target type")
    assert ("axum/src/extract/rejection.rs", "JsonDataError") in {
        (s.path, s.exception_type) for s in e.sites
    }


REGISTRY = Path("/usr/share/cargo/registry")


def _crate(tmp_path: Path, name: str, slug: str) -> SqliteStore:
    found = sorted(REGISTRY.glob(f"{name}-[0-9]*"))
    if not found:
        pytest.skip(f"needs Debian's librust-{name}-dev")
    store = SqliteStore(tmp_path / "db.sqlite")
    index(str(found[-1]), store, name=slug, jobs=1)
    return store


def test_an_error_built_of_its_text_is_a_site_with_that_text(tmp_path: Path) -> None:
    # syn 1.0: Error::new(err.span(), "lex error"), and new_at's
    # Error::new(scope, format!("unexpected end of input, {}", message))
    store = _crate(tmp_path, "syn", "dtolnay/syn")
    messages = {e.message: e for e in store.entries()}
    lex = messages["lex error"]
    assert [(s.path, s.kind, s.exception_type) for s in lex.sites] == [
        ("src/error.rs", "err-return", "Error")
    ]
    assert "unexpected end of input, {}" in messages
    assert "unexpected token" in messages


def test_a_helper_that_passes_its_text_to_the_error_makes_each_call_a_site(
    tmp_path: Path,
) -> None:
    # rust_decimal 1.23: tail_error(from: &'static str) { Err(from.into()) },
    # called as tail_error("Invalid decimal: empty"); cc 1.0's
    # Error::new(ErrorKind::EnvVarNotFound, &format!("Environment variable {} not defined.", v))
    store = _crate(tmp_path, "rust_decimal", "paupino/rust-decimal")
    empty = next(e for e in store.entries() if e.message == "Invalid decimal: empty")
    via = [s for s in empty.sites if s.via]
    assert via and via[0].via is not None and "tail_error" in via[0].via
    # Error::from("Invalid decimal: empty"), which its From impl builds as
    # Self::ErrorString(from.into()) in src/error.rs
    built = [s for s in empty.sites if s.via is None]
    assert [(s.path, s.kind, s.exception_type) for s in built] == [
        ("src/str.rs", "construct", "Error::ErrorString")
    ]
    assert "Error::ErrorString" in empty.exception_types


def test_a_display_that_writes_a_const_of_its_file_has_that_text(tmp_path: Path) -> None:
    # arrayvec 0.7: const CAPERROR: &'static str = "insufficient capacity";
    # impl Display for CapacityError { write!(f, "{}", CAPERROR) }
    store = _crate(tmp_path, "arrayvec", "bluss/arrayvec")
    e = next(e for e in store.entries() if e.message == "insufficient capacity")
    assert "CapacityError" in e.exception_types
    assert any(s.path == "src/errors.rs" and s.kind == "display-impl" for s in e.sites)


def test_a_variant_whose_display_writes_what_it_holds_takes_the_text_it_is_built_with(
    tmp_path: Path,
) -> None:
    # serde_urlencoded 0.7: Error::Custom(ref msg) => msg.fmt(f), built as
    # Error::Custom("unsupported value".into()) in src/ser/value.rs
    store = _crate(tmp_path, "serde_urlencoded", "nox/serde_urlencoded")
    e = next(e for e in store.entries() if e.message == "unsupported value")
    assert list(e.exception_types) == ["Error::Custom"]
    assert [(s.path, s.kind) for s in e.sites] == [("src/ser/value.rs", "construct")]


def test_a_variant_whose_display_wraps_what_it_holds_takes_the_text_it_is_built_with(
    tmp_path: Path,
) -> None:
    # jpeg-decoder 0.2: Error::Format(ref desc) => write!(f, "invalid JPEG format: {}", desc),
    # built as Err(Error::Format("scan encountered before frame".to_owned())) in src/decoder.rs
    store = _crate(tmp_path, "jpeg-decoder", "image-rs/jpeg-decoder")
    messages = {e.message: e for e in store.entries()}
    e = messages["invalid JPEG format: scan encountered before frame"]
    assert list(e.exception_types) == ["Error::Format"]
    assert [(s.path, s.kind) for s in e.sites] == [("src/decoder.rs", "construct")]
    # the variant's own entry keeps its definition, and the sites that give it
    # no text of words (a format! of placeholders, a variable)
    assert "invalid JPEG format: {}" in messages


def test_a_text_written_in_a_display_arm_is_not_where_the_variant_is_declared(
    tmp_path: Path,
) -> None:
    # clap 4's `ErrorKind::as_str` and a hand-written `Display` hold the
    # texts of variants declared elsewhere in the file
    src = (
        "use std::fmt;\n\n"
        "#[derive(Debug)]\n"
        "pub enum ParseError {\n"
        "    Empty,\n"
        "    TooLong,\n"
        "}\n\n"
        "impl fmt::Display for ParseError {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
        "        match self {\n"
        '            ParseError::Empty => write!(f, "empty input"),\n'
        '            ParseError::TooLong => write!(f, "input too long"),\n'
        "        }\n"
        "    }\n"
        "}\n\n"
        "pub fn parse(s: &str) -> Result<u8, ParseError> {\n"
        "    if s.is_empty() {\n"
        "        return Err(ParseError::Empty);\n"
        "    }\n"
        "    s.len().try_into().map_err(|_| ParseError::TooLong)\n"
        "}\n"
    )
    (tmp_path / "repo" / "src").mkdir(parents=True)
    (tmp_path / "repo" / "Cargo.toml").write_text('[package]\nname = "p"\nversion = "1.0.0"\n')
    (tmp_path / "repo" / "src" / "lib.rs").write_text(src)
    store = SqliteStore(tmp_path / "db.sqlite")
    sid = index(str(tmp_path / "repo"), store, name="acme/p", jobs=1).snapshot_id
    e = _entry(store, sid, "empty input")
    meaning = entry_json(e, store.snapshot(sid), store)["analysis"]["meaning"]["text"]
    assert (
        "`ParseError::Empty` prints this text, written at src/lib.rs:12 in "
        "`<ParseError as fmt::Display>::fmt`." in meaning
    ), meaning
    assert "is defined at src/lib.rs:12" not in meaning
