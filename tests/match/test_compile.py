import pytest

from errordex.match.compile import MatchStats, compile_template, hole_kind
from errordex.template import Hole, Template, Text


def tpl(*parts: str | Hole, syntax: str = "rust-fmt") -> Template:
    return Template.of(syntax, *(Text(p) if isinstance(p, str) else p for p in parts))


def values(t: Template, message: str, partial: bool = False) -> list[str] | None:
    r = compile_template(t).match(message, partial=partial)
    return None if r is None else [v for _, v in r.values]


@pytest.mark.parametrize(
    ("spec", "kind"),
    [
        ("{}", "text"),
        ("%s", "text"),
        ("{x}", "text"),
        ("${x}", "text"),
        ("%v", "text"),
        ("%w", "text"),
        ("%d", "int"),
        ("%5d", "int"),
        ("%i", "int"),
        ("{:d}", "int"),
        ("%(count)d", "int"),
        ("%f", "float"),
        ("%.2f", "float"),
        ("{:.2f}", "float"),
        ("{x:e}", "float"),
        ("{:?}", "repr"),
        ("{:#?}", "repr"),
        ("{name:?}", "repr"),
        ("%r", "repr"),
        ("%(k)r", "repr"),
        ("{x!r}", "repr"),
        ("%#v", "repr"),
        ("%x", "hex"),
        ("{:#x}", "hex"),
        ("%q", "quoted"),
    ],
)
def test_hole_kind_reads_the_spec(spec: str, kind: str) -> None:
    assert hole_kind(Hole("x" if "x" in spec else "", spec)) == kind


def test_hole_kind_path_from_expression() -> None:
    assert hole_kind(Hole("path.display()", "{}")) == "path"
    assert hole_kind(Hole("self.filename", "{self.filename}")) == "path"
    assert hole_kind(Hole("name", "{}")) == "text"


def test_free_text_placeholders_match_anything() -> None:
    for spec in ("{}", "%s", "{x}", "%v", "%w", "${x}"):
        t = tpl("cannot open ", Hole("x", spec), " for reading")
        assert values(t, "cannot open /tmp/a b.txt for reading") == ["/tmp/a b.txt"]


def test_int_placeholder_rejects_words() -> None:
    for spec in ("%d", "{:d}", "%i", "%5d"):
        t = tpl("expected ", Hole("n", spec), " items")
        assert values(t, "expected 20 items") == ["20"]
        assert values(t, "expected -3 items") == ["-3"]
        assert values(t, "expected many items") is None


def test_float_placeholder_accepts_float_forms() -> None:
    for spec in ("%f", "{:.2f}", "%g"):
        t = tpl("ratio ", Hole("r", spec), " too high")
        for v in ("0.50", "1e-05", "3", "inf", "-2.5"):
            assert values(t, f"ratio {v} too high") == [v]
        assert values(t, "ratio high too high") is None


def test_hex_placeholder() -> None:
    t = tpl("bad address ", Hole("a", "%x"), "!")
    assert values(t, "bad address 0xdeadBEEF!") == ["0xdeadBEEF"]
    assert values(t, "bad address zz!") is None


def test_debug_placeholder_keeps_nested_brackets_and_quotes() -> None:
    t = tpl("left ", Hole("", "{:?}"), ", got ", Hole("", "{:?}"))
    assert values(t, 'left "a, got b", got Foo { a: [1, 2] }') == [
        '"a, got b"',
        "Foo { a: [1, 2] }",
    ]
    t2 = tpl("unexpected ", Hole("x", "%r"), " here")
    assert values(t2, "unexpected 'x' here") == ["'x'"]
    assert values(t2, "unexpected [1, (2, 3)] here") == ["[1, (2, 3)]"]
    assert values(t2, "unexpected [1, (2 here") is None


def test_go_quoted_placeholder() -> None:
    t = tpl("unknown flag ", Hole("f", "%q"), syntax="go-fmt")
    assert values(t, 'unknown flag "--x y"') == ['"--x y"']
    assert values(t, "unknown flag --x") is None


def test_path_placeholder_needs_text() -> None:
    t = tpl("no such file: ", Hole("path", "{path}"))
    assert values(t, "no such file: src/a.rs") == ["src/a.rs"]
    assert values(t, "no such file:") is None


