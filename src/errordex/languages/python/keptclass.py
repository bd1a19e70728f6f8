"""Exception classes an object keeps (Python, pure): issue 15.

A class may take the exception it raises as a constructor parameter, with
a default, and keep it in an attribute (docopt-ng's tokenizer)::

    class Tokens(list):
        def __init__(self, source, error=DocoptExit):
            self.error = error

    raise tokens.error("%s requires argument" % o.longer)

        @staticmethod
        def from_pattern(source):
            return Tokens(source, error=DocoptLanguageError)

The raise prints ``docopt.DocoptExit: --x requires argument``, or a
``DocoptLanguageError`` where the file builds the object with that class.
``kept_classes`` finds these attributes in a file, with the default first
and then each class the file passes by the parameter's name; a raise of
``<instance>.<attribute>(...)`` is a raise of each.
"""

from __future__ import annotations

import tree_sitter as ts

from errordex.languages.python import msg

_DEFAULTED = ("default_parameter", "typed_default_parameter")


def kept_classes(root: ts.Node) -> dict[str, tuple[str, ...]]:
    """Attributes an ``__init__`` sets to a parameter whose default is a
    class (``self.error = error`` with ``error=DocoptExit``), by name, with
    that class and the classes the file passes for it by keyword
    (``Tokens(source, error=DocoptLanguageError)``); an attribute two
    classes default differently is left out."""
    found: dict[str, tuple[str, str, str]] = {}  # attr -> (owner, param, default)
    clashes: set[str] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "class_definition":
            owner = node.child_by_field_name("name")
            body = node.child_by_field_name("body")
            for stmt in body.named_children if body is not None and owner else ():
                fn = (
                    stmt.child_by_field_name("definition")
                    if stmt.type == "decorated_definition"
                    else stmt
                )
                if fn is not None and fn.type == "function_definition":
                    for attr, param, cls in _kept(fn):
                        got = (msg.text_of(owner), param, cls) if owner is not None else None
                        if got is not None and found.setdefault(attr, got) != got:
                            clashes.add(attr)
        stack.extend(c for c in node.named_children if c.type in _DESCEND)
    if not found:
        return {}
    calls = _calls(root)
    out: dict[str, tuple[str, ...]] = {}
    for attr, (cls_name, param, default) in found.items():
        if attr in clashes:
            continue
        classes = dict.fromkeys([default, *_passed(calls, cls_name, param)])
        out[attr] = tuple(classes)
    return out


_DESCEND = ("class_definition", "block", "decorated_definition", "if_statement")


def _calls(root: ts.Node) -> list[ts.Node]:
    out: list[ts.Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "call":
            out.append(node)
        stack.extend(node.named_children)
    return out


def shaped(exc_type: str) -> bool:
    """Whether a raise's class is written ``<instance>.<attribute>``
    (``tokens.error``), the shape a kept class has."""
    head, dot, attr = exc_type.rpartition(".")
    return bool(dot) and head.isidentifier() and head[:1].islower() and not attr[:1].isupper()


def _passed(calls: list[ts.Node], owner: str, param: str) -> list[str]:
    """The classes calls of ``owner`` pass as ``param=`` (``Tokens(source,
    error=DocoptLanguageError)``), in the file's order."""
    out: list[tuple[int, str]] = []
    for call in calls:
        fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        if fn is None or args is None or msg.text_of(fn).rsplit(".", 1)[-1] != owner:
            continue
        for a in args.named_children:
            name, value = a.child_by_field_name("name"), a.child_by_field_name("value")
            if (
                a.type == "keyword_argument"
                and name is not None
                and value is not None
                and msg.text_of(name) == param
                and value.type in ("identifier", "attribute")
                and _class_name(msg.text_of(value))
            ):
                out.append((call.start_byte, msg.text_of(value)))
    return [c for _, c in sorted(out)]


def _kept(fn: ts.Node) -> list[tuple[str, str, str]]:
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
    out: list[tuple[str, str, str]] = []
    for stmt in body.named_children:
        assign = stmt.named_children[0] if stmt.named_child_count else None
        if stmt.type != "expression_statement" or assign is None or assign.type != "assignment":
            continue
        left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        if left is None or right is None or left.type != "attribute" or right.type != "identifier":
            continue
        target = msg.text_of(left)
        if target.startswith("self.") and msg.text_of(right) in defaults:
            param = msg.text_of(right)
            out.append((target.removeprefix("self."), param, defaults[param]))
    return out


def _class_name(text: str) -> bool:
    last = text.rsplit(".", 1)[-1]
    return last[:1].isupper() and not last.isupper()


def held_classes(exc_type: str, kept: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The classes ``<instance>.<attribute>`` raises when the attribute
    keeps one (``tokens.error`` -> ``DocoptExit``, ``DocoptLanguageError``);
    () for anything else.

    >>> kept = {"error": ("DocoptExit", "DocoptLanguageError"), "Bad": ("X",)}
    >>> held_classes("tokens.error", kept), held_classes("errors.Bad", kept)
    (('DocoptExit', 'DocoptLanguageError'), ())
    """
    if not shaped(exc_type):
        return ()
    return kept.get(exc_type.rpartition(".")[2], ())
