"""JavaScript and TypeScript throw sites (pure): ``throw``, ``Promise.reject``,
node's ``assert`` with a message, and error values built to be thrown
elsewhere (``next(new Error(...))``), with the guards around them and the
``Error`` subclasses a file defines.

    throw new TypeError(`bad port ${port}`)      kind throw, TypeError
    return Promise.reject(new Error('closed'))   kind reject
    assert(typeof fn === 'function', 'fn must be a function')   kind assert
    callback(new Error('timed out'))             kind new-error
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from tree_sitter import Node, Tree

from errordex import grammars
from errordex.extract.common import context_hash, is_test_path
from errordex.languages.javascript import msg
from errordex.languages.javascript.classes import class_messages
from errordex.languages.javascript.msg import text
from errordex.languages.javascript.names import (
    CLASSES,
    FUNCTIONS,
    class_name,
    enclosing_function,
    params,
    symbol_of,
)
from errordex.model import CallArg, ClassDef, Extraction, Guard, ThrowSite
from errordex.template import Template

KINDS = ("throw", "reject", "assert", "new-error")
#: node:assert's functions, and the position of their message argument
ASSERTS = {
    "assert": 1,
    "ok": 1,
    "equal": 2,
    "strictEqual": 2,
    "notEqual": 2,
    "notStrictEqual": 2,
    "deepEqual": 2,
    "deepStrictEqual": 2,
    "notDeepEqual": 2,
    "notDeepStrictEqual": 2,
    "match": 2,
    "doesNotMatch": 2,
    "fail": 0,
}
#: what the assertion checks, for those that read as an operator
_ASSERT_OPS = {"equal": "==", "strictEqual": "===", "notEqual": "!=", "notStrictEqual": "!=="}
#: a file that imports node's assert (``require('assert')``, ``from 'node:assert/strict'``)
_IMPORTS_ASSERT = re.compile(r"""['"](?:node:)?assert(?:/strict)?['"]""")
#: a class name that reads as an error's
_ERROR_NAME = re.compile(r"(?:^|\.)(?:[A-Z]\w*)?(?:Error|Exception)$")
#: how long a guard's text may be
MAX_GUARD = 300


def parse_as(language: str, source: str) -> Tree:
    return grammars.parser(language).parse(source.encode("utf-8", "surrogatepass"))


