"""A message built up before its raise (Python, pure): issue 15, pattern 3.

pytest's ``raises`` writes its message in three statements::

    msg = "Unexpected keyword arguments passed to pytest.raises: "
    msg += ", ".join(sorted(kwargs))
    msg += "\\nUse context-manager form instead?"
    raise TypeError(msg)

and SQLAlchemy's coercions pick the start on two branches, then add advice
when there is some::

    if argname:
        msg = "%s expected for argument %r; got %s." % (self.name, argname, got)
    else:
        msg = "%s expected, got %s." % (self.name, got)
    if advice:
        msg += " " + advice
    raise exc.ArgumentError(msg, code=code) from err

``built_up`` walks back from the name's use through the statements before
it (and out through the blocks around it) to the assignment that starts
the text, collecting what ``+=`` adds on the way. A part an ``if`` without
``else`` adds is optional; a start assigned on both branches of an
``if``/``else`` gives two forms (``form`` 0 reads the ``else``, 1 the
``if``), and so does an optional part (0 leaves it out). Anything else that
binds the name on the way (a loop, another operator, an ``elif``) leaves
it unread. ``msg`` reads the pieces.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tree_sitter import Node

#: statements looked at before a name's use
MAX_SCAN = 64
_BLOCKS = ("block", "module")
_SCOPES = ("function_definition", "class_definition", "lambda")


@dataclass(frozen=True)
class Built:
    """The value that starts a name's text and what ``+=`` adds to it, in
    order, each with whether an ``if`` adds it; ``forked``: the start was
    picked on two branches."""

    start: Node
    pieces: tuple[tuple[Node, bool], ...]
    forked: bool

    @property
    def two_forms(self) -> bool:
        return self.forked or any(optional for _, optional in self.pieces)


class _Abort(Exception):
    pass


@dataclass
class _Walk:
    name: str
    form: int
    pieces: list[tuple[Node, bool]]
    seen: int = 0
    forked: bool = False

    def scan(self, stmts: Iterable[Node]) -> Node | None:
        """The start among ``stmts`` (nearest first), or None to go on
        outwards; raises ``_Abort`` when the name is bound otherwise."""
        for sib in stmts:
            self.seen += 1
            if self.seen > MAX_SCAN:
                raise _Abort
            op, value = _binding(sib, self.name)
            if op == "=" and value is not None:
                return value
            if op == "+=" and value is not None:
                self.pieces.append((value, False))
            elif op is not None:
                raise _Abort  # another operator, or a target that is not the name alone
            elif sib.type == "if_statement" and _binds(sib, self.name):
                found = self.branch(sib)
                if found is not None:
                    return found
            elif sib.type not in ("expression_statement", "comment") and _binds(sib, self.name):
                raise _Abort
        return None

    def branch(self, stmt: Node) -> Node | None:
        """The start an ``if`` that binds the name picks; None when it
        only adds an optional part (added to ``pieces``)."""
        alternatives = stmt.children_by_field_name("alternative")
        body = stmt.child_by_field_name("consequence")
        if body is None:
            raise _Abort
        if not alternatives:
            suffix = _if_suffix(body, self.name)
            if suffix is not None:
                self.pieces.append((suffix, True))
                return None
            # the text is built inside the block: read it as written there,
            # unless the name was bound before it (then either may be shown)
            found = self.scan(reversed(_named(body)))
            if found is None or _bound_before(stmt, self.name):
                raise _Abort
            return found
        if len(alternatives) != 1 or alternatives[0].type != "else_clause":
            raise _Abort
        other = alternatives[0].child_by_field_name("body")
        if other is None:
            raise _Abort
        self.forked = True
        found = self.scan(reversed(_named(body if self.form else other)))
        if found is None:
            raise _Abort
        return found


def built_up(node: Node, form: int = 0) -> Built | None:
    """How the name ``node`` was built up before it is read, or None when it
    was not built with ``+=`` (a plain assignment is ``resolve``'s)."""
    name = _text(node)
    if not _appends_in_scope(node, name):
        return None  # most names: no ``+=`` to follow, nothing to walk
    stmt: Node | None = node
    while stmt is not None and (stmt.parent is None or stmt.parent.type not in _BLOCKS):
        stmt = stmt.parent
    walk = _Walk(name, form, [])
    try:
        while stmt is not None:
            start = _scan_before(walk, stmt)
            if start is not None:
                if not walk.pieces and not walk.forked:
                    return None  # a plain assignment: ``resolve``'s to read
                return Built(start, tuple(walk.pieces[::-1]), walk.forked)
            block = stmt.parent
            if block is None or block.type == "module" or block.parent is None:
                return None
            stmt = block.parent
            if stmt.type in _SCOPES:
                return None
            while stmt.parent is not None and stmt.parent.type not in _BLOCKS:
                stmt = stmt.parent
    except _Abort:
        return None
    return None


def _appends_in_scope(node: Node, name: str) -> bool:
    """Whether the function around ``node`` has ``name +=`` in its text
    (a cheap test before any walk)."""
    scope = node.parent
    while scope is not None and scope.type not in (*_SCOPES, "module"):
        scope = scope.parent
    data = scope.text if scope is not None else None
    return bool(data) and name.encode() + b" +=" in (data or b"")


def _scan_before(walk: _Walk, stmt: Node) -> Node | None:
    """``walk.scan`` over the statements before ``stmt``, nearest first."""

    def before() -> Iterable[Node]:
        sib = stmt.prev_named_sibling
        while sib is not None:
            yield sib
            sib = sib.prev_named_sibling

    return walk.scan(before())


def _binding(stmt: Node, name: str) -> tuple[str | None, Node | None]:
    """``name = v`` -> ("=", v), ``name += v`` -> ("+=", v); (None, None)
    for a statement that assigns nothing to the name itself."""
    if stmt.type != "expression_statement" or not stmt.named_child_count:
        return None, None
    a = stmt.named_children[0]
    if a.type not in ("assignment", "augmented_assignment"):
        return None, None
    left = a.child_by_field_name("left")
    if left is None or left.type != "identifier" or _text(left) != name:
        return None, None
    if a.type == "assignment":
        return "=", a.child_by_field_name("right")
    op = a.child_by_field_name("operator")
    return (_text(op) if op is not None else "?"), a.child_by_field_name("right")


def _if_suffix(body: Node, name: str) -> Node | None:
    """The block of an ``if`` whose only binding of the name is one
    ``name += v`` -> ``v``."""
    found: Node | None = None
    for s in _named(body):
        op, value = _binding(s, name)
        if op == "+=" and value is not None and found is None:
            found = value
        elif op is not None or (s.type != "expression_statement" and _binds(s, name)):
            return None
    return found


def _binds(node: Node, name: str) -> bool:
    """Whether an assignment in ``node`` binds ``name`` (True past 512 nodes)."""
    stack = [node]
    seen = 0
    while stack and seen < 512:
        n = stack.pop()
        seen += 1
        if n.type in ("assignment", "augmented_assignment"):
            left = n.child_by_field_name("left")
            if left is not None and name in _text(left).replace(",", " ").split():
                return True
        stack.extend(n.named_children)
    return seen >= 512


def _bound_before(stmt: Node, name: str) -> bool:
    """Whether the function (or module) around ``stmt`` binds ``name``
    before it."""
    scope = stmt.parent
    while scope is not None and scope.type not in (*_SCOPES, "module"):
        scope = scope.parent
    if scope is None:
        return True
    stack = [scope]
    seen = 0
    while stack and seen < 4096:
        n = stack.pop()
        seen += 1
        if n.start_byte >= stmt.start_byte:
            continue
        if n.type in ("assignment", "augmented_assignment") and n.end_byte <= stmt.start_byte:
            left = n.child_by_field_name("left")
            if left is not None and name in _text(left).replace(",", " ").split():
                return True
        stack.extend(n.named_children)
    return seen >= 4096


def _named(node: Node) -> list[Node]:
    return [c for c in node.named_children if c.type != "comment"]


def _text(node: Node) -> str:
    data = node.text
    return data.decode("utf-8", "replace") if data is not None else ""
