"""Errors collected and raised together (Python, pure): issue 15, pattern 1.

marshmallow's fields raise one error each; ``Schema.load`` catches them,
collects their messages by field and raises one error of the same class::

    raise self.make_error("invalid")          # fields.py: "Not a valid integer."
    ...
    exc = ValidationError(errors, data=data, valid_data=result)
    raise exc                                 # schema.py: the traceback ends here

and the user reads ``ValidationError: {'n': ['Not a valid integer.']}``.
The text is written at the field's raise; the traceback ends at the
collector's. A raise of class ``T`` whose message is a collection of
errors (a name such as ``errors`` or ``messages``), or a raise of a caught
``T`` with its traceback cut (``reraised``), is a collector of ``T``:
a ``Forwarder`` named ``collect:T`` that no call reaches.
``errordex.forward.collected_sites`` gives each raise of ``T`` in the repository with a
readable message a site per collector, with that collector as its
``via``, when the repository has at most ``errordex.forward.MAX_COLLECTORS`` of them; a
repository that collects in many places says nothing about which.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

import tree_sitter as ts

from errordex.forward import COLLECT, KEPT, RETYPED
from errordex.languages.python import msg
from errordex.languages.python.file import Where
from errordex.model import Forwarder, Guard
from errordex.template import Hole, Template

_CAUGHT = re.compile(r"^\(?(?P<types>[\w., ]+?)\)?\s+as\s+(?P<name>[A-Za-z_]\w*)\s*$")

#: the ancestors' account of a statement (``Extractor.where``)
WhereOf = Callable[[ts.Node], Where]

#: a name that holds the errors collected so far
_COLLECTION = re.compile(
    r"(?:^|[._])(?:errors|errs|messages|error_messages|error_dict|error_list|exceptions)$"
)


def collector(
    path: str, line: int, exc_type: str, template: Template, symbol: str | None
) -> Forwarder | None:
    """The collector a raise of ``exc_type(errors, ...)`` is, if it is one."""
    only = template.parts[0] if len(template.parts) == 1 else None
    if not template.dynamic or not isinstance(only, Hole) or not _COLLECTION.search(only.expr):
        return None
    return raising_forwarder(path, line, COLLECT + exc_type.rsplit(".", 1)[-1], exc_type, symbol)


def raising_forwarder(
    path: str, line: int, name: str, exc_type: str, symbol: str | None
) -> Forwarder:
    """The forwarder of a raise that shows the text a site of ``name`` joins
    to it (a collector's errors, another module's constant): its qualified
    name is the raising function's, then ``name``."""
    return Forwarder(
        name=name,
        qualname=f"{symbol or '<module>'}.{name}",
        path=path,
        line=line,
        param_name="message",
        param_index=0,
        exception_type=exc_type,
        template=Template.runtime("message"),
        method=False,
    )


def reraised(path: str, node: ts.Node, raised: ts.Node, where: Where) -> list[Forwarder]:
    """``except ParseBaseException as exc: raise exc.with_traceback(None)``
    (pyparsing): the caught error is raised again with its traceback cut, so
    the traceback ends here, not where the text was written. A collector of
    each class caught (and, in the pipeline, of their subclasses)."""
    fn = raised.child_by_field_name("function") if raised.type == "call" else None
    args = raised.child_by_field_name("arguments") if raised.type == "call" else None
    obj = fn.child_by_field_name("object") if fn is not None else None
    if fn is None or args is None or obj is None or obj.type != "identifier":
        return []
    given = msg.named(args)
    if len(given) != 1 or msg.text_of(given[0]) != "None":
        return []  # another traceback keeps the frames below
    name = msg.text_of(obj)
    for g in reversed(where.guards):
        m = _CAUGHT.match(g.text) if g.kind == "except" else None
        if m is None or m.group("name") != name:
            continue
        line = node.start_point.row + 1
        types = (t.strip().rsplit(".", 1)[-1] for t in m.group("types").split(","))
        found = (
            collector(path, line, t, Template.runtime("errors"), where.symbol) for t in types if t
        )
        return [fw for fw in found if fw is not None]
    return []


#: names of the catch-all classes: a re-raise of everything says nothing
_CATCH_ALL = frozenset({"Exception", "BaseException"})


def _caught_by(guards: tuple[Guard, ...], name: str) -> tuple[str, ...]:
    """The classes the innermost ``except ... as name`` around a statement
    catches (bare names), or () when no clause binds ``name``."""
    for g in reversed(guards):
        m = _CAUGHT.match(g.text) if g.kind == "except" else None
        if m is not None and m.group("name") == name:
            found = (t.strip().rsplit(".", 1)[-1] for t in m.group("types").split(","))
            return tuple(t for t in found if t)
    return ()


