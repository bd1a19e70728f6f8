"""Messages a Rust crate writes through a macro or into a field, on real crates from Debian's
registry (bench/probe_rust.py's crates; the texts are what a program built
against them printed):

- ``quick_error!`` enums write each variant's Display in a ``display(..)``
  clause (dns-parser): the variant is an entry like a thiserror variant, and
  its Debug (``HeaderTooShort``, ``InvalidQueryType(999)``) leads there,
  and a name is matched as spelled: dns-parser's ``UnexpectedEOF`` is not
  xml-rs's ``UnexpectedEof`` (both crates are indexed).
- a ``macro_rules!`` that formats the string it is given into an error
  (xml-rs's ``self_error!(self; "Unexpected entity: {}", name)``): each call
  is a site of that text.
- ``f.write_fmt(format_args!(..))``, what ``write!`` expands to, written by
  hand in a Display (byte-unit's ``ValueIncorrectError``).
- a text given to a field that the Display prints as it is (tinytemplate's
  ``Error::GenericError { msg: format!("Unknown template '{}'", name) }``
  and ``write!(f, "{}", msg)``): the construction is a site of that text.
- a function of an error type given a text of words, returned as the error
  (gif's ``Err(DecodingError::format("unexpected EOF"))``).
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
    "dns-parser-0.8.0": "tailhook/dns-parser",
    "xml-rs-0.8.3": "netvl/xml-rs",
    "byte-unit-4.0.13": "magiclen/byte-unit",
    "tinytemplate-1.2.1": "bheisler/TinyTemplate",
    "gif-0.11.3": "image-rs/image-gif",
}

pytestmark = pytest.mark.skipif(
    not all((REGISTRY / c).is_dir() for c in CRATES), reason="needs Debian's librust-*-dev crates"
)

#: (Display, Debug, the entry's message, its type) as dns-parser 0.8 printed them
DNS_PARSER = (
    ("packet is smaller than header size", "HeaderTooShort", None, "Error::HeaderTooShort"),
    (
        "query type 999 is invalid",
        "InvalidQueryType(999)",
        "query type {} is invalid",
        "Error::InvalidQueryType",
    ),
    ("packet is has incomplete data", "UnexpectedEOF", None, "Error::UnexpectedEOF"),
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    store = SqliteStore(tmp_path_factory.mktemp("crates") / "db.sqlite")
    for crate, slug in CRATES.items():
        index(str(REGISTRY / crate), store, name=slug, jobs=1)
    return store


def _top(store: SqliteStore, text: str) -> dict[str, Any]:
    got = explain_text(store, text)["parts"][-1]
    assert got["matches"], got
    top: dict[str, Any] = got["matches"][0]
    return top


def _unwrap(debug: str) -> str:
    return (
        "thread 'main' panicked at src/main.rs:29:23:\n"
        f"called `Result::unwrap()` on an `Err` value: {debug}\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    )


@pytest.mark.parametrize("case", DNS_PARSER, ids=[c[1] for c in DNS_PARSER])
def test_a_quick_error_variant_is_an_entry_each_form_leads_to(
    store: SqliteStore, case: tuple[str, str, str | None, str]
) -> None:
    display, debug, message, type_ = case
    for text in (display, debug, _unwrap(debug), f"Error: {debug}"):
        top = _top(store, text)
        assert top["repo"] == "tailhook/dns-parser", text
        assert top["message"] == (message or display), text
        assert type_ in top["exception_types"], text


#: (Display, Debug, the entry's message) as xml-rs 0.8.3 printed them
XML_RS = (
    (
        "1:7 Unexpected closing tag: b, expected a",
        'Error { pos: 1:7, kind: Syntax("Unexpected closing tag: b, expected a") }',
        "Unexpected closing tag: {}, expected {}",
    ),
    (
        "1:9 Unexpected entity: nope",
        'Error { pos: 1:9, kind: Syntax("Unexpected entity: nope") }',
        "Unexpected entity: {}",
    ),
    (
        "1:1 Unexpected end of stream: no root element found",
        'Error { pos: 1:1, kind: Syntax("Unexpected end of stream: no root element found") }',
        "Unexpected end of stream: no root element found",
    ),
)


@pytest.mark.parametrize("case", XML_RS, ids=[c[2] for c in XML_RS])
def test_a_message_formatted_by_a_crates_own_macro_is_an_entry(
    store: SqliteStore, case: tuple[str, str, str]
) -> None:
    display, debug, message = case
    for text in (display, debug, _unwrap(debug)):
        top = _top(store, text)
        assert top["repo"] == "netvl/xml-rs", text
        assert top["message"] == message, text


def test_a_display_written_with_write_fmt_is_an_entry(store: SqliteStore) -> None:
    # byte_unit::Byte::from_str("abc"), as byte-unit 4.0.13 printed it
    debug = "ValueIncorrect(NotNumber('a'))"
    for text in ("The character 'a' is not a number.", debug, _unwrap(debug)):
        top = _top(store, text)
        assert top["repo"] == "magiclen/byte-unit", text
        assert top["message"] == "The character {:?} is not a number.", text


def test_a_text_given_to_a_field_the_display_prints_is_an_entry(store: SqliteStore) -> None:
    # TinyTemplate::new().render("nope", &()), as tinytemplate 1.2.1 printed it
    debug = "GenericError { msg: \"Unknown template 'nope'\" }"
    for text in ("Unknown template 'nope'", debug, _unwrap(debug)):
        top = _top(store, text)
        assert top["repo"] == "bheisler/TinyTemplate", text
        assert top["message"] == "Unknown template '{}'", text


def test_an_error_types_function_given_a_text_in_err_is_a_site_of_it(store: SqliteStore) -> None:
    # gif::DecodeOptions::new().read_info(&b"junk"[..]), as gif 0.11.3 printed it
    top = _top(store, "unexpected EOF")
    assert top["repo"] == "image-rs/image-gif"
    assert top["message"] == "unexpected EOF"
    assert "DecodingError" in top["exception_types"]
