from __future__ import annotations

from errordex.analysis import scan
from errordex.analysis.cfg import dependency_line, features_in
from errordex.analysis.textmatch import occurs_in, pattern_matches
from errordex.languages.rust.cargo import manifest
from errordex.template import Hole, Template, Text

RUST = """
/// Parse it.
///
/// # Panics
///
/// Panics on an empty string.
pub fn parse(s: &str) -> u8 {
    helper(s)
}

fn helper(s: &str) -> u8 {
    if s.is_empty() { panic!("empty input") }
    0
}

#[test]
#[should_panic(expected = "empty input")]
fn parse_empty() {
    parse("");
}
"""

PY = '''
def load(text):
    """Load it.

    Raises:
        ValueError: if text is empty.
        KeyError: never.
    """
    if not text:
        raise ValueError("empty text")


def _private():
    try:
        load("")
    except (ValueError, KeyError):
        pass


def test_load_empty():
    with pytest.raises(ValueError, match="empty text"):
        load("")
'''


def test_scan_rust_finds_public_fns_docs_calls_and_should_panic() -> None:
    ev = scan("src/lib.rs", RUST, "rust")
    fns = {f.name: f for f in ev.functions}
    assert fns["parse"].public and not fns["helper"].public
    assert [(d.section, d.text, d.line) for d in fns["parse"].docs] == [
        ("Summary", "Parse it.", 2),
        ("Panics", "Panics on an empty string.", 6),
    ]
    assert ("helper", "parse", 8) in {(c.callee, c.caller, c.line) for c in ev.calls}
    (t,) = ev.tests
    assert (t.test, t.kind, t.pattern, t.body, t.calls) == (
        "parse_empty",
        "should_panic",
        "empty input",
        'parse("");',
        ("parse",),
    )


def test_scan_python_finds_raises_docs_catches_and_pytest_raises() -> None:
    ev = scan("pkg/mod.py", PY, "python")
    fns = {f.name: f for f in ev.functions}
    assert fns["load"].public and not fns["_private"].public and fns["test_load_empty"].in_test
    assert [d.text for d in fns["load"].docs] == [
        "Load it.",
        "ValueError: if text is empty.",
        "KeyError: never.",
    ]
    assert {(c.exception, c.symbol) for c in ev.catches} == {
        ("ValueError", "_private"),
        ("KeyError", "_private"),
    }
    (t,) = ev.tests
    assert (t.kind, t.exception, t.pattern, t.body, t.calls) == (
        "pytest.raises",
        "ValueError",
        "empty text",
        'load("")',
        ("load",),
    )


def test_scan_cargo_manifest_lines_of_features_and_deps() -> None:
    m = manifest(
        '[package]\nname = "top"\n\n[dependencies]\nin = { package = "inner", path = "x" }\n'
        '\n[dev-dependencies]\nproptest = "1"\n\n[features]\nfast = ["in/fast"]\n'
    )
    assert m.crate == "top"
    assert m.feature_lines == {"fast": 11}
    assert m.deps == {"in": ("inner", 5)}


def test_features_in_reads_negation() -> None:
    assert features_in('any(not(feature = "a"), all(feature = "b", unix))') == [
        ("a", True),
        ("b", False),
    ]


def test_dependency_line_has_the_version_at_the_indexed_commit() -> None:
    assert dependency_line("top", "1.4.0", "x") == 'top = { version = "1.4.0", features = ["x"] }'
    assert dependency_line("top", "0.14.2+build", "x") == (
        'top = { version = "0.14.2", features = ["x"] }'
    )


def test_occurs_in_placeholders_match_any_text_but_prove_nothing_alone() -> None:
    t = Template.of("rust-fmt", Text("unexpected character "), Hole("c", "{}"), Text(" after"))
    assert occurs_in("unexpected character 'x' after", t)
    assert not occurs_in("something else", t)
    assert not occurs_in("x", Template.of("rust-fmt", Hole("e", "{}")))


def test_pattern_matches_reads_simple_regexes() -> None:
    t = Template.of("py-fstring", Text("negative size: "), Hole("value", "{value}"))
    assert pattern_matches(r"negative size: -1", True, t)
    assert pattern_matches(r"^negative size: \d+$", True, t)
    assert not pattern_matches("positive", True, t)


