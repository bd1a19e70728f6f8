"""Golden snapshots of the Go extractor: one small source file per
construct in ``go/cases``, with the JSON it must produce beside it.

Regenerate with ``ERRORDEX_UPDATE_GOLDEN=1 pytest tests/extract/test_go_cases.py``
and review every changed golden by eye before committing it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from errordex import plugins
from errordex.languages.go import extract as go
from errordex.languages.go.fmt import go_fmt, unquote
from tests.golden import check_golden

CASES = Path(__file__).parent / "go" / "cases"


def case_names() -> list[str]:
    return sorted(p.stem for p in CASES.glob("*.go"))


@pytest.mark.parametrize("name", case_names())
def test_go_case_matches_golden(name: str) -> None:
    source = (CASES / f"{name}.go").read_text(encoding="utf-8")
    got = go.extract(f"{name}/{name}.go", source)
    check_golden(
        CASES / f"{name}.json",
        {
            "sites": [s.to_json() for s in got.sites],
            "classes": [c.to_json() for c in got.classes],
        },
        indent=2,
    )


def test_go_is_registered_for_go_files() -> None:
    assert plugins.for_path("pkg/x.go") is plugins.get("go")


def test_go_test_files_mark_their_sites_in_test() -> None:
    sites = go.extract("x_test.go", 'package x\nfunc f() { panic("x") }\n').sites
    assert [s.in_test for s in sites] == [True]


def test_go_broken_source_still_yields_sites() -> None:
    sites = go.extract("x.go", 'package x\nfunc f( { panic("still found")\n').sites
    assert [s.template.display() for s in sites] == ["still found"]


def test_go_return_of_a_sentinel_takes_its_message_in_its_own_package_only() -> None:
    source = (CASES / "sentinels.go").read_text(encoding="utf-8")
    here = go.extract("a/sentinels.go", source)
    other = go.extract("b/other.go", "package b\nfunc f() error { return ErrNotFound }\n")
    _, revise = go.class_messages(here.classes)
    returns = [s for s in here.sites if s.kind == "return"]
    got = [
        (s.line, revised.template.display() if (revised := revise(s)) else None) for s in returns
    ]
    assert got == [(30, "not found"), (33, "line %d: %s"), (35, "closed")]
    assert [revise(s) for s in other.sites] == [None]


def test_go_format_verbs_are_holes_named_by_their_arguments() -> None:
    t = go_fmt("%-5s|%*d|%.2f|%[1]q|%%|%T", ["a", "w", "n", "x", "e"])
    assert t.display() == "%-5s|%*d|%.2f|%[1]q|%|%T"
    assert [(h.expr, h.spec) for h in t.holes] == [
        ("a", "%-5s"),
        ("n", "%*d"),
        ("x", "%.2f"),
        ("a", "%[1]q"),
        ("w", "%T"),
    ]


def test_go_string_literals_unquote() -> None:
    assert unquote('"a\\x41\\u00e9\\n\\101"') == "aAé\nA"
    assert unquote("`raw \\n`") == "raw \\n"
    assert unquote("x") is None
