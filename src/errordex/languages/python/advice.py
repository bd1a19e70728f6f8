"""What to change, in plain words, from a check a call's arguments must pass
(pure). The condition is what must hold for the call not to raise, written
in the call's parameters; each phrase names only those parameters and what
the condition itself says, so nothing here is made up.

    >>> advice("isinstance(name, str)")
    'pass `name` as a `str`'
    >>> advice("data is None or isinstance(data, Mapping)")
    'leave `data` out (or `None`), or pass `data` as a `Mapping`'
    >>> advice("func in (re.fullmatch, None, re.search)")
    'pass one of `re.fullmatch`, `None`, `re.search` as `func`'
    >>> advice("default is not NOTHING or factory is not None")
    'give `default`, or give `factory`'
    >>> advice("len(values) <= 3")
    '`len(values)` must be <= `3`'
    >>> advice("line.contains_standalone_comments()", ["line"])
    'pass a `line` for which `line.contains_standalone_comments()` is true'
    >>> advice("x.real + 1") is None
    True
    >>> advice("best_match(validator.iter_errors(instance)) is None") is None
    True
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from errordex.languages.python.examples import negate_python

_OPS = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
}


def to_change(condition: str, raises_when_true: bool, read: Sequence[str] = ()) -> str | None:
    """``advice`` for a check given as written: the condition under which it
    raises (``raises_when_true``), or the one that must hold (an assert's).

    >>> to_change("not isinstance(name, str)", True)
    'pass `name` as a `str`'
    """
    holds = negate_python(condition) if raises_when_true else condition
    return advice(holds, read) if holds is not None else None


def advice(holds: str, read: Sequence[str] = ()) -> str | None:
    """What a caller does so that ``holds`` is true; None when the
    condition is not one of the shapes read here. ``read``: the call's
    parameters it reads (a method is read on one of them, not on a module)."""
    try:
        node = ast.parse(holds.strip(), mode="eval").body
    except SyntaxError:
        return None
    return _advice(node, holds.strip(), tuple(read))


def _src(node: ast.expr, src: str) -> str:
    return ast.get_source_segment(src, node) or ast.unparse(node)


def _types(node: ast.expr, src: str) -> str:
    if isinstance(node, ast.Tuple):
        names = [f"`{_src(e, src)}`" for e in node.elts]
        return "one of " + ", ".join(names) if len(names) > 1 else names[0] if names else "?"
    name = _src(node, src)
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} `{name}`"


def _advice(node: ast.expr, src: str, read: tuple[str, ...]) -> str | None:
    if isinstance(node, ast.BoolOp):
        parts = []
        for v in node.values:
            got = _advice(v, src, read)
            if got is None:
                return None
            parts.append(got)
        # "…, or pass it as …" once the first part named the parameter
        return (", or " if isinstance(node.op, ast.Or) else ", and ").join(parts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = node.operand
        if _is_call(inner, "isinstance") and isinstance(inner, ast.Call) and len(inner.args) == 2:
            p = _src(inner.args[0], src)
            return f"do not pass {_types(inner.args[1], src)} as `{p}`"
        if isinstance(inner, (ast.Name, ast.Attribute)):
            return f"leave `{_src(inner, src)}` false or empty"
        root = _root(inner)
        if isinstance(inner, ast.Call) and root in read:
            return f"pass a `{root}` for which `{_src(inner, src)}` is false"
        return None
    if isinstance(node, ast.Call):
        if _is_call(node, "isinstance") and len(node.args) == 2:
            return f"pass `{_src(node.args[0], src)}` as {_types(node.args[1], src)}"
        if _is_call(node, "callable") and len(node.args) == 1:
            return f"pass a callable as `{_src(node.args[0], src)}`"
        if _is_call(node, "hasattr") and len(node.args) == 2:
            attr = node.args[1]
            if isinstance(attr, ast.Constant) and isinstance(attr.value, str):
                return f"pass a `{_src(node.args[0], src)}` that has an attribute `{attr.value}`"
        root = _root(node)
        if isinstance(node.func, ast.Attribute) and root in read:
            # a method of what was passed (`line.contains_standalone_comments()`)
            return f"pass a `{root}` for which `{_src(node, src)}` is true"
        return None
    if isinstance(node, (ast.Name, ast.Attribute)):
        return f"give a `{_src(node, src)}` that is set (true, non-empty)"
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, op, right = node.left, node.ops[0], node.comparators[0]
        what = _src(left, src)
        bound = isinstance(op, tuple(_OPS)[1:])
        if isinstance(left, ast.Call) and not bound and _root(left) not in read:
            # a call's result is nothing a caller passes or leaves out
            # (jsonschema: ``best_match(…iter_errors(instance)) is None``),
            # unless it is read on a parameter (``same_site.lower()``); a
            # bound on it reads as advice (``len(values) <= 3``)
            return None
        if isinstance(right, ast.Constant) and right.value is None:
            if isinstance(op, ast.Is):
                return f"leave `{what}` out (or `None`)"
            if isinstance(op, ast.IsNot):
                return f"give `{what}`"
        if isinstance(op, ast.IsNot):
            return f"give `{what}`" if isinstance(right, ast.Name) else None
        if isinstance(op, ast.Is):
            return f"pass `{_src(right, src)}` as `{what}`"
        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(
            right, (ast.Tuple, ast.List, ast.Set)
        ):
            listed = ", ".join(f"`{_src(e, src)}`" for e in right.elts)
            if isinstance(op, ast.In):
                return f"pass one of {listed} as `{what}`"
            return f"do not pass {listed} as `{what}`"
        if isinstance(op, ast.Eq):
            return f"pass `{_src(right, src)}` as `{what}`"
        if type(op) in _OPS:
            return f"`{what}` must be {_OPS[type(op)]} `{_src(right, src)}`"
    return None


def _root(node: ast.expr) -> str | None:
    """The name a method call or attribute is read on (``line`` of
    ``line.contains_standalone_comments()``)."""
    while isinstance(node, (ast.Call, ast.Attribute, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _is_call(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


class _NotNone:
    """A value known only not to be ``None``: its truth and equality are unknown."""

    def __bool__(self) -> bool:
        raise ValueError("unknown")

    def __eq__(self, other: object) -> bool:
        raise ValueError("unknown")

    __hash__ = object.__hash__


def holds_with(condition: str, name: str, value: str) -> bool | None:
    """Whether ``condition`` holds once ``name`` is ``value``, when nothing
    else in it is unknown: constants, ``not``, ``and``/``or`` and comparisons.

    >>> holds_with("not self.entered", "self.entered", "True")
    False
    >>> holds_with("self.closed", "self.closed", "True")
    True
    >>> holds_with("self.closed and n > 1", "self.closed", "True") is None
    True

    A value that is no literal (``_cv_app.set(self)``, a call's result) is
    only known not to be ``None``:

    >>> holds_with("self._cv_token is None", "self._cv_token", "_cv_app.set(self)")
    False
    >>> holds_with("self._token", "self._token", "_cv_app.set(self)") is None
    True
    """
    try:
        tree = ast.parse(condition.strip(), mode="eval").body
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return None
    try:
        known: object = ast.literal_eval(value)
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        known = _NotNone()

    def ev(node: ast.expr) -> object:
        if ast.unparse(node) == name:
            return known
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not ev(node.operand)
        if isinstance(node, ast.BoolOp):
            got = [ev(v) for v in node.values]
            return all(got) if isinstance(node.op, ast.And) else any(got)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right, op = ev(node.left), ev(node.comparators[0]), node.ops[0]
            if isinstance(op, ast.Is):
                return left is right
            if isinstance(op, ast.IsNot):
                return left is not right
            if isinstance(op, ast.Eq):
                return bool(left == right)
            if isinstance(op, ast.NotEq):
                return bool(left != right)
        raise ValueError("unknown")

    try:
        return bool(ev(tree))
    except (ValueError, TypeError):
        return None
