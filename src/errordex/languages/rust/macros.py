"""Messages written as the arguments of a ``macro_rules!`` macro (pure).

axum writes its rejections' texts in the calls of a macro of its own:

    define_rejection! {
        #[status = BAD_REQUEST]
        #[body = "Failed to parse the request body as JSON"]
        pub struct JsonSyntaxError(Error);
    }

and the macro's rule passes ``$body`` on to the ``Display`` it writes. A rule
whose pattern binds a literal after a key (``#[body = $body:literal]``,
``$name:ident => $description:expr``) and whose expansion writes it in a
``Display``, an ``#[error(..)]`` or a panic is a ``rule``; each call of that
macro in the workspace (by its name, or a ``use .. as`` alias of it) gives a
site per literal at that key, at the literal, of the type the call declares
(``struct JsonSyntaxError``) or the name before ``=>``. Calls are read in
their own file, rules in theirs; ``construct.class_messages`` joins them, so
a literal of a macro with no such rule is no site.

Only the simple rules are read: one key and one literal.

A macro that builds an error from a format string it is given is read too:
xml-rs writes its parser's messages as

    macro_rules! self_error(
        ($this:ident; $msg:expr) => ($this.error($msg));
        ($this:ident; $fmt:expr, $($arg:expr),+) => ($this.error(format!($fmt, $($arg),+)))
    );
    ...
    Err(self_error!(self; "Unexpected entity: {}", name))

A rule that passes a fragment it binds to ``format!``/``format_args!``, or
as the argument of a call whose name says it makes an error (``error``,
``Err``, ``err``), is a ``fmt`` rule; a call of that macro in an expression
gives a site of its first string literal, formatted with the arguments
after it (``err-return``, of no type: the macro's expansion decides which).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from tree_sitter import Node

from errordex.languages.rust.fmt import parse_format, unescape
from errordex.model import ClassDef, ThrowSite
from errordex.template import Template

if TYPE_CHECKING:
    from errordex import grammars

#: What a macro call's site names before its key and type (``construct``
#: resolves it): ``macro:<macro>:<key>|<type>``.
PREFIX = "macro:"
#: Fragments a message can be bound to.
_FRAGMENTS = frozenset({"literal", "expr", "tt"})
#: What the expansion must do with the bound literal for it to be a message.
_USES = (b"Display", b"error", b"panic!", b"write_str", b"write!")
#: Parents of an item-level macro call.
_ITEM_LEVEL = frozenset({"source_file", "declaration_list"})
_STRINGS = frozenset({"string_literal", "raw_string_literal"})
#: The key of a macro that formats the string it is given into an error.
FMT_KEY = "fmt"
#: Macros whose calls are never a message's own (std's and the test macros).
_NOT_FORWARDERS = frozenset(
    {
        *("format", "format_args", "print", "println", "eprint", "eprintln", "write", "writeln"),
        *("panic", "assert", "assert_eq", "assert_ne", "debug_assert", "debug_assert_eq"),
        *("debug_assert_ne", "unreachable", "unimplemented", "todo", "vec", "matches"),
        *("concat", "stringify", "include_str", "env", "option_env", "cfg", "dbg"),
        *("trace", "debug", "info", "warn", "error", "log"),
        *("bail", "ensure", "anyhow", "format_err", "eyre", "compile_error", "include_bytes"),
    }
)
#: What the expansion does with a bound fragment for it to be the message
#: of the error it builds: ``format!($fmt``, or ``.error($msg)``.
_FORMATS = re.compile(rb"\b(?:format|format_args)\s*!\s*[(\[{]\s*\$(\w+)\b")
_ERROR_CALLS = re.compile(rb"\b\w*(?:[Ee]rr|[Ee]rror)\w*\s*\(\s*\$(\w+)\s*[),]")
#: Keys of literals that are never messages (``#[cfg(feature = "rt")]``, ``#[doc = ".."]``).
_NOT_MESSAGES = frozenset({"feature=", "doc=", "target_os=", "target_arch=", "path="})


class _File(Protocol):
    path: str

    @property
    def src(self) -> bytes: ...

    def text_of(self, node: Node) -> str: ...

    def site(
        self, kind: str, start: Node, end: Node, tmpl: Template, exception_type: str | None = None
    ) -> ThrowSite: ...


def rules(f: _File, caught: grammars.Captures) -> list[ClassDef]:
    """The keys of each ``macro_rules!`` whose expansion writes the literal
    bound there as a message: ``ClassDef`` named ``macro:<name>:<key>``."""
    out: list[ClassDef] = []
    for mac in caught.get("macro_rules", ()):
        name_node = mac.child_by_field_name("name")
        if name_node is None:
            continue
        name = f.text_of(name_node)
        for rule in mac.named_children:
            if rule.type != "macro_rule":
                continue
            left, right = rule.child_by_field_name("left"), rule.child_by_field_name("right")
            if left is None or right is None:
                continue
            body = f.src[right.start_byte : right.end_byte]
            fmt_rule = _fmt_rule(f, name, left, body)
            if fmt_rule is not None and all(c.name != fmt_rule.name for c in out):
                out.append(fmt_rule)
            if not any(u in body for u in _USES):
                continue
            for binding, key in _bindings(f, left):
                var = binding.child_by_field_name("name")
                if var is not None and f.src[var.start_byte : var.end_byte] in body:
                    out.append(
                        ClassDef(
                            name=f"{PREFIX}{name}:{key}",
                            qualname=f"{name}!",
                            path=f.path,
                            line=binding.start_point.row + 1,
                            message=Template.runtime(f.text_of(var)),
                            builds_message=True,
                        )
                    )
    return out


def _fmt_rule(f: _File, name: str, left: Node, body: bytes) -> ClassDef | None:
    """``macro:<name>:fmt`` when the rule passes a fragment it binds to a
    format macro or an error-making call (``_FORMATS``, ``_ERROR_CALLS``)."""
    bound = set()
    stack = [left]
    while stack:
        node = stack.pop()
        for c in node.children:
            if c.type == "token_binding_pattern":
                var = c.child_by_field_name("name")
                kind = c.child_by_field_name("type")
                if var is not None and kind is not None and f.text_of(kind) in _FRAGMENTS:
                    bound.add(f.text_of(var).lstrip("$").encode())
            elif c.child_count:
                stack.append(c)
    used = {m.group(1) for rx in (_FORMATS, _ERROR_CALLS) for m in rx.finditer(body)}
    if not bound & used:
        return None
    return ClassDef(
        name=f"{PREFIX}{name}:{FMT_KEY}",
        qualname=f"{name}!",
        path=f.path,
        line=left.start_point.row + 1,
        message=Template.runtime(name),
        builds_message=True,
    )


def _bindings(f: _File, pattern: Node) -> list[tuple[Node, str]]:
    """(``$x:literal`` binding, its key) in a rule's pattern."""
    out: list[tuple[Node, str]] = []
    stack = [pattern]
    while stack:
        node = stack.pop()
        for c in node.children:
            if c.type == "token_binding_pattern":
                kind = c.child_by_field_name("type")
                key = _key(f, c)
                if kind is not None and f.text_of(kind) in _FRAGMENTS and key:
                    out.append((c, key))
            elif c.child_count:
                stack.append(c)
    return out


