"""Debug values that hold another error, on real crates from Debian's registry
(bench/probe_rust.py's crates; the texts are what a program built against
them printed):

- a crate's wrapper around another crate's text: serde-xml-rs's ``Syntax {
  source: Error { .. Syntax("Unexpected end of stream") } }`` is
  serde-xml-rs's ``Syntax: {source}``, with xml-rs's text (a site of its
  ``self_error!`` macro) after it; xml-rs's own value still leads to that text.
- a crate's variant named like an ``io::ErrorKind`` and printed with a value
  (pem's ``InvalidData(InvalidByte(0, 33))``) is the crate's, not an
  ``io::Error::new(ErrorKind::InvalidData, ..)`` of png's.
- a variant that holds a text (jpeg-decoder's ``Format("invalid length in
  SOF")``) leads to the message its construction wrote that text into,
  not to tiff's ``Format`` of the same shape.
- one text an enum prints for every variant (rmp's ``DecodeStringError``)
  comes after a variant's own text of the name printed (``TypeMismatch(Null)``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errordex.explain import explain_text
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore

REGISTRY = Path("/usr/share/cargo/registry")
CRATES = {
    "xml-rs-0.8.3": "netvl/xml-rs",
    "serde-xml-rs-0.5.1": "RReverser/serde-xml-rs",
    "pem-1.0.2": "jcreekmore/pem-rs",
    "png-0.17.7": "image-rs/image-png",
    "rmp-0.8.11": "3Hren/msgpack-rust",
    "jpeg-decoder-0.2.6": "image-rs/jpeg-decoder",
    "tiff-0.7.3": "image-rs/image-tiff",
    "bincode-1.3.3": "bincode-org/bincode",
}

pytestmark = pytest.mark.skipif(
    not all((REGISTRY / c).is_dir() for c in CRATES), reason="needs Debian's librust-*-dev crates"
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    store = SqliteStore(tmp_path_factory.mktemp("crates") / "db.sqlite")
    for crate, slug in CRATES.items():
        index(str(REGISTRY / crate), store, name=slug, jobs=1)
    return store


def _matches(store: SqliteStore, text: str) -> list[dict[str, Any]]:
    got = explain_text(store, text)["parts"][-1]
    assert got["matches"], got
    matches: list[dict[str, Any]] = got["matches"]
    return matches


def _unwrap(debug: str) -> str:
    return (
        "thread 'main' panicked at src/main.rs:29:23:\n"
        f"called `Result::unwrap()` on an `Err` value: {debug}\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    )


SERDE_XML = 'Syntax { source: Error { pos: 1:3, kind: Syntax("Unexpected end of stream") } }'


@pytest.mark.parametrize("text", [SERDE_XML, _unwrap(SERDE_XML)], ids=["debug", "unwrap"])
def test_a_wrapper_of_another_crates_text_leads(store: SqliteStore, text: str) -> None:
    got = _matches(store, text)
    assert (got[0]["repo"], got[0]["message"]) == ("RReverser/serde-xml-rs", "Syntax: {source}")
    assert got[0]["values"]["source"].startswith("Error { pos: 1:3")
    # the text it holds is still there, after it
    assert ("netvl/xml-rs", "Unexpected end of stream") in [
        (m["repo"], m["message"]) for m in got[1:]
    ]


def test_a_crates_own_value_still_leads_to_its_text(store: SqliteStore) -> None:
    # xml-rs's Error { pos, kind } is declared by no other crate indexed here
    got = _matches(store, 'Error { pos: 1:3, kind: Syntax("Unexpected end of stream") }')
    assert (got[0]["repo"], got[0]["message"]) == ("netvl/xml-rs", "Unexpected end of stream")


@pytest.mark.parametrize(
    "text", ["InvalidData(InvalidByte(0, 33))", _unwrap("InvalidData(InvalidByte(0, 33))")]
)
def test_a_variant_named_like_an_io_kind_with_a_value_is_the_crates(
    store: SqliteStore, text: str
) -> None:
    got = _matches(store, text)
    assert (got[0]["repo"], got[0]["message"]) == ("jcreekmore/pem-rs", "invalid data: {}")
    assert all("ErrorKind" not in " ".join(m["exception_types"]) for m in got)


def test_an_io_kind_printed_bare_still_finds_the_kinds_texts(store: SqliteStore) -> None:
    # std prints an io::Error of a kind as `Kind(InvalidData)`: the name alone,
    # no value of its own; png's io::Error::new(ErrorKind::InvalidData, ..)
    # texts are its entries, and they stay found by that name
    got = explain_text(store, "InvalidData")["parts"][-1]["matches"]
    assert any("ErrorKind::InvalidData" in " ".join(m["exception_types"]) for m in got)


@pytest.mark.parametrize("text", ["TypeMismatch(Null)", _unwrap("TypeMismatch(FixPos(1))")])
def test_a_variants_own_text_before_one_its_enum_prints_for_all(
    store: SqliteStore, text: str
) -> None:
    got = _matches(store, text)
    assert got[0]["message"] == "the type decoded isn't match with the expected one"
    assert "error while decoding string" in [m["message"] for m in got[1:]]


@pytest.mark.parametrize(
    "text", ['Format("invalid length in SOF")', _unwrap('Format("invalid length in SOF")')]
)
def test_a_held_text_leads_to_the_message_it_was_built_into(store: SqliteStore, text: str) -> None:
    got = _matches(store, text)
    assert (got[0]["repo"], got[0]["message"]) == (
        "image-rs/jpeg-decoder",
        "invalid JPEG format: invalid length in SOF",
    )


def test_a_display_that_starts_with_a_name_and_a_colon_finds_that_message(
    store: SqliteStore,
) -> None:
    got = _matches(store, "ParseIntError: invalid digit found in string")
    assert (got[0]["repo"], got[0]["message"]) == (
        "RReverser/serde-xml-rs",
        "ParseIntError: {source}",
    )
    assert got[0]["values"] == {"source": "invalid digit found in string"}


def test_a_held_text_of_a_crate_without_the_names_comes_after_them(store: SqliteStore) -> None:
    # xml-rs writes "Unexpected end of stream" through its self_error! macro
    # (no type) and has no variant named Format; jpeg-decoder and tiff do
    got = _matches(store, 'Format("Unexpected end of stream")')
    assert got[0]["repo"] in ("image-rs/jpeg-decoder", "image-rs/image-tiff")
    assert "Format" in " ".join(got[0]["exception_types"])


def test_a_std_value_inside_does_not_outrank_the_crates_own_name(store: SqliteStore) -> None:
    # bincode 1.3: ErrorKind::Io(io::Error) prints "io error: {}", and its own
    # ErrorKind::Custom(String) is a tuple, not std's Custom { kind, error }
    text = 'Io(Custom { kind: UnexpectedEof, error: "failed to fill whole buffer" })'
    got = _matches(store, text)
    assert (got[0]["repo"], got[0]["message"]) == ("bincode-org/bincode", "io error: {}")
