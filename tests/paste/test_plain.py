"""Plain message lines and log lines, and the cleaning of pasted text."""

from __future__ import annotations

import pytest

from errordex.paste import parse
from tests.paste.conftest import fixture


def test_single_line_is_the_message() -> None:
    [err] = parse("connection refused while reading the index")
    assert err.message == "connection refused while reading the index"
    assert (err.exception_type, err.language, err.kind) == (None, None, None)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("Error: could not open file", "could not open file"),
        ("error: could not open file", "could not open file"),
        ("ERROR could not open file", "could not open file"),
        ("[ERROR] could not open file", "could not open file"),
        ("2024-01-01T00:00:00Z ERROR module: could not open file", "could not open file"),
        ("2024-01-01 12:00:00,123 ERROR app.db: could not open file", "could not open file"),
        ("ERROR:root:could not open file", "could not open file"),
        ("2024-01-01T00:00:00.123+02:00 [ERROR] could not open file", "could not open file"),
        ("[2024-01-01 12:00:00,123: ERROR/MainProcess] could not open file", "could not open file"),
        (
            "[2024-01-01 12:00:00,123: CRITICAL/ForkPoolWorker-3] could not open file",
            "could not open file",
        ),
    ],
)
def test_log_prefixes_are_stripped(line: str, message: str) -> None:
    [err] = parse(line)
    assert err.message == message
    assert err.raw == line


@pytest.mark.parametrize(
    "line",
    [
        "Error handling request: bad header",
        "error code 42 returned by server",
        "Errors: too many to list",
        "E: unable to locate package foo",
    ],
)
def test_message_text_that_looks_like_a_prefix_is_kept(line: str) -> None:
    [err] = parse(line)
    assert err.message == line


@pytest.mark.parametrize(
    "line",
    [
        "2026-12-04 10:11:12,345 ERROR [app.views] jinja2.exceptions.UndefinedError: 'user' is undefined",
        "2026-12-04 10:11:12,345 ERROR jinja2.exceptions.UndefinedError: 'user' is undefined",
        "2026-12-04T10:11:12Z [ERROR] jinja2.exceptions.UndefinedError: 'user' is undefined",
    ],
)
def test_a_logged_exception_line_is_read_as_the_line_alone(line: str) -> None:
    [err] = parse(line)
    [alone] = parse("jinja2.exceptions.UndefinedError: 'user' is undefined")
    assert (err.exception_type, err.message, err.language) == (
        alone.exception_type,
        alone.message,
        alone.language,
    )
    assert err.exception_type == "jinja2.exceptions.UndefinedError"
    assert err.raw == line and err.values["level"] == "ERROR"
    assert err.values.get("logger") in (None, "app.views")


def test_error_lines_in_a_log_yield_one_error_each() -> None:
    text = (
        "2024-01-01 12:00:00 INFO starting\n"
        "2024-01-01 12:00:01 ERROR db: connection refused\n"
        "2024-01-01 12:00:02 ERROR db: giving up\n"
    )
    assert [e.message for e in parse(text)] == ["connection refused", "giving up"]


def test_a_log_record_goes_on_over_the_lines_that_start_no_record() -> None:
    """celery's worker logs ``consumer: Cannot connect to %s: %s.\\n%s``: the
    second line is the same record's, and the next record ends it."""
    text = (
        "[2026-12-04 10:00:01,120: INFO/MainProcess] Connected to amqp://127.0.0.1:5672//\n"
        "[2026-12-04 10:00:01,123: ERROR/MainProcess] consumer: Cannot connect to "
        "amqp://127.0.0.1:5672//: [Errno 111] Connection refused.\n"
        "Trying again in 2.00 seconds... (1/100)\n"
        "\n"
        "[2026-12-04 10:00:03,130: INFO/MainProcess] mingle: searching for neighbors\n"
    )
    [err] = parse(text)
    assert err.message == (
        "consumer: Cannot connect to amqp://127.0.0.1:5672//: [Errno 111] Connection refused.\n"
        "Trying again in 2.00 seconds... (1/100)"
    )
    assert err.values["process"] == "MainProcess" and err.values["level"] == "ERROR"
    # without a timestamp a line is not a record: the lines after it are not its own
    [first, *_] = parse("ERROR db: connection refused\nsomething else\nERROR db: giving up\n")
    assert first.message == "db: connection refused"


