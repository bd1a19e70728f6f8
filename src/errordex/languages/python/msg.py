"""Read a Python message expression into a Template (pure, no I/O).

The message of a ``raise X(...)`` is its first positional argument. This
module reads that expression from the tree-sitter node::

    "bad value"                  -> literal
    f"bad {x!r}"                 -> py-fstring, Hole("x", "{x!r}")
    "bad %s (%(k)d)" % (a, d)    -> py-percent
    "bad {} {name}".format(a, name=b)  -> py-format
    "bad " + str(x)              -> concat, Hole("str(x)", "{str(x)}")
    _("bad")                     -> gettext wrappers are transparent

A name is looked up through ``resolve`` (the nearest assignment the caller
can see). Anything else cannot be read statically and becomes
``Template.runtime(expr)``: a dynamic template, never the expression's name
presented as the message.
"""

from __future__ import annotations

import inspect
import re
import string
import textwrap
import unicodedata
from collections.abc import Callable, Iterable, Iterator

from tree_sitter import Node

from errordex.languages.python import appended
from errordex.template import Hole, Part, Template, Text

#: identifier node -> the value node assigned to it, or None.
Resolver = Callable[[Node], Node | None]


class Branches:
    """A resolver that also knows a name's value on another branch::

        if 400 <= code < 500:
            msg = f"{code} Client Error: ..."
        elif 500 <= code < 600:
            msg = f"{code} Server Error: ..."
        raise HTTPError(msg)

    ``resolve`` gives the nearest assignment (the server error), ``earlier``
    the one before it when the nearest does not run on every path (the
    client error): the second form ``read_forms`` reads.
    """

    def __init__(self, resolve: Resolver, earlier: Resolver) -> None:
        self.resolve = resolve
        self.earlier = earlier

    def __call__(self, node: Node) -> Node | None:
        return self.resolve(node)


_WS = re.compile(r"\s+")
_GETTEXT = frozenset(
    {"_", "gettext", "gettext_lazy", "ugettext", "ugettext_lazy", "lazy_gettext", "ngettext", "N_"}
)
#: names whose call is the message itself (``_("bad")``)
GETTEXT = _GETTEXT
_STR_SPEC = re.compile(r"%(?:\([^)]*\))?s|\{[^!:]*\}")
#: ``ngettext(singular, plural, n)``: two messages, one per form
_PLURAL = frozenset({"ngettext"})
_PERCENT = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(?P<conv>[diouxXeEfFgGcrsab%])"
)
_ESCAPES = {
    "\\\n": "",
    "\\\r\n": "",
    "\\\\": "\\",
    "\\'": "'",
    '\\"': '"',
    "\\a": "\a",
    "\\b": "\b",
    "\\f": "\f",
    "\\n": "\n",
    "\\r": "\r",
    "\\t": "\t",
    "\\v": "\v",
}
_MAX_DEPTH = 4  # how many name lookups to follow (msg = PREFIX + "..." etc.)


def text_of(node: Node) -> str:
    data = node.text
    return data.decode("utf-8", "replace") if data is not None else ""


def expr_text(node: Node) -> str:
    """Source of an expression on one line, for holes and guards; comments
    inside it (``# noqa: E501``) are not part of it."""
    text = text_of(node)
    if "#" in text:
        text = _without_comments(node)
    return _WS.sub(" ", text).strip()


def _without_comments(node: Node) -> str:
    src = node.text or b""
    base, cut, out = node.start_byte, node.start_byte, []
    stack = [node]
    comments: list[Node] = []
    while stack:
        n = stack.pop()
        if n.type == "comment":
            comments.append(n)
        else:
            stack.extend(n.children)
    for c in sorted(comments, key=lambda c: c.start_byte):
        out.append(src[cut - base : c.start_byte - base])
        cut = c.end_byte
    out.append(src[cut - base :])
    return b"".join(out).decode("utf-8", "replace")


def named(node: Node) -> list[Node]:
    """Named children without comments."""
    return [c for c in node.named_children if c.type != "comment"]


def read(node: Node, resolve: Resolver) -> Template:
    """The message template of an expression; dynamic when unreadable."""
    t = _read(node, resolve, 0)
    return t if t is not None else Template.runtime(expr_text(node))


