"""Python tracebacks, captured from CPython 3.11.7 and pytest 9."""

from __future__ import annotations

from errordex.paste import Frame, parse
from tests.paste.conftest import fixture


def test_simple_traceback_yields_dotted_type_and_frames_innermost_last() -> None:
    [err] = parse(fixture("python_simple"))
    assert err.exception_type == "json.decoder.JSONDecodeError"
    assert err.message == (
        "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
    )
    assert err.raw.startswith("json.decoder.JSONDecodeError: Expecting property name")
    assert (err.language, err.kind, err.relation) == ("python", "raise", None)
    assert len(err.frames) == 6
    assert err.frames[0] == Frame("/tmp/cap/py/simple.py", 6, None, "<module>")
    assert err.frames[-1].function == "raw_decode"


def test_caret_and_code_lines_are_skipped() -> None:
    [err] = parse(fixture("python_caret"))
    assert err.exception_type == "TypeError"
    assert err.message == "unsupported operand type(s) for +: 'NoneType' and 'int'"
    assert [f.line for f in err.frames] == [3, 2]


def test_direct_cause_chain_yields_both_parts_in_printed_order() -> None:
    cause, main = parse(fixture("python_cause"))
    assert cause.exception_type == "ValueError"
    assert cause.message == "invalid literal for int() with base 10: 'abc'"
    assert cause.relation == "cause"
    assert main.exception_type == "ConfigError"
    assert main.message == "invalid port setting"
    assert main.relation is None


def test_context_chain_keeps_multiline_message() -> None:
    context, main = parse(fixture("python_context"))
    assert (context.exception_type, context.message, context.relation) == (
        "KeyError",
        "missing",
        "context",
    )
    assert main.message == "could not find the key\nsecond line of message"
    assert main.raw == "ValueError: could not find the key\nsecond line of message"


def test_exception_group_yields_group_and_members() -> None:
    errors = parse(fixture("python_group"))
    assert [(e.exception_type, e.message, e.relation) for e in errors] == [
        ("ExceptionGroup", "several things failed", None),
        ("ValueError", "bad value 1", "group-member"),
        ("TypeError", "wrong type", "group-member"),
        ("ExceptionGroup", "nested", "group-member"),
        ("KeyError", "k", "group-member"),
    ]
    assert errors[0].values["sub_exceptions"] == "3"
    assert len(errors[0].frames) == 2


def test_group_member_with_its_own_traceback_and_cause_is_read() -> None:
    text = """\
  + Exception Group Traceback (most recent call last):
  |   File "/app/run.py", line 9, in <module>
  |     main()
  | ExceptionGroup: batch failed (2 sub-exceptions)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "/app/run.py", line 3, in job
    |     int("x")
    | ValueError: invalid literal for int() with base 10: 'x'
    |
    | The above exception was the direct cause of the following exception:
    |
    | Traceback (most recent call last):
    |   File "/app/run.py", line 5, in job
    |     raise RuntimeError("job 1 failed") from e
    | RuntimeError: job 1 failed
    +---------------- 2 ----------------
    | OSError: disk full
    +------------------------------------
"""
    errors = parse(text)
    assert [(e.exception_type, e.relation) for e in errors] == [
        ("ExceptionGroup", None),
        ("ValueError", "cause"),
        ("RuntimeError", "group-member"),
        ("OSError", "group-member"),
    ]
    assert errors[2].frames == (Frame("/app/run.py", 5, None, "job"),)


def test_syntax_error_form_yields_file_frame() -> None:
    [err] = parse(fixture("python_syntax"))
    assert (err.exception_type, err.message) == ("SyntaxError", "'(' was never closed")
    assert err.frames == (Frame("/tmp/cap/py/syntax.py", 1, None, None),)
    [err2] = parse(fixture("python_syntax2"))
    assert err2.message == "Missing parentheses in call to 'print'. Did you mean print(...)?"


def test_exception_without_message_has_empty_message() -> None:
    [stop] = parse(fixture("python_stopiter"))
    assert (stop.exception_type, stop.message) == ("StopIteration", "")
    [custom] = parse(fixture("python_noarg"))
    assert (custom.exception_type, custom.message, custom.raw) == ("MyErr", "", "MyErr")


def test_keyerror_repr_is_unquoted_and_kept() -> None:
    [err] = parse(fixture("python_keyerr"))
    assert (err.exception_type, err.message, err.values["repr"]) == ("KeyError", "x", "'x'")
    assert err.raw == "KeyError: 'x'"


def test_module_qualified_type_is_kept_whole() -> None:
    [err] = parse(fixture("python_modtype"))
    assert err.exception_type == "http.client.InvalidURL"
    assert err.message == "nonnumeric port: 'abc'"


def test_notes_continue_the_message() -> None:
    [err] = parse(fixture("python_notes"))
    assert err.message == "base message\na note added later"


def test_repeated_line_marker_is_skipped() -> None:
    [err] = parse(fixture("python_recursion"))
    assert (err.exception_type, err.message) == (
        "RecursionError",
        "maximum recursion depth exceeded",
    )
    assert len(err.frames) == 4


