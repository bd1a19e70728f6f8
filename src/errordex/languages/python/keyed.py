"""Messages kept in a table keyed by name (Python, pure): issue 15, pattern 1.

marshmallow's fields keep their messages in a class attribute, merged up
the class hierarchy, and raise them by key through a helper::

    class Number(Field):
        default_error_messages = {"invalid": "Not a valid number."}

        def _validated(self, value):
            raise self.make_error("invalid", input=value)

    class Integer(Number):
        default_error_messages = {"invalid": "Not a valid integer."}

    def make_error(self, key, **kwargs):           # in Field
        msg = self.error_messages[key]
        return ValidationError(msg.format(**kwargs))

``Integer().deserialize("x")`` raises "Not a valid integer." at the raise
in ``Number._validated``. So a raise of ``self.<helper>("key", ...)`` is one
site per class of the file that reaches it (the class the raise is written
in, and each subclass that does not override the method) with its own text
for the key: the text of the nearest class up its bases whose table has the
key. The exception type is the class the helper returns or raises. The
table's text is a template: ``{name}`` fields (``str.format(**kwargs)``) and
``%(name)s`` ones (Django's ``params``) are placeholders.

Only the classes of the raise's file are followed (a field library keeps its
fields together); a key no table of the file has leaves the raise as it was.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

import tree_sitter as ts

from errordex.languages.python import msg
from errordex.template import Hole, Part, Template, Text

#: class attributes that map a key to a message
TABLE_ATTRS = frozenset(
    {"default_error_messages", "_default_error_messages", "error_messages", "default_messages"}
)
#: the method an error collection is added to with (marshmallow's ``ErrorStore``)
STORE = "store_error"
#: a key: one word, as ``"invalid"`` or ``"max_length"``
_KEY = re.compile(r"[A-Za-z_][\w.-]*\Z")
_PERCENT_KEY = re.compile(r"%\((\w+)\)[#0\- +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")
_MAX_DEPTH = 32


@dataclass
class _Class:
    name: str
    bases: tuple[str, ...]
    table: dict[str, Template] = field(default_factory=dict)
    #: the methods it defines that do not call ``super()``: they hide the base's
    methods: frozenset[str] = frozenset()


@dataclass
class Tables:
    """The keyed message tables of one file's classes."""

    classes: dict[str, _Class]

    @classmethod
    def of(cls, src: bytes, class_nodes: list[ts.Node], resolve: msg.Resolver) -> Tables | None:
        """None when no class of the file has a table (the usual case: a
        look at the bytes first)."""
        if not any(a.encode() in src for a in TABLE_ATTRS):
            return None
        found: dict[str, _Class] = {}
        for node in class_nodes:
            read = _read_class(node, resolve)
            if read is not None:
                found.setdefault(read.name, read)
        if not any(c.table for c in found.values()):
            return None
        return cls(found)

    def variants(self, raise_node: ts.Node, key: str) -> list[tuple[str, Template]]:
        """(class, message) for each class of the file that reaches the raise
        with its own text for ``key``: its class first, then its subclasses
        in the order they are defined; [] when no table has the key."""
        method, owner = _method_and_class(raise_node)
        if owner is None or owner not in self.classes:
            return []
        out: list[tuple[str, Template]] = []
        seen: set[Template] = set()
        for name in (owner, *self._heirs(owner, method)):
            text = self._lookup(name, key)
            if text is not None and text not in seen:
                seen.add(text)
                out.append((name, text))
        return out

    def _heirs(self, owner: str, method: str | None) -> list[str]:
        """The subclasses of ``owner`` defined in the file whose instances run
        ``owner``'s ``method`` (none of the classes between overrides it)."""
        out = []
        for name in self.classes:
            if name == owner:
                continue
            chain = self._chain(name)
            if owner not in chain:
                continue
            below = chain[: chain.index(owner)]
            if method is None or not any(method in self.classes[c].methods for c in below):
                out.append(name)
        return out

    def _chain(self, name: str) -> list[str]:
        """``name`` and its bases defined in the file, first base first."""
        chain: list[str] = []
        todo = [name]
        while todo and len(chain) < _MAX_DEPTH:
            n = todo.pop(0)
            c = self.classes.get(n)
            if c is None or n in chain:
                continue
            chain.append(n)
            todo = [b for b in c.bases if b in self.classes] + todo
        return chain

    def _lookup(self, name: str, key: str) -> Template | None:
        for n in self._chain(name):
            text = self.classes[n].table.get(key)
            if text is not None:
                return text
        return None


def key_of(call: ts.Node) -> tuple[str, str] | None:
    """``self.make_error("invalid", input=value)`` -> ("make_error", "invalid"):
    a method of ``self`` called with a key as its first argument."""
    fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    if fn is None or args is None or fn.type != "attribute" or args.type != "argument_list":
        return None
    obj, attr = fn.child_by_field_name("object"), fn.child_by_field_name("attribute")
    if obj is None or attr is None or msg.text_of(obj) not in ("self", "cls"):
        return None
    first = next((a for a in msg.named(args) if a.type != "keyword_argument"), None)
    key = msg.string_value(first) if first is not None and first.type == "string" else None
    if key is None or _KEY.match(key) is None:
        return None
    return msg.text_of(attr), key


