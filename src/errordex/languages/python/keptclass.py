"""Exception classes an object keeps (Python, pure): issue 15.

A class may take the exception it raises as a constructor parameter, with
a default, and keep it in an attribute (docopt-ng's tokenizer)::

    class Tokens(list):
        def __init__(self, source, error=DocoptExit):
            self.error = error

    raise tokens.error("%s requires argument" % o.longer)

The raise prints ``docopt.DocoptExit: --x requires argument`` unless the
caller passed another class: ``tokens.error`` raises the default.
``kept_classes`` finds these attributes in a file; a raise of
``<instance>.<attribute>(...)`` takes the class the attribute defaults to.
"""

from __future__ import annotations

import tree_sitter as ts

from errordex.languages.python import msg

_DEFAULTED = ("default_parameter", "typed_default_parameter")


def kept_classes(root: ts.Node) -> dict[str, str]:
    """Attributes an ``__init__`` sets to a parameter whose default is a
    class (``self.error = error`` with ``error=DocoptExit``), by name, with
    that class; an attribute two classes default differently is left out."""
    found: dict[str, str] = {}
    clashes: set[str] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "class_definition":
            body = node.child_by_field_name("body")
            for stmt in body.named_children if body is not None else ():
                fn = (
                    stmt.child_by_field_name("definition")
                    if stmt.type == "decorated_definition"
                    else stmt
                )
                if fn is not None and fn.type == "function_definition":
                    for attr, cls in _kept(fn):
                        if found.setdefault(attr, cls) != cls:
                            clashes.add(attr)
        stack.extend(c for c in node.named_children if c.type in _DESCEND)
    return {a: c for a, c in found.items() if a not in clashes}


_DESCEND = ("module", "class_definition", "block", "decorated_definition", "if_statement")


def _kept(fn: ts.Node) -> list[tuple[str, str]]:
    name, params, body = (fn.child_by_field_name(f) for f in ("name", "parameters", "body"))
    if name is None or msg.text_of(name) != "__init__" or params is None or body is None:
        return []
    defaults: dict[str, str] = {}
    for p in params.named_children:
        ident, value = p.child_by_field_name("name"), p.child_by_field_name("value")
        if (
            p.type in _DEFAULTED
            and ident is not None
            and value is not None
            and value.type in ("identifier", "attribute")
            and _class_name(msg.text_of(value))
        ):
            defaults[msg.text_of(ident)] = msg.text_of(value)
    out: list[tuple[str, str]] = []
    for stmt in body.named_children:
        assign = stmt.named_children[0] if stmt.named_child_count else None
        if stmt.type != "expression_statement" or assign is None or assign.type != "assignment":
            continue
        left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        if left is None or right is None or left.type != "attribute" or right.type != "identifier":
            continue
        target = msg.text_of(left)
        if target.startswith("self.") and msg.text_of(right) in defaults:
            out.append((target.removeprefix("self."), defaults[msg.text_of(right)]))
    return out


def _class_name(text: str) -> bool:
    last = text.rsplit(".", 1)[-1]
    return last[:1].isupper() and not last.isupper()


def held_class(exc_type: str, kept: dict[str, str]) -> str | None:
    """The class ``<instance>.<attribute>`` raises when the attribute keeps
    one (``tokens.error`` -> ``DocoptExit``); None for anything else.

    >>> held_class("tokens.error", {"error": "DocoptExit"}), held_class("errors.Bad", {"Bad": "X"})
    ('DocoptExit', None)
    """
    head, dot, attr = exc_type.rpartition(".")
    if not dot or not head.isidentifier() or not head[:1].islower() or attr[:1].isupper():
        return None
    return kept.get(attr)
