"""Exceptions a generator yields and a caller raises (Python, pure): issue
15, pattern 4.

jsonschema's keyword functions yield the errors they find::

    def type(validator, types, instance, schema):
        if not any(validator.is_type(instance, type) for type in types):
            yield ValidationError(f"{instance!r} is not of type {reprs}")

and ``validate`` raises the one it picks::

    error = best_match(validator.iter_errors(instance))
    if error is not None:
        raise error

The text is written at the yield; the traceback ends at the raise. So a
yield of an exception is a message call (callee ``RAISE``) and each
re-raise point (``raise NAME`` of an exception that came out of a call:
``NAME = f(...)`` or ``for NAME in f(...)``) a forwarder of that name; the
forwarding join (``errordex.forward``) makes each yield a site with each
point as its ``via`` when the repository has at most ``MAX_DEFINITIONS``
points (their qualnames differ by function), and none otherwise: a
repository that re-raises in many places says nothing about which.
"""

from __future__ import annotations

import tree_sitter as ts

from errordex.languages.python import msg
from errordex.model import Forwarder
from errordex.template import Template

#: the name a yield "calls" and a re-raise point "defines": a keyword, so
#: no function of the repository has it
RAISE = "raise"
#: class names that are exceptions
_EXCEPTIONS = (b"Error", b"Exception")


def yielded(src: bytes, callees: list[ts.Node], methods: list[ts.Node]) -> list[ts.Node]:
    """The ``X(...)`` calls a ``yield`` yields, of a class named as an
    exception (from the ``forward.callee`` and ``forward.method`` captures)."""
    out: list[ts.Node] = []
    for up, names in ((1, callees), (2, methods)):
        for n in names:
            if not src[n.start_byte : n.end_byte].endswith(_EXCEPTIONS):
                continue
            up_one = n.parent
            call = up_one if up == 1 or up_one is None else up_one.parent
            if call is not None and call.parent is not None and call.parent.type == "yield":
                out.append(call)
    return out


def reraise_point(
    path: str, raise_node: ts.Node, name: ts.Node, value: ts.Node | None, symbol: str | None
) -> Forwarder | None:
    """A forwarder ``RAISE`` for ``raise NAME`` when NAME is an exception a
    call gave (``value``: what NAME was assigned, if anything)."""
    if value is not None:
        fn = value.child_by_field_name("function") if value.type == "call" else None
        callee = msg.text_of(fn).rsplit(".", 1)[-1] if fn is not None else ""
        if not callee or callee[:1].isupper():
            return None  # not a call, or a construction (read as the raise's own)
    elif not _loop_over_call(raise_node, msg.text_of(name)):
        return None
    return Forwarder(
        name=RAISE,
        qualname=f"{symbol or '<module>'}.{RAISE}",
        path=path,
        line=raise_node.start_point.row + 1,
        param_name="message",
        param_index=0,
        exception_type=None,
        template=Template.runtime("message"),
        method=False,
    )


def _loop_over_call(node: ts.Node, name: str) -> bool:
    """Inside ``for NAME in f(...):``."""
    parent = node.parent
    while parent is not None and parent.type not in ("function_definition", "lambda"):
        if parent.type == "for_statement":
            left, right = parent.child_by_field_name("left"), parent.child_by_field_name("right")
            if left is not None and right is not None and msg.text_of(left) == name:
                return right.type == "call"
        parent = parent.parent
    return False
