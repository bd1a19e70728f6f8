"""Rust string literals and format strings, read into Templates (pure).

Two steps, both on plain text:

``unescape`` turns the source of a literal into its value::

    >>> unescape(r'"a\\tb"'), unescape('r#"say "hi""#')
    ('a\\tb', 'say "hi"')

``parse_format`` splits a format string into literal text and holes, binding
each placeholder to the argument expression it prints::

    >>> t = parse_format("bad {} at {pos:?}", ["tok"], {})
    >>> t.display(), [h.expr for h in t.holes]
    ('bad {} at {pos:?}', ['tok', 'pos'])
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from errordex.template import Hole, Part, Template, Text

_RAW = re.compile(r'^(?:b|c)?r(#*)"(.*)"\1$', re.DOTALL)
_ESCAPE = re.compile(r"\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F_]*\}|\r?\n[ \t\r\n]*|.)", re.DOTALL)
_SIMPLE = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "0": "\0", "'": "'", '"': '"'}


def _escape(m: re.Match[str]) -> str:
    s = m.group(0)
    c = s[1]
    if c in _SIMPLE:
        return _SIMPLE[c]
    if c in "\r\n":  # line continuation: skip the newline and the next line's indent
        return ""
    if c == "x":
        return chr(int(s[2:], 16))
    if c == "u":
        digits = s[3:-1].replace("_", "")
        try:
            return chr(int(digits, 16))
        except ValueError:
            return s
    return s  # not a valid escape: keep it as written


def unescape(source: str) -> str | None:
    """The value of a Rust string literal written as ``source``, or None when
    ``source`` is not a string literal (``b"..."`` and ``c"..."`` count)."""
    if not source or source[-1] not in '"#':
        return None
    m = _RAW.match(source)
    if m:
        return m.group(2)
    start = source.find('"')
    if start < 0 or start > 1 or (start == 1 and source[0] not in "bc"):
        return None
    body = source[start + 1 : -1]
    if "\\" not in body:
        return body
    return _ESCAPE.sub(_escape, body)


def _arg_name(inner: str) -> tuple[str, str]:
    """Split ``name:spec`` into the argument part and the spec part."""
    colon = inner.find(":")
    if colon < 0:
        return inner.strip(), ""
    return inner[:colon].strip(), inner[colon + 1 :]


def parse_format(
    fmt: str,
    positional: Sequence[str],
    named: Mapping[str, str],
    field_prefix: str = "",
) -> Template:
    """Read a format string into a Template.

    ``positional`` are the source texts of the positional arguments and
    ``named`` maps ``name = expr`` arguments. A placeholder naming no argument
    is an implicit capture (``{name}`` prints the variable ``name``); with
    ``field_prefix="self."`` (thiserror) ``{0}``/``{name}`` are fields and
    ``{}`` takes the extra arguments in order.
    The syntax is ``rust-fmt`` when there is a placeholder, else ``literal``.
    """
    parts: list[Part] = []
    text: list[str] = []
    next_pos = 0
    i = 0
    n = len(fmt)
    while i < n:
        c = fmt[i]
        if c == "}":
            text.append("}")
            i += 2 if fmt.startswith("}}", i) else 1
            continue
        if c != "{":
            j = i
            while j < n and fmt[j] not in "{}":
                j += 1
            text.append(fmt[i:j])
            i = j
            continue
        if fmt.startswith("{{", i):
            text.append("{")
            i += 2
            continue
        close = fmt.find("}", i + 1)
        if close < 0:  # not a valid format string; keep the rest as text
            text.append(fmt[i:])
            break
        spec = fmt[i : close + 1]
        name, fspec = _arg_name(spec[1:-1])
        if ".*" in fspec:  # precision taken from the next positional argument
            next_pos += 1
        if not name:
            expr = _positional(positional, next_pos)
            next_pos += 1
        elif name.isdigit():
            expr = field_prefix + name if field_prefix else _positional(positional, int(name))
        elif name in named:
            expr = named[name]
        else:
            expr = field_prefix + name
        if text:
            parts.append(Text("".join(text)))
            text = []
        parts.append(Hole(expr, spec))
        i = close + 1
    if text:
        parts.append(Text("".join(text)))
    if not any(isinstance(p, Hole) for p in parts):
        return Template.literal("".join(p.text for p in parts if isinstance(p, Text)))
    return Template.of("rust-fmt", *parts)


def _positional(positional: Sequence[str], index: int) -> str:
    return positional[index] if index < len(positional) else ""