@dataclass
class _File:
    language: str
    path: str
    lines: list[str]
    tree: Tree
    caps: grammars.Captures
    in_test: bool
    consts: dict[str, Node | None] = field(default_factory=dict)
    #: the ``new`` expressions a throw or reject already reads
    used: set[int] = field(default_factory=set)
    error_classes: set[str] = field(default_factory=set)

    def resolve(self, name: str) -> Node | None:
        return self.consts.get(name)

    def resolver(self, at: Node) -> msg.Resolver:
        """Names as ``at`` reads them: a local ``var msg = 'a' + b`` of its
        function, bound once and never assigned again, else a file's const."""
        fn = enclosing_function(at)
        cache: dict[str, Node | None] = {}

        def resolve(name: str) -> Node | None:
            if name not in cache:
                local = _local_text(fn, name) if fn is not None else None
                cache[name] = local if local is not None else self.consts.get(name)
            return cache[name]

        return resolve

    def site(
        self,
        node: Node,
        kind: str,
        exc: str | None,
        template: Template,
        guards: tuple[Guard, ...] = (),
        args: tuple[CallArg, ...] = (),
        guarded: Node | None = None,
    ) -> ThrowSite:
        """A site at ``node``, under the guards around ``guarded`` (the
        statement that throws; ``node`` itself by default)."""
        line = node.start_point[0] + 1
        return ThrowSite(
            path=self.path,
            line=line,
            column=node.start_point[1] + 1,
            end_line=node.end_point[0] + 1,
            language=self.language,
            kind=kind,
            template=template,
            exception_type=exc,
            symbol=symbol_of(node),
            guards=(*_guards(guarded or node), *guards),
            in_test=self.in_test,
            context_hash=context_hash(self.lines, line),
            args=args,
        )

    # -- what a throw throws ----------------------------------------------
    def thrown(
        self, expr: Node | None
    ) -> tuple[Node | None, str | None, Template, tuple[CallArg, ...]]:
        """(the ``new`` it builds, the exception type, the message, the
        arguments) of a thrown or rejected expression."""
        expr = _unwrap(expr)
        if expr is None:
            return None, None, Template.empty(), ()
        if expr.type == "new_expression" or (
            expr.type == "call_expression" and self.is_class_call(expr)
        ):
            return self.built(expr)
        if expr.type == "identifier":
            made = self.local_error(expr)
            if made is not None:
                self.used.add(made.id)
                return self.built(made)
            return None, None, Template.runtime(text(expr)), ()
        if expr.type == "call_expression":
            # A factory: createError(404, 'Not found'), its message the text it is given.
            args = expr.child_by_field_name("arguments")
            for a in args.named_children if args is not None else ():
                got = msg.readable(a, self.resolver(a))
                if got is not None and not got.dynamic and a.type != "identifier":
                    return None, None, got, ()
            return None, None, Template.runtime(text(expr)), ()
        got = msg.readable(expr, self.resolver(expr))
        return None, None, got if got is not None else Template.runtime(text(expr)), ()

    def is_class_call(self, call: Node) -> bool:
        """``TypeError('x')`` without ``new``: an error class called."""
        fn = call.child_by_field_name("function")
        if fn is None or fn.type not in ("identifier", "member_expression"):
            return False
        name = text(fn)
        return bool(_ERROR_NAME.search(name)) or name in self.error_classes

    def built(self, new: Node) -> tuple[Node, str, Template, tuple[CallArg, ...]]:
        ctor = new.child_by_field_name("constructor") or new.child_by_field_name("function")
        exc = text(ctor) if ctor is not None else "Error"
        args_node = new.child_by_field_name("arguments")
        args = [
            a
            for a in (args_node.named_children if args_node is not None else ())
            if a.type != "comment"
        ]
        resolve = self.resolver(new)
        template = msg.read(args[0], resolve) if args else Template.empty()
        call_args = tuple(
            CallArg(
                "*" if a.type == "spread_element" else None,
                text(a),
                msg.readable(a, resolve),
            )
            for a in args
        )
        return new, exc, template, call_args

    def local_error(self, ident: Node) -> Node | None:
        """``const err = new Error('x'); ...; throw err``: the ``new`` the
        thrown name was bound to last before the throw, in the same function."""
        name = text(ident)
        fn = enclosing_function(ident)
        best: Node | None = None
        for new in self.caps.get("js.new", ()):
            parent = new.parent
            if parent is None or parent.type != "variable_declarator":
                continue
            bound = parent.child_by_field_name("name")
            if bound is None or text(bound) != name or new.start_byte > ident.start_byte:
                continue
            if enclosing_function(new) != fn:
                continue
            if best is None or new.start_byte > best.start_byte:
                best = new
        return best

    # -- the sites --------------------------------------------------------
    def throw_site(self, node: Node) -> ThrowSite:
        expr = node.named_children[0] if node.named_children else None
        new, exc, template, args = self.thrown(expr)
        at = node
        if new is not None:
            self.used.add(new.id)
            if expr is not None and _unwrap(expr) is not new:
                at = new  # node's stack points at the `new`, not the throw
        return self.site(at, "throw", exc, template, args=args, guarded=node)

    def reject_site(self, call: Node) -> ThrowSite | None:
        fn = call.child_by_field_name("function")
        if fn is None or fn.text != b"Promise.reject":
            return None
        args = call.child_by_field_name("arguments")
        first = args.named_children[0] if args is not None and args.named_children else None
        new, exc, template, call_args = self.thrown(first)
        if new is not None:
            self.used.add(new.id)
        return self.site(call, "reject", exc, template, args=call_args)

    def assert_site(self, call: Node) -> ThrowSite | None:
        fn = call.child_by_field_name("function")
        if fn is None:
            return None
        if fn.type == "identifier" and text(fn) == "assert":
            which = "assert"
        elif fn.type == "member_expression":
            obj, prop = fn.child_by_field_name("object"), fn.child_by_field_name("property")
            if obj is None or prop is None or text(obj) != "assert":
                return None
            which = text(prop)
        else:
            return None
        at = ASSERTS.get(which)
        args_node = call.child_by_field_name("arguments")
        args = [
            a
            for a in (args_node.named_children if args_node is not None else ())
            if a.type != "comment"
        ]
        if at is None or len(args) <= at:
            return None
        message = args[at]
        if message.type == "new_expression":
            new, exc, template, call_args = self.built(message)
            self.used.add(new.id)
        else:
            exc, template, call_args = "AssertionError", msg.read(message, self.resolver(call)), ()
        guard: tuple[Guard, ...] = ()
        line = call.start_point[0] + 1
        if which in ("assert", "ok"):
            guard = (Guard("assert", _short(text(args[0])), line),)
        elif which in _ASSERT_OPS:
            guard = (
                Guard(
                    "assert", _short(f"{text(args[0])} {_ASSERT_OPS[which]} {text(args[1])}"), line
                ),
            )
        return self.site(call, "assert", exc, template, guard, call_args)

    def new_error_site(self, new: Node) -> ThrowSite | None:
        """An error value built and handed on (``next(new Error('x'))``,
        ``reject(new TypeError(...))``), not thrown here."""
        if new.id in self.used:
            return None
        ctor = new.child_by_field_name("constructor")
        if ctor is None:
            return None
        name = text(ctor)
        if not (_ERROR_NAME.search(name) or name in self.error_classes):
            return None
        _, exc, template, args = self.built(new)
        if template.is_empty or template.dynamic:
            return None  # a wrapper's `new Error(message)`: the text is the caller's
        return self.site(new, "new-error", exc, template, args=args)

    # -- classes ----------------------------------------------------------
    def class_def(self, node: Node) -> ClassDef | None:
        """An ``Error`` subclass: its base, the message its constructor hands
        to ``super()`` or sets as ``this.message``, and the ``name`` it sets
        (``this.name = 'X'``, what node prints; a text attribute ``name``)."""
        name = class_name(node)
        base = _base(node)
        if name is None or base is None:
            return None
        body = node.child_by_field_name("body")
        members = body.named_children if body is not None else []
        ctor = next(
            (
                m
                for m in members
                if m.type == "method_definition"
                and text(m.child_by_field_name("name") or m) == "constructor"
            ),
            None,
        )
        printed = _printed_name(members, ctor)
        named = (("name", Template.literal(printed)),) if printed is not None else ()
        plain = ClassDef(
            name=name,
            qualname=name,
            path=self.path,
            line=node.start_point[0] + 1,
            bases=(base,),
            text_attrs=named,
        )
        given = _message_given(ctor) if ctor is not None else None
        if ctor is None or given is None:
            return plain
        ps = params(ctor)
        if given.type == "identifier" and text(given) in ps:
            # super(message): the raise's own argument is the message
            p = text(given)
            return replace(
                plain, message_params=ps, message_param=p, super_args=(Template.runtime(p),)
            )
        got = msg.readable(given, self.resolver(given))
        return replace(plain, message=got, builds_message=True, message_params=ps)


