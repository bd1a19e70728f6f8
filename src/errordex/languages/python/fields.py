"""Texts a helper formats after its caller wrote them (Python, pure):
issue 15, class messages formatted later.

A helper that raises the text it is given often formats it first, with
arguments of its own (lark's grammar loader)::

    def _grammar_error(self, is_term, msg, *names):
        ...
        raise GrammarError(msg.format(**args))

    self._grammar_error(is_term, "{Type} '{name}' defined more than once", name)

The user reads ``Rule 'a' defined more than once``: the caller's ``{Type}``
and ``{name}`` are placeholders, not text. ``formatted_parameter`` finds
such a raise (``msg.format(...)``, ``msg % args``) and names how it formats;
``fields`` reads a caller's text with its fields as holes, the way that
helper formats it.
"""

from __future__ import annotations

import re
import string

from errordex.template import Hole, Part, Template, Text

#: ``msg.format(...)``, ``msg.format_map(...)``, ``msg % args``: the name
#: formatted, then how
_FORMATTED = re.compile(r"([A-Za-z_]\w*)(?:(\.format(?:_map)?\()|\s*(%)\s*\S)")
#: a %-conversion: ``%s``, ``%r``, ``%(name)s``, ``%-10.3f`` (``%%`` is text)
_PERCENT = re.compile(r"%(?:\((\w+)\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[sdrifgeExXoca]")

FORMAT = "format"
PERCENT = "percent"


def formatted_parameter(
    expr: str, params: set[str] | dict[str, int | None]
) -> tuple[str, str] | None:
    """``msg.format(**args)`` -> ("msg", "format") when ``msg`` is one of
    ``params``; ``msg % args`` -> ("msg", "percent"); else None.

    >>> formatted_parameter("msg.format(**args)", {"msg"})
    ('msg', 'format')
    >>> formatted_parameter("text % args", {"text"}), formatted_parameter("x % y", {"msg"})
    (('text', 'percent'), None)
    """
    m = _FORMATTED.match(expr)
    if m is None or m.group(1) not in params:
        return None
    if m.group(2) and not expr.endswith(")"):
        return None
    return m.group(1), FORMAT if m.group(2) else PERCENT


def fields(message: Template, how: str) -> Template:
    """``message``'s text with the fields ``how`` formats as holes; holes it
    had stay. Text that does not parse as a template of that kind stays
    as written.

    >>> fields(Template.literal("{Type} '{name}' defined more than once"), "format").display()
    "{Type} '{name}' defined more than once"
    >>> [h.spec for h in fields(Template.literal("bad %r at %d"), "percent").holes]
    ['%r', '%d']
    """
    parts: list[Part] = []
    changed = False
    for p in message.parts:
        if isinstance(p, Hole):
            parts.append(p)
            continue
        read = _format_fields(p.text) if how == FORMAT else _percent_fields(p.text)
        if read is None:
            parts.append(p)
        else:
            parts.extend(read)
            changed = True
    if not changed:
        return message
    syntax = message.syntax if message.holes else ("py-format" if how == FORMAT else "py-percent")
    return Template.of(syntax, *parts)


def _format_fields(text: str) -> list[Part] | None:
    if "{" not in text:
        return None
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return None
    out: list[Part] = []
    for literal, name, spec, conv in parsed:
        out.append(Text(literal))
        if name is None:
            continue
        src = "{" + name + ("!" + conv if conv else "") + (":" + spec if spec else "") + "}"
        out.append(Hole(name if name.isidentifier() else "", src))
    return out


def _percent_fields(text: str) -> list[Part] | None:
    if "%" not in text:
        return None
    out: list[Part] = []
    pos = 0
    found = False
    for m in _PERCENT.finditer(text.replace("%%", "\0\0")):
        out.append(Text(text[pos : m.start()].replace("%%", "%")))
        out.append(Hole(m.group(1) or "", m.group(0)))
        pos = m.end()
        found = True
    if not found:
        return None
    out.append(Text(text[pos:].replace("%%", "%")))
    return out


#: a positional field: ``{}``, ``{0}``, ``{1!r}``, ``{0.__name__}``
_POSITIONAL = re.compile(r"(?<!\{)\{\d*(?:[.!:][^{}]*)?\}")


def formatted_later(message: Template) -> Template:
    """A literal handed on with more arguments, for the class to format
    later (glom's ``super().__init__("expected type {0.__name__}, not
    {1.__name__}", expected, actual)``, whose ``get_message`` formats
    ``self.args``): its positional fields (or its %-conversions) are holes.
    A literal with neither stays as written.

    >>> formatted_later(Template.literal("key {0!r} didn't match any of {1!r}")).holes[1].spec
    '{1!r}'
    """
    if message.syntax != "literal" or message.holes:
        return message
    text = message.literal_text()
    if _POSITIONAL.search(text):
        return fields(message, FORMAT)
    return fields(message, PERCENT)
