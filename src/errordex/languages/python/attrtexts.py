"""Messages a raise reads from an attribute of its object (Python, pure):
issue 15, pattern 2.

hypothesis' GitHub artifact database sets its message once and raises it
from each method that would write::

    class GitHubArtifactDatabase(ExampleDatabase):
        def __init__(self, owner, repo, ...):
            self._read_only_message = (
                "This database is read-only. "
                "Please wrap this class with ReadOnlyDatabase" ...)
        def save(self, key, value):
            raise RuntimeError(self._read_only_message)

and pytest's ``RaisesExc`` sets the reason in one method and raises it in
another::

    def matches(self, exception):
        ...
        self._fail_reason = f"Regex pattern did not match.\\n  Expected regex: ..."
    def __exit__(self, exc_type, exc_val, exc_tb):
        if not self.matches(exc_val):
            raise AssertionError(self._fail_reason) from None

A raise whose message is ``self.X`` shows each text ``X`` is given in the
classes of its file that can run it (the raise's class, its bases and its
subclasses): a class attribute ``X = "..."``, or ``self.X = <text>`` in one
of their methods. One site per text, at the raise. A value that cannot be
read (a parameter, a call) keeps the raise's own dynamic site beside them:
the message may be that one (a parameter's text is ``held``'s to follow).
"""

from __future__ import annotations

import tree_sitter as ts

from errordex.languages.python import formatted, msg
from errordex.template import Template

#: texts one raise can show, at most
MAX_TEXTS = 8
#: nodes of one class walked for ``self.X = ...``
_MAX_NODES = 20_000


def self_attribute(node: ts.Node) -> str | None:
    """``self.X`` -> ``X``."""
    if node.type != "attribute":
        return None
    obj, attr = node.child_by_field_name("object"), node.child_by_field_name("attribute")
    if obj is None or attr is None or msg.text_of(obj) != "self":
        return None
    return msg.text_of(attr)


def messages(
    raise_node: ts.Node, name: str, classes: dict[str, ts.Node], resolve: msg.Resolver
) -> tuple[list[Template], bool]:
    """The texts ``self.<name>`` can be at ``raise_node``, and whether some
    value could not be read (``resolve``: a ``msg.Branches`` reads both
    forms of a text that picks one)."""
    owner = formatted._owner(raise_node)
    if owner is None:
        return [], False
    chain = formatted._chain(owner, classes)
    related = {c.id: c for c in chain}
    for c in classes.values():
        if c.id not in related and any(x.id == owner.id for x in formatted._chain(c, classes)):
            related[c.id] = c
    found: list[Template] = []
    unread = False
    for cls in related.values():
        if _defines_method(cls, name):
            return [], False  # a property or a method: not a stored text
        for value in _values(cls, name):
            if value.type == "none":
                continue
            forms = msg.read_forms(value, resolve, plural=False)
            if not forms:
                unread = True
            for t in forms:
                if t.dynamic or not t.chunks():
                    unread = True
                elif t not in found:
                    found.append(t)
    return found[:MAX_TEXTS], unread or len(found) > MAX_TEXTS


def _defines_method(cls: ts.Node, name: str) -> bool:
    for stmt in formatted._body(cls):
        n = stmt.child_by_field_name("name") if stmt.type == "function_definition" else None
        if n is not None and msg.text_of(n) == name:
            return True
    return False


def _values(cls: ts.Node, name: str) -> list[ts.Node]:
    """The values the class gives ``name``: its class attribute, and each
    ``self.<name> = value`` in its methods (not in a class nested in it)."""
    out: list[ts.Node] = []
    target = f"self.{name}"
    for stmt in formatted._body(cls):
        first = stmt.named_children[0] if stmt.named_child_count else None
        if stmt.type == "expression_statement" and first is not None and first.type == "assignment":
            left, right = first.child_by_field_name("left"), first.child_by_field_name("right")
            if left is not None and right is not None and msg.text_of(left) == name:
                out.append(right)
        elif stmt.type == "function_definition":
            stack = [stmt]
            seen = 0
            while stack and seen < _MAX_NODES:
                n = stack.pop()
                seen += 1
                if n.type == "assignment":
                    left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
                    if left is not None and right is not None and msg.text_of(left) == target:
                        out.append(right)
                if n.type != "class_definition":
                    stack.extend(n.named_children)
    return out