def sentences_assigned(
    stmts: Iterable[Node], resolve: Resolver, named: Callable[[str], bool]
) -> Iterator[tuple[Node, str, Template]]:
    """The statements ``NAME = "a text of words"`` among ``stmts`` (a
    module's or a class body's) whose name ``named`` takes: (the assignment,
    the name, the text read statically; a text with no space, a key or a
    code, is none)."""
    for stmt in stmts:
        assign = stmt.named_children[0] if stmt.named_child_count else None
        if stmt.type != "expression_statement" or assign is None or assign.type != "assignment":
            continue
        left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier":
            continue
        if right.type not in ("string", "concatenated_string", "parenthesized_expression"):
            continue
        name = text_of(left)
        if not named(name):
            continue
        text = read_static(right, resolve)
        if text is not None and not text.dynamic and any(" " in c for c in text.chunks()):
            yield assign, name, text


def read_static(node: Node, resolve: Resolver) -> Template | None:
    """Like ``read`` but None when the expression cannot be read."""
    return _read(node, resolve, 0)


def read_forms(node: Node, resolve: Resolver, plural: bool = True) -> tuple[Template, ...]:
    """The readable messages of an expression: one, or two when it picks
    a form with ``ngettext(singular, plural, n)``, a conditional
    expression, or a name assigned on two branches (``Branches``); ()
    when unreadable::

        ngettext("{n} file", "{n} files", n).format(n=n)  -> two templates
        f"{x!r} {'is too short' if n > 1 else 'should be non-empty'}"  -> two

    ``plural=False`` says the source names no ``_PLURAL`` function, so the
    plural form reads as the first and is not read a second time unless
    the expression chooses otherwise.
    """
    first = _read(node, resolve, 0)
    if first is None or not (plural or chooses(node, resolve, 0)):
        return () if first is None else (first,)
    second = _read(node, resolve, 0, 1)
    return (first,) if second is None or second == first else (first, second)


def chooses(node: Node, resolve: Resolver, depth: int = 0) -> bool:
    """Whether the expression holds a conditional, or a name with a value on
    another branch (its second form differs from the first)."""
    stack = [node]
    seen = 0
    while stack and seen < 256:
        n = stack.pop()
        seen += 1
        if n.type == "conditional_expression":
            return True
        if n.type == "identifier" and isinstance(resolve, Branches) and depth < _MAX_DEPTH:
            if resolve.earlier(n) is not None:
                return True
            value = resolve(n)
            if value is None and (b := appended.built_up(n)) is not None and b.two_forms:
                return True
            if value is not None and chooses(value, resolve, depth + 1):
                return True
        stack.extend(n.named_children)
    return False


def names_plural(src: bytes) -> bool:
    """Whether source text can call a ``_PLURAL`` function (``read_forms``'s
    ``plural``): without one, a second read would find the first form again."""
    return any(name.encode() in src for name in _PLURAL)


def shows_str(spec: str) -> bool:
    """Whether a placeholder prints its value's text as is (``%s``,
    ``%(message)s``, ``{}``, ``{msg}``), so text can be spliced in."""
    return _STR_SPEC.fullmatch(spec) is not None


def string_value(node: Node) -> str | None:
    """The value of a plain (non-f, non-bytes) string literal node."""
    got = _string_parts(node)
    if got is None or any(isinstance(p, Hole) for p in got):
        return None
    return "".join(p.text for p in got if isinstance(p, Text))


