"""Go string literals and ``fmt`` format strings as templates (pure).

>>> go_fmt("invalid UUID length: %d", ["err.len"]).display()
'invalid UUID length: %d'
>>> [p.expr for p in go_fmt("%[2]s then %v", ["a", "b"]).holes]
['b', 'a']
"""

from __future__ import annotations

import re

from errordex.template import Hole, Part, Template, Text

#: One verb of package fmt: flags, an explicit argument index, width and
#: precision (either may be ``*``), then the verb letter (``%%`` apart).
_VERB = re.compile(r"%([-+# 0]*)(?:\[(\d+)\])?(\*|\d+)?(?:\.(\*|\d*))?(?:\[(\d+)\])?([a-zA-Z%])")
_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
}
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)")


def _unescape(m: re.Match[str]) -> str:
    s = m.group(1)
    if s in _ESCAPES:
        return _ESCAPES[s]
    if s[0] in "xuU":
        return chr(int(s[1:], 16))
    if s[0] in "01234567" and len(s) == 3:
        return chr(int(s, 8))
    return m.group(0)


def unquote(lit: str) -> str | None:
    """The value of a Go string literal (interpreted ``"..."`` or raw
    ```...```), None for anything else.

    >>> unquote('"a\\\\tb"'), unquote("`raw\\\\n`")
    ('a\\tb', 'raw\\\\n')
    """
    if len(lit) >= 2 and lit[0] == lit[-1] == "`":
        return lit[1:-1].replace("\r", "")
    if len(lit) >= 2 and lit[0] == lit[-1] == '"':
        return _ESCAPE.sub(_unescape, lit[1:-1])
    return None


def go_fmt(fmt: str, args: list[str], syntax: str = "go-fmt") -> Template:
    """A format string of ``fmt.Sprintf`` and friends, each verb a hole
    named by the argument it prints (``""`` when there is none)."""
    parts: list[Part] = []
    pos = 0
    arg = 0
    for m in _VERB.finditer(fmt):
        parts.append(Text(fmt[pos : m.start()]))
        pos = m.end()
        if m.group(6) == "%":
            parts.append(Text("%"))
            continue
        index = m.group(2) or m.group(5)
        if index:
            arg = int(index) - 1
        for star in (m.group(3), m.group(4)):
            if star == "*":
                arg += 1  # the width or precision is an argument of its own
        expr = args[arg] if 0 <= arg < len(args) else ""
        arg += 1
        parts.append(Hole(expr, m.group(0)))
    parts.append(Text(fmt[pos:]))
    return Template.of(syntax, *parts)


def printed(args: list[Template | None], exprs: list[str], spaced: bool) -> Template:
    """What ``fmt.Sprint`` (``spaced``: ``Sprintln``, always a space between
    operands) prints of its arguments: text for a string literal, a hole for
    anything else; ``Sprint`` puts a space only between two operands that are
    not strings."""
    parts: list[Part] = []
    for k, (t, expr) in enumerate(zip(args, exprs, strict=True)):
        if k and (spaced or (t is None and args[k - 1] is None)):
            parts.append(Text(" "))
        if t is None:
            parts.append(Hole(expr, "%v"))
        else:
            parts.extend(t.parts)
    return Template.of("go-fmt", *parts)
