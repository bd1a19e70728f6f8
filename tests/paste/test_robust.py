"""Bad input never raises and never hangs; properties of every format."""

from __future__ import annotations

import string

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from errordex.paste import _parse, parse
from tests.paste.conftest import FIXTURES

# Message text: printable, one line, no leading/trailing space.
_ALPHABET = string.ascii_letters + string.digits + " .,;:!?'\"()[]{}<>/=+-_*&%$#@~"
messages = (
    st.text(alphabet=_ALPHABET, min_size=1, max_size=80)
    .map(str.strip)
    .filter(lambda s: bool(s) and "  " not in s)
)


def _plain_like(msg: str) -> bool:
    """Messages a runtime would print with a meaning of their own."""
    lowered = msg.lower()
    return lowered.startswith(
        ("not ", "internal error", "assertion", "called ", "error", "e:", "stack backtrace:")
    )


def test_empty_and_blank_input_yield_nothing() -> None:
    assert parse("") == []
    assert parse(" \n\t\r\n  ") == []
    assert parse("\x1b[0m\x00\x00") == []


def test_binary_garbage_yields_nothing() -> None:
    assert parse("\x00\x01\x02\xff\xfe") == []
    assert parse(bytes(range(256)).decode("latin-1") * 10) == []
    assert parse(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR".decode("utf-8", "replace")) == []


def test_huge_input_parses_and_finds_the_error_at_the_end() -> None:
    noise = "INFO something happened in the system just now\n" * 110_000  # ~5 MB
    text = "first line\n" + noise + "Traceback (most recent call last):\n"
    text += '  File "a.py", line 1, in <module>\nValueError: at the end\n'
    assert len(text) > 5_000_000
    errors = parse(text)
    assert [e.message for e in errors] == ["at the end"]


def test_ten_thousand_frame_traceback_parses() -> None:
    frames = "".join(
        f'  File "/app/mod{i}.py", line {i}, in f{i}\n    f{i + 1}()\n' for i in range(10_000)
    )
    text = "Traceback (most recent call last):\n" + frames + "RecursionError: too deep\n"
    [err] = parse(text)
    assert err.message == "too deep"
    assert len(err.frames) > 1000  # the head may be cut by the size cap


def test_ten_thousand_frame_rust_backtrace_parses() -> None:
    head = "thread 'main' panicked at src/main.rs:1:5:\nboom\nstack backtrace:\n"
    frames = "".join(
        f"  {i}: crate::f{i}\n             at ./src/main.rs:{i}:5\n" for i in range(10_000)
    )
    [err] = parse(head + frames)
    assert err.message == "boom"
    # past the size cap, middle frames are dropped whole: the first and last stay
    assert len(err.frames) > 9_000
    assert (err.frames[1].function, err.frames[-1].function) == ("crate::f0", "crate::f9999")


def test_pathological_lines_parse() -> None:
    for text in (
        "a: " * 100_000,
        "(" * 200_000,
        "thread '" + "'" * 100_000,
        "    at " + " (" * 100_000,
        "Error: " + "A { " * 50_000,
        "panicked at " * 20_000,
        "\x1b[" + "1;" * 100_000,
        'File "' * 50_000,
        "thread 'main' panicked at '" + "x\n" * 100_000,
    ):
        assert isinstance(parse(text), list)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_never_raise(data: bytes) -> None:
    result = parse(data.decode("utf-8", errors="replace"))
    assert isinstance(result, list)
    result = parse(data.decode("latin-1"))
    assert isinstance(result, list)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=2000))
def test_random_text_never_raises(text: str) -> None:
    assert isinstance(parse(text), list)


@settings(max_examples=150, deadline=None)
@given(messages)
def test_python_traceback_message_round_trips(msg: str) -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "app.py", line 3, in <module>\n'
        "    main()\n"
        f"ValueError: {msg}\n"
    )
    [err] = parse(text)
    assert (err.exception_type, err.message) == ("ValueError", msg)


@settings(max_examples=150, deadline=None)
@given(messages)
def test_rust_panic_message_round_trips_in_both_layouts(msg: str) -> None:
    assume(not _plain_like(msg))
    new = f"\nthread 'main' (4242) panicked at src/main.rs:2:5:\n{msg}\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    old = f"thread 'main' panicked at '{msg}', src/main.rs:2:5\n"
    for text in (new, old):
        [err] = parse(text)
        assert err.message == msg
        assert err.language == "rust"


@settings(max_examples=150, deadline=None)
@given(messages)
def test_rust_unimplemented_message_round_trips(msg: str) -> None:
    text = f"thread 'main' panicked at src/lib.rs:9:9:\nnot implemented: {msg}\n"
    [err] = parse(text)
    assert (err.kind, err.message) == ("unimplemented", msg)


@settings(max_examples=150, deadline=None)
@given(messages)
def test_go_panic_message_round_trips(msg: str) -> None:
    assume(not msg.startswith("runtime error: "))
    text = f"panic: {msg}\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:5 +0x1d\nexit status 2\n"
    errors = parse(text)
    main = [e for e in errors if e.relation is None]  # wrapped parts come first
    assert main[0].message == msg
    assert main[0].language == "go"


@settings(max_examples=150, deadline=None)
@given(messages)
def test_java_message_round_trips(msg: str) -> None:
    text = f'Exception in thread "main" java.lang.IllegalStateException: {msg}\n\tat app.Main.main(Main.java:3)\n'
    [err] = parse(text)
    assert (err.exception_type, err.message) == ("java.lang.IllegalStateException", msg)


@settings(max_examples=150, deadline=None)
@given(messages)
def test_node_message_round_trips(msg: str) -> None:
    text = (
        "/app/index.js:3\n    throw new Error(m);\n    ^\n\n"
        f"Error: {msg}\n    at main (/app/index.js:3:11)\n    at Object.<anonymous> (/app/index.js:5:1)\n"
        "\nNode.js v20.20.2\n"
    )
    [err] = parse(text)
    assert (err.exception_type, err.message) == ("Error", msg)


# A plain sentence: a lowercase word first, so it is no lone ``Type: message`` line.
sentences = st.from_regex(
    r"[a-z]{2,10} [A-Za-z0-9 .,;:!?'\"()\[\]{}<>/=+_*&%$#@~-]{0,60}[a-z0-9]", fullmatch=True
)


@settings(max_examples=150, deadline=None)
@given(sentences)
def test_plain_line_round_trips(msg: str) -> None:
    assume(not _plain_like(msg))
    [err] = parse(msg)
    assert err.message == msg


_FIXTURE_LINES = sorted(
    {ln for p in FIXTURES.glob("*.txt") for ln in p.read_text(encoding="utf-8").splitlines()}
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_FIXTURE_LINES) | st.text(max_size=30), max_size=40))
def test_shuffled_fixture_lines_never_reach_the_safety_net(lines: list[str]) -> None:
    # _parse is parse without its catch-all: a parser bug must show up here.
    assert isinstance(_parse("\n".join(lines)), list)
