"""Rust panics captured from rustc 1.95 (and the pre-1.73 layout from the docs)."""

from __future__ import annotations

import pytest

from errordex.paste import Frame, ParsedError, parse
from tests.paste.conftest import fixture


def one(name: str) -> ParsedError:
    [err] = parse(fixture(name))
    return err


def test_panic_with_thread_id_and_blank_line_yields_message_and_location() -> None:
    err = one("rust_panic")
    assert fixture("rust_panic").startswith("\nthread 'main' (")
    assert (err.message, err.language, err.kind) == ("something went wrong: 42", "rust", "panic")
    assert err.exception_type is None
    assert err.frames == (Frame("panic.rs", 1, 13, None),)
    assert err.values["thread"] == "main"


@pytest.mark.parametrize(
    ("name", "kind", "message"),
    [
        ("rust_unimpl", "unimplemented", "foo is bar"),
        ("rust_unimpl_bare", "unimplemented", "not implemented"),
        ("rust_todo", "todo", "write the parser"),
        ("rust_todo_bare", "todo", "not yet implemented"),
        ("rust_unreach", "unreachable", "state 3 is impossible"),
        ("rust_index_oob", "panic", "index out of bounds: the len is 3 but the index is 5"),
        ("rust_assert_msg", "panic", "vector must not be empty"),
        ("rust_thread_panic", "panic", "worker died"),
    ],
)
def test_macro_prefix_is_stripped_and_kind_recorded(name: str, kind: str, message: str) -> None:
    err = one(name)
    assert (err.kind, err.message) == (kind, message)


def test_unimplemented_raw_keeps_prefix() -> None:
    assert one("rust_unimpl").raw == "not implemented: foo is bar"


def test_multiline_panic_message_is_kept_whole() -> None:
    assert one("rust_panic_multiline").message == "first line\nsecond line"


def test_assert_eq_with_message_records_left_and_right() -> None:
    err = one("rust_assert_eq")
    assert (err.kind, err.message) == ("assert", "values differ for x")
    assert err.values["left"] == "1"
    assert err.values["right"] == "2"
    assert err.values["assertion"] == "left == right"


def test_bare_assert_eq_and_assert_ne_keep_the_assertion_text() -> None:
    eq = one("rust_assert_eq_bare")
    assert eq.message == "assertion `left == right` failed"
    assert (eq.values["left"], eq.values["right"]) == ('"x"', '"y"')
    ne = one("rust_assert_ne")
    assert ne.values["assertion"] == "left != right"


def test_assert_condition_is_recorded() -> None:
    err = one("rust_assert_cond")
    assert (err.kind, err.message) == ("assert", "assertion failed: !v.is_empty()")
    assert err.values["condition"] == "!v.is_empty()"


def test_unwrap_on_err_records_the_debug_payload() -> None:
    err = one("rust_unwrap_err")
    assert err.kind == "unwrap"
    assert err.message == (
        "called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }"
    )
    assert err.values["error"] == "ParseIntError { kind: InvalidDigit }"


def test_unwrap_on_none_is_unwrap() -> None:
    assert one("rust_unwrap_none").kind == "unwrap"


def test_expect_keeps_full_message_and_records_prefix_and_payload() -> None:
    err = one("rust_expect")
    assert err.kind == "expect"
    assert err.message == "failed to parse config value: ParseIntError { kind: InvalidDigit }"
    assert err.values["expect_prefix"] == "failed to parse config value"
    assert err.values["error"] == "ParseIntError { kind: InvalidDigit }"


def test_expect_prefix_with_colons_splits_before_the_debug_string() -> None:
    err = one("rust_expect_colon")
    assert err.values["expect_prefix"] == "write failed: retry later"
    assert err.values["error"] == '"disk: full"'


def test_option_expect_is_recognised_from_backtrace_frames() -> None:
    assert one("rust_expect_none").kind == "panic"
    assert one("rust_expect_none_backtrace").kind == "expect"


def test_backtrace_frames_follow_the_panic_location() -> None:
    err = one("rust_nested_backtrace")
    assert err.frames[0] == Frame("nested.rs", 1, 38, None)
    functions = [f.function for f in err.frames[1:]]
    assert functions[:3] == [
        "__rustc::rust_begin_unwind",
        "core::panicking::panic_fmt",
        "nested::inner",
    ]
    assert err.frames[3] == Frame("./nested.rs", 1, 38, "nested::inner")
    assert len(err.frames) == 10


def test_full_backtrace_with_addresses_is_read() -> None:
    err = one("rust_panic_backtrace_full")
    assert err.message == "something went wrong: 42"
    assert len(err.frames) > 20
    assert any(f.function and f.function.startswith("panic::main") for f in err.frames)