def test_useful_calls_keeps_what_the_index_reads() -> None:
    from errordex.analysis.index import Index, useful_calls

    ev = scan("t.py", PY + "\nhelper()\n", "python")
    kept = useful_calls(ev)
    # module-level and test-function calls can never be a caller edge: a
    # test's is kept only with its text (an example fix's valid call)
    assert {c.caller for c in kept.calls if not c.text} <= {
        f.symbol for f in ev.functions if not f.in_test
    }
    assert len(kept.calls) < len(ev.calls)
    assert Index([kept], [], []).callers == Index([ev], [], []).callers
    rust = scan("src/lib.rs", RUST, "rust")
    assert useful_calls(rust).calls == tuple(
        c for c in rust.calls if c.text or c.caller in ("parse", "helper")
    )


def test_evidence_pickles_to_equal_values() -> None:
    import pickle

    for ev in (scan("t.py", PY, "python"), scan("src/lib.rs", RUST, "rust")):
        assert pickle.loads(pickle.dumps(ev)) == ev
        assert ev.functions and ev.calls


def test_occurs_in_with_a_larger_share_rejects_text_a_placeholder_took() -> None:
    # "index" is what %d stands for here: a table row must not match on that.
    t = Template.of(
        "py-percent", Text("Breakpoint number "), Hole("n", "%d"), Text(" out of range")
    )
    assert occurs_in("index out of range", t)
    assert not occurs_in("index out of range", t, share=0.8)
    assert occurs_in("Breakpoint number 7 out of range", t, share=0.8)


def test_pins_needs_twelve_characters_or_half_the_message() -> None:
    from errordex.analysis.textmatch import pins

    t = Template.of("py-percent", Text("Extra data: line "), Hole("l", "%d"), Text(" column"))
    assert pins("Extra data: line", False, t) and not pins("Extra data", False, t)
    assert pins(r"Extra data: line \d+", True, t)


def test_scan_python_reads_the_calls_in_an_f_string_hole() -> None:
    # click's style() calls the helper that raises "Unknown color" only
    # inside an f-string: bits.append(f"\033[{_interpret_color(fg)}m")
    src = (
        "def _interpret_color(color):\n"
        "    raise ValueError(f'Unknown color {color!r}')\n\n"
        "def style(fg):\n"
        "    bits = []\n"
        "    bits.append(f'\\033[{_interpret_color(fg)}m')\n"
        "    return f'{len(bits)}'\n"
    )
    ev = scan("click/termui.py", src, "python")
    assert {(c.callee, c.caller) for c in ev.calls} >= {
        ("_interpret_color", "style"),
        ("len", "style"),
    }
    assert "bits" not in {c.callee for c in ev.calls}


def test_a_docstring_summary_stops_at_its_first_sentence() -> None:
    # click.style's docstring runs its first two sentences on one line
    src = (
        "def style(text):\n"
        '    """Styles a text with ANSI styles and returns the new string.  By\n'
        "    default the styling is self contained which means that at the end\n"
        "    of the string a reset code is issued.\n"
        '    """\n'
        "    return text\n"
    )
    ev = scan("click/termui.py", src, "python")
    (fn,) = ev.functions
    summary = [d.text for d in fn.docs if d.section == "Summary"]
    assert summary == ["Styles a text with ANSI styles and returns the new string."]


def test_a_pytest_raises_block_takes_the_text_the_assert_after_it_pins() -> None:
    # httpx's tests: the message is checked on `exc.value` after the block,
    # which makes the block a test of that message (not an assert-text of its own)
    src = (
        "import httpx, pytest\n\n\n"
        "def test_invalid_component():\n"
        "    with pytest.raises(TypeError) as exc:\n"
        '        httpx.URL(scheme="https", incorrect="/")\n'
        "    assert str(exc.value) == \"'incorrect' is an invalid keyword argument for URL()\"\n"
    )
    (t,) = scan("tests/test_url.py", src, "python").tests
    assert (t.kind, t.exception, t.pattern, t.is_regex, t.body) == (
        "pytest.raises",
        "TypeError",
        "'incorrect' is an invalid keyword argument for URL()",
        False,
        'httpx.URL(scheme="https", incorrect="/")',
    )


def test_a_call_over_several_lines_is_kept_as_one_line_of_text() -> None:
    src = "def f(a):\n    return g(\n        a,\n        key=1,\n    )\n"
    (call,) = [c for c in scan("pkg/m.py", src, "python").calls if c.callee == "g"]
    assert call.text == "g( a, key=1, )"