def _mentions(node: ts.Node, name: str) -> bool:
    """Whether ``name`` is read anywhere in ``node`` (``[e]``, ``x.autos``)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "identifier" and msg.text_of(n) == name:
            parent = n.parent
            # ``e.args`` reads ``e``; ``obj.e`` does not
            if parent is None or parent.type != "attribute" or parent.named_children[0] == n:
                return True
        stack.extend(n.named_children)
    return False


def rewrapped(
    path: str, node: ts.Node, exc_type: str, args: ts.Node, where: Where
) -> list[Forwarder]:
    """``except Invalid as e: raise MultipleInvalid([e])`` (voluptuous),
    ``except SchemaError as x: raise SchemaError([message] + x.autos, ...)``
    (schema): the caught error handed, as an object, to a new error of class
    ``exc_type`` as its message, which that class prints. The traceback ends
    here, not where the text was written, and the user reads ``exc_type``:
    a collector of each class caught (and, in the pipeline, of their
    subclasses) whose sites take ``exc_type``.

    A message that renders the caught error as text (``str(e)``, ``e``,
    ``f"...{e}"``) is the wrapper's own, told by ``wrapped`` and the
    matcher's ``_wrapper``; an error passed after the message
    (``_ParseActionIndexError("IndexError raised in parse action", ie)``)
    is not its text."""
    given = msg.named(args)
    first = given[0] if given else None
    if first is None or first.type not in _HOLDERS:
        return []
    for g in reversed(where.guards):
        m = _CAUGHT.match(g.text) if g.kind == "except" else None
        if m is None:
            continue
        name = m.group("name")
        if not _mentions(first, name) or _renders(first, name):
            return []
        line = node.start_point.row + 1
        out = []
        for t in _caught_by(where.guards, name):
            if t in _CATCH_ALL:
                continue
            fw = collector(path, line, t, Template.runtime("errors"), where.symbol)
            if fw is not None:
                out.append(replace(fw, exception_type=exc_type, kind=RETYPED))
        return out
    return []


#: what holds a caught error as an object: ``[e]``, ``(e,)``, ``{k: e}``,
#: ``[k] + x.autos``, ``x.errors``
_HOLDERS = frozenset({"list", "tuple", "dictionary", "set", "binary_operator", "attribute"})


def _renders(node: ts.Node, name: str) -> bool:
    """``e.args``/``e.message``-like reads of the caught error's text, or a
    string built of it: the wrapper's own message, not the object."""
    if node.type == "attribute":
        # a collection the caught error holds (``x.autos``, ``e.errors``),
        # not one value of it (``exc.errno``) or its text (``e.args``)
        attr = node.child_by_field_name("attribute")
        word = msg.text_of(attr) if attr is not None else ""
        return not word.endswith("s") or word in ("args", "strerror")
    if node.type == "binary_operator":
        op = node.child_by_field_name("operator")
        return op is not None and op.type == "%"
    return False


def raised_later(
    path: str, node: ts.Node, exc: ts.Node, assigns: list[ts.Node], guards_of: WhereOf
) -> list[Forwarder]:
    """``except Exception as e: if isinstance(e, GlomError): err =
    copy.copy(e)`` and, after the ``try``, ``raise err`` (glom's
    ``glom()``): a copy of a caught error, kept in a name and raised
    further on, has no traceback but this raise's. A collector of each
    class caught where the name is given the copy, or of the classes an
    ``isinstance`` check narrows it to there. A catch-all (``Exception``)
    with no such check names no class: every raise of the repository would
    take its via. The caught error itself kept and raised again
    (pyparsing's ``last_expr = pbe``, urllib3's ``new_e = e``) keeps the
    traceback of its first raise, which the user sees last."""
    name = msg.text_of(exc)
    line = node.start_point.row + 1
    out: list[Forwarder] = []
    seen: set[str] = set()
    for a in assigns:
        right = a.child_by_field_name("right")
        if a.type != "assignment" or right is None:
            continue
        where = guards_of(a)
        for g in reversed(where.guards):
            m = _CAUGHT.match(g.text) if g.kind == "except" else None
            if m is None:
                continue
            caught = m.group("name")
            if caught == name or not _copies(right, caught):
                break
            for t in _narrowed(where.guards, caught) or _caught_by(where.guards, caught):
                if t in seen or t in _CATCH_ALL:
                    continue
                seen.add(t)
                fw = collector(path, line, t, Template.runtime("errors"), where.symbol)
                if fw is not None:
                    out.append(replace(fw, kind=KEPT))
            break
    return out