def test_unstructured_lines_are_one_multiline_message() -> None:
    [err] = parse("could not parse the manifest\nexpected a table at line 3")
    assert err.message == "could not parse the manifest\nexpected a table at line 3"


def test_lone_java_type_line_is_java() -> None:
    [err] = parse("java.lang.IllegalStateException: closed")
    assert (err.language, err.exception_type, err.message) == (
        "java",
        "java.lang.IllegalStateException",
        "closed",
    )


def test_lone_js_only_type_line_is_javascript() -> None:
    [err] = parse("ReferenceError: foo is not defined")
    assert err.language == "javascript"


def test_ansi_colours_and_crlf_are_removed() -> None:
    text = fixture("python_keyerr").replace("\n", "\r\n")
    text = text.replace("KeyError", "\x1b[1;31mKeyError\x1b[0m")
    [err] = parse(text)
    assert (err.exception_type, err.message) == ("KeyError", "x")


def test_common_indentation_is_removed() -> None:
    text = "".join("        " + ln + "\n" for ln in fixture("rust_panic").splitlines())
    [err] = parse(text)
    assert err.message == "something went wrong: 42"


def test_collector_prefix_on_every_line_is_removed() -> None:
    for prefix in ("[app] ", "web_1  | ", "2024-01-01 12:00:00 | "):
        text = "".join(prefix + ln + "\n" for ln in fixture("python_cause").splitlines())
        errors = parse(text)
        assert [e.message for e in errors] == [
            "invalid literal for int() with base 10: 'abc'",
            "invalid port setting",
        ], prefix


def test_markdown_fence_is_ignored() -> None:
    [err] = parse("```\n" + fixture("java_simple") + "```\n")
    assert err.message == "value must not be null"


def test_tabs_are_tolerated() -> None:
    text = fixture("python_simple").replace("    ", "\t")
    [err] = parse(text)
    assert err.exception_type == "json.decoder.JSONDecodeError"


def test_traceback_after_log_lines_is_found() -> None:
    text = "2024-01-01 12:00:00 INFO starting worker\n" + fixture("python_caret")
    [err] = parse(text)
    assert err.exception_type == "TypeError"


def test_mixed_languages_yield_errors_in_printed_order() -> None:
    text = fixture("python_keyerr") + "\n" + fixture("rust_todo") + "\n" + fixture("java_simple")
    assert [e.language for e in parse(text)] == ["python", "rust", "java"]


def test_lone_line_of_a_module_qualified_class_is_typed_whatever_its_name() -> None:
    # packaging's and werkzeug's exceptions end in neither Error nor Exception
    [err] = parse("packaging.version.InvalidVersion: Invalid version: 'x'")
    assert (err.exception_type, err.message) == (
        "packaging.version.InvalidVersion",
        "Invalid version: 'x'",
    )
    [err] = parse("werkzeug.exceptions.NotFound: 404 Not Found: The requested URL was not found")
    assert err.exception_type == "werkzeug.exceptions.NotFound"
    assert err.message.startswith("404 Not Found")


def test_lone_line_of_a_private_exception_class_is_typed() -> None:
    # jsonschema 4.26 raises _WrappedReferencingError for a $ref that points nowhere
    line = (
        "jsonschema.exceptions._WrappedReferencingError: PointerToNowhere:"
        " '/definitions/nope' does not exist within {'$ref': '#/definitions/nope'}"
    )
    [err] = parse(line)
    assert (err.exception_type, err.language) == (
        "jsonschema.exceptions._WrappedReferencingError",
        "python",
    )
    assert err.message.startswith("PointerToNowhere: '/definitions/nope'")