def test_typed_placeholder_backtracks_over_chunk_places() -> None:
    t = tpl(Hole("", "{}"), ": ", Hole("n", "{:d}"), " items")
    assert values(t, "a: b: 5 items") == ["a: b", "5"]


def test_adjacent_placeholders_are_split_by_type() -> None:
    t = tpl(Hole("n", "%d"), Hole("u", "%s"), " left", syntax="py-percent")
    assert values(t, "12abc left") == ["12", "abc"]


def test_whitespace_differences_are_tolerated() -> None:
    t = tpl("line one\n  line ", Hole("n", "{}"), " end")
    assert values(t, "line one line\ttwo\n end") == ["two"]
    assert values(t, "  line   one\nline 2 end  ") == ["2"]


def test_empty_value_between_spaces_matches() -> None:
    assert values(tpl("a ", Hole("", "{}"), " b"), "a b") == [""]
    assert values(tpl(Hole("", "{}"), " is bad"), "is bad") == [""]


def test_a_value_that_opens_the_message_is_not_left_empty() -> None:
    # werkzeug's HTTPException: ``{code} {self.name}: {self.description}``
    t = tpl(Hole("code", "{}"), " ", Hole("self.name", "{}"), ": You don't have the permission")
    assert values(t, "403 Forbidden: You don't have the permission") == ["403", "Forbidden"]


def test_literal_template_must_cover_the_whole_message() -> None:
    t = Template.literal("Requires autodiff tensor.")
    assert values(t, "Requires autodiff tensor.") == []
    assert values(t, "Requires autodiff tensor. extra") is None


def test_partial_match_allows_text_around() -> None:
    t = Template.literal("called `Option::unwrap()` on a `None` value")
    m = compile_template(t).match("boom: called `Option::unwrap()` on a `None` value", partial=True)
    assert m is not None and m.partial
    assert 0 < m.coverage < 1
    t2 = tpl(Hole("n", "%d"), " items", syntax="py-percent")
    assert values(t2, "Error: 5 items", partial=True) == ["5"]
    t3 = tpl("expected ", Hole("n", "%d"), syntax="py-percent")
    assert values(t3, "expected 5 got x", partial=True) == ["5"]


def test_coverage_counts_constant_text() -> None:
    m = compile_template(tpl("bad ", Hole("", "{}"))).match("bad xyz")
    assert m is not None
    assert m.constant_chars == 3 and m.message_chars == 6
    assert m.coverage == pytest.approx(0.5)


def test_dynamic_and_empty_templates_never_match_by_text() -> None:
    assert compile_template(Template.runtime("msg")).match("anything") is None
    assert compile_template(Template.empty()).match("") is None
    assert not compile_template(tpl(Hole("a", "{}"), Hole("b", "{}"))).textual


def test_forty_free_placeholders_on_100kb_stay_linear() -> None:
    t = tpl(*[p for i in range(40) for p in ((" ",) if i else ()) + (Hole(f"a{i}", "%s"),)])
    assert len(t.holes) == 40
    m = compile_template(t)
    for message in ("a" * 100_000, "a " * 50_000, "a b" * 33_000 + "!", " " * 100_000 + "x"):
        st = MatchStats()
        m.match(message, stats=st)
        m.match(message, partial=True, stats=st)
        assert st.attempts <= 2 * 45
        assert st.finds <= 2 * 90


def test_forty_typed_placeholders_stop_at_the_attempt_cap() -> None:
    t = tpl(*[p for i in range(40) for p in ((" ",) if i else ()) + (Hole(f"a{i}", "%d"),)])
    m = compile_template(t)
    st = MatchStats()
    # every place of " " is a candidate, and the last value never verifies
    assert m.match("1 " * 50_000 + "x", stats=st) is None
    assert m.match("1 " * 50_000 + "x", partial=True, stats=st) is None
    assert st.attempts <= 2 * 256 + 2
    assert st.checks <= 2 * 256 + 40


def test_nested_repr_adversarial_is_bounded() -> None:
    t = tpl("a ", Hole("x", "{:?}"), " b ", Hole("y", "{:?}"), " c")
    st = MatchStats()
    assert compile_template(t).match("a " + "( b " * 20_000 + " c", stats=st) is None
    assert st.attempts <= 257
