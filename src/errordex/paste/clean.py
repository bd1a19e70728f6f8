"""Normalise pasted text before parsing: bound it, strip colour and log noise.

Work is capped so that any input parses in linear time: only the first
``HEAD_CHARS`` and the last ``TAIL_CHARS`` characters are looked at, cut at
line ends (a Python traceback ends with its exception line, a Rust panic
starts with its message; a long traceback loses middle frames, never them).
No regex here can backtrack catastrophically: each is anchored and its
repeats are bounded or disjoint.
"""

from __future__ import annotations

import re

#: How much of the start of a long paste is read (a panic's message, a
#: traceback's header; a 25,000-frame traceback is 1.5 MB).
HEAD_CHARS = 64 * 1024
#: How much of the end of a long paste is read (the exception line, and the
#: innermost frames, which say where it was raised).
TAIL_CHARS = 448 * 1024
#: Lines longer than this are cut (a minified bundle, a base64 blob).
LINE_CHARS = 8_000

_ANSI = re.compile(
    r"\x1b\[[0-9;:?<=>]{0,64}[ -/]{0,4}[@-~]|\x1b\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)?"
)
# Control characters other than tab and newline.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x1b]")
_FENCE = re.compile(r"^\s{0,3}(?:```|~~~)[\w+-]{0,20}\s*$")

# A prefix that a log collector puts on every line: "[app] ", "web_1  | ",
# "2024-01-01 12:00:00 | ", "2024-01-01T00:00:00.123Z ".
_LINE_PREFIX = re.compile(
    r"^(?:\[[^\]\n]{1,40}\] ?"
    r"|[\w.-]{1,40} {0,8}\| ?"
    r"|\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?(?: ?\| ?| ))"
    # A timestamp then a level is a log line, not a collector prefix: keep it.
    r"(?!\[?(?:ERROR|ERR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL|CRITICAL|NOTICE)\b)"
)


def bound(text: str, head: int = HEAD_CHARS, tail: int = TAIL_CHARS) -> str:
    r"""Keep about the first ``head`` and the last ``tail`` characters of a long
    ``text``, cut at line ends: the lines between are dropped whole (a long
    traceback's middle frames), and no line is joined to another.

    >>> bound("first\nsecond\nthird\nlast\n", head=8, tail=6)
    'first\nlast\n'
    """
    if len(text) <= head + tail:
        return text
    end = text.rfind("\n", 0, head)
    first = text[: end + 1] if end >= 0 else text[:head] + "\n"  # one line longer than head
    start = len(text) - tail
    if text[start - 1] != "\n":
        nl = text.find("\n", start)
        if 0 <= nl < len(text) - 1:
            start = nl + 1  # else the tail is one long line: keep its end
    return first + text[start:]


def clean_lines(text: str) -> list[str]:
    """Return ``text`` as lines: bounded, uncoloured, log prefixes removed.

    >>> clean_lines("\\x1b[31mError\\x1b[0m: x\\r\\n")
    ['Error: x']
    """
    text = bound(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _ANSI.sub("", text)
    text = _CONTROL.sub("", text)
    lines = [ln[:LINE_CHARS].rstrip() for ln in text.split("\n")]
    lines = [ln for ln in lines if not _FENCE.match(ln)]
    lines = _strip_line_prefixes(lines)
    lines = _dedent(lines)
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def _strip_line_prefixes(lines: list[str]) -> list[str]:
    """Remove a collector prefix when (nearly) every line carries one."""
    nonempty = [ln for ln in lines if ln.strip()]
    if len(nonempty) < 2:
        return lines
    matches = [_LINE_PREFIX.match(ln) for ln in nonempty]
    hits = sum(1 for m in matches if m)
    if hits < 0.8 * len(nonempty):
        return lines
    out = []
    for ln in lines:
        m = _LINE_PREFIX.match(ln)
        out.append(ln[m.end() :] if m else ln)
    return out


def _dedent(lines: list[str]) -> list[str]:
    """Remove the whitespace common to the start of every non-blank line."""
    common: str | None = None
    for ln in lines:
        if not ln.strip():
            continue
        indent = ln[: len(ln) - len(ln.lstrip(" \t"))]
        if common is None:
            common = indent
        elif not indent.startswith(common):
            i = 0
            while i < min(len(common), len(indent)) and common[i] == indent[i]:
                i += 1
            common = common[:i]
        if not common:
            return lines
    if not common:
        return lines
    n = len(common)
    return [ln[n:] if ln.strip() else "" for ln in lines]
