"""The error page's sections, from the analysis JSON (pure rendering)."""

from __future__ import annotations

import doctest
import json
import re
from typing import Any

import errordex.visible
from errordex.visible import visible_controls
from errordex.web import render
from errordex.web.pages import Pages
from errordex.web.render import highlight, json_ld, prose
from errordex.web.urls import Urls
from tests.web.conftest import COMMIT

SECTION_HEADINGS = [
    "What it means",
    "Source",
    "Solutions",
    "Example fix",
    "Defensive patterns",
    "Prevention",
    "When it happens",
    "Related errors",
]


def context(
    analysis: dict[str, Any] | None, related: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    return {
        "version": 1,
        "id": "00000000000000aa",
        "repo": "acme/widgets",
        "repo_url": "https://github.com/acme/widgets",
        "forge_ref": COMMIT,
        "report_url": None,
        "commit": COMMIT,
        "commit_date": "2026-11-30",
        "title": "bad thing",
        "message": "bad thing",
        "printed": "ValueError: bad thing",
        "template": {"syntax": "literal", "dynamic": False, "parts": [{"text": "bad thing"}]},
        "kinds": ["raise"],
        "exception_types": ["ValueError"],
        "sites": [
            {
                "path": "m.py",
                "line": 3,
                "column": 5,
                "kind": "raise",
                "language": "python",
                "exception_type": "ValueError",
                "symbol": "f",
                "guards": [],
                "url": None,
                "snippet": {
                    "start": 1,
                    "lines": ["def f(x):", "  if x:", "    raise ValueError('bad thing')"],
                    "mark": [3, 3],
                },
            }
        ],
        "test_sites": [],
        "facts": {},
        "analysis": analysis,
        "related": related or [],
    }


FULL = {
    "question": "What causes “bad thing” in acme/widgets?",
    "summary": {"text": "`f` raises `ValueError` when `x` is set.", "evidence": ["m.py:3"]},
    "meaning": {"text": "It is a builtin exception.", "evidence": []},
    "trigger": {"text": "Calling `f(1)`.", "evidence": ["m.py:2"], "paths": ["`f`"]},
    "situations": {"text": "a b", "items": ["first situation", "second situation"], "evidence": []},
    "solutions": [
        {"text": "Pass a falsy `x`.", "evidence": ["m.py:2"]},
        {"text": "Catch `ValueError`.", "evidence": ["m.py:9"]},
    ],
    "example_fix": {
        "text": "Turn it off.",
        "evidence": ["Cargo.toml:4"],
        "before": {"language": "toml", "code": '[dependencies]\nx = "1"'},
        "after": {"language": "toml", "code": '[dependencies]\nx = { version = "1" }'},
    },
    "defensive_patterns": [
        {
            "text": "Check first.",
            "evidence": ["m.py:2"],
            "strategy": "validation",
            "title": "Validate before calling",
            "language": "python",
            "code": "if not x:\n    f(x)",
        }
    ],
    "prevention": {"text": "one. two.", "items": ["one.", "two."], "evidence": ["m.py:2"]},
    "reproductions": [
        {
            "text": "`test_f` (raises)",
            "evidence": ["tests/test_m.py:5"],
            "language": "python",
            "code": "f(1)",
        }
    ],
    "provenance": {"kind": "static"},
}


def headings(html: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>|\s*\(.*", "", h)
        for h in re.findall(r"<h2 id=\"[a-z_]+-h\"[^>]*>(.*?)</h2>", html)
    ]


def test_all_sections_render_in_page_order() -> None:
    related = [
        {"id": "00000000000000bb", "message": "other", "title": "other", "repo": "acme/widgets"}
    ]
    html = Pages(Urls("/")).error_page(context(FULL, related))
    found = [h for h in headings(html) if h in SECTION_HEADINGS]
    assert found == SECTION_HEADINGS
    assert "What causes &#34;bad thing&#34; in acme/widgets?" in html
    assert "<code>f</code> raises <code>ValueError</code> when <code>x</code> is set." in html
    assert '<ol class="solutions">' in html and html.count('<li><span class="item-text">') >= 2
    assert "<li>first situation</li>" in html and "<li>second situation</li>" in html
    assert "Validate before calling (validation)" in html
    assert "<figcaption>Before</figcaption>" in html and "<figcaption>After</figcaption>" in html
    assert "Tests that reproduce it" in html and "Trigger" in html
    assert f'href="https://github.com/acme/widgets/blob/{COMMIT}/m.py#L2"' in html


def test_absent_sections_are_omitted_without_placeholder_text() -> None:
    html = Pages(Urls("/")).error_page(context(None))
    found = [h for h in headings(html) if h in SECTION_HEADINGS]
    assert found == ["Source"]
    assert "What causes" not in html  # no answer, no question
    for word in ("TODO", "placeholder text", "Lorem", "None", "undefined"):
        assert word not in re.sub(r"<[^>]+>", "", html), word


def test_faq_json_ld_only_with_an_answer() -> None:
    def types(html: str) -> list[str]:
        blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
        return [json.loads(b)["@type"] for b in blocks]

    assert types(Pages(Urls("/"), site="https://x.org/").error_page(context(FULL))) == [
        "TechArticle",
        "FAQPage",
    ]
    assert types(Pages(Urls("/")).error_page(context(None))) == ["TechArticle"]


def test_related_errors_are_listed_once_and_in_full() -> None:
    long = "a message that is much longer than sixty characters, so it must not be cut at all"
    rel = [
        {"id": "00000000000000bb", "message": long, "title": long},
        {"id": "00000000000000bb", "message": long, "title": long},
        {"id": "00000000000000aa", "message": "itself", "title": "itself"},
    ]
    html = Pages(Urls("/")).error_page(context(FULL, rel))
    assert html.count(long) == 1
    assert 'href="/acme/widgets/errors/00000000000000aa"' not in html


def test_json_ld_cannot_close_its_script_element() -> None:
    out = str(json_ld({"headline": "</script><script>alert(1)</script><!-- & \u2028"}))
    assert "<" not in out and ">" not in out and "&" not in out
    assert json.loads(out)["headline"].startswith("</script>")


def test_snippet_is_escaped_numbered_and_marked() -> None:
    html = str(
        highlight(
            {"start": 10, "lines": ["a = '<b>'", "raise X('&')", "b"], "mark": [11, 11]}, "python"
        )
    )
    assert "<b>" not in html and "&lt;b&gt;" in html and "&amp;" in html
    assert re.findall(r'<span class="ln" aria-hidden="true">(\d+)</span>', html) == [
        "10",
        "11",
        "12",
    ]
    assert html.count('class="mark"') == 1
    assert '<span class="mark"><span class="ln" aria-hidden="true">11</span>' in html


def test_prose_escapes_before_marking_code() -> None:
    assert str(prose("use `<x>` & `y`")) == "use <code>&lt;x&gt;</code> &amp; <code>y</code>"


def site(path: str, line: int, **extra: Any) -> dict[str, Any]:
    return {
        "path": path,
        "line": line,
        "column": 5,
        "kind": "raise",
        "language": "python",
        "exception_type": "BadParameter",
        "symbol": "Choice.convert",
        "guards": [],
        "url": f"https://github.com/acme/widgets/blob/{COMMIT}/{path}#L{line}",
        **extra,
    }


def test_forwarded_site_names_the_raise_it_goes_through_linked_to_the_forge() -> None:
    ctx = context(None)
    ctx["sites"] = [site("click/types.py", 472, via="click/types.py:222 ParamType.fail")]
    html = Pages(Urls("/")).error_page(ctx)
    heading = re.search(r"<h3>Thrown at (.*?)</h3>\s*<p class=\"via\">(.*?)</p>", html, re.S)
    assert heading is not None
    text = re.sub(r"<[^>]+>", "", heading.group(1) + " — " + heading.group(2))
    assert text.startswith(
        "click/types.py:472 in Choice.convert — Raised by ParamType.fail at click/types.py:222"
    )
    assert (
        f'<a href="https://github.com/acme/widgets/blob/{COMMIT}/click/types.py#L222" '
        'rel="noopener"><code>click/types.py:222</code></a>'
    ) in heading.group(2)


def test_via_is_escaped_and_unlinked_without_a_forge() -> None:
    ctx = context(None)
    ctx["forge_ref"] = None
    ctx["sites"] = [site("m.py", 3, via="m<x>.py:9 <b>Bad</b>")]
    html = Pages(Urls("/")).error_page(ctx)
    via = re.search(r'<p class="via">(.*?)</p>', html, re.S)
    assert via is not None
    assert "<b>" not in via.group(1) and "&lt;b&gt;Bad&lt;/b&gt;" in via.group(1)
    assert "<a " not in via.group(1) and "m&lt;x&gt;.py:9" in via.group(1)


def test_sites_beyond_the_first_three_are_collapsed_with_every_link_kept() -> None:
    ctx = context(None)
    ctx["sites"] = [site(f"src/m{i}.py", 10 + i) for i in range(8)]
    html = Pages(Urls("/")).error_page(ctx)
    head, _, folded = html.partition('<details class="more-sites"')
    assert head.count('class="throw-site"') == 3
    assert folded.count('class="throw-site"') == 5
    assert "5 more sites" in folded
    for i in range(8):
        assert f"/src/m{i}.py#L{10 + i}" in html
    # four sites or fewer: all shown
    ctx["sites"] = ctx["sites"][:4]
    assert "more-sites" not in Pages(Urls("/")).error_page(ctx)


def test_title_marks_its_placeholders_only_when_it_is_the_template_text() -> None:
    ctx = context(None)
    ctx["title"] = ctx["message"] = "{value!r} is not one of {choices}."
    ctx["template"] = {
        "syntax": "py-format",
        "dynamic": False,
        "parts": [
            {"hole": "value", "spec": "{value!r}"},
            {"text": " is not one of "},
            {"hole": "choices", "spec": "{choices}"},
            {"text": "."},
        ],
    }
    html = Pages(Urls("/")).error_page(ctx)
    h1 = re.search(r'<h1 class="message">(.*?)</h1>', html, re.S)
    assert h1 is not None
    assert h1.group(1) == (
        '<span class="ph" title="placeholder: value">{value!r}</span> is not one of '
        '<span class="ph" title="placeholder: choices">{choices}</span>.'
    )
    ctx["title"] = "a title that is not the template <b>"
    h1 = re.search(r'<h1 class="message">(.*?)</h1>', Pages(Urls("/")).error_page(ctx), re.S)
    assert h1 is not None and h1.group(1) == "a title that is not the template &lt;b&gt;"


def _ctx_with(parts: list[dict[str, str]]) -> dict[str, object]:
    title = "".join(p.get("text", p.get("spec", "")) for p in parts)
    return {
        "title": title,
        "template": {"syntax": "py-percent", "dynamic": False, "parts": parts},
    }


JSON_PARTS = [
    {"text": "Expecting value: line "},
    {"hole": "lineno", "spec": "%d"},
    {"text": " column "},
    {"hole": "colno", "spec": "%d"},
    {"text": " (char "},
    {"hole": "err.value", "spec": "%d"},
    {"text": ")"},
]


def test_title_names_positional_placeholders_by_what_fills_them() -> None:
    parts = render.title_parts(_ctx_with(JSON_PARTS))
    assert parts is not None
    assert [p["label"] for p in parts if "hole" in p] == ["‹lineno›", "‹colno›", "‹err.value›"]
    named = [{"hole": "value", "spec": "{value!r}"}, {"text": " is bad"}]
    assert [p.get("label") for p in render.title_parts(_ctx_with(named)) or []] == [
        "{value!r}",
        None,
    ]
    # An expression is not a name: the spec stays.
    assert render.hole_label({"hole": "len(self.items) - 1", "spec": "{}"}) == "{}"


def test_question_asks_about_the_leading_phrase_of_the_message() -> None:
    assert render.question_subject_of(_ctx_with(JSON_PARTS)) == "Expecting value"
    rust = [
        {"text": "range start must not be greater than end: "},
        {"hole": "begin", "spec": "{:?}"},
    ]
    assert render.question_subject_of(_ctx_with(rust)) == (
        "range start must not be greater than end"
    )
    # No phrase of its own before the first placeholder: the whole title.
    short = [{"hole": "value", "spec": "{value!r}"}, {"text": " is not one of the choices"}]
    assert render.question_subject_of(_ctx_with(short)) == "{value!r} is not one of the choices"
    one_word = [{"text": "Bad: "}, {"hole": "x", "spec": "%s"}]
    assert render.question_subject_of(_ctx_with(one_word)) == "Bad: %s"
    got = [{"text": "Expected a, b or c, got "}, {"hole": "x", "spec": "%r"}]
    assert render.question_subject_of(_ctx_with(got)) == "Expected a, b or c"
    # A phrase cut mid-sentence is no subject.
    dangling = [{"text": "Error decoding metadata for "}, {"hole": "wheel", "spec": "%s"}]
    assert render.question_subject_of(_ctx_with(dangling)) == "Error decoding metadata for %s"


def test_visible_controls_docstring_examples_hold() -> None:
    assert doctest.testmod(errordex.visible).failed == 0
    assert visible_controls("\x1b\x00\x9b\r\t\n") == "\\x1b\\x00\\x9b\\x0d\t\n"
