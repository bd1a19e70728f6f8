"""What `verify` counts as grounded in a section's text."""

from __future__ import annotations

from errordex.analysis.verify import Verifier

STORED = {"src/pkg/compat.py": 40}


def check(text: str) -> list[str]:
    v = Verifier(STORED.get, {"known_name"}, [])
    v.check("e1", {"summary": {"text": text, "provenance": "static"}}, "python")
    return [p.detail for p in v.report.problems]


def test_a_stored_file_named_in_a_code_span_is_grounded() -> None:
    assert check("See `src/pkg/compat.py` and `known_name`.") == []


def test_a_file_that_is_not_in_the_snapshot_is_reported() -> None:
    assert check("See `src/pkg/missing.py`.") == ["src/pkg/missing.py is not stored"]


def test_an_unknown_name_in_a_code_span_is_reported() -> None:
    assert check("Call `made_up_name`.") == ["'made_up_name' in `made_up_name`"]


def test_names_inside_a_quotation_of_the_repo_are_not_our_claims() -> None:
    assert check("The docs say: “panics if `dimension_size - 1` is exceeded”.") == []


def test_a_dotted_symbol_that_looks_like_a_file_is_checked_as_names() -> None:
    # sqlalchemy's nested function `instances._not_hashable.go`
    v = Verifier(STORED.get, {"instances", "_not_hashable", "go"}, [])
    text = "`instances._not_hashable.go` raises it."
    v.check("e1", {"summary": {"text": text, "provenance": "static"}}, "python")
    assert v.report.problems == []
    assert sorted(check("`known_name.other.go` raises it.")) == [
        "'go' in `known_name.other.go`",
        "'other' in `known_name.other.go`",
    ]


def test_a_prefixed_string_literal_in_a_code_span_names_nothing() -> None:
    # A table row's input, as written: `b'['` is a bytes literal, not the name `b`.
    assert check("The row `b'['` raises it, and so does `rb\"x\"`.") == []