def subscript_key(node: ts.Node) -> str | None:
    """``self.error_messages["unknown"]`` -> "unknown": a key of a table of ``self``."""
    if node.type != "subscript":
        return None
    value, sub = node.child_by_field_name("value"), node.child_by_field_name("subscript")
    obj = value.child_by_field_name("object") if value is not None else None
    attr = value.child_by_field_name("attribute") if value is not None else None
    if obj is None or attr is None or sub is None or sub.type != "string":
        return None
    if msg.text_of(obj) not in ("self", "cls") or msg.text_of(attr) not in TABLE_ATTRS:
        return None
    key = msg.string_value(sub)
    return key if key is not None and _KEY.match(key) else None


def stored(call: ts.Node) -> list[ts.Node]:
    """The messages ``errors.store_error([...], field)`` adds to a collection
    (the first argument: a list of them, or one)."""
    args = call.child_by_field_name("arguments")
    first = next(iter(msg.named(args)), None) if args is not None else None
    if first is None or first.type == "keyword_argument":
        return []
    return msg.named(first) if first.type == "list" else [first]


def helper_raises(functions: dict[str, list[ts.Node]], helper: str) -> str | None:
    """The class a helper of the file returns or raises (``make_error``'s
    ``return ValidationError(msg)``), when it names one class."""
    defs = functions.get(helper, [])
    body = defs[0].child_by_field_name("body") if len(defs) == 1 else None
    found: set[str] = set()
    stack = list(body.named_children) if body is not None else []
    while stack:
        n = stack.pop()
        if n.type in ("return_statement", "raise_statement"):
            kids = msg.named(n)
            call = kids[0] if kids else None
            fn = (
                call.child_by_field_name("function")
                if call is not None and call.type == "call"
                else None
            )
            name = msg.text_of(fn) if fn is not None else ""
            if name.rsplit(".", 1)[-1][:1].isupper():
                found.add(name)
        elif n.type not in ("function_definition", "class_definition", "lambda"):
            stack.extend(n.named_children)
    # an AssertionError for a key that is missing is not the helper's error
    found.discard("AssertionError")
    return found.pop() if len(found) == 1 else None


def placeholders(t: Template) -> Template:
    """A table's text as the template it is formatted with: ``{name}`` and
    ``%(name)s`` fields are placeholders; other text stays as written.

        >>> placeholders(Template.literal("Not a valid {obj_type}.")).display()
        'Not a valid {obj_type}.'
        >>> placeholders(Template.literal("Not a valid {obj_type}.")).holes[0].expr
        'obj_type'
    """
    if t.syntax != "literal" or t.holes:
        return t
    text = t.literal_text()
    if _PERCENT_KEY.search(text):
        parts: list[Part] = []
        pos = 0
        for m in _PERCENT_KEY.finditer(text):
            parts.append(Text(text[pos : m.start()].replace("%%", "%")))
            parts.append(Hole(m.group(1), m.group(0)))
            pos = m.end()
        parts.append(Text(text[pos:].replace("%%", "%")))
        return Template.of("py-percent", *parts)
    if "{" not in text:
        return t
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError:
        return t
    parts = []
    for lit, name, spec, conv in fields:
        parts.append(Text(lit))
        if name is None:
            continue
        if not name.isidentifier():
            return t  # positional or odd fields: not a keyed template
        src = "{" + name + ("!" + conv if conv else "") + (":" + spec if spec else "") + "}"
        parts.append(Hole(name, src))
    return Template.of("py-format", *parts)


def _read_class(node: ts.Node, resolve: msg.Resolver) -> _Class | None:
    name_node, body = node.child_by_field_name("name"), node.child_by_field_name("body")
    if name_node is None or body is None:
        return None
    supers = node.child_by_field_name("superclasses")
    bases = tuple(
        msg.expr_text(b).split("[", 1)[0].rsplit(".", 1)[-1]
        for b in (msg.named(supers) if supers is not None else [])
        if b.type not in ("keyword_argument", "list_splat", "dictionary_splat")
    )
    table: dict[str, Template] = {}
    methods: set[str] = set()
    for stmt in msg.named(body):
        if stmt.type == "decorated_definition":
            stmt = stmt.child_by_field_name("definition") or stmt
        if stmt.type == "function_definition":
            fn_name = stmt.child_by_field_name("name")
            if fn_name is not None and b"super(" not in (stmt.text or b""):
                methods.add(msg.text_of(fn_name))
            continue
        assign = (
            stmt.named_children[0]
            if stmt.type == "expression_statement" and stmt.named_child_count
            else None
        )
        if assign is None or assign.type != "assignment":
            continue
        left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        if left is None or right is None or msg.text_of(left) not in TABLE_ATTRS:
            continue
        if right.type != "dictionary":
            continue
        for pair in msg.named(right):
            k, v = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            key = msg.string_value(k) if pair.type == "pair" and k is not None else None
            if key is None or v is None:
                continue
            text = msg.read_static(v, resolve)
            if text is not None and text.chunks():
                table[key] = placeholders(text)
    return _Class(msg.text_of(name_node), bases, table, frozenset(methods))


def _method_and_class(node: ts.Node) -> tuple[str | None, str | None]:
    """The method a statement is in and the class that method is defined in."""
    method: str | None = None
    parent = node.parent
    while parent is not None:
        if parent.type == "function_definition" and method is None:
            name = parent.child_by_field_name("name")
            method = msg.text_of(name) if name is not None else None
        elif parent.type == "class_definition":
            name = parent.child_by_field_name("name")
            return method, msg.text_of(name) if name is not None else None
        parent = parent.parent
    return method, None