def _key(f: _File, node: Node) -> str | None:
    """``body =`` before ``node`` reads ``body=``; ``=>`` reads ``=>``."""
    prev = node.prev_sibling
    if prev is None:
        return None
    if prev.type == "=>":
        return "=>"
    before = prev.prev_sibling
    if prev.type == "=" and before is not None and before.type == "identifier":
        return f"{f.text_of(before)}="
    return None


def calls(f: _File, caught: grammars.Captures, aliases: dict[str, str]) -> list[ThrowSite]:
    """A site per literal at a key in each item-level macro call, its
    message not yet known to be one (``construct.class_messages`` decides)."""
    out: list[ThrowSite] = []
    for call in caught.get("macro", ()):
        parent = call.parent
        name_node = call.child_by_field_name("macro")
        args = call.child(call.child_count - 1)
        if parent is None or name_node is None or args is None or args.type != "token_tree":
            continue
        name = f.text_of(name_node).rsplit("::", 1)[-1]
        name = aliases.get(name, name)
        if parent.type not in _ITEM_LEVEL:
            made = _formatted(f, name, call, args)
            if made is not None:
                out.append(made)
            continue
        declared = _declared(f, args)
        stack = [args]
        while stack:
            tt = stack.pop()
            for c in tt.children:
                if c.type == "token_tree":
                    stack.append(c)
                elif c.type in _STRINGS:
                    key = _key(f, c)
                    text = _literal(f, c)
                    if key is None or text is None or key in _NOT_MESSAGES:
                        continue
                    owner = declared
                    if key == "=>":
                        before = c.prev_sibling.prev_sibling if c.prev_sibling else None
                        owner = f.text_of(before) if before is not None else declared
                    where = f"{PREFIX}{name}:{key}|{owner or ''}"
                    out.append(f.site("construct", c, c, Template.literal(text), where))
    return out


