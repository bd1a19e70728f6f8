"""Go output: panics with goroutine traces, ``log.Fatal`` lines and errors a
program printed, read by the Go language package (``languages/go/paste.py``).
The fixtures were written from the runtime's documented format; the real
output of ``go run`` is in tests/cli/test_explain_go.py."""

from __future__ import annotations

from errordex.paste import Frame, parse
from tests.paste.conftest import fixture


def test_go_panic_yields_message_and_goroutine_frames() -> None:
    [err] = parse(fixture("go_panic"))
    assert (err.language, err.kind, err.message) == ("go", "panic", "something bad happened")
    assert err.frames == (
        Frame("/home/user/app/main.go", 12, None, "main.process"),
        Frame("/home/user/app/main.go", 7, None, "main.main"),
    )
    assert err.values["goroutine"] == "1 [running]"


def test_go_runtime_error_strips_prefix() -> None:
    [err] = parse(fixture("go_index"))
    assert err.exception_type == "runtime.Error"
    assert err.message == "index out of range [5] with length 3"
    assert err.raw == "runtime error: index out of range [5] with length 3"


def test_go_nil_dereference_records_signal_and_method_frame() -> None:
    [err] = parse(fixture("go_nil"))
    assert err.message == "invalid memory address or nil pointer dereference"
    assert err.values["signal"].startswith("signal SIGSEGV")
    assert err.frames[0].function == "main.(*Server).handle"


def test_go_wrapped_error_yields_innermost_part_first_then_the_whole() -> None:
    errors = parse(fixture("go_wrapped"))
    assert [(e.message, e.relation) for e in errors] == [
        ("no such file or directory", "wrapped"),
        ("open config.yaml: no such file or directory", "wrapped"),
        ("load config: open config.yaml: no such file or directory", None),
    ]


def test_go_fatal_error_is_kind_fatal() -> None:
    [err] = parse(fixture("go_fatal"))
    assert (err.kind, err.message) == ("fatal", "all goroutines are asleep - deadlock!")


def test_go_recovered_panic_yields_both() -> None:
    first, second = parse(fixture("go_recovered"))
    assert (first.message, first.relation) == ("first failure", "context")
    assert (second.message, second.relation) == ("second failure", None)


def test_go_log_fatal_yields_last_log_line() -> None:
    errors = parse(fixture("go_log_fatal"))
    assert errors[-1].message == "listen tcp :8080: bind: address already in use"
    assert (errors[-1].language, errors[-1].kind) == ("go", "log")
    assert errors[0].message == "address already in use"


def test_go_error_printed_before_exit_status_yields_its_wrapped_parts() -> None:
    text = "error: uuid: Parse(nope): invalid UUID length: 4\nexit status 1\n"
    errors = parse(text)
    assert [(e.message, e.relation, e.language) for e in errors] == [
        ("invalid UUID length: 4", "wrapped", "go"),
        ("Parse(nope): invalid UUID length: 4", "wrapped", "go"),
        ("uuid: Parse(nope): invalid UUID length: 4", None, "go"),
    ]


def test_a_lone_line_without_go_run_exit_status_is_not_read_as_go() -> None:
    [err] = parse("error: unknown flag: --nope")
    assert (err.message, err.language) == ("unknown flag: --nope", None)