def _read(node: Node, resolve: Resolver, depth: int, form: int = 0) -> Template | None:
    kind = node.type
    if kind == "parenthesized_expression":
        inner = named(node)
        return _read(inner[0], resolve, depth, form) if len(inner) == 1 else None
    if kind in ("string", "concatenated_string"):
        parts = _string_parts(node)
        if parts is None:
            return None
        if not parts:
            return Template.empty()
        has_hole = any(isinstance(p, Hole) for p in parts)
        if has_hole and depth < _MAX_DEPTH:
            parts = _inline_names(node, parts, resolve, depth, form)
            has_hole = any(isinstance(p, Hole) for p in parts)
        return Template.of("py-fstring" if has_hole else "literal", *parts)
    if kind == "binary_operator":
        op = node.child_by_field_name("operator")
        if op is not None and op.type == "%":
            return _percent(node, resolve, depth, form)
        if op is not None and op.type == "+":
            return _concat(node, resolve, depth, form)
        return None
    if kind == "call":
        return _call(node, resolve, depth, form)
    if kind == "conditional_expression":
        # ``a if cond else b``: a is the first form, b the second
        branches = named(node)
        if len(branches) != 3:
            return None
        if not form and _overridden(branches[0], branches[1]):
            first = _read(branches[0], resolve, depth, form)
            if first is None or not first.chunks():
                # ``key.msg if key.msg else "required key not provided"``:
                # ``key.msg or "..."`` (``_or_default``), written as a choice
                return _read(branches[2], resolve, depth, form)
        return _read(branches[2 if form else 0], resolve, depth, form)
    if kind == "boolean_operator":
        return _or_default(node, resolve, depth, form)
    if kind == "identifier" and depth < _MAX_DEPTH:
        value = resolve(node)
        if form and isinstance(resolve, Branches):
            value = resolve.earlier(node) or value
        if value is None and text_of(node) == "linesep":
            return Template.literal("\n")  # ``from os import linesep``, as POSIX prints it
        if value is None:
            return _appended(node, resolve, depth, form)
        return _read(value, resolve, depth + 1, form)
    if kind == "attribute" and text_of(node) == "os.linesep":
        return Template.literal("\n")
    return None


#: what an override of a message is called (``key.msg``, ``error_message``)
_OVERRIDE_NAMES = ("msg", "message", "text", "err", "reason", "detail", "descr", "hint")


def _overridden(value: Node, cond: Node) -> bool:
    """``value if <a test of value> else default``: the value is an override
    the condition checks is given (voluptuous's ``key.msg if hasattr(key,
    'msg') and key.msg else 'required key not provided'``)."""
    if value.type not in ("identifier", "attribute"):
        return False
    name = text_of(value)
    if not any(w in name.rsplit(".", 1)[-1].lower() for w in _OVERRIDE_NAMES):
        return False  # ``self.code if self.code is not None else "???"``: not a text
    test = text_of(cond)
    return (
        test == name or test.endswith((f" {name}", f"and {name}")) or f"{name} is not None" in test
    )


def _or_default(node: Node, resolve: Resolver, depth: int, form: int = 0) -> Template | None:
    """``override or "default text"``: a message the caller may replace,
    and the library's own text when it does not (voluptuous's
    ``raise RangeInvalid(self.msg or 'value must be at most %s' % self.max)``,
    ``raise ValueError(msg or "no valid value found")``). The user reads the
    default unless they passed their own, so an override that cannot be
    read (a name, an attribute, a call) reads as the default; a readable
    one is what the expression shows first."""
    op = node.child_by_field_name("operator")
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if op is None or op.type != "or" or left is None or right is None:
        return None
    first = _read(left, resolve, depth, form)
    if first is not None and not first.dynamic and first.chunks():
        return first
    return _read(right, resolve, depth, form)


def _appended(node: Node, resolve: Resolver, depth: int, form: int = 0) -> Template | None:
    """A name built up by ``+=`` before its use (``appended``): the start
    and the parts added, a part it cannot read a placeholder."""
    found = appended.built_up(node, form)
    if found is None:
        return None
    first = _read(found.start, resolve, depth + 1, form)
    if first is None or first.dynamic:
        return None
    parts: list[Part] = list(first.parts)
    for value, optional in found.pieces:
        if optional and not form:
            continue
        t = _read(value, resolve, depth + 1, form)
        if t is not None and not t.dynamic:
            parts.extend(t.parts)
        else:
            src = expr_text(value)
            parts.append(Hole(src, "{" + src + "}"))
    return Template.of("concat", *parts)