_ISINSTANCE = re.compile(
    r"^isinstance\(\s*(?P<name>[A-Za-z_]\w*)\s*,\s*\(?(?P<types>[\w., ]+?)\)?\s*\)$"
)


def _narrowed(guards: tuple[Guard, ...], name: str) -> tuple[str, ...]:
    """The classes an ``if isinstance(name, C)`` inside the ``except``
    clause that binds ``name`` narrows the caught error to, or ()."""
    out: list[str] = []
    for g in reversed(guards):
        m = _CAUGHT.match(g.text) if g.kind == "except" else None
        if m is not None and m.group("name") == name:
            break
        found = _ISINSTANCE.match(g.text.strip()) if g.kind == "if" else None
        if found is not None and found.group("name") == name:
            out += [t.strip().rsplit(".", 1)[-1] for t in found.group("types").split(",")]
    return tuple(t for t in out if t)


#: calls that copy an error: ``copy.copy(e)``, ``deepcopy(e)``
_COPIES = frozenset({"copy", "deepcopy", "copy.copy", "copy.deepcopy"})


def _copies(value: ts.Node, name: str) -> bool:
    """Whether ``value`` is a copy of the caught error ``name`` without its
    traceback: ``copy.copy(e)``, ``e.with_traceback(None)``."""
    if value.type != "call":
        return False
    fn, args = value.child_by_field_name("function"), value.child_by_field_name("arguments")
    given = [msg.text_of(a) for a in msg.named(args)] if args is not None else []
    callee = msg.text_of(fn) if fn is not None else ""
    if callee in _COPIES:
        return given == [name]
    return callee == f"{name}.with_traceback" and given == ["None"]


#: calls that add one error to a collection: ``errors.append(Invalid(...))``
_ADDS = frozenset({"append", "add", "insert"})


def appended(raise_node: ts.Node, holder: str) -> list[ts.Node]:
    """The errors built and added to ``holder`` in the function of a
    collector's raise, before it: voluptuous's ``errors.append(er.Invalid(
    'extra keys not allowed', key_path))`` ... ``raise er.MultipleInvalid(errors)``,
    and a one-error list built in the raise itself
    (``raise er.MultipleInvalid([er.ValueInvalid('not a valid value', path)])``).
    The text is written at the construction; the traceback ends at the raise.
    Only constructions of a class (a capitalised name) are read: an error
    caught and added (``errors.append(e)``) was raised where it was made."""
    fn = raise_node.parent
    while fn is not None and fn.type not in ("function_definition", "module"):
        fn = fn.parent
    if fn is None or fn.type != "function_definition":
        return []
    out: list[ts.Node] = []
    stack = [fn.child_by_field_name("body")]
    while stack:
        n = stack.pop()
        if n is None or n.start_byte >= raise_node.end_byte:
            continue
        if n.type in ("function_definition", "class_definition", "lambda"):
            continue
        if n.type == "call" and n.start_byte < raise_node.start_byte:
            made = _added(n, holder)
            if made is not None:
                out.append(made)
                continue
        stack.extend(n.named_children)
    kids = [c for c in msg.named(raise_node) if c != raise_node.child_by_field_name("cause")]
    args = kids[0].child_by_field_name("arguments") if kids and kids[0].type == "call" else None
    first = msg.named(args)[0] if args is not None and args.named_child_count else None
    if first is not None and first.type in ("list", "tuple") and first.named_child_count == 1:
        only = first.named_children[0]
        if _constructs(only):
            out.append(only)
    return sorted(out, key=lambda n: n.start_byte)


def _added(call: ts.Node, holder: str) -> ts.Node | None:
    """``holder.append(X(...))``: the ``X(...)``, else None."""
    fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    if fn is None or args is None or fn.type != "attribute":
        return None
    obj, attr = fn.child_by_field_name("object"), fn.child_by_field_name("attribute")
    if obj is None or attr is None or msg.text_of(attr) not in _ADDS:
        return None
    if msg.text_of(obj) != holder:
        return None
    given = msg.named(args)
    made = given[-1] if given else None
    return made if made is not None and _constructs(made) else None


def _constructs(node: ts.Node) -> bool:
    """``er.Invalid(...)``, ``RequiredFieldInvalid(...)``: a call of a class."""
    fn = node.child_by_field_name("function") if node.type == "call" else None
    if fn is None or fn.type not in ("identifier", "attribute"):
        return False
    last = msg.text_of(fn).rsplit(".", 1)[-1]
    return last[:1].isupper() and not last.isupper()
