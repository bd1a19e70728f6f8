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

A ``@property`` of that name gives the texts its ``return`` statements
give. jinja's ``Undefined`` raises ``self._undefined_exception(
self._undefined_message)``, and the property returns ``f"{self._undefined_name!r}
is undefined"`` among others: a user's ``'user' is undefined`` is that text.
"""

from __future__ import annotations

import tree_sitter as ts

from errordex.languages.python import formatted, forward, msg, returned
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
    raise_node: ts.Node,
    name: str,
    classes: dict[str, ts.Node],
    resolve: msg.Resolver,
    memo: Assignments | None = None,
) -> tuple[list[Template], bool]:
    """The texts ``self.<name>`` can be at ``raise_node``, and whether some
    value could not be read (``resolve``: a ``msg.Branches`` reads both
    forms of a text that picks one; ``memo``: see ``_values``)."""
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
        method = _method(cls, name)
        if method is not None and not _is_property(method):
            return [], False  # a method: not a stored text
        values = _values(cls, name, memo) if method is None else returned._return_values(method)
        for value in values:
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


def _method(cls: ts.Node, name: str) -> ts.Node | None:
    for stmt in formatted._body(cls):
        n = stmt.child_by_field_name("name") if stmt.type == "function_definition" else None
        if n is not None and msg.text_of(n) == name:
            return stmt
    return None


def _is_property(fn: ts.Node) -> bool:
    """``@property`` or ``@functools.cached_property`` on ``fn``."""
    decorated = fn.parent
    if decorated is None or decorated.type != "decorated_definition":
        return False
    return any(
        msg.text_of(d).lstrip("@").strip().rsplit(".", 1)[-1] in ("property", "cached_property")
        for d in decorated.named_children
        if d.type == "decorator"
    )


#: the assignments in a method's body, in the order ``_values`` walks them:
#: (target, value) by the method's node id, for one file's tree
Assignments = dict[int, list[tuple[ts.Node, ts.Node]]]


def _values(cls: ts.Node, name: str, memo: Assignments | None = None) -> list[ts.Node]:
    """The values the class gives ``name``: its class attribute, and each
    ``self.<name> = value`` in its methods (not in a class nested in it).
    ``memo`` keeps each method's assignments for the next name asked
    (imaplib raises ``self.error`` in every method, each read once)."""
    out: list[ts.Node] = []
    target = f"self.{name}"
    # a method whose text never writes ``self.<name>`` is not walked (most)
    written = target.encode()
    for stmt in formatted._body(cls):
        first = stmt.named_children[0] if stmt.named_child_count else None
        if stmt.type == "expression_statement" and first is not None and first.type == "assignment":
            left, right = first.child_by_field_name("left"), first.child_by_field_name("right")
            if left is not None and right is not None and msg.text_of(left) == name:
                out.append(right)
        elif stmt.type == "function_definition" and written in (stmt.text or b""):
            got = memo.get(stmt.id) if memo is not None else None
            if got is None:
                got = _assignments(stmt)
                if memo is not None:
                    memo[stmt.id] = got
            out.extend(right for left, right in got if msg.text_of(left) == target)
    return out


def _assignments(fn: ts.Node) -> list[tuple[ts.Node, ts.Node]]:
    """The (target, value) of each assignment in ``fn``, not in a class
    nested in it, in walk order, within ``_MAX_NODES`` nodes."""
    out: list[tuple[ts.Node, ts.Node]] = []
    stack = [fn]
    seen = 0
    while stack and seen < _MAX_NODES:
        n = stack.pop()
        seen += 1
        if n.type == "assignment":
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if left is not None and right is not None:
                out.append((left, right))
        if n.type != "class_definition":
            stack.extend(n.named_children)
    return out


def attribute_class(
    raise_node: ts.Node, name: str, classes: dict[str, ts.Node], memo: Assignments | None = None
) -> str | None:
    """The class ``raise self.<name>(...)`` raises when nobody passes another:
    jinja's ``Undefined.__init__(..., exc=UndefinedError)`` keeps ``self.
    _undefined_exception = exc``, and ``Undefined._fail_with_undefined_error``
    raises ``self._undefined_exception(...)``, an ``UndefinedError``. One
    class given by every value of the attribute in the raise's class and its
    bases (a class name, or a parameter whose default is one); else None.
    ``memo``: see ``_values``."""
    owner = formatted._owner(raise_node)
    if owner is None:
        return None
    found: set[str] = set()
    for cls in formatted._chain(owner, classes):
        for value in _values(cls, name, memo):
            named = _class_named(value)
            if named is None:
                return None
            found.add(named)
    return found.pop() if len(found) == 1 else None


def _class_named(value: ts.Node) -> str | None:
    """A class name (``UndefinedError``, ``errors.Invalid``), or the class a
    parameter of the enclosing function defaults to."""
    if value.type == "identifier":
        default = forward.class_parameter(value, msg.text_of(value))
        if default is not None:
            return default
    text = msg.expr_text(value)
    if value.type in ("identifier", "attribute") and text.rsplit(".", 1)[-1][:1].isupper():
        return text
    return None