def test_dash_c_string_frame_is_read() -> None:
    [err] = parse(fixture("python_dash_c"))
    assert err.frames[0] == Frame("<string>", 1, None, "<module>")
    assert err.message == "Expecting value: line 1 column 1 (char 0)"


def test_pytest_long_output_yields_e_line_error() -> None:
    [err] = parse(fixture("python_pytest"))
    assert (err.exception_type, err.message) == ("ValueError", "invalid port: '80a'")
    assert err.values["test"] == "test_port"
    assert [(f.path, f.line) for f in err.frames] == [("test_x.py", 7), ("test_x.py", 4)]


def test_pytest_short_output_yields_functions() -> None:
    [err] = parse(fixture("python_pytest_short"))
    assert err.message == "invalid port: '80a'"
    assert [f.function for f in err.frames] == ["test_port", "parse_port"]


def test_pytest_assert_rewrite_is_an_assertion_error() -> None:
    text = (
        "E       assert 2 == 3\nE        +  where 2 = len([1, 2])\n\ntest_a.py:4: AssertionError\n"
    )
    [err] = parse(text)
    assert err.exception_type == "AssertionError"
    assert err.kind == "assert"
    assert err.message.startswith("assert 2 == 3")


def test_pytest_summary_line_alone_is_read() -> None:
    [err] = parse("FAILED tests/test_x.py::test_port - ValueError: invalid port: '80a'")
    assert (err.exception_type, err.message) == ("ValueError", "invalid port: '80a'")
    assert err.values["test"] == "tests/test_x.py::test_port"


def test_lone_type_message_line_is_python() -> None:
    [err] = parse("ValueError: invalid literal for int() with base 10: 'abc'")
    assert err.exception_type == "ValueError"
    assert err.message == "invalid literal for int() with base 10: 'abc'"
    assert err.language == "python"


def test_lone_type_line_with_continuation_is_one_multiline_message() -> None:
    [err] = parse("RuntimeError: first line\nsecond line")
    assert err.message == "first line\nsecond line"


def test_lone_bare_exception_name_is_read() -> None:
    [err] = parse("KeyboardInterrupt")
    assert (err.exception_type, err.message) == ("KeyboardInterrupt", "")


def test_truncated_traceback_without_exception_line_keeps_frames() -> None:
    text = 'Traceback (most recent call last):\n  File "a.py", line 3, in <module>\n    f()\n'
    [err] = parse(text)
    assert err.message == ""
    assert err.values["truncated"] == "true"
    assert err.frames == (Frame("a.py", 3, None, "<module>"),)


def test_traceback_cut_at_the_top_still_yields_the_error() -> None:
    text = (
        '    x = f()\n  File "a.py", line 3, in g\n    raise ValueError("bad")\nValueError: bad\n'
    )
    [err] = parse(text)
    assert (err.exception_type, err.message) == ("ValueError", "bad")


def test_frames_keep_the_printed_code_line_but_not_the_caret_line() -> None:
    [err] = parse(fixture("python_caret"))
    assert [f.source for f in err.frames] == ['f({"a": {"b": None}})', 'return d["a"]["b"] + 1']


def test_a_frame_without_printed_code_has_no_source() -> None:
    tb = (
        "Traceback (most recent call last):\n"
        '  File "<string>", line 1, in <module>\n'
        '  File "/usr/lib/python3.11/json/decoder.py", line 353, in raw_decode\n'
        "    obj, end = self.scan_once(s, idx)\n"
        "               ^^^^^^^^^^^^^^^^^^^^^^\n"
        "json.decoder.JSONDecodeError: Expecting ':' delimiter: line 1 column 6 (char 5)\n"
    )
    [err] = parse(tb)
    assert [f.source for f in err.frames] == [None, "obj, end = self.scan_once(s, idx)"]


def test_the_printed_code_is_not_part_of_a_frames_identity() -> None:
    assert Frame("a.py", 1, None, "f", "x = 1") == Frame("a.py", 1, None, "f")


def test_wrapped_error_line_is_read_as_the_error_it_wraps() -> None:
    # SQLAlchemy 2.1's StatementError, as it printed for a missing bind parameter
    line = (
        "sqlalchemy.exc.StatementError: (sqlalchemy.exc.InvalidRequestError) "
        "A value is required for bind parameter 'x'\n"
        "[SQL: select ?]\n"
        "(Background on this error at: https://sqlalche.me/e/21/cd3x)"
    )
    [err] = parse(line)
    assert err.exception_type == "sqlalchemy.exc.InvalidRequestError"
    assert err.message.split("\n")[0] == "A value is required for bind parameter 'x'"
    assert err.values["wrapper"] == "sqlalchemy.exc.StatementError"
    assert err.raw.startswith("sqlalchemy.exc.StatementError: (sqlalchemy.exc.")


def test_parenthesised_text_that_names_no_class_is_the_message() -> None:
    [err] = parse("ValueError: (x) must be positive")
    assert (err.exception_type, err.message) == ("ValueError", "(x) must be positive")
