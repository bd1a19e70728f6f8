"""A pasted Debug value leads where its Display text does: the text the
outermost value printed whole from its fields before the names it holds
(datetime's ``Date(OutOfRange)``, nom's ``Error { input: "x", code: Tag }``),
a variant built in the file of its own enum's ``Display`` (datetime's two
``Error`` enums), an enum's one text for every variant (parse-zoneinfo's
``description()``), and an ``io::Error`` that holds a crate's error
(tokio-util's ``Custom { kind: InvalidData, error: LengthDelimitedCodecError }``).
The fixture's types are shaped like those crates' (it builds with cargo)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from errordex.explain import explain_text
from errordex.model import ErrorEntry
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore

FIXTURE = Path(__file__).parent / "fixtures" / "debugshapes"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    root = tmp_path_factory.mktemp("debugshapes")
    shutil.copytree(FIXTURE, root / "debugshapes")
    store = SqliteStore(root / "db.sqlite")
    index(str(root / "debugshapes"), store, name="fixture/debugshapes", jobs=1)
    return store


def _entry(store: SqliteStore, message: str) -> ErrorEntry:
    found = [e for e in store.entries(include_test_only=True) if e.message == message]
    assert len(found) == 1, sorted(e.message for e in store.entries(include_test_only=True))
    return found[0]


def _top(store: SqliteStore, text: str) -> dict[str, Any]:
    parts = explain_text(store, text)["parts"]
    assert parts and parts[-1]["matches"], parts
    top: dict[str, Any] = parts[-1]["matches"][0]
    return top


def _unwrap(debug: str) -> str:
    return (
        "thread 'main' panicked at src/main.rs:4:31:\n"
        f"called `Result::unwrap()` on an `Err` value: {debug}\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    )


def test_a_variant_built_beside_its_enums_one_display_is_that_texts_site(
    store: SqliteStore,
) -> None:
    """datetime 0.5: ``Err(Error::OutOfRange)`` in cal/datetime.rs is that
    file's Error, not cal/offset.rs's ``Error::OutOfRange``."""
    date = _entry(store, "datetime field out of range")
    offset = _entry(store, "offset field out of range")
    assert ("src/cal/datetime.rs", "construct") in {(s.path, s.kind) for s in date.sites}
    assert {s.path for s in offset.sites if s.kind == "construct"} == {"src/cal/offset.rs"}


def test_an_enum_whose_display_prints_description_is_each_variants_text(
    store: SqliteStore,
) -> None:
    """parse-zoneinfo 0.3: ``write!(f, "{}", self.description())`` prints
    ``interpretation error`` for every variant of table.rs's Error; line.rs's
    Error, which has no Display, is not built with that text."""
    e = _entry(store, "interpretation error")
    built = {(s.path, s.kind) for s in e.sites if s.kind == "construct"}
    assert built == {("src/zone/table.rs", "construct")}
    assert {"Error::DuplicateLink", "Error::DuplicateZone"} <= set(e.exception_types)
    for debug in ('DuplicateLink("B")', "DuplicateZone"):
        assert _top(store, _unwrap(debug))["message"] == "interpretation error"


@pytest.mark.parametrize("form", ["debug", "unwrap"])
def test_a_wrapper_printed_whole_from_its_field_comes_before_the_error_it_holds(
    store: SqliteStore, form: str
) -> None:
    """datetime 0.5: ``Date(OutOfRange)`` printed ``parsing resulted in an
    invalid date: datetime field out of range``; ``OutOfRange`` alone would
    be either Error's variant."""
    text = "Date(OutOfRange)" if form == "debug" else _unwrap("Date(OutOfRange)")
    top = _top(store, text)
    assert top["message"] == "parsing resulted in an invalid date: {}"
    assert top["values"] == {"error": "OutOfRange"}


def test_a_parser_error_of_input_and_kind_leads_to_the_structs_text(
    store: SqliteStore,
) -> None:
    """nom 7: ``Error { input: "x1", code: Tag }`` printed ``error Tag at:
    x1``, the struct's text with both fields, not the kind's ``Tag``."""
    top = _top(store, _unwrap('Error { input: "x1", code: Tag }'))
    assert top["message"] == "error {:?} at: {}"
    assert top["values"] == {"self.code": "Tag", "self.input": '"x1"'}


def test_an_io_kind_beside_a_crates_error_is_not_that_kinds_text(store: SqliteStore) -> None:
    """tokio-util 0.7: ``Custom { kind: InvalidData, error:
    LengthDelimitedCodecError }`` printed ``frame size too big``, not the
    ``InvalidData`` error made of ``Unable to decode input as UTF8``."""
    debug = "Custom { kind: InvalidData, error: LengthDelimitedCodecError }"
    assert _top(store, _unwrap(debug))["message"] == "frame size too big"
    made = 'Custom { kind: InvalidData, error: "Unable to decode input as UTF8" }'
    assert _top(store, _unwrap(made))["message"] == "Unable to decode input as UTF8"
