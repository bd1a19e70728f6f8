"""Exceptions built by a helper and raised by its caller (Python, pure):
issue 15, pattern 4.

packaging's metadata raises what a method of the same class builds::

    def _invalid_metadata(self, msg, cause=None):
        exc = InvalidMetadata(self.raw_name, msg)
        exc.__cause__ = cause
        return exc

    raise self._invalid_metadata(f"{value!r} is not a valid metadata version")

The raise is where the user's traceback ends, and its argument is the
message; but the exception is the class the helper returns, not
``self._invalid_metadata``. ``factory`` finds the helper (a function of
the same file, by name, defined once) and the exception construction it
returns; the caller (``extract``) reads that construction's message in the
helper, and where it shows one of the helper's parameters, the raise's
argument for it.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from errordex.languages.python import msg

_SCOPES = ("function_definition", "class_definition", "lambda")


@dataclass(frozen=True)
class Factory:
    """A helper that returns an exception it builds."""

    #: the ``X(...)`` call it returns (or assigns to the name it returns)
    construction: ts.Node
    #: the ``return`` statement
    returned: ts.Node
    #: ``X``, as written
    exception_type: str


def callee_name(call: ts.Node) -> str | None:
    """``self._invalid_metadata(...)`` or ``make_error(...)`` -> the name of
    a function or method that may build what it returns (lower case: a class
    builds itself)."""
    fn = call.child_by_field_name("function")
    if fn is None:
        return None
    if fn.type == "attribute":
        obj, attr = fn.child_by_field_name("object"), fn.child_by_field_name("attribute")
        if obj is None or attr is None or msg.text_of(obj) not in ("self", "cls"):
            return None
        name = msg.text_of(attr)
    elif fn.type == "identifier":
        name = msg.text_of(fn)
    else:
        return None
    return name if name[:1].islower() or name[:1] == "_" else None


def factory(
    functions: dict[str, list[ts.Node]], name: str, resolve: msg.Resolver
) -> Factory | None:
    """The exception construction the function ``name`` returns, when it is
    defined once in the file and every ``return`` of it returns the same
    construction."""
    defs = functions.get(name, [])
    body = defs[0].child_by_field_name("body") if len(defs) == 1 else None
    if body is None:
        return None
    returns: list[ts.Node] = []
    stack = list(body.named_children)
    while stack:
        n = stack.pop()
        if n.type == "return_statement":
            returns.append(n)
        elif n.type not in _SCOPES:
            stack.extend(n.named_children)
    if len(returns) != 1:
        return None
    kids = msg.named(returns[0])
    value = kids[0] if kids else None
    if value is not None and value.type == "identifier":
        value = resolve(value)
    if value is None or value.type != "call":
        return None
    fn = value.child_by_field_name("function")
    exc = msg.expr_text(fn) if fn is not None else ""
    if not exc.rsplit(".", 1)[-1][:1].isupper():
        return None
    return Factory(value, returns[0], exc)


def class_constructor(fn: ts.Node) -> str | None:
    """``ValidationError.from_exception_data`` -> ``ValidationError``: a raise
    of what a class's own method builds (an alternative constructor) raises
    that class; None for a method of anything else (``self.make_error``,
    ``errors.InvalidURL``)."""
    if fn.type != "attribute":
        return None
    obj, attr = fn.child_by_field_name("object"), fn.child_by_field_name("attribute")
    if obj is None or attr is None or obj.type not in ("identifier", "attribute"):
        return None
    owner, method = msg.expr_text(obj), msg.text_of(attr)
    if not method[:1].islower() and not method.startswith("_"):
        return None
    if method.startswith("__"):
        return None
    last = owner.rsplit(".", 1)[-1].lstrip("_")
    return owner if last[:1].isupper() else None


def attribute_constructions(raised: ts.Node) -> list[ts.Node]:
    """``raise self.nm`` of ``self.nm = NoMatch([rule], position, parser)``
    set in the same function (Arpeggio's ``Parser._nm_raise``): the
    constructions of one exception class assigned to that attribute before
    the raise, outside nested scopes; [] unless every assignment to it there
    builds the same class (the attribute may hold what another method put in
    it)."""
    target = msg.text_of(raised)
    if raised.type != "attribute" or not target.startswith(("self.", "cls.")):
        return []
    scope = raised.parent
    while scope is not None and scope.type not in _SCOPES:
        scope = scope.parent
    body = scope.child_by_field_name("body") if scope is not None else None
    if body is None:
        return []
    made: list[ts.Node] = []
    stack = list(body.named_children)
    while stack:
        n = stack.pop()
        if n.type in _SCOPES or n.start_byte >= raised.start_byte:
            continue
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        if n.type == "assignment" and left is not None and msg.text_of(left) == target:
            if right is None or right.type != "call":
                return []
            made.append(right)
        stack.extend(n.named_children)
    classes = {msg.expr_text(c.child_by_field_name("function") or c) for c in made}
    if len(classes) != 1 or not next(iter(classes)).rsplit(".", 1)[-1][:1].isupper():
        return []
    return sorted(made, key=lambda c: c.start_byte)