def _string_parts(node: Node) -> list[Part] | None:
    """Parts of a string or implicit concatenation; None for bytes."""
    strings = [node] if node.type == "string" else [c for c in node.children if c.type == "string"]
    parts: list[Part] = []
    for s in strings:
        kids = s.children
        if not kids:
            return None
        prefix = text_of(kids[0]).lower().rstrip("'\"")
        if "b" in prefix or "t" in prefix:  # bytes, and 3.14 template strings
            return None
        raw, fmt = "r" in prefix, "f" in prefix
        for c in kids[1:-1]:
            if c.type == "string_content":
                parts.append(Text(_content(c, raw, fmt)))
            elif c.type == "interpolation":
                expr = c.child_by_field_name("expression")
                name = expr_text(expr) if expr else ""
                shown = _self_documenting(c)
                if shown is not None:
                    # f"{x=}" prints "x=" and then the value: the name is text
                    parts.append(Text(shown))
                    rest = text_of(c)[1 + len(shown) :]
                    spec = "{" + name + (rest if rest != "}" else "!r}")
                    parts.append(Hole(name, spec))
                else:
                    parts.append(Hole(name, text_of(c)))
            elif c.type == "escape_interpolation":
                parts.append(Text(text_of(c)[0]))
    return parts


def _self_documenting(interp: Node) -> str | None:
    """``{x=}``/``{x = !r}`` -> the text it prints before the value (``x=``,
    ``x = ``); None for an interpolation without ``=``."""
    eq = next((k for k in interp.children if k.type == "="), None)
    data = interp.text
    if eq is None or data is None:
        return None
    end = eq.end_byte - interp.start_byte
    while data[end : end + 1] in (b" ", b"\t"):
        end += 1  # the spaces after "=" are printed too
    return data[1:end].decode("utf-8", "replace")


def _inline_names(
    node: Node, parts: list[Part], resolve: Resolver, depth: int, form: int
) -> list[Part]:
    """An f-string's ``{word}`` hole of a name that reads as text, shown as
    it is (no spec, no conversion but ``!s``), is that text: jsonschema's
    ``f"{instance!r} {message}"`` after ``message = "is too short" if ...``."""
    strings = [node] if node.type == "string" else [c for c in node.children if c.type == "string"]
    holes = [c for s in strings for c in s.children if c.type == "interpolation"]
    if len(holes) != sum(isinstance(p, Hole) for p in parts):
        return parts
    out: list[Part] = []
    at = iter(holes)
    for p in parts:
        if not isinstance(p, Hole):
            out.append(p)
            continue
        hole = next(at)
        expr = hole.child_by_field_name("expression")
        plain = all(
            c.type not in ("format_specifier",)
            and (c.type != "type_conversion" or text_of(c) == "!s")
            for c in hole.named_children
        )
        got = None
        if expr is not None and plain and expr.type == "identifier":
            got = _read(expr, resolve, depth + 1, form)
        if got is not None and not got.dynamic and not got.parts and form:
            # the other branch's "" (pytest's maybe_specify_type): nothing shown
            continue
        if got is None or got.dynamic or not got.literal_text().strip():
            out.append(p)
        else:
            out.extend(got.parts)
    return out


def _content(node: Node, raw: bool, fmt: bool) -> str:
    """Text of a string_content node with escapes decoded."""
    data = node.text or b""
    if not node.child_count:
        return data.decode("utf-8", "replace")
    base = node.start_byte
    out: list[str] = []
    pos = 0
    for k in node.children:
        out.append(data[pos : k.start_byte - base].decode("utf-8", "replace"))
        piece = text_of(k)
        if k.type == "escape_sequence" and not raw:
            piece = unescape(piece)
        elif k.type == "escape_interpolation" and fmt:
            piece = piece[0]
        out.append(piece)
        pos = k.end_byte - base
    out.append(data[pos:].decode("utf-8", "replace"))
    return "".join(out)


def unescape(seq: str) -> str:
    """Decode one backslash escape as Python does; unknown ones stay."""
    simple = _ESCAPES.get(seq)
    if simple is not None:
        return simple
    c = seq[1:2]
    try:
        if c in ("x", "u", "U"):
            code = int(seq[2:], 16)
            # A lone surrogate cannot be printed or stored as text; Python's
            # traceback shows it as its escape, so keep the escape.
            return seq if 0xD800 <= code <= 0xDFFF else chr(code)
        if c and c in "01234567":
            return chr(int(seq[1:], 8))
        if c == "N":
            return unicodedata.lookup(seq[3:-1])
    except (ValueError, KeyError, OverflowError):
        pass
    return seq


def _literal(node: Node, resolve: Resolver, depth: int, form: int = 0) -> str | None:
    """The text of an expression that reads as plain literal text."""
    t = _read(node, resolve, depth, form)
    if t is None or t.holes:
        return None
    return "".join(p.text for p in t.parts if isinstance(p, Text))


