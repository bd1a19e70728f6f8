"""Java 17 and node 20 output (Go's is in test_go.py)."""

from __future__ import annotations

from errordex.paste import Frame, parse
from tests.paste.conftest import fixture


def test_java_exception_with_cause_and_more() -> None:
    main, cause = parse(fixture("java_caused_by_more"))
    assert main.exception_type == "java.lang.IllegalStateException"
    assert main.message == "could not load config: bad port"
    assert (main.language, main.relation, main.values["thread"]) == ("java", None, "main")
    assert main.frames[0] == Frame("Prog.java", 6, None, "app.Prog.load")
    assert cause.exception_type == "java.lang.NumberFormatException"
    assert (cause.message, cause.relation) == ('For input string: "abc"', "cause")
    assert cause.values["more"] == "1"


def test_java_without_message_and_multiline_message() -> None:
    [nomsg] = parse(fixture("java_nomsg"))
    assert (nomsg.exception_type, nomsg.message) == ("java.lang.UnsupportedOperationException", "")
    [custom] = parse(fixture("java_custom"))
    assert custom.exception_type == "Custom$StorageException"
    assert custom.message == "disk full\nwhile writing block 7"


def test_java_npe_helpful_message_is_kept() -> None:
    [err] = parse(fixture("java_npe"))
    assert err.message == 'Cannot invoke "String.length()" because "<local1>" is null'


def test_node_layout_yields_error_and_frames() -> None:
    [err] = parse(fixture("node_throw"))
    assert (err.language, err.exception_type) == ("javascript", "Error")
    assert err.message == "config must be a JSON object"
    assert err.frames[0] == Frame("/tmp/cap/js/throw.js", 3, 11, "parseConfig")


def test_node_type_error_is_read() -> None:
    [err] = parse(fixture("node_typeerr"))
    assert (err.exception_type, err.message) == ("TypeError", "x.foo is not a function")


def test_node_cause_chain_yields_cause() -> None:
    main, cause = parse(fixture("node_cause"))
    assert (main.message, main.relation) == ("failed to load settings", None)
    assert cause.exception_type == "SyntaxError"
    assert cause.relation == "cause"
    assert cause.frames[0].function == "JSON.parse"


def test_node_custom_error_with_code_and_multiline_message() -> None:
    [err] = parse(fixture("node_custom"))
    assert err.exception_type == "ValidationError"
    assert err.message == "name is required\nand must be a string"
    assert err.values["code"] == "E_VALID"


def test_node_eval_frame_without_function() -> None:
    [err] = parse(fixture("node_dash_e"))
    assert err.frames[0] == Frame("[eval]", 1, 6, None)


def test_node_repl_uncaught_prefix_is_stripped() -> None:
    [err] = parse(fixture("node_repl"))
    assert (err.exception_type, err.message) == ("Error", "from repl")


def test_uncaught_line_without_frames_is_javascript() -> None:
    [err] = parse("Uncaught TypeError: x is not a function")
    assert (err.language, err.exception_type, err.message) == (
        "javascript",
        "TypeError",
        "x is not a function",
    )


def test_node_thrown_string_uses_location_line() -> None:
    [err] = parse(fixture("node_throwstr"))
    assert err.message == "a plain string was thrown"
    assert err.exception_type is None
    assert err.frames == (Frame("/tmp/cap/js/throwstr.js", 1, None, None),)


def test_node_error_code_in_brackets_is_recorded() -> None:
    text = (
        'TypeError [ERR_INVALID_ARG_TYPE]: The "path" argument must be of type string\n'
        "    at new NodeError (node:internal/errors:405:5)\n"
    )
    [err] = parse(text)
    assert err.values["code"] == "ERR_INVALID_ARG_TYPE"
    assert err.message == 'The "path" argument must be of type string'
    assert err.frames[0].function == "NodeError"
