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

import tree_sitter as ts

from errordex.forward import COLLECT
from errordex.languages.python import msg
from errordex.languages.python.file import Where
from errordex.model import Forwarder
from errordex.template import Hole, Template

_CAUGHT = re.compile(r"^\(?(?P<types>[\w., ]+?)\)?\s+as\s+(?P<name>[A-Za-z_]\w*)\s*$")

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
    name = COLLECT + exc_type.rsplit(".", 1)[-1]
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
