"""Errors that are printed, not raised (Python, pure): issue 15, pattern 6.

A command-line tool often tells its user about an error by printing it and
exiting, and a library warns instead of raising. Each such statement is a
site of its own kind, with the message as the user sees it printed:

    kind            the statement                                    printed
    warning         warnings.warn("old", DeprecationWarning)         path:line: DeprecationWarning: old
    exit            sys.exit("no config found")                      no config found
    parser-error    parser.error("need a file")                      usage: ... / prog: error: need a file
    printed-error   click.echo("bad", err=True) then an exit         bad
                    print("bad", file=sys.stderr) then an exit
    logged-error    logger.error("bad %s", x) then an exit           bad {x} (in the log's format)
    logged          logger.error("bad %s", x), and carries on        bad {x} (in the log's format)

A module that binds its logger's methods to names of its own (celery's
``debug, info, warn, error, crit = (logger.debug, …, logger.error,
logger.critical)``) logs with a bare ``error(CONNECTION_ERROR, uri, exc)``:
those names are logging calls too.

A library that warns through a helper of its own (SQLAlchemy's
``util.warn(msg)`` -> ``_warnings_warn(msg, exc.SAWarning)`` ->
``warnings.warn(message, category)``) makes that helper a forwarder of
kind ``warning`` (``warning_forwarders``): each call that passes it text is
a warning site, with the ``warnings.warn`` line, where a warning turned
error is raised, as its ``via``.

"then an exit": one of the next statements of the same block exits
(``sys.exit``, ``ctx.exit``, ``raise SystemExit``, ``raise click.Abort``...):
an error printed on the way to carrying on is not the error the user got.
Only a message with constant text is a site; a variable's name never is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter as ts

from errordex.languages.python import forward as fwd
from errordex.languages.python import msg
from errordex.languages.python.file import SourceFile
from errordex.model import Forwarder, ThrowSite
from errordex.template import Hole, Part, Template, Text

#: the kinds this module finds, as ``Language.kinds`` lists them
KINDS = ("warning", "exit", "parser-error", "printed-error", "logged-error", "logged")
#: kinds whose message is printed as it is (no ``Type: `` before it)
BARE = frozenset({"exit", "printed-error", "logged-error", "logged"})

#: the callee names worth a look, as bytes (most calls are none of them)
_NAMES = frozenset(
    {b"warn", b"exit", b"error", b"echo", b"secho", b"print", b"critical", b"fatal", b"write"}
)
_LOG_CALLS = frozenset({"error", "critical", "fatal", "exception"})
#: the guard of a module's code run as a script: ``if __name__ == "__main__":``
_MAIN_GUARD = re.compile(r"""__name__\s*==\s*["']__main__["']""")
#: how many statements after a print may be the exit that makes it an error
_EXIT_WITHIN = 3
_EXITS = re.compile(
    rb"\b(?:sys\.exit|exit|quit|os\._exit|\w+\.exit|\w+\.fail)\s*\("
    rb"|\braise\s+(?:SystemExit|(?:\w+\.)*Abort|(?:\w+\.)*Exit)\b"
)
_PERCENT = re.compile(r"%[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?[diouxXeEfFgGcrsa%]")


def find(f: SourceFile, callees: list[ts.Node], methods: list[ts.Node]) -> list[ThrowSite]:
    """The printed-error sites of a file, from the callee names of its calls
    (the ``forward.callee`` and ``forward.method`` captures)."""
    src = f.src
    out: list[ThrowSite] = []
    some = next(iter(callees), None)
    aliases = _log_aliases(some, src) if some is not None and b"log" in src else {}
    for up, names in ((1, callees), (2, methods)):
        for n in names:
            name = src[n.start_byte : n.end_byte]
            if name not in _NAMES and (up != 1 or name not in aliases):
                continue
            up_one = n.parent
            call = up_one if up == 1 or up_one is None else up_one.parent
            if call is None or call.type != "call":
                continue
            site = _site(f, call, msg.text_of(n), aliases.get(name) if up == 1 else None)
            if site is not None:
                out.append(site)
    return out


def _log_aliases(node: ts.Node, src: bytes) -> dict[bytes, str]:
    """The names the module of ``node`` binds at its top level to its
    logger's error methods (``error = logger.error``; celery's tuple of
    them), each with the method's name."""
    out: dict[bytes, str] = {}
    while node.parent is not None:
        node = node.parent
    for stmt in node.named_children:
        bound = stmt.named_children[0] if stmt.type == "expression_statement" else None
        if bound is None or bound.type != "assignment":
            continue
        left, right = bound.child_by_field_name("left"), bound.child_by_field_name("right")
        if left is None or right is None:
            continue
        names = [left] if left.type == "identifier" else msg.named(left)
        values = [right] if left.type == "identifier" else msg.named(right)
        if len(names) != len(values):
            continue
        for name, value in zip(names, values, strict=True):
            obj = value.child_by_field_name("object") if value.type == "attribute" else None
            attr = value.child_by_field_name("attribute") if value.type == "attribute" else None
            if name.type != "identifier" or obj is None or attr is None:
                continue
            method = msg.text_of(attr)
            if method in _LOG_CALLS and _is_logger(msg.expr_text(obj)):
                out[src[name.start_byte : name.end_byte]] = method
    return out


def _site(f: SourceFile, call: ts.Node, name: str, logs: str | None = None) -> ThrowSite | None:
    """``logs``: the logger method a bare ``name`` is bound to (``_log_aliases``)."""
    fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    if fn is None or args is None or args.type != "argument_list":
        return None
    obj = fn.child_by_field_name("object") if fn.type == "attribute" else None
    owner = msg.expr_text(obj) if obj is not None else ""
    positional = [a for a in msg.named(args) if a.type not in ("keyword_argument",)]
    keywords = {
        msg.text_of(k): v
        for a in msg.named(args)
        if a.type == "keyword_argument"
        and (k := a.child_by_field_name("name")) is not None
        and (v := a.child_by_field_name("value")) is not None
    }
    first = positional[0] if positional and positional[0].type != "list_splat" else None
    if first is None:
        return None
    kind: str | None = None
    exc_type: str | None = None
    template: Template | None = None
    if name == "warn" and (owner == "warnings" or (not owner and _imports_warn(f.src))):
        kind = "warning"
        category = keywords.get("category") or (positional[1] if len(positional) > 1 else None)
        exc_type = msg.expr_text(category) if category is not None else "UserWarning"
        made = _warning_instance(first)
        if made is not None and category is None:
            # redis-py's ``warnings.warn(DeprecationWarning("Call WATCH from a
            # Pipeline object"))``: the instance's class is the category
            exc_type, first = made
    elif name == "exit" and owner == "sys" and first.type != "integer":
        kind, exc_type = "exit", "SystemExit"
    elif name == "error" and (
        "parser" in owner.lower() or (owner == "self" and _in_parser_class(call))
    ):
        kind = "parser-error"
    elif (
        (name in ("echo", "secho") and _is_true(keywords.get("err")) and _then_exits(call))
        or (
            name == "print" and not owner and _to_stderr(keywords.get("file")) and _then_exits(call)
        )
        or (name == "write" and owner == "sys.stderr" and _then_exits(call))
    ):
        kind = "printed-error"
    elif (name in _LOG_CALLS and _is_logger(owner)) or (logs is not None and not owner):
        # an error a log shows; the program may carry on after it
        kind = "logged-error" if _then_exits(call) else "logged"
        template = _log_template(f, first, positional[1:])
    if kind is None:
        return None
    if template is None:
        template = msg.read_static(first, f.resolve)
    if template is None or template.dynamic or not template.chunks():
        return None
    if kind == "printed-error" and name == "write":
        template = _without_newline(template)
    where = f.where(call)
    if kind == "logged" and any(_MAIN_GUARD.search(g.text) for g in where.guards):
        return None  # a module's demo (rich/logging.py logs "Out of memory!" to show off)
    return f.site(call, kind, exc_type, template, where)


def _warning_instance(node: ts.Node) -> tuple[str, ts.Node] | None:
    """(class, its message) of a warning built in the call: ``DeprecationWarning("…")``."""
    if node.type != "call":
        return None
    fn, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
    name = msg.expr_text(fn) if fn is not None else ""
    if not name.endswith("Warning") or args is None or args.type != "argument_list":
        return None
    given = [a for a in msg.named(args) if a.type != "keyword_argument"]
    return (name, given[0]) if len(given) == 1 else None


#: helper levels followed from a ``warnings.warn`` up the file's functions
_MAX_HOPS = 3


@dataclass(frozen=True)
class _Warns:
    """A function that warns with the text of its parameter ``param``: of the
    class ``category``, or of the one its parameter ``category_param`` gets."""

    fn: ts.Node
    param: str
    category: str | None
    category_param: str | None
    line: int


def warning_forwarders(
    f: SourceFile, callees: list[ts.Node], methods: list[ts.Node]
) -> list[Forwarder]:
    """The functions of a file that warn with the text they are given: a
    ``warnings.warn(p, ...)`` of a parameter ``p``, and a function that hands
    its own parameter to such a function of the file (a bare call of it)."""
    src = f.src
    if b"warn" not in src:
        return []
    found: dict[int, list[_Warns]] = {}
    for up, names in ((1, callees), (2, methods)):
        for n in names:
            if src[n.start_byte : n.end_byte] != b"warn":
                continue
            up_one = n.parent
            call = up_one if up == 1 or up_one is None else up_one.parent
            fn_node = call.child_by_field_name("function") if call is not None else None
            obj = fn_node.child_by_field_name("object") if fn_node is not None and up == 2 else None
            owner = msg.text_of(obj) if obj is not None else ""
            if call is None or not (owner == "warnings" or (up == 1 and _imports_warn(src))):
                continue
            got = _warns(call, None)
            if got is not None:
                found.setdefault(got.fn.id, []).append(got)
    if not found:
        return []
    # a helper that warns of the class it is given is followed with that
    # class (``category=None`` falls back to a plain ``warnings.warn(message)``)
    by_name = {
        msg.text_of(name): w
        for ws in found.values()
        for w in sorted(ws, key=lambda w: (w.category_param is None, w.line))[:1]
        if (name := w.fn.child_by_field_name("name")) is not None and "." not in fwd.qualname(w.fn)
    }
    for _ in range(_MAX_HOPS):
        added = False
        for n in callees:
            callee = by_name.get(msg.text_of(n))
            call = n.parent
            if callee is None or call is None or call.type != "call":
                continue
            got = _warns(call, callee)
            if got is not None and got.fn.id not in found:
                found[got.fn.id] = [got]
                name = got.fn.child_by_field_name("name")
                if name is not None and "." not in fwd.qualname(got.fn):
                    by_name.setdefault(msg.text_of(name), got)
                added = True
        if not added:
            break
    out: list[Forwarder] = []
    for ws in found.values():
        for w in sorted(ws, key=lambda w: w.line):
            name = w.fn.child_by_field_name("name")
            method = fwd._is_method(w.fn)
            params = fwd._parameters(w.fn, method)
            if name is None or w.param not in params:
                continue
            out.append(
                Forwarder(
                    name=msg.text_of(name),
                    qualname=fwd.qualname(w.fn),
                    path=f.path,
                    line=w.line,
                    param_name=w.param,
                    param_index=params[w.param],
                    exception_type=w.category,
                    template=Template.runtime(w.param),
                    method=method,
                    kind="warning",
                )
            )
    return out


def _warns(call: ts.Node, callee: _Warns | None) -> _Warns | None:
    """What the function holding ``call`` warns with, when the call passes
    its parameter as the message: to ``warnings.warn`` (``callee`` None), or
    to a function of the file that warns (``callee``)."""
    fn = fwd._enclosing_function(call)
    args = call.child_by_field_name("arguments")
    if fn is None or args is None:
        return None
    params = fwd._parameters(fn, fwd._is_method(fn))
    positional = [a for a in msg.named(args) if a.type != "keyword_argument"]
    keywords = {
        msg.text_of(k): v
        for a in msg.named(args)
        if a.type == "keyword_argument"
        and (k := a.child_by_field_name("name")) is not None
        and (v := a.child_by_field_name("value")) is not None
    }
    category_at: tuple[str, int | None] | None
    if callee is None:
        message, category_at, line = 0, ("category", 1), call.start_point.row + 1
    else:
        called = fwd._parameters(callee.fn, fwd._is_method(callee.fn))
        at = called.get(callee.param)
        if at is None:
            return None
        message, line = at, callee.line
        cat = callee.category_param
        category_at = (cat, called.get(cat)) if cat is not None else None
    first = positional[message] if message < len(positional) else None
    if first is None or first.type != "identifier" or msg.text_of(first) not in params:
        return None
    if callee is not None and category_at is None:
        return _Warns(fn, msg.text_of(first), callee.category, None, line)
    name, index = category_at if category_at is not None else (None, None)
    given = keywords.get(name) if name else None
    if given is None and index is not None and index < len(positional):
        given = positional[index]
    if given is None:
        # no class given: warnings.warn's UserWarning; a helper's default is unknown
        return _Warns(fn, msg.text_of(first), "UserWarning", None, line) if callee is None else None
    if given.type == "identifier" and msg.text_of(given) in params:
        return _Warns(fn, msg.text_of(first), None, msg.text_of(given), line)
    return _Warns(fn, msg.text_of(first), msg.expr_text(given), None, line)


def _imports_warn(src: bytes) -> bool:
    return b"from warnings import" in src


def _in_parser_class(node: ts.Node) -> bool:
    """Inside ``argparse.ArgumentParser`` or ``optparse.OptionParser``, or a
    subclass of one (its ``error`` prints ``prog: error: ...`` and exits)."""
    parent = node.parent
    while parent is not None:
        if parent.type == "class_definition":
            body = parent.child_by_field_name("body")
            head = (parent.text or b"")[: body.start_byte - parent.start_byte if body else None]
            return b"ArgumentParser" in head or b"OptionParser" in head
        parent = parent.parent
    return False


def _is_true(node: ts.Node | None) -> bool:
    return node is not None and node.type == "true"


def _to_stderr(node: ts.Node | None) -> bool:
    return node is not None and msg.text_of(node) == "sys.stderr"


def _is_logger(owner: str) -> bool:
    """``logging``, ``logger``, ``log``, ``self.logger``, ``LOG``..."""
    return "log" in owner.rsplit(".", 1)[-1].lower()


def _then_exits(call: ts.Node) -> bool:
    """One of the next few statements of the block holding the call exits."""
    stmt = call.parent
    if stmt is None or stmt.type != "expression_statement":
        return False
    sib = stmt.next_named_sibling
    for _ in range(_EXIT_WITHIN):
        if sib is None:
            return False
        if sib.type != "comment":
            if _EXITS.search(sib.text or b""):
                return True
            if sib.type in ("return_statement", "if_statement", "for_statement", "while_statement"):
                return False
        sib = sib.next_named_sibling
    return False


def _log_template(f: SourceFile, first: ts.Node, rest: list[ts.Node]) -> Template | None:
    """``logger.error("cannot open %s", path)``: the logging call formats its
    message with ``%`` from the arguments after it. A string literal given
    for a ``%s`` is printed as it is: it is text of the message, not a value."""
    t = msg.read_static(first, f.resolve)
    if t is None or not rest or t.holes or t.syntax != "literal":
        return t
    text = t.literal_text()
    parts: list[Part] = []
    pos = i = 0
    for m in _PERCENT.finditer(text):
        parts.append(Text(text[pos : m.start()]))
        pos = m.end()
        if m.group(0) == "%%":
            parts.append(Text("%"))
            continue
        arg = rest[i] if i < len(rest) else None
        i += 1
        given = (
            msg.read_static(arg, f.resolve) if arg is not None and arg.type == "string" else None
        )
        if (
            given is not None
            and not given.holes
            and given.syntax == "literal"
            and m.group(0) == "%s"
        ):
            parts.append(Text(given.literal_text()))  # a text given as it is printed
            continue
        parts.append(Hole(msg.expr_text(arg) if arg is not None else "", m.group(0)))
    parts.append(Text(text[pos:]))
    return Template.of("py-percent", *parts)


def _without_newline(t: Template) -> Template:
    """``sys.stderr.write("bad\\n")`` prints the line ``bad``."""
    last = t.parts[-1] if t.parts else None
    if isinstance(last, Text) and last.text.endswith("\n"):
        return Template.of(t.syntax, *t.parts[:-1], Text(last.text.rstrip("\n")))
    return t


def message_line(site: ThrowSite, text: str) -> str | None:
    """The line a printed-error site shows, or None for another kind."""
    if site.kind in BARE:
        return text
    if site.kind == "parser-error":
        return f"{{prog}}: error: {text}"
    return None


def printed_form(site: ThrowSite, line: str) -> str | None:
    """The lines a user sees around it, or None for another kind."""
    if site.kind == "warning":
        return f"{site.path}:{site.line}: {line}"
    if site.kind == "parser-error":
        return f"usage: {{prog}} ...\n{line}"
    if site.kind in BARE:
        return line
    return None
