"""Messages an object is built with and raises later (Python, pure): issue
15, patterns 2 and 3.

pydantic builds a stand-in validator with the error its methods raise::

    class MockValSer:
        def __init__(self, error_message, *, code):
            self._error_message = error_message

        def __getattr__(self, item):
            raise PydanticUserError(self._error_message, code=self._code)

    cls.__pydantic_validator__ = MockValSer(f"`{cls.__name__}` is not fully defined; ...", code=...)

The text is written at the construction, and raised in the method. So the
class is a forwarder (``forward``) whose parameter is ``__init__``'s: each
construction that passes readable text is a site, and its ``via`` names the
raise. ``attribute_forwarder`` finds it: a raise in a method whose message
shows ``self.X``, where ``__init__`` sets ``self.X`` to one of its
parameters. A call of a class is read for message text
(``forward.may_construct``) unless the class's name says it is an
exception, which a raise builds itself (``ValueError("...")``: classmsg's
work).
"""

from __future__ import annotations

import tree_sitter as ts

from errordex.languages.python import msg
from errordex.languages.python.forward import _MESSAGE_NAME, _parameters, qualname
from errordex.model import Forwarder
from errordex.template import Hole, Part, Template


def attribute_forwarder(
    path: str, raise_node: ts.Node, exc_type: str, template: Template
) -> Forwarder | None:
    """The class a raise makes a forwarder of, when its message shows
    ``self.X`` and the class's ``__init__`` sets ``self.X`` to a parameter."""
    held = [h for h in template.holes if h.expr.startswith("self.") and msg.shows_str(h.spec)]
    if len(held) != 1 or (len(template.parts) > 1 and not _names_message(held[0].expr)):
        return None
    cls = _method_class(raise_node)
    init = _init_of(cls) if cls is not None else None
    if cls is None or init is None:
        return None
    params = _parameters(init, True)
    param = _set_from(init, held[0].expr, params)
    if param is None:
        return None
    name_node = cls.child_by_field_name("name")
    if name_node is None:
        return None
    parts: list[Part] = [
        Hole(param, p.spec) if isinstance(p, Hole) and p.expr == held[0].expr else p
        for p in template.parts
    ]
    return Forwarder(
        name=msg.text_of(name_node),
        qualname=qualname(cls),
        path=path,
        line=raise_node.start_point.row + 1,
        param_name=param,
        param_index=params[param],
        exception_type=exc_type,
        template=Template.of(template.syntax, *parts, dynamic=template.dynamic),
        method=False,
    )


def _names_message(expr: str) -> bool:
    return any(m in expr.lower() for m in _MESSAGE_NAME)


def _method_class(node: ts.Node) -> ts.Node | None:
    """The class whose method (not a nested function) holds ``node``."""
    fn: ts.Node | None = None
    parent = node.parent
    while parent is not None:
        if parent.type == "function_definition":
            if fn is not None:
                return None  # a function nested in the method
            fn = parent
        elif parent.type == "class_definition":
            return parent if fn is not None else None
        elif parent.type == "lambda":
            return None
        parent = parent.parent
    return None


def _init_of(cls: ts.Node) -> ts.Node | None:
    body = cls.child_by_field_name("body")
    for stmt in msg.named(body) if body is not None else []:
        if stmt.type == "decorated_definition":
            stmt = stmt.child_by_field_name("definition") or stmt
        name = stmt.child_by_field_name("name") if stmt.type == "function_definition" else None
        if name is not None and msg.text_of(name) == "__init__":
            return stmt
    return None


def _set_from(init: ts.Node, attr: str, params: dict[str, int | None]) -> str | None:
    """The parameter ``__init__`` sets ``attr`` (``self.X``) to, in a
    statement of its body (``self.X = x`` or ``self.X: T = x``)."""
    body = init.child_by_field_name("body")
    found: str | None = None
    for stmt in msg.named(body) if body is not None else []:
        assign = stmt.named_children[0] if stmt.named_child_count else None
        if stmt.type != "expression_statement" or assign is None or assign.type != "assignment":
            continue
        left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        if left is None or right is None or msg.text_of(left) != attr:
            continue
        if right.type != "identifier" or msg.text_of(right) not in params or found is not None:
            return None  # set twice, or to something else
        found = msg.text_of(right)
    return found