def test_cargo_test_output_yields_the_test_panic() -> None:
    err = one("rust_cargo_test")
    assert err.values["thread"] == "tests::adds"
    assert err.message == "math is broken"


def test_old_layout_quoted_message_is_read() -> None:
    err = one("rust_old_panic")
    assert err.message == "something went wrong: 42"
    assert err.frames == (Frame("src/main.rs", 2, 5, None),)


def test_old_layout_multiline_message_is_read() -> None:
    assert one("rust_old_multiline").message == "first line\nsecond line"


def test_old_assert_eq_layout_records_values_and_message() -> None:
    err = one("rust_old_assert_eq")
    assert (err.kind, err.message) == ("assert", "values differ for x")
    assert (err.values["left"], err.values["right"]) == ("1", "2")


def test_old_layout_with_backtrace_and_named_thread() -> None:
    err = one("rust_old_unimplemented")
    assert (err.kind, err.message, err.values["thread"]) == (
        "unimplemented",
        "foo is bar",
        "worker",
    )
    assert err.frames[-1] == Frame("./src/main.rs", 4, 5, "main::main")


def test_main_returning_err_yields_debug_payload() -> None:
    err = one("rust_main_err")
    # the outer name of a Debug value is not always the error's type
    # (``Error(Parse(..))``): it is one of the value's names
    assert (err.language, err.kind, err.exception_type) == ("rust", "err-return", None)
    assert [(n.name, n.depth) for n in err.named] == [("ParseError", 0)]
    assert dict(err.named[0].fields) == {"line": "3", "reason": '"bad token"'}
    assert err.message == 'ParseError { line: 3, reason: "bad token" }'


def test_main_returning_string_error_is_unquoted() -> None:
    [err] = parse('Error: "config file not found: \\"a.toml\\""')
    assert err.message == 'config file not found: "a.toml"'
    assert err.language == "rust"


def test_anyhow_report_yields_causes() -> None:
    main, c0, c1 = parse(fixture("rust_anyhow"))
    assert main.message == "Failed to read instrs from ./path/to/instrs.json"
    assert (c0.message, c0.relation) == ("failed to open config", "cause")
    assert c1.message == "No such file or directory (os error 2)"


def test_two_panics_in_one_paste_yield_two_errors() -> None:
    text = fixture("rust_panic") + fixture("rust_todo")
    assert [e.kind for e in parse(text)] == ["panic", "todo"]


@pytest.mark.parametrize(
    ("name", "kind", "inner"),
    [
        # semver's Error is a tuple struct around its message: Error("...")
        (
            "rust_unwrap_debug_str",
            "unwrap",
            "unexpected character 'x' while parsing minor version number",
        ),
        # regex's Error::Syntax prints its report between rules; the message is its error: line
        ("rust_expect_debug_report", "expect", "unclosed group"),
        ("rust_expect_colon", "expect", "disk: full"),
    ],
)
def test_message_wrapped_by_the_errors_debug_is_kept(name: str, kind: str, inner: str) -> None:
    err = one(name)
    assert err.kind == kind
    assert err.values["error_message"] == inner
    assert err.message == err.raw  # the message itself is kept whole


def test_debug_without_one_message_gives_none() -> None:
    assert "error_message" not in one("rust_expect").values  # ParseIntError { kind: .. }


def test_eyre_report_from_main_yields_its_causes_not_its_location() -> None:
    main, c0, c1 = parse(fixture("rust_eyre_main"))
    assert main.message == "loading config app.toml"
    assert [(c.message, c.relation) for c in (c0, c1)] == [
        ("reading the version", "cause"),
        ("unexpected end of input while parsing minor version number", "cause"),
    ]


def test_unwrap_of_a_report_yields_the_panic_then_its_causes() -> None:
    panic, c0, c1 = parse(fixture("rust_eyre_unwrap"))
    assert panic.kind == "unwrap"
    assert panic.values["error"] == "loading config app.toml"
    assert panic.frames[0].path == "src/main.rs"
    assert (c1.message, c1.relation) == (
        "unexpected end of input while parsing minor version number",
        "cause",
    )
    assert c0.message == "reading the version"


def test_a_report_printed_alone_yields_its_causes() -> None:
    main, c0, c1 = parse(fixture("rust_anyhow_alone"))
    assert c0.message == "reading the version"
    assert main.message == "loading config app.toml"
    assert c1.message == "unexpected end of input while parsing minor version number"


def test_dbg_output_yields_the_debug_value_after_its_prefix() -> None:
    [err] = parse(fixture("rust_dbg"))
    assert err.kind == "debug"
    assert err.values["error_message"] == (
        "unexpected end of input while parsing minor version number"
    )
