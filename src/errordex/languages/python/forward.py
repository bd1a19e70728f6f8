"""Messages forwarded through a parameter (Python, pure).

Many libraries raise through a helper whose message is a parameter::

    def fail(self, message, param=None, ctx=None):      # a forwarder
        raise BadParameter(message, ctx=ctx, param=param)

    self.fail(_("{value!r} is not a valid integer.").format(value=value), param, ctx)

The raise in ``fail`` alone says only "built at run time". This module finds
the forwarders (a raise whose message is, or shows, one of the function's
parameters) and the calls that pass readable message text; the pipeline
joins the two across files (``errordex.forward``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import tree_sitter as ts

from errordex import grammars
from errordex.languages.python import fields, msg
from errordex.languages.python.file import SourceFile
from errordex.model import Forwarder, MessageCall
from errordex.template import Template

#: when a message shows several parameters, the one that is the message
_MESSAGE_PARAMS = ("message", "msg", "text", "reason", "detail", "details", "error", "err")
#: at most this many arguments of a call are read
_MAX_ARGS = 6
#: callees that are never a repository's forwarder: builtins, and methods
#: of str, list, dict, files and loggers. Reading the message text is most
#: of the cost, so these calls are not read at all.
_NOT_FORWARDERS = frozenset(
    [
        "print",
        "len",
        "isinstance",
        "issubclass",
        "getattr",
        "setattr",
        "hasattr",
        "delattr",
        "str",
        "repr",
        "bytes",
        "int",
        "float",
        "bool",
        "list",
        "dict",
        "set",
        "tuple",
        "frozenset",
        "type",
        "open",
        "format",
        "iter",
        "next",
        "sorted",
        "min",
        "max",
        "sum",
        "any",
        "all",
        "enumerate",
        "zip",
        "map",
        "filter",
        "range",
        "super",
        "vars",
        "id",
        "hash",
        "callable",
        "chr",
        "ord",
        "append",
        "extend",
        "insert",
        "remove",
        "pop",
        "get",
        "setdefault",
        "update",
        "keys",
        "values",
        "items",
        "copy",
        "clear",
        "join",
        "split",
        "rsplit",
        "splitlines",
        "partition",
        "rpartition",
        "startswith",
        "endswith",
        "replace",
        "strip",
        "lstrip",
        "rstrip",
        "lower",
        "upper",
        "title",
        "find",
        "rfind",
        "index",
        "count",
        "encode",
        "decode",
        "ljust",
        "rjust",
        "center",
        "zfill",
        "translate",
        "write",
        "writelines",
        "read",
        "readline",
        "readlines",
        "seek",
        "flush",
        "close",
        "debug",
        "info",
        "warning",
        "exception",
        "log",
        "critical",
        "compile",
        "match",
        "search",
        "fullmatch",
        "sub",
        "subn",
        "findall",
        "finditer",
        "escape",
        "fromkeys",
        "add",
        "discard",
        "mkdir",
        "exists",
        "joinpath",
        "with_suffix",
        "run",
        "call",
        "check_call",
        "check_output",
        "Popen",
        "system",
        "environ",
        "getenv",
        "putenv",
    ]
)
_ARG_TYPES = frozenset(
    {
        "string",
        "concatenated_string",
        "binary_operator",
        "call",
        "identifier",
        "parenthesized_expression",
    }
)


#: a name argument is read only when it names a message (``msg = _("...")``)
_MESSAGE_NAME = ("msg", "message", "err", "text", "reason", "detail", "descr")
#: what the text of an argument list holds when an argument may be read as
#: a message: a string's quote, a call's or a group's parenthesis, a binary
#: operator, or (lower-cased) a name of ``_MESSAGE_NAME``
_MAY_READ = re.compile(rb"[\"'(+\-*/%&|^<>@]|msg|message|err|text|reason|detail|descr")
_SCOPE_TYPES = ("function_definition", "class_definition")


#: ``_NOT_FORWARDERS``, gettext and ``format``, as the bytes of a callee's name
_SKIPPED = frozenset(n.encode() for n in _NOT_FORWARDERS | msg.GETTEXT | {"format"})


#: class names that are exceptions: a call of one builds an exception (a
#: raise's message, classmsg's work), not an object that holds a message
_EXCEPTION_SUFFIXES = (b"Error", b"Exception", b"Warning", b"Exit", b"Interrupt", b"Abort")


def may_construct(name: bytes) -> bool:
    """Whether a call of the class ``name`` may build an object that raises
    the message it is given later (``held``): not an exception class."""
    return not name.endswith(_EXCEPTION_SUFFIXES)


def _may_forward(src: bytes, callees: list[ts.Node]) -> list[ts.Node]:
    """The callees whose name leaves their call worth reading: not an
    exception class, an ``assert...``/dunder method or a name in
    ``_SKIPPED`` (the rest of the checks are ``message_call``'s)."""
    skipped, prefixes = _SKIPPED, (b"assert", b"__")
    out = []
    for n in callees:
        name = src[n.start_byte : n.end_byte]
        if name in skipped or name.startswith(prefixes):
            continue
        if not name[:1].isupper() or may_construct(name):
            out.append(n)
    return out


@dataclass
class Forwarding:
    """The functions and calls of one file, for forwarding."""

    functions: list[ts.Node]
    call_nodes: list[ts.Node]

    @classmethod
    def of(cls, f: SourceFile, caught: grammars.Captures) -> Forwarding | None:
        src = f.src
        calls: list[ts.Node] = []
        # the query's patterns: the call is the callee's parent, or the
        # parent of its attribute
        for capture, up in (("forward.callee", 1), ("forward.method", 2)):
            for n in _may_forward(src, caught.get(capture, [])):
                # .parent walks down from the root: asked once
                up_one = n.parent
                call: ts.Node | None = up_one if up == 1 or up_one is None else up_one.parent
                if call is None:
                    continue
                # ``message_call``'s first look, on the text after the callee (the
                # argument list, or more): most calls end here, never read.
                start = src.find(b"(", n.end_byte, call.end_byte) + 1
                if _MAY_READ.search(src[start : call.end_byte - 1].lower()) is not None:
                    calls.append(call)
        functions = [
            n for n in caught.get("function", ()) if n.child_by_field_name("name") is not None
        ]
        if not (functions or calls):
            return None
        return cls(functions, calls)

    def calls(self, f: SourceFile) -> tuple[MessageCall, ...]:
        found = (message_call(f, n) for n in self.call_nodes)
        return tuple(sorted((c for c in found if c is not None), key=lambda c: (c.line, c.column)))

    def qualnames(self) -> tuple[str, ...]:
        """``Class.method`` or ``outer.inner`` of each function, sorted."""
        memo: dict[int, str] = {}

        def of(node: ts.Node) -> str:
            got = memo.get(node.id)
            if got is not None:
                return got
            name_node = node.child_by_field_name("name")
            name = msg.text_of(name_node) if name_node is not None else "?"
            parent = node.parent
            while parent is not None and parent.type not in _SCOPE_TYPES:
                parent = parent.parent
            full = f"{of(parent)}.{name}" if parent is not None else name
            memo[node.id] = full
            return full

        return tuple(sorted({of(n) for n in self.functions}))


def qualname(fn: ts.Node) -> str:
    """``Class.method`` or ``outer.inner`` for a function definition."""
    names: list[str] = []
    node: ts.Node | None = fn
    while node is not None:
        if node.type in ("function_definition", "class_definition"):
            name = node.child_by_field_name("name")
            names.append(msg.text_of(name) if name is not None else "?")
        node = node.parent
    return ".".join(reversed(names))


def _enclosing_function(node: ts.Node) -> ts.Node | None:
    parent = node.parent
    while parent is not None:
        if parent.type == "function_definition":
            return parent
        if parent.type in ("class_definition", "lambda"):
            return None
        parent = parent.parent
    return None


def _owner_class(node: ts.Node) -> ts.Node | None:
    parent = node.parent
    while parent is not None:
        if parent.type == "class_definition":
            return parent
        parent = parent.parent
    return None


def _is_method(fn: ts.Node) -> bool:
    """A function defined in a class body that takes ``self``/``cls``."""
    holder = fn.parent
    decorators: list[str] = []
    if holder is not None and holder.type == "decorated_definition":
        decorators = [msg.text_of(d) for d in holder.named_children if d.type == "decorator"]
        holder = holder.parent
    owner = holder.parent if holder is not None else None
    in_class = owner is not None and owner.type == "class_definition"
    return in_class and not any(d.strip() == "@staticmethod" for d in decorators)


def _parameters(fn: ts.Node, method: bool) -> dict[str, int | None]:
    """Parameter name -> position (None for keyword-only), without ``self``."""
    params = fn.child_by_field_name("parameters")
    out: dict[str, int | None] = {}
    index = 0
    keyword_only = False
    skip_first = method
    for p in msg.named(params) if params is not None else []:
        inner = p.named_children[0] if p.type == "typed_parameter" and p.named_children else p
        if inner.type in ("list_splat_pattern", "keyword_separator"):
            keyword_only = True
            continue
        if inner.type in ("dictionary_splat_pattern", "positional_separator"):
            continue
        ident = p if p.type == "identifier" else p.child_by_field_name("name")
        if ident is None:
            ident = next((c for c in p.named_children if c.type == "identifier"), None)
        if ident is None:
            continue
        if skip_first:
            skip_first = False
            continue
        out[msg.text_of(ident)] = None if keyword_only else index
        index += 0 if keyword_only else 1
    return out


def class_parameter(raise_node: ts.Node, name: str) -> str | None:
    """The class a raise of a parameter raises by default: jinja's
    ``def fail(self, msg, lineno=None, exc=TemplateSyntaxError)`` raises
    ``exc(msg, ...)``, a ``TemplateSyntaxError`` unless a caller passes
    another class (issue 15, pattern 3)."""
    fn = _enclosing_function(raise_node)
    params = fn.child_by_field_name("parameters") if fn is not None else None
    for p in msg.named(params) if params is not None else []:
        if p.type not in ("default_parameter", "typed_default_parameter"):
            continue
        key, value = p.child_by_field_name("name"), p.child_by_field_name("value")
        if key is None or value is None or msg.text_of(key) != name:
            continue
        default = msg.expr_text(value)
        if value.type in ("identifier", "attribute") and default.rsplit(".", 1)[-1][:1].isupper():
            return default
        return None
    return None


def forwarder(
    path: str, raise_node: ts.Node, exc_type: str, template: Template
) -> Forwarder | None:
    """The forwarder a raise makes of its function, when its message is (or
    shows as text) one of the function's parameters."""
    fn = _enclosing_function(raise_node)
    if fn is None or not template.holes:
        return None
    method = _is_method(fn)
    params = _parameters(fn, method)
    formats: str | None = None
    if len(template.parts) == 1 and template.holes:
        # ``raise GrammarError(msg.format(**args))``: the caller's text, formatted
        found = fields.formatted_parameter(template.holes[0].expr, params)
        if found is not None:
            template, formats = Template.runtime(found[0]), found[1]
    shown = [h.expr for h in template.holes if h.expr in params and msg.shows_str(h.spec)]
    names = list(dict.fromkeys(shown))
    if len(template.parts) > 1:
        # Text around a parameter: only a parameter named as a message is
        # one (``f"error: {msg}"``), not ``"conflicting subparser: %s" % name``.
        names = [n for n in names if any(m in n.lower() for m in _MESSAGE_NAME)]
    if len(names) > 1:
        names = [n for n in names if n in _MESSAGE_PARAMS][:1]
    if len(names) != 1:
        return None
    name_node = fn.child_by_field_name("name")
    if name_node is None:
        return None
    # ``raise ErrorClass(message, ...)`` of a parameter: each caller names the class
    held_class = exc_type if exc_type in params and exc_type != names[0] else None
    return Forwarder(
        name=msg.text_of(name_node),
        qualname=qualname(fn),
        path=path,
        line=raise_node.start_point.row + 1,
        param_name=names[0],
        param_index=params[names[0]],
        exception_type=exc_type,
        template=template,
        method=method,
        class_param=held_class,
        class_index=params[held_class] if held_class is not None else None,
        formats=formats,
    )


def instance_forwarders(root: ts.Node, forwarders: Sequence[Forwarder]) -> list[Forwarder]:
    """A module-level instance of a class of the file whose ``__call__``
    forwards its parameter, called by the instance's name as a function is::

        class _Fail:
            def __call__(self, reason: str = "", pytrace: bool = True) -> NoReturn:
                raise Failed(msg=reason, pytrace=pytrace)

        fail: _Fail = _Fail()
        fail(f"DID NOT RAISE {expected.__name__}")   # pytest's raises.py

    Each such instance is a forwarder named as the instance; its raise is
    the ``__call__``'s."""
    calls = {
        fw.qualname.removesuffix(".__call__"): fw
        for fw in forwarders
        if fw.qualname.endswith(".__call__") and fw.qualname.count(".") == 1
    }
    if not calls:
        return []
    out: list[Forwarder] = []
    for stmt in root.named_children:
        first = stmt.named_children[0] if stmt.named_child_count else None
        if stmt.type != "expression_statement" or first is None or first.type != "assignment":
            continue
        left, right = first.child_by_field_name("left"), first.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier" or right.type != "call":
            continue
        fn = right.child_by_field_name("function")
        fw = calls.get(msg.text_of(fn)) if fn is not None and fn.type == "identifier" else None
        if fw is not None:
            name = msg.text_of(left)
            out.append(replace(fw, name=name, qualname=name, method=False))
    return out


def message_call(f: SourceFile, call: ts.Node) -> MessageCall | None:
    """A call that passes readable message text, or None."""
    fn = call.child_by_field_name("function")
    args = call.child_by_field_name("arguments")
    if fn is None or args is None:
        return None
    # Most calls pass nothing that could be read (``f(x, self.y)``): a look
    # at their text, inside the parentheses, rules them out at once.
    if not _MAY_READ.search(f.src[args.start_byte + 1 : args.end_byte - 1].lower()):
        return None
    obj: ts.Node | None = None
    if fn.type == "attribute":
        attr, obj = fn.child_by_field_name("attribute"), fn.child_by_field_name("object")
        if attr is None or obj is None:
            return None
        callee = msg.text_of(attr)
    else:
        callee = msg.text_of(fn)
    # An exception class is not a forwarder (a class that holds the message
    # it raises later may be: ``held``); gettext and str.format calls are
    # message expressions themselves.
    if not callee or callee.startswith("__") or callee == "format":
        return None
    if callee[0].isupper() and not may_construct(callee.encode()):
        return None
    if callee in _NOT_FORWARDERS or callee in msg.GETTEXT or callee.startswith("assert"):
        return None
    if callee == "warn" and (
        (obj is None and b"from warnings import" in f.src)
        or (obj is not None and msg.text_of(obj) in ("warnings", "logger", "log", "logging"))
    ):
        # the stdlib's own (a warning site, ``printed``), or a logger's; a
        # library's ``util.warn(...)`` is a call to its own helper
        return None
    if call.parent is not None and call.parent.type == "raise_statement":
        return None
    read: list[tuple[int | str, Template]] = []
    classes: list[tuple[int | str, str]] = []
    position = 0
    for a in msg.named(args)[: _MAX_ARGS * 2]:
        key: int | str
        value: ts.Node | None = a
        kind = a.type
        name: ts.Node | None = None
        if kind == "keyword_argument":
            name = a.child_by_field_name("name")
            value = a.child_by_field_name("value")
            if name is None or value is None:
                continue
        elif kind in ("list_splat", "dictionary_splat"):
            break  # positions after *args are unknown
        else:
            key = position
            position += 1
        if value is None or (
            not _names_class(value) and (value.type not in _ARG_TYPES or not _may_be_message(value))
        ):
            continue
        if name is not None:
            key = msg.text_of(name)
        if value is not None and _names_class(value):
            classes.append((key, msg.expr_text(value)))
            continue
        read.extend((key, t) for t in _forms(f, value) if t.chunks() and not t.dynamic)
    if not read:
        return None
    receiver = msg.expr_text(obj) if obj is not None else None
    where = f.where(call)
    owner = _owner_class(call)
    owner_name = owner.child_by_field_name("name") if owner is not None else None
    site = f.site(call, "raise", None, Template.empty(), where)
    return MessageCall(
        callee=callee,
        receiver=receiver if receiver is None or len(receiver) <= 80 else None,
        args=tuple(read),
        path=f.path,
        line=site.line,
        column=site.column,
        end_line=site.end_line,
        symbol=where.symbol,
        owner=msg.text_of(owner_name) if owner_name is not None else None,
        guards=where.guards,
        in_test=where.in_test,
        context_hash=site.context_hash,
        classes=tuple(classes),
    )


def _names_class(value: ts.Node) -> bool:
    """An argument that names an exception class: ``DuplicateError``,
    ``errors.ParseError`` (a capitalised last name with an exception's suffix)."""
    if value.type not in ("identifier", "attribute"):
        return False
    last = msg.text_of(value).rsplit(".", 1)[-1].encode()
    return last[:1].isupper() and last.endswith(_EXCEPTION_SUFFIXES)


def _may_be_message(value: ts.Node) -> bool:
    """A cheap look before reading: a one-word string (``"utf-8"``) or a
    name that does not name a message is not read."""
    if value.type == "identifier":
        name = msg.text_of(value).lower()
        return any(m in name for m in _MESSAGE_NAME)
    if value.type == "string":
        raw = value.text or b""
        return any(c in raw for c in b" {%\t")
    return True


def _forms(f: SourceFile, value: ts.Node) -> tuple[Template, ...]:
    """The messages an argument can be: its text, or what a helper of the
    same file returns (``self.get_invalid_choice_message(value=value)``)."""
    got = msg.read_forms(value, f.branches, f.plural)
    if got or value.type != "call":
        return got
    fn = value.child_by_field_name("function")
    if fn is None:
        return ()
    if fn.type == "attribute":
        obj, attr = fn.child_by_field_name("object"), fn.child_by_field_name("attribute")
        if obj is None or attr is None or msg.text_of(obj) not in ("self", "cls"):
            return ()
        name = msg.text_of(attr)
    elif fn.type == "identifier":
        name = msg.text_of(fn)
    else:
        return ()
    defs = f.functions.get(name, [])
    body = defs[0].child_by_field_name("body") if len(defs) == 1 else None
    returned = _only_return(body) if body is not None else None
    return msg.read_forms(returned, f.branches, f.plural) if returned is not None else ()


def _only_return(body: ts.Node) -> ts.Node | None:
    """The value of a function's return, when it has exactly one."""
    found: list[ts.Node] = []
    stack = list(body.named_children)
    while stack and len(found) < 2:
        n = stack.pop()
        if n.type == "return_statement":
            found.append(n)
        elif n.type not in ("function_definition", "class_definition", "lambda"):
            stack.extend(n.named_children)
    kids = msg.named(found[0]) if len(found) == 1 else []
    return kids[0] if kids else None
