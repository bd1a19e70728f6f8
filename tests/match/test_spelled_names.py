"""A printed name is looked up without case; an entry whose type differs from
it in case alone gives way to one spelled as printed, and nothing else does."""

from __future__ import annotations

from errordex.match.explain import _spelled
from errordex.match.index import Candidate
from errordex.template import Template


def _c(entry: str, *types: str) -> Candidate:
    return Candidate(entry, "o/" + entry, Template.literal(""), types, ())


def test_a_name_spelled_as_printed_wins_over_its_case_variant() -> None:
    dns = _c("dns", "Error::UnexpectedEOF")
    xml = _c("xml", "SyntaxError::UnexpectedEof")
    assert [c.entry_id for c in _spelled([xml, dns], "UnexpectedEOF")] == ["dns"]


def test_entries_found_another_way_stay() -> None:
    exact = _c("exact", "ParseError")
    generic = _c("generic", "ParseError<T>")  # the same name, with its parameters
    variant = _c("variant", "Error::Parse")  # found through a shape or a first-entry key
    got = _spelled([exact, generic, variant], "ParseError")
    assert [c.entry_id for c in got] == ["exact", "generic", "variant"]


def test_no_exact_spelling_leaves_every_entry() -> None:
    a, b = _c("a", "Error::Unexpectedeof"), _c("b", "Error::UNEXPECTEDEOF")
    assert _spelled([a, b], "UnexpectedEOF") == [a, b]