def _formatted(f: _File, name: str, call: Node, args: Node) -> ThrowSite | None:
    """``self_error!(self; "Unexpected entity: {}", name)``: a site of the
    first string literal in the call, formatted with the arguments after it
    (a ``fmt`` rule of the macro decides whether it is a message)."""
    if name in _NOT_FORWARDERS:
        return None
    kids = [c for c in args.children[1:-1] if c.type not in ("line_comment", "block_comment")]
    at = next((i for i, c in enumerate(kids) if c.type in _STRINGS), None)
    if at is None or (at > 0 and kids[at - 1].type not in (",", ";")):
        return None
    text = _literal(f, kids[at])
    if not text:
        return None
    rest = kids[at + 1 :]
    if rest and rest[0].type != ",":
        return None  # "a" + b, "x".to_string(): not the format string alone
    positional: list[str] = []
    named: dict[str, str] = {}
    group: list[Node] = []
    for c in [*rest[1:], None]:
        if c is not None and c.type != ",":
            group.append(c)
            continue
        if group:
            if len(group) >= 3 and group[0].type == "identifier" and group[1].type == "=":
                named[f.text_of(group[0])] = _code(f, group[2:])
            else:
                positional.append(_code(f, group))
        group = []
    if not (positional or named) and ("{{" in text or "}}" in text):
        return None  # printed as given or formatted: which, the rule alone says
    made = parse_format(text, positional, named) if positional or named else Template.literal(text)
    # the macro's name last, as a built value's type is (``..::self_error``)
    where = f"{PREFIX}{name}:{FMT_KEY}|::{name}"
    return f.site("construct", call, kids[at], made, where)


def _code(f: _File, nodes: list[Node]) -> str:
    return " ".join(
        f.src[nodes[0].start_byte : nodes[-1].end_byte].decode(errors="replace").split()
    )


def _declared(f: _File, args: Node) -> str | None:
    """The type a macro call declares: the name after ``struct`` or ``enum``."""
    kids = args.children
    for i, c in enumerate(kids[:-1]):
        if c.type in ("struct", "enum") or f.text_of(c) in ("struct", "enum"):
            nxt = kids[i + 1]
            if nxt.type == "identifier":
                return f.text_of(nxt)
    return None


def _literal(f: _File, node: Node) -> str | None:
    return unescape(f.text_of(node))


def aliases(f: _File, caught: grammars.Captures) -> dict[str, str]:
    """``use axum_core::__define_rejection as define_rejection;``: alias -> name."""
    out: dict[str, str] = {}
    for alias in caught.get("use.alias", ()):
        clause = alias.parent
        path = clause.child_by_field_name("path") if clause is not None else None
        if path is not None:
            out[f.text_of(alias)] = f.text_of(path).rsplit("::", 1)[-1]
    return out


def resolve(site: ThrowSite, rules_by_name: dict[str, list[ClassDef]]) -> ThrowSite | None:
    """A macro call's literal as the ``display-impl`` message of the type it
    declares, when a rule of that macro writes it; else no site."""
    name, _, owner = (site.exception_type or "").partition("|")
    if name not in rules_by_name:
        return None
    if name.endswith(f":{FMT_KEY}"):
        return replace(site, kind="err-return", exception_type=None, args=())
    return replace(site, kind="display-impl", exception_type=owner or None, args=())