def _printed_name(members: list[Node], ctor: Node | None) -> str | None:
    """The ``name`` a class sets to a string: ``this.name = 'X'`` in its
    constructor, or a field ``name = 'X'``."""
    for m in members:
        if m.type in ("public_field_definition", "field_definition"):
            key = m.child_by_field_name("name") or m.child_by_field_name("property")
            value = m.child_by_field_name("value")
            if key is not None and text(key) == "name" and value is not None:
                return msg.string_value(value)
    body = ctor.child_by_field_name("body") if ctor is not None else None
    for stmt in body.named_children if body is not None else ():
        e = stmt.named_children[0] if stmt.named_children else None
        if (
            stmt.type == "expression_statement"
            and e is not None
            and e.type == "assignment_expression"
        ):
            left, right = e.child_by_field_name("left"), e.child_by_field_name("right")
            if left is not None and right is not None and text(left) == "this.name":
                return msg.string_value(right)
    return None


#: a local's value that reads as a message
_TEXTUAL = ("string", "template_string", "binary_expression")


def _local_text(fn: Node, name: str) -> Node | None:
    """The value of ``name`` in ``fn`` when one declaration binds it to text
    (a string, a template, a concatenation) and nothing assigns it again;
    nested functions are not looked into."""
    found: list[Node] = []
    stack = [fn.child_by_field_name("body")]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        t = n.type
        if t == "variable_declarator":
            bound = n.child_by_field_name("name")
            if bound is not None and bound.type == "identifier" and text(bound) == name:
                value = n.child_by_field_name("value")
                if value is None or value.type not in _TEXTUAL:
                    return None
                found.append(value)
        elif t in ("assignment_expression", "augmented_assignment_expression"):
            left = n.child_by_field_name("left")
            if left is not None and left.type == "identifier" and text(left) == name:
                return None
        elif t in FUNCTIONS:
            continue
        stack.extend(n.named_children)
    return found[0] if len(found) == 1 else None


def _unwrap(node: Node | None) -> Node | None:
    while node is not None and node.type in (
        "parenthesized_expression",
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
        "await_expression",
    ):
        node = node.named_children[0] if node.named_children else None
    return node


def _short(s: str) -> str:
    s = " ".join(s.split())
    return s if len(s) <= MAX_GUARD else s[: MAX_GUARD - 1] + "…"


def _condition(if_node: Node) -> str:
    cond = if_node.child_by_field_name("condition")
    if cond is None:
        return ""
    inner = (
        cond.named_children[0]
        if cond.type == "parenthesized_expression" and cond.named_children
        else cond
    )
    return _short(text(inner))


