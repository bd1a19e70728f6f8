"""A JavaScript message expression read as a template (pure).

'bad port'                 -> literal "bad port"
`bad ${port} here`         -> js-template, Hole("port", "${port}")
'bad ' + port + ' here'    -> concat, Hole("port", "${port}")
util.format('bad %s', p)   -> js-format, Hole("p", "%s")
MESSAGE (a const string)   -> its text
msg (anything else)        -> built at run time from ``msg``
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from errordex.template import Hole, Part, Template, Text

#: name -> the node a ``const`` of this file binds it to (None: not one)
Resolver = Callable[[str], Node | None]

_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r?\n|.)", re.S)
_SIMPLE = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
#: node's util.format / console's directives
_FORMAT = re.compile(r"%[sdifjoOc%]")
#: how deep a const (or a message inside a message) is followed
MAX_DEPTH = 8
#: the most operands a concatenation that is a message has
MAX_OPERANDS = 64


def text(node: Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


def _unescape_one(m: re.Match[str]) -> str:
    s = m.group(1)
    if s[0] in _SIMPLE and len(s) == 1:
        return _SIMPLE[s]
    if s[0] in "\r\n":
        return ""  # a line continuation
    if s[0] == "x":
        return chr(int(s[1:], 16))
    if s.startswith("u{"):
        return chr(min(int(s[2:-1], 16), 0x10FFFF))
    if s[0] == "u" and len(s) == 5:
        return chr(int(s[1:], 16))
    return s


def unescape(raw: str) -> str:
    r"""``a\x41\n`` -> ``aA`` and a newline.

    >>> unescape(r"it\'s \u0041")
    "it's A"
    """
    return _ESCAPE.sub(_unescape_one, raw) if "\\" in raw else raw


def string_value(node: Node) -> str | None:
    """The value of a string literal, or of a template literal with no holes."""
    if node.type == "string":
        return unescape(text(node)[1:-1])
    if node.type == "template_string" and not any(
        c.type == "template_substitution" for c in node.named_children
    ):
        return unescape(text(node)[1:-1])
    return None


def is_text(node: Node) -> bool:
    return node.type in ("string", "template_string")


def read(node: Node | None, resolve: Resolver | None = None, depth: int = 0) -> Template:
    """The message ``node`` evaluates to, as a template."""
    if node is None:
        return Template.empty()
    got = _read(node, resolve, depth)
    return got if got is not None else Template.runtime(text(node))


def readable(node: Node | None, resolve: Resolver | None = None) -> Template | None:
    """The template of ``node`` when some of its text is known; None when it
    is built wholly at run time."""
    if node is None:
        return None
    return _read(node, resolve, 0)


def _read(node: Node, resolve: Resolver | None, depth: int) -> Template | None:
    t = node.type
    if depth > MAX_DEPTH:
        return None
    if t == "parenthesized_expression" and node.named_child_count == 1:
        return _read(node.named_children[0], resolve, depth + 1)
    if (
        t in ("as_expression", "satisfies_expression", "non_null_expression")
        and node.named_children
    ):
        return _read(node.named_children[0], resolve, depth + 1)
    if t == "string":
        return Template.literal(unescape(text(node)[1:-1]))
    if t == "template_string":
        return _template_string(node, resolve, depth)
    if t == "binary_expression":
        return _concat(node, resolve, depth)
    if t == "identifier" and resolve is not None:
        target = resolve(text(node))
        if target is not None:
            return _read(target, resolve, depth + 1)
        return None
    if t == "call_expression":
        return _format_call(node, resolve, depth)
    return None


def _template_string(node: Node, resolve: Resolver | None = None, depth: int = 0) -> Template:
    parts: list[Part] = []
    holes = False
    src = node.text or b""
    pos = node.start_byte + 1
    for c in node.children:
        if c.type == "template_substitution":
            if c.start_byte > pos:
                parts.append(Text(unescape(_slice(src, node, pos, c.start_byte))))
            inner = c.named_children[0] if c.named_children else None
            pos = c.end_byte
            known = (
                _read(inner, resolve, depth + 1)
                if inner is not None and inner.type == "identifier"
                else None
            )
            if known is not None and not known.dynamic:
                parts.extend(known.parts)  # `${PREFIX}` of a const string
                holes = holes or bool(known.holes)
                continue
            expr = text(inner) if inner is not None else ""
            parts.append(Hole(expr, "${" + expr + "}"))
            holes = True
    end = node.end_byte - 1
    if end > pos:
        parts.append(Text(unescape(_slice(src, node, pos, end))))
    if not holes:
        return Template.literal("".join(p.text for p in parts if isinstance(p, Text)))
    return Template.of("js-template", *parts)


def _slice(src: bytes, node: Node, start: int, end: int) -> str:
    return src[start - node.start_byte : end - node.start_byte].decode("utf-8", "replace")


def _operands(node: Node, out: list[Node], depth: int) -> bool:
    """The operands of a chain of ``+``, left to right; False past
    ``MAX_OPERANDS`` of them (a chain of thousands in a bundle is no message).
    Walked with a stack: a long chain nests as deep as it is long."""
    stack = [node]
    while stack:
        n = stack.pop()
        op = n.child_by_field_name("operator") if n.type == "binary_expression" else None
        if op is not None and op.type == "+":
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if left is None or right is None:
                return False
            stack += (right, left)
            continue
        if n.type == "parenthesized_expression" and n.named_child_count == 1:
            inner = n.named_children[0]
            if inner.type == "binary_expression":
                stack.append(inner)
                continue
        out.append(n)
        if len(out) > MAX_OPERANDS:
            return False
    return True


def _concat(node: Node, resolve: Resolver | None, depth: int) -> Template | None:
    ops: list[Node] = []
    if not _operands(node, ops, depth) or len(ops) < 2:
        return None
    parts: list[Part] = []
    known = False
    for o in ops:
        got = _read(o, resolve, depth + 1) if o.type != "binary_expression" else None
        if got is not None and not got.dynamic:
            parts.extend(got.parts)
            known = True
        else:
            expr = text(o)
            parts.append(Hole(expr, "${" + expr + "}"))
    if not known:
        return None
    return Template.of("concat", *parts)


def _format_call(node: Node, resolve: Resolver | None, depth: int) -> Template | None:
    """``util.format('bad %s', x)`` / ``format(...)``: node's printf."""
    fn = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    if fn is None or args is None or not text(fn).endswith("format") or not args.named_children:
        return None
    first, *rest = args.named_children
    fmt = string_value(first)
    if fmt is None:
        return None
    parts: list[Part] = []
    pos = 0
    for m in _FORMAT.finditer(fmt):
        parts.append(Text(fmt[pos : m.start()]))
        if m.group(0) == "%%":
            parts.append(Text("%"))
        else:
            expr = text(rest.pop(0)) if rest else ""
            parts.append(Hole(expr, m.group(0)))
        pos = m.end()
    parts.append(Text(fmt[pos:]))
    return Template.of("js-format", *parts)