def _percent(node: Node, resolve: Resolver, depth: int, form: int = 0) -> Template | None:
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    if left is None or right is None:
        return None
    fmt = _literal(left, resolve, depth + 1, form)
    if fmt is None:
        return None
    positional: list[str] = []
    keyed: dict[str, str] = {}
    if right.type == "tuple":
        positional = [expr_text(c) for c in named(right)]
    elif right.type == "call" and text_of(right.child_by_field_name("function") or right) == "dict":
        args = right.child_by_field_name("arguments")
        for kw in named(args) if args is not None else []:
            name, value = kw.child_by_field_name("name"), kw.child_by_field_name("value")
            if kw.type == "keyword_argument" and name is not None and value is not None:
                keyed[text_of(name)] = expr_text(value)
    elif right.type == "dictionary":
        for pair in named(right):
            k, v = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            if pair.type == "pair" and k is not None and v is not None:
                key = string_value(k)
                if key is not None:
                    keyed[key] = expr_text(v)
    elif (
        sum(m.group("key") is None and m.group("conv") != "%" for m in _PERCENT.finditer(fmt)) == 1
    ):
        positional = [expr_text(right)]  # a tuple held in a name stays unknown
    parts: list[Part] = []
    pos = index = 0
    for m in _PERCENT.finditer(fmt):
        parts.append(Text(fmt[pos : m.start()]))
        pos = m.end()
        if m.group("conv") == "%":
            parts.append(Text("%"))
            continue
        key = m.group("key")
        if key is not None:
            parts.append(Hole(keyed.get(key, key), m.group(0)))
            continue
        parts.append(Hole(positional[index] if index < len(positional) else "", m.group(0)))
        index += 1
    parts.append(Text(fmt[pos:]))
    return Template.of("py-percent", *parts)


def _call(node: Node, resolve: Resolver, depth: int, form: int = 0) -> Template | None:
    fn = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    if fn is None or args is None or args.type != "argument_list":
        return None
    if fn.type == "identifier" and text_of(fn) in _GETTEXT:
        first = [a for a in named(args) if a.type != "keyword_argument"]
        if form and text_of(fn) in _PLURAL and len(first) > 1:
            return _read(first[1], resolve, depth, form)
        return _read(first[0], resolve, depth, form) if first else None
    if fn.type == "attribute":
        attr = fn.child_by_field_name("attribute")
        obj = fn.child_by_field_name("object")
        if attr is not None and obj is not None and text_of(attr) == "format":
            return _format(obj, args, resolve, depth, form)
        if attr is not None and obj is not None and text_of(attr) in _STRIPS and not named(args):
            # celery's E_NO_BACKEND.strip(): a constant written on lines of its own
            t = _read(obj, resolve, depth, form)
            return _reshaped(t, _STRIPS[text_of(attr)]) if t is not None else None
    reshape = _RESHAPES.get(expr_text(fn))
    given = named(args)
    if reshape is not None and len(given) == 1 and given[0].type != "keyword_argument":
        # textwrap.dedent(a triple-quoted text) and inspect.cleandoc(msg)
        t = _read(given[0], resolve, depth, form)
        return _reshaped(t, reshape) if t is not None else None
    return None


_STRIPS: dict[str, Callable[[str], str]] = {
    "strip": str.strip,
    "lstrip": str.lstrip,
    "rstrip": str.rstrip,
}
#: calls that reshape a text's whitespace and keep its words
_RESHAPES: dict[str, Callable[[str], str]] = {
    "dedent": textwrap.dedent,
    "textwrap.dedent": textwrap.dedent,
    "cleandoc": inspect.cleandoc,
    "inspect.cleandoc": inspect.cleandoc,
}


