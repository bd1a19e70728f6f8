"""The values the paste parsers return (pure data, no behaviour)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Frame:
    """One stack frame as the runtime printed it. Any field may be unknown.

    ``source`` is the code line a Python traceback prints under the frame,
    stripped (None when it printed none). It is not part of a frame's
    identity: two frames at the same place are equal.
    """

    path: str | None
    line: int | None
    column: int | None
    function: str | None
    source: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Named:
    """A named value inside a printed error value (Rust's Debug form,
    ``ParseError { kind: InvalidDigit }``): its name, how deeply it is
    nested (0: the outermost), and the fields and items it printed, as text."""

    name: str
    depth: int
    fields: tuple[tuple[str, str], ...] = ()
    items: tuple[str, ...] = ()
    #: a type of the language's runtime (Rust's ``Utf8Error``) held inside
    #: another value: a crate's type of the same name is not what printed
    #: it, so its depth says nothing of which crate's error it is
    runtime: bool = False


@dataclass(frozen=True)
class ParsedError:
    """One error found in pasted runtime output.

    ``message`` is the message alone, without the runtime's prefix
    (``ValueError: ``, ``not implemented: ``, ``runtime error: ``); ``raw`` is
    the message line(s) exactly as printed, so nothing is lost.

    ``frames`` are always in the order the runtime printed them: innermost
    last for Python, innermost first for Rust, Go, Java and JavaScript. For a
    Rust panic the first frame is the panic location (``function`` is None),
    followed by the ``RUST_BACKTRACE`` frames.

    ``named``: the named values the error value printed (its Debug form),
    outermost first; a matcher looks up the innermost one that has a message.

    ``relation`` is None for the main error. Other parts say how they relate
    to it: ``"cause"`` (``raise ... from``, Java ``Caused by:``, JS
    ``[cause]``, anyhow ``Caused by:``), ``"context"`` (Python's "During
    handling ..."), ``"group-member"`` (a sub-exception of an exception
    group), ``"suppressed"`` (Java), ``"wrapped"`` (a Go error's inner
    ``: ``-separated part, which is what the wrapped error printed).
    """

    message: str
    raw: str
    exception_type: str | None
    language: str | None
    kind: str | None
    frames: tuple[Frame, ...] = ()
    values: dict[str, str] = field(default_factory=dict)
    relation: str | None = None
    named: tuple[Named, ...] = ()


@dataclass(frozen=True)
class Found:
    """A parsed error and the span of cleaned lines it came from (internal)."""

    start: int
    end: int
    error: ParsedError
