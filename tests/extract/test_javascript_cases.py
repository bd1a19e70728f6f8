"""Golden snapshots of the JavaScript/TypeScript extractor: one small source
file per construct in ``javascript/cases`` (.js, .ts, .tsx), with the JSON it
must produce beside it (its sites, and its Error subclasses).

Regenerate with ``ERRORDEX_UPDATE_GOLDEN=1 pytest tests/extract/test_javascript_cases.py``
and review every changed golden by eye before committing it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errordex import plugins
from errordex.template import Hole, Text
from tests.golden import check_golden

CASES = Path(__file__).parent / "javascript" / "cases"
SOURCES = (".js", ".ts", ".tsx")


def case_files() -> list[Path]:
    return sorted(p for p in CASES.iterdir() if p.suffix in SOURCES)


def _extract(path: str, source: str) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    lang = plugins.for_path(path)
    assert lang is not None
    got = lang.extract(path, source)
    return [s.to_json() for s in got.sites], [c.to_json() for c in got.classes]


@pytest.mark.parametrize("case", case_files(), ids=lambda p: p.name)
def test_javascript_case_matches_golden(case: Path) -> None:
    sites, classes = _extract(f"src/{case.name}", case.read_text(encoding="utf-8"))
    assert sites, f"{case.name} has no site"
    check_golden(
        case.with_suffix(case.suffix + ".json"), {"sites": sites, "classes": classes}, indent=2
    )


def test_javascript_typescript_and_tsx_each_read_their_files() -> None:
    paths = ("a.js", "a.mjs", "a.cjs", "a.jsx", "a.ts", "a.tsx")
    names = [getattr(plugins.for_path(p), "name", None) for p in paths]
    assert names == ["javascript"] * 4 + ["typescript", "tsx"]


def test_template_literal_holes_are_placeholders() -> None:
    lang = plugins.get("javascript")
    (site,) = lang.extract("lib.js", "throw new Error(`bad ${port.value} here`)").sites
    assert site.template.syntax == "js-template"
    assert site.template.parts == (Text("bad "), Hole("port.value", "${port.value}"), Text(" here"))


def test_a_test_file_marks_its_sites_in_test() -> None:
    lang = plugins.get("javascript")
    for path in ("test/a.js", "src/a.test.js", "src/__tests__/a.js", "lib/a.spec.ts"):
        got = plugins.for_path(path)
        assert got is not None
        assert [s.in_test for s in got.extract(path, "throw new Error('x')").sites] == [True]
    assert [s.in_test for s in lang.extract("lib/a.js", "throw new Error('x')").sites] == [False]


def test_broken_source_still_yields_sites() -> None:
    lang = plugins.get("javascript")
    sites = lang.extract("lib.js", "function f() { if (x) { throw new Error('still found'); ").sites
    assert [s.template.display() for s in sites] == ["still found"]


def test_assert_without_an_import_of_node_assert_is_not_a_site() -> None:
    """chai's or a local ``assert`` is not node's: only a file that imports it."""
    lang = plugins.get("javascript")
    assert lang.extract("lib.js", "assert(x, 'x is required')").sites == ()


def test_the_runtime_form_is_what_node_prints() -> None:
    """Checked against node 20: ``TypeError: msg``, node's assert with its
    code, and a thrown string as itself."""
    from errordex.runtime import message_line, printed_form

    lang = plugins.get("javascript")
    source = (
        "const assert = require('assert');\n"
        "function f(a) {\n"
        "  assert(a, 'a is required');\n"
        "  if (a > 1) throw new TypeError(`too big: ${a}`);\n"
        "  throw 'plain';\n"
        "}\n"
    )
    checked, typed, plain = lang.extract("lib.js", source).sites
    assert message_line(checked) == "AssertionError [ERR_ASSERTION]: a is required"
    assert printed_form(typed) == "TypeError: too big: ${a}\n    at f (lib.js:4:14)"
    assert printed_form(plain) == "lib.js:5\n...\nplain"


_PIECES = st.sampled_from(
    [
        "throw ",
        "new Error(",
        "`a ${",
        "}`",
        "'x'",
        " + ",
        "(",
        ")",
        "{",
        "}",
        "class A extends Error { constructor(m) { super(m) } }",
        "assert(",
        "Promise.reject(",
        "const m = ",
        "if (x) ",
        "else ",
        ";",
        "\n",
        "=> ",
        "function f(a) ",
        "catch (e) ",
        "expect(() => f()).toThrow(",
        "/re/",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES | st.text(max_size=8), max_size=40).map("".join))
def test_extract_and_scan_never_raise(source: str) -> None:
    for path in ("lib.js", "lib.ts", "view.tsx", "test/a.test.js"):
        lang = plugins.for_path(path)
        assert lang is not None
        tree = lang.parse(source)
        lang.extract(path, source, tree)
        lang.scan(path, source, tree)