def _reshaped(t: Template, how: Callable[[str], str]) -> Template | None:
    """``t`` with ``how`` applied to its text, each placeholder kept where
    it is (a mark stands for it while the text is reshaped)."""
    texts = [p.text for p in t.parts if isinstance(p, Text)]
    if t.dynamic or any("\x00" in x for x in texts):
        return None
    holes = [p for p in t.parts if isinstance(p, Hole)]
    marked: list[str] = []
    for p in t.parts:
        marked.append(p.text if isinstance(p, Text) else f"\x00{len(marked)}\x00")
    out = how("".join(marked))
    parts: list[Part] = []
    at = {f"{i}": p for i, p in enumerate(t.parts) if isinstance(p, Hole)}
    for i, piece in enumerate(out.split("\x00")):
        if i % 2 == 0:
            parts.append(Text(piece))
        elif piece in at:
            parts.append(at[piece])
        else:
            return None
    if len(parts) - sum(isinstance(p, Text) for p in parts) != len(holes):
        return None
    return Template.of(t.syntax, *parts)


def _format(obj: Node, args: Node, resolve: Resolver, depth: int, form: int = 0) -> Template | None:
    fmt = _literal(obj, resolve, depth + 1, form)
    pieces: list[Part] = [Text(fmt)] if fmt is not None else _fstring_pieces(obj, resolve, depth)
    if not pieces:
        return None
    positional: list[str] = []
    keyed: dict[str, str] = {}
    for a in named(args):
        if a.type == "keyword_argument":
            name, value = a.child_by_field_name("name"), a.child_by_field_name("value")
            if name is not None and value is not None:
                keyed[text_of(name)] = expr_text(value)
        elif a.type not in ("list_splat", "dictionary_splat"):
            positional.append(expr_text(a))
    parts: list[Part] = []
    auto = 0
    for piece in pieces:
        if isinstance(piece, Hole):
            parts.append(piece)  # an f-string's value, printed before .format runs
            continue
        try:
            fields = list(string.Formatter().parse(piece.text))
        except ValueError:  # malformed: str.format would raise; keep the text
            if fmt is not None:
                return Template.literal(fmt)
            return None
        for lit, field, spec, conv in fields:
            parts.append(Text(lit))
            if field is None:
                continue
            src = "{" + field + ("!" + conv if conv else "") + (":" + spec if spec else "") + "}"
            base = re.match(r"[^.\[]*", field)
            head = base.group(0) if base else field
            rest = field[len(head) :]
            if head == "" or head.isdigit():
                i = auto if head == "" else int(head)
                auto += head == ""
                expr = positional[i] + rest if i < len(positional) else field
            else:
                expr = keyed[head] + rest if head in keyed else field
            parts.append(Hole(expr, src))
    return Template.of("py-format", *parts)


def _fstring_pieces(obj: Node, resolve: Resolver, depth: int) -> list[Part]:
    """The parts of an f-string that ``.format`` is called on (webcolors'
    ``f"{{spec}} is not supported; supported are: {_SPECS}."``, a module
    constant): its doubled braces read as the fields ``.format`` fills, its
    own values stay placeholders; [] for anything else."""
    t = _read(obj, resolve, depth + 1)
    if t is None or t.dynamic or t.syntax != "py-fstring":
        return []
    return list(t.parts)


def _concat(
    node: Node, resolve: Resolver, depth: int, form: int = 0, texts: bool = True
) -> Template | None:
    """``a + b + c``: None unless an operand has literal text (``texts``)."""
    operands: list[Node] = []
    stack = [node]
    while stack:  # flatten a + b + c, left to right
        n = stack.pop()
        op = n.child_by_field_name("operator") if n.type == "binary_operator" else None
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        if op is not None and op.type == "+" and left is not None and right is not None:
            stack.extend((right, left))
        else:
            operands.append(n)
    parts: list[Part] = []
    readable = False
    for o in operands:
        t = _read(o, resolve, depth + 1, form)
        if t is not None and not t.dynamic:
            readable = readable or bool(t.chunks())
            parts.extend(t.parts)
        else:
            src = expr_text(o)
            parts.append(Hole(src, "{" + src + "}"))
    return Template.of("concat", *parts) if readable or not texts else None


def concat_of_holes(node: Node, resolve: Resolver) -> Template | None:
    """``message + _format_filepos(lineno, pos)``: the concatenation as
    holes where no operand is literal text (an exception class's
    ``__init__`` joins the text its raise gives to what a helper builds);
    None for anything but a ``+``."""
    op = node.child_by_field_name("operator") if node.type == "binary_operator" else None
    if op is None or op.type != "+":
        return None
    return _concat(node, resolve, 0, texts=False)
