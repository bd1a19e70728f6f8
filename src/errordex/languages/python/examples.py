"""Example Python code built from real code: a guard negated, a test's one
call (pure). Nothing here makes up a name.

    >>> negate_python("not isinstance(name, str)")
    'isinstance(name, str)'
    >>> negate_python("value <= 0")
    'value > 0'
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Sequence
from typing import Any

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


def _the_call(body: str) -> ast.Call | None:
    """The call of a test body that is one statement, ``f(x)`` or ``y = f(x)``."""
    try:
        tree = ast.parse(body)
    except SyntaxError:
        return None
    if len(tree.body) != 1:
        return None
    stmt = tree.body[0]
    value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
    return value if isinstance(value, ast.Call) else None


def single_python_call(body: str) -> bool:
    """Whether a test body is one statement that is a call (``f(x)`` or ``y = f(x)``)."""
    return _the_call(body) is not None and scan_python.parses(body)


def _value_that_holds(holds: str) -> tuple[str, str] | None:
    """(parameter, a value for it) that makes ``holds`` true, when ``holds``
    names its values: ``p in (a, b)`` (the first one not ``None``), ``p == v``,
    ``p is v``, ``p is not False`` (``True``); None for any other condition
    (errordex never makes one up).

        >>> _value_that_holds("func in (re.fullmatch, None, re.search)")
        ('func', 're.fullmatch')
        >>> _value_that_holds("isinstance(x, str)") is None
        True
        >>> _value_that_holds("use_cftime is not False"), _value_that_holds("x != None")
        (('use_cftime', 'True'), None)
        >>> _value_that_holds('v is None or v in ("top", "middle")')
        ('v', '"top"')
    """
    try:
        node = ast.parse(holds.strip(), mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        # either one will do: the first that names a value other than None
        # (rich's `vertical is None or vertical in ("top", …)`: "top")
        for part in node.values:
            got = _value_that_holds(ast.get_source_segment(holds.strip(), part) or "")
            if got is not None and got[1] != "None":
                return got
        return None
    bound = _bound_that_holds(node)
    if bound is not None:
        return bound
    if not (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.left, ast.Name)
        and isinstance(node.ops[0], (ast.In, ast.Eq, ast.Is, ast.IsNot, ast.NotEq))
    ):
        return None
    right = node.comparators[0]
    if isinstance(node.ops[0], (ast.IsNot, ast.NotEq)):
        # a flag that must not be False is True (xarray's `use_cftime is not False`)
        if isinstance(right, ast.Constant) and isinstance(right.value, bool):
            return node.left.id, repr(not right.value)
        return None
    if isinstance(node.ops[0], ast.In):
        if not isinstance(right, (ast.Tuple, ast.List, ast.Set)) or not right.elts:
            return None
        named = [e for e in right.elts if not (isinstance(e, ast.Constant) and e.value is None)]
        right = (named or right.elts)[0]
    if not isinstance(right, (ast.Constant, ast.Name, ast.Attribute)):
        return None
    # as the code writes it (`"top"`, not unparsed `'top'`)
    return node.left.id, ast.get_source_segment(holds.strip(), right) or ast.unparse(right)


def _bound_that_holds(node: ast.expr) -> tuple[str, str] | None:
    """(parameter, the limit itself) for a limit written as a number:
    ``size <= 1024`` -> 1024, ``n < 10`` -> 9, ``n >= 1`` -> 1 (the value
    within the limit that is nearest to what failed it).

        >>> _bound_that_holds(ast.parse("size <= 1024", mode="eval").body)
        ('size', '1024')
        >>> _bound_that_holds(ast.parse("n < 10", mode="eval").body)
        ('n', '9')
    """
    if not (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.left, ast.Name)
        and isinstance(node.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE))
    ):
        return None
    right = node.comparators[0]
    value = right.value if isinstance(right, ast.Constant) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    op = node.ops[0]
    if isinstance(op, (ast.Lt, ast.Gt)):
        if not isinstance(value, int):
            return None  # no nearest float inside an open bound
        value = value - 1 if isinstance(op, ast.Lt) else value + 1
    return node.left.id, repr(value)


def repair_python_call(body: str, name: str, params: Sequence[str], holds: str) -> str | None:
    """A test's one call of ``name`` with the argument ``holds`` reads
    replaced by a value that makes it true, when ``holds`` names one
    (``_value_that_holds``); None otherwise, or when the call does not pass
    that argument.

        >>> repair_python_call('matches_re("a", 0, lambda: None)', "matches_re",
        ...                    ["regex", "flags", "func"], "func in (re.fullmatch, None)")
        'matches_re("a", 0, re.fullmatch)'
    """
    got = _value_that_holds(holds)
    call = _the_call(body)
    if got is None or call is None or _called(call) != name:
        return None
    param, value = got
    spans = _argument_spans(body, call, params, [param])
    if spans is None:
        return None
    ((a, b, _),) = spans
    out = body[:a] + value + body[b:]
    return out if scan_python.parses(out) else None


#: the checks ``fails_check`` works out on literals
_HOLDS: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.In: lambda a, b: a in b,
    ast.Eq: operator.eq,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def fails_check(body: str, name: str, params: Sequence[str], holds: str) -> bool:
    """Whether the test's one call of ``name`` passes, for the parameter
    ``holds`` reads, a literal that makes ``holds`` false, where ``holds``
    is a membership in literal values (``capture in {"sys", "fd"}``): the
    test's input fails that very check, so it reaches this raise.

        >>> fails_check('CliRunner(capture="invalid")', "CliRunner", ["capture"],
        ...             'capture in {"sys", "fd"}')
        True
        >>> fails_check('CliRunner(capture="fd")', "CliRunner", ["capture"],
        ...             'capture in {"sys", "fd"}')
        False
    """
    try:
        node = ast.parse(holds.strip(), mode="eval").body
    except SyntaxError:
        return False
    if not (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], tuple(_HOLDS))
        and isinstance(node.left, ast.Name)
    ):
        return False
    call = _the_call(body)
    if call is None or _called(call) != name:
        return False
    spans = _argument_spans(body, call, params, [node.left.id])
    if spans is None:
        return False
    ((a, b, _),) = spans
    try:
        given = ast.literal_eval(body[a:b])
        valid = ast.literal_eval(node.comparators[0])
        return not _HOLDS[type(node.ops[0])](given, valid)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False  # not literals: nothing proven


def _called(call: ast.Call) -> str | None:
    func = call.func
    return (
        func.attr
        if isinstance(func, ast.Attribute)
        else func.id
        if isinstance(func, ast.Name)
        else None
    )


def call_arguments(call: ast.Call, positional: Sequence[str]) -> dict[str, ast.expr] | None:
    """Each parameter a call passes, by name: its positional arguments in
    the order of ``positional``, then its keywords; None when it passes
    ``*args``/``**kw`` or more positional arguments than ``positional``."""
    given: dict[str, ast.expr] = {}
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred) or i >= len(positional):
            return None
        given[positional[i]] = arg
    for kw in call.keywords:
        if kw.arg is None:
            return None
        given[kw.arg] = kw.value
    return given


def _argument_spans(
    body: str, call: ast.Call, params: Sequence[str], read: Sequence[str]
) -> list[tuple[int, int, str]] | None:
    """Where in ``body`` the call passes each parameter of ``read`` (start,
    end, parameter); None when it passes ``*args``/``**kw`` or leaves one to
    its default."""
    func = call.func
    ps = list(params)
    if isinstance(func, ast.Attribute) and ps and ps[0] in ("self", "cls"):
        ps = ps[1:]
    given = call_arguments(call, ps)
    if given is None or any(p not in given for p in read):
        return None
    lines = body.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def at(lineno: int, col: int) -> int:
        # ast columns count UTF-8 bytes
        text = lines[lineno - 1].encode("utf-8")[:col].decode("utf-8", "replace")
        return starts[lineno - 1] + len(text)

    spans = []
    for p in read:
        e = given[p]
        if e.end_lineno is None or e.end_col_offset is None:
            return None
        spans.append((at(e.lineno, e.col_offset), at(e.end_lineno, e.end_col_offset), p))
    return spans


def guard_python_call(
    body: str, name: str, params: Sequence[str], read: Sequence[str], holds: str
) -> str | None:
    """A test's one call of ``name`` rewritten so that the arguments the
    guard reads are named by their parameters and the call runs only when
    ``holds`` (the condition under which it does not raise, in the
    parameters' names). None when the call is not ``name``'s, passes
    ``*args``/``**kw``, or leaves a parameter the guard reads to its default.

        >>> print(guard_python_call("label(42)", "label", ["name"], ["name"],
        ...                         "isinstance(name, str)"))
        name = 42
        if isinstance(name, str):
            label(name)
    """
    call = _the_call(body)
    if call is None or _called(call) != name:
        return None
    spans = _argument_spans(body, call, params, read)
    if spans is None:
        return None
    out = body
    for a, b, p in sorted(spans, reverse=True):
        out = out[:a] + p + out[b:]
    assigns = "".join(f"{p} = {body[a:b]}\n" for a, b, p in sorted(spans))
    code = f"{assigns}if {holds}:\n" + "".join(f"    {line}\n" for line in out.strip().splitlines())
    return code.rstrip() if scan_python.parses(code) else None
