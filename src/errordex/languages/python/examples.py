"""Example Python code built from real code: a guard negated, a test's one
call (pure). Nothing here makes up a name.

    >>> negate_python("not isinstance(name, str)")
    'isinstance(name, str)'
    >>> negate_python("value <= 0")
    'value > 0'
"""

from __future__ import annotations

import ast

from errordex.languages.python import scan as scan_python

_FLIP = {
    ast.Eq: "!=",
    ast.NotEq: "==",
    ast.Lt: ">=",
    ast.LtE: ">",
    ast.Gt: "<=",
    ast.GtE: "<",
    ast.Is: "is not",
    ast.IsNot: "is",
    ast.In: "not in",
    ast.NotIn: "in",
}


def negate_python(cond: str) -> str | None:
    """The condition under which ``if cond: raise ...`` does not raise,
    written with the same names and text (None when ``cond`` does not parse)."""
    src = cond.strip()
    try:
        node = ast.parse(src, mode="eval").body
    except SyntaxError:
        return None
    return _negate(node, src)


def _negate(node: ast.expr, src: str) -> str:
    def text(n: ast.expr) -> str:
        return ast.get_source_segment(src, n) or ast.unparse(n)

    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return text(node.operand)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _FLIP:
        return f"{text(node.left)} {_FLIP[type(node.ops[0])]} {text(node.comparators[0])}"
    if isinstance(node, ast.BoolOp):
        # De Morgan: not (a and b) is (not a) or (not b).
        joiner = " or " if isinstance(node.op, ast.And) else " and "
        parts = [_negate(v, src) for v in node.values]
        wrap = isinstance(node.op, ast.Or)  # `and` binds tighter: an `or` inside needs parens
        return joiner.join(f"({p})" if wrap and " or " in p else p for p in parts)
    if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
        return f"not {text(node)}"
    return f"not ({text(node)})"


def single_python_call(body: str) -> bool:
    """Whether a test body is one statement that is a call (``f(x)`` or ``y = f(x)``)."""
    try:
        tree = ast.parse(body)
    except SyntaxError:
        return False
    if len(tree.body) != 1:
        return False
    stmt = tree.body[0]
    value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
    return isinstance(value, ast.Call) and scan_python.parses(body)