def _guards(node: Node) -> tuple[Guard, ...]:
    """The ``if``/``else`` conditions around ``node`` inside its function,
    outermost first."""
    out: list[Guard] = []
    child = node
    n = node.parent
    while n is not None and n.type not in FUNCTIONS:
        if n.type == "if_statement":
            line = n.start_point[0] + 1
            cons, alt = n.child_by_field_name("consequence"), n.child_by_field_name("alternative")
            if cons is not None and cons.id == child.id:
                out.append(Guard("if", _condition(n), line))
            elif alt is not None and alt.id == child.id:
                out.append(Guard("else", _condition(n), line))
        elif n.type == "ternary_expression":
            line = n.start_point[0] + 1
            cond = n.child_by_field_name("condition")
            cons, alt = n.child_by_field_name("consequence"), n.child_by_field_name("alternative")
            if cond is not None and cons is not None and cons.id == child.id:
                out.append(Guard("if", _short(text(cond)), line))
            elif cond is not None and alt is not None and alt.id == child.id:
                out.append(Guard("else", _short(text(cond)), line))
        child = n
        n = n.parent
    return tuple(reversed(out))


def _base(cls: Node) -> str | None:
    for c in cls.named_children:
        if c.type != "class_heritage":
            continue
        for h in c.named_children:
            if h.type == "extends_clause":
                value = h.child_by_field_name("value")
                return text(value) if value is not None else None
            if h.type in ("identifier", "member_expression"):
                return text(h)
            if h.type == "call_expression":  # mixins: extends Mixin(Error)
                return text(h)
    return None


def _message_given(ctor: Node) -> Node | None:
    """The message a constructor hands on: ``super(msg, ...)``'s first
    argument, or what it sets ``this.message`` to (the last such)."""
    body = ctor.child_by_field_name("body")
    if body is None:
        return None
    found: Node | None = None
    for stmt in body.named_children:
        if stmt.type != "expression_statement" or not stmt.named_children:
            continue
        e = stmt.named_children[0]
        if e.type == "call_expression":
            fn = e.child_by_field_name("function")
            args = e.child_by_field_name("arguments")
            if fn is not None and fn.type == "super" and args is not None and args.named_children:
                found = args.named_children[0]
        elif e.type == "assignment_expression":
            left = e.child_by_field_name("left")
            if left is not None and text(left) == "this.message":
                found = e.child_by_field_name("right")
    return found


def _consts(caps: grammars.Captures, root: Node) -> dict[str, Node | None]:
    """``const NAME = 'text'`` (or a template, or a concatenation) anywhere in
    the file, by name; a name bound twice is None (not known)."""
    out: dict[str, Node | None] = {}
    stack = [root]
    while stack:
        n = stack.pop()
        first = n.child(0) if n.type == "lexical_declaration" else None
        if first is not None and first.type == "const":
            for d in n.named_children:
                if d.type != "variable_declarator":
                    continue
                name, value = d.child_by_field_name("name"), d.child_by_field_name("value")
                if name is None or value is None or name.type != "identifier":
                    continue
                if value.type in ("string", "template_string", "binary_expression"):
                    key = text(name)
                    out[key] = None if key in out else value
            continue
        if (
            n.type in ("statement_block", "program", "export_statement")
            or n.type in FUNCTIONS
            or n.type in CLASSES
            or n.type == "class_body"
        ):
            stack.extend(n.named_children)
        elif n.child_by_field_name("body") is not None:
            stack.append(n.child_by_field_name("body"))  # type: ignore[arg-type]
    return out


#: TypeScript's declaration files: types only, no code that runs
DECLARATIONS = (".d.ts", ".d.mts", ".d.cts")


def extract_as(language: str, path: str, source: str, tree: Tree | None = None) -> Extraction:
    if path.endswith(DECLARATIONS):
        return Extraction()  # its `declare class X extends Error` says nothing of a message
    if tree is None:
        tree = parse_as(language, source)
    caps = grammars.captures(language, tree)
    f = _File(
        language=language,
        path=path,
        lines=source.splitlines(),
        tree=tree,
        caps=caps,
        in_test=is_test_path(path),
    )
    f.consts = _consts(caps, tree.root_node)
    classes = [c for c in (f.class_def(n) for n in caps.get("js.class", ())) if c is not None]
    f.error_classes = {c.name for c in classes}
    sites: list[ThrowSite] = []
    for node in caps.get("js.throw", ()):
        sites.append(f.throw_site(node))
    asserts = _IMPORTS_ASSERT.search(source) is not None and not f.in_test
    for call in caps.get("js.call", ()):
        got = f.reject_site(call) or (f.assert_site(call) if asserts else None)
        if got is not None:
            sites.append(got)
    for new in caps.get("js.new", ()):
        got = f.new_error_site(new)
        if got is not None:
            sites.append(got)
    if classes and any(s.kind == "reject" for s in sites):
        # The classes of every file revise the throws and the values handed
        # on (Runtime.raise_kind, value_kind); a rejection reads its own file's.
        _, revise = class_messages(classes)
        sites = [revise(s) if s.kind == "reject" else s for s in sites]
    sites.sort(key=lambda s: (s.line, s.column))
    classes.sort(key=lambda c: c.line)
    return Extraction(sites=tuple(sites), classes=tuple(classes))
