"""A paste longer than the parser reads: its head and its tail are kept, cut
at line ends, so a deep traceback keeps its message and its innermost frames."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from errordex.paste import parse
from errordex.paste.clean import HEAD_CHARS, TAIL_CHARS, bound


def python_traceback(frames: int) -> str:
    body = "".join(
        f'  File "/app/mod{i % 7}.py", line {i + 1}, in f{i}\n    f{i + 1}(value)\n'
        f"    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        for i in range(frames)
    )
    return "Traceback (most recent call last):\n" + body + "ValueError: Unknown color 'purplish'\n"


def test_a_25000_frame_python_traceback_keeps_its_exception_line() -> None:
    text = python_traceback(25_000)
    assert len(text) > 2 * (HEAD_CHARS + TAIL_CHARS)
    [err] = parse(text)
    assert (err.exception_type, err.message) == ("ValueError", "Unknown color 'purplish'")
    # the outermost frames and the innermost one (where it was raised) are kept
    assert (err.frames[0].function, err.frames[-1].function) == ("f0", "f24999")
    assert err.frames[-1].source == "f25000(value)"


def test_a_rust_panic_with_a_25000_frame_backtrace_keeps_its_message() -> None:
    head = "thread 'main' panicked at src/bytes.rs:379:9:\nsplit_to out of bounds: 9 <= 2\n"
    frames = "".join(
        f"  {i}: bytes::bytes_mut::f{i}\n             at ./src/bytes_mut.rs:{i}:5\n"
        for i in range(25_000)
    )
    [err] = parse(head + "stack backtrace:\n" + frames)
    assert err.message == "split_to out of bounds: 9 <= 2"
    assert (err.frames[0].path, err.frames[0].line) == ("src/bytes.rs", 379)
    assert err.frames[-1].function == "bytes::bytes_mut::f24999"


def test_bound_cuts_at_line_ends() -> None:
    assert bound("first\nsecond\nthird\nlast\n", head=8, tail=6) == "first\nlast\n"
    assert bound("first\nsecond\nthird\nlast", head=8, tail=6) == "first\nlast"
    assert bound("short\ntext\n", head=8, tail=6) == "short\ntext\n"
    assert bound("x" * 50, head=8, tail=6) == "x" * 8 + "\n" + "x" * 6  # one long line


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet="ab \t", max_size=12), min_size=1, max_size=40),
    st.integers(14, 80),
    st.integers(14, 80),
)
def test_bound_keeps_whole_lines_of_the_head_and_the_tail(
    lines: list[str], head: int, tail: int
) -> None:
    text = "\n".join(lines) + "\n"
    kept = bound(text, head=head, tail=tail)
    assert len(kept) <= head + tail
    if len(text) <= head + tail:
        assert kept == text
        return

    def split_at(i: int) -> bool:
        """kept is whole lines from the start of text, then whole lines from its end."""
        first, rest = kept[:i], kept[i:]
        at = len(text) - len(rest)
        return (
            first.endswith("\n")
            and text.startswith(first)
            and text.endswith(rest)
            and text[at - 1] == "\n"
        )

    assert any(split_at(i) for i in range(1, len(kept) + 1))
