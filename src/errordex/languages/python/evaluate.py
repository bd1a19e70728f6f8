"""Whether a check holds for the call a test makes (pure): the check, in the
parameters of the function called, worked out on the call's literal
arguments and the function's defaults. Three-valued: ``None`` whenever a
name, a value or an operation is not known, so nothing is guessed.

rich's ``Align("foo", "middle")`` with ``pytest.raises(ValueError)`` and
no text reaches two ``ValueError`` raises of ``Align.__init__``; the check
of one is ``align not in ("left", "center", "right")``, true for
``"middle"``, and of the other ``vertical is not None and …``, false for
the default ``vertical=None``: the test is of the first.

    >>> params = ("self", "renderable", "align", "vertical")
    >>> defaults = (("align", '"left"'), ("*", "vertical"), ("vertical", "None"))
    >>> check_on_call('align not in ("left", "center", "right")',
    ...               'Align("foo", "middle")', "Align", params, defaults)
    True
    >>> check_on_call('vertical is not None and vertical not in ("top", "middle")',
    ...               'Align("foo", "middle")', "Align", params, defaults)
    False
    >>> check_on_call("size < limit", 'Align("foo", "middle")', "Align", params, defaults) is None
    True
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from errordex.languages.python.examples import call_arguments

#: the builtin classes a check compares with or tests ``isinstance`` against:
#: two of them are never the same value
_TYPES: dict[str, type] = {
    t.__name__: t for t in (int, str, float, bool, bytes, list, tuple, dict, set, frozenset)
}
_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


#: the methods of ``str`` and ``bytes`` a check calls that only read the text
_TEXT_METHODS = frozenset(
    {
        *("startswith", "endswith", "isdigit", "isalpha", "isalnum", "isspace"),
        *("islower", "isupper", "isidentifier", "isascii", "lower", "upper"),
        *("strip", "lstrip", "rstrip", "encode", "decode", "count", "find"),
    }
)


@dataclass(frozen=True, slots=True)
class _Name:
    """A value known only by the name it is written with (``int``,
    ``self.SECONDS``): the same name is the same value."""

    text: str


class _Unknown:
    pass


UNKNOWN = _Unknown()
#: a container whose items are known one by one (``(int, float)``)
_Items = tuple[object, ...]


def check_on_call(
    condition: str,
    body: str,
    name: str,
    params: Sequence[str],
    defaults: Sequence[tuple[str, str]],
    owner: str | None = None,
    rebinds: Sequence[str] = (),
) -> bool | None:
    """Whether ``condition`` (in the parameters of the function ``name``)
    holds for the one call of ``name`` that ``body`` makes; None when
    ``body`` does not make exactly one, or the answer depends on what is
    not known. ``owner``: the class of a method, whose constants a test
    passes by its name (``TimeDelta.SECONDS`` is ``self.SECONDS``);
    ``rebinds``: the parameters the function assigns again, not known."""
    values = _call_values(body, name, params, defaults, owner, rebinds)
    return None if values is None else _holds(condition, values)


def _call_values(
    body: str,
    name: str,
    params: Sequence[str],
    defaults: Sequence[tuple[str, str]],
    owner: str | None,
    rebinds: Sequence[str],
) -> dict[str, object] | None:
    """Each parameter's value at the one call of ``name`` in ``body``; None
    when there is not exactly one, or it cannot be bound."""
    try:
        tree = ast.parse(body.strip())
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _called(n) == name]
    if len(calls) != 1:
        return None
    values = _bind(calls[0], params, defaults, owner)
    if values is None:
        return None
    values.update(dict.fromkeys(rebinds, UNKNOWN))
    return values


def _holds(condition: str, values: dict[str, object]) -> bool | None:
    """Whether ``condition`` holds for ``values``; None when that is not known."""
    try:
        check = ast.parse(condition.strip(), mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    try:
        got = _Eval(values).truth(check)
    except (RecursionError, MemoryError):
        return None
    return None if got is UNKNOWN else bool(got)


def _called(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


def _bind(
    call: ast.Call,
    params: Sequence[str],
    defaults: Sequence[tuple[str, str]],
    owner: str | None,
) -> dict[str, object] | None:
    """Each parameter's value at ``call``: its argument, else its default;
    None when the call passes ``*args``/``**kw`` or more positional
    arguments than the function names."""
    ps = list(params)
    if ps[:1] in (["self"], ["cls"]):
        ps = ps[1:]
    stars = {n for n, v in defaults if v in ("*", "**")}
    keyword_only = {v for n, v in defaults if n == "*"}
    positional = []
    for p in ps:
        if p in stars or p in keyword_only:
            break
        positional.append(p)
    given = call_arguments(call, positional)
    if given is None:
        return None
    out: dict[str, object] = {}
    for p in ps:
        if p in stars:
            continue
        if p in given:
            out[p] = _value(given[p], owner)
            continue
        default = next((v for n, v in defaults if n == p), None)
        if default is None:
            out[p] = UNKNOWN  # a required parameter the call leaves out: it fails otherwise
            continue
        try:
            out[p] = _value(ast.parse(default, mode="eval").body, owner)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            out[p] = UNKNOWN
    return out


_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def _value(node: ast.expr, owner: str | None) -> object:
    """An argument as written: a literal's value, a builtin class, or a
    dotted name (a class's constant by its class's name reads as
    ``self.NAME``, as the method's check reads it)."""
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    text = ast.unparse(node)
    if _DOTTED.fullmatch(text):
        parts = text.split(".")
        if owner and len(parts) >= 2 and parts[-2] == owner:
            return _Name(f"self.{parts[-1]}")
        return _Name(text)
    return UNKNOWN


class _Eval:
    """The three-valued evaluation of a check over known parameter values."""

    def __init__(self, values: dict[str, object]) -> None:
        self.values = values

    def truth(self, node: ast.expr) -> object:
        """True, False or UNKNOWN."""
        if isinstance(node, ast.BoolOp):
            got = [self.truth(v) for v in node.values]
            if isinstance(node.op, ast.And):
                if any(g is False for g in got):
                    return False
                return True if all(g is True for g in got) else UNKNOWN
            if any(g is True for g in got):
                return True
            return False if all(g is False for g in got) else UNKNOWN
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.truth(node.operand)
            return UNKNOWN if inner is UNKNOWN else not inner
        if isinstance(node, ast.Compare):
            return self.compare(node)
        value = self.value(node)
        if isinstance(value, _Name):
            return True if value.text in _TYPES else UNKNOWN  # a class is true
        if value is UNKNOWN or (isinstance(value, tuple) and _has_unknown(value)):
            return UNKNOWN
        try:
            return bool(value)
        except Exception:  # a literal's own __bool__ never raises; be safe
            return UNKNOWN

    def value(self, node: ast.expr) -> object:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in self.values:
                return self.values[node.id]
            return _Name(node.id) if node.id in _TYPES else UNKNOWN
        if isinstance(node, ast.Attribute):
            text = ast.unparse(node)
            # `self.SECONDS` is a name a test's argument can be; no other attribute is known
            return _Name(text) if text.startswith("self.") and text.count(".") == 1 else UNKNOWN
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return tuple(self.value(e) for e in node.elts)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.value(node.operand)
            is_number = isinstance(inner, (int, float)) and not isinstance(inner, bool)
            return -inner if is_number else UNKNOWN  # type: ignore[operator]
        if isinstance(node, ast.IfExp):
            test = self.truth(node.test)
            if test is UNKNOWN:
                return UNKNOWN
            return self.value(node.body if test else node.orelse)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _TEXT_METHODS
            and not node.keywords
        ):
            # a string's own method on known text (`query_string.startswith("?")`)
            receiver = self.value(node.func.value)
            args = [self.value(a) for a in node.args]
            if isinstance(receiver, (str, bytes)) and all(_known(a) for a in args):
                try:
                    return getattr(receiver, node.func.attr)(*args)
                except (TypeError, ValueError, LookupError):
                    return UNKNOWN
            return UNKNOWN
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            args = [self.value(a) for a in node.args]
            if node.func.id == "len" and len(args) == 1 and _known(args[0]):
                try:
                    return len(args[0])  # type: ignore[arg-type]
                except TypeError:
                    return UNKNOWN
            if node.func.id in ("any", "all", "bool") and len(args) == 1 and _known(args[0]):
                fold: Callable[[Any], bool] = {"any": any, "all": all, "bool": bool}[node.func.id]
                try:
                    return fold(args[0])
                except TypeError:
                    return UNKNOWN
            if node.func.id == "isinstance" and len(args) == 2:
                return self.instance_of(args[0], args[1])
        return UNKNOWN

    def instance_of(self, value: object, classes: object) -> object:
        items = classes if isinstance(classes, tuple) else (classes,)
        names = [n.text for n in items if isinstance(n, _Name) and n.text in _TYPES]
        if not _known(value) or len(names) != len(items):
            return UNKNOWN
        return isinstance(value, tuple(_TYPES[n] for n in names))

    def compare(self, node: ast.Compare) -> object:
        left = self.value(node.left)
        result: object = True
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = self.value(right_node)
            got = self.one(left, op, right)
            if got is False:
                return False
            if got is UNKNOWN:
                result = UNKNOWN
            left = right
        return result

    def one(self, left: object, op: ast.cmpop, right: object) -> object:
        if isinstance(op, (ast.In, ast.NotIn)):
            found = _member(left, right)
            if found is UNKNOWN:
                return UNKNOWN
            return found if isinstance(op, ast.In) else not found
        if isinstance(op, (ast.Is, ast.IsNot)):
            same = _identical(left, right)
            if same is UNKNOWN:
                return UNKNOWN
            return same if isinstance(op, ast.Is) else not same
        if isinstance(op, (ast.Eq, ast.NotEq)):
            same = _equal(left, right)
            if same is UNKNOWN:
                return UNKNOWN
            return same if isinstance(op, ast.Eq) else not same
        compare = _COMPARE.get(type(op))
        if compare is None or not (_number(left) and _number(right)):
            return UNKNOWN
        return compare(left, right)


def _number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _known(v: object) -> bool:
    """A plain value (no name, nothing unknown inside)."""
    if v is UNKNOWN or isinstance(v, _Name):
        return False
    return not isinstance(v, tuple) or not _has_unknown(v)


def _has_unknown(items: _Items) -> bool:
    return any(not _known(i) for i in items)


def _equal(a: object, b: object) -> object:
    if isinstance(a, _Name) or isinstance(b, _Name):
        if isinstance(a, _Name) and isinstance(b, _Name):
            if a.text == b.text:
                return True
            # two builtin classes are two values; other names may be one
            return False if a.text in _TYPES and b.text in _TYPES else UNKNOWN
        return UNKNOWN
    if not (_known(a) and _known(b)):
        return UNKNOWN
    try:
        return bool(a == b)
    except Exception:  # literals compare without raising; be safe
        return UNKNOWN


def _identical(a: object, b: object) -> object:
    """``is``, known for ``None``, ``True`` and ``False`` only."""
    singles = (None, True, False)
    if any(isinstance(v, bool) or v is None for v in (a, b)):
        other = b if a in singles and not isinstance(a, _Name) else a
        if isinstance(other, _Name):
            # a builtin class is no None; another name may hold one
            return False if other.text in _TYPES else UNKNOWN
        if other is UNKNOWN:
            return UNKNOWN
        return a is b
    return UNKNOWN


def _member(item: object, container: object) -> object:
    """``item in container``, where container is literal items or a string."""
    if isinstance(container, str) and isinstance(item, str):
        return item in container
    if isinstance(container, (list, set, frozenset, dict)):
        container = tuple(container)
    if not isinstance(container, tuple):
        return UNKNOWN
    unsure = False
    for c in container:
        same = _equal(item, c)
        if same is True:
            return True
        if same is UNKNOWN:
            unsure = True
    return UNKNOWN if unsure else False


#: guard kinds whose text must be false for the site to run (``Guard``)
_WHEN_FALSE = ("assert", "fall-through")


def fires_on_call(
    guards: Sequence[tuple[str, str]],
    body: str,
    name: str,
    params: Sequence[str],
    defaults: Sequence[tuple[str, str]],
    owner: str | None = None,
    rebinds: Sequence[str] = (),
) -> bool | None:
    """Whether a raise whose enclosing checks are ``guards`` ((kind, text),
    ``Guard``) runs for the call of ``name`` that ``body`` makes
    (``check_on_call``). An ``elif`` or ``else`` is known from its own text
    only to fail (the branches before it are not read), an ``except`` or
    any other kind not at all.

        >>> fires_on_call([("if", "n < 0")], "f(-1)", "f", ("n",), ())
        True
        >>> fires_on_call([("elif", "n < 0")], "f(-1)", "f", ("n",), ()) is None
        True
        >>> fires_on_call([("elif", "n < 0")], "f(1)", "f", ("n",), ())
        False
    """
    values = _call_values(body, name, params, defaults, owner, rebinds)
    result: bool | None = True
    for kind, text in guards:
        holds = None if values is None else _holds(text, values)
        if kind in ("if", "isinstance", *_WHEN_FALSE):
            fires = holds if kind not in _WHEN_FALSE or holds is None else not holds
        elif kind == "elif":
            fires = False if holds is False else None
        elif kind == "else":  # the text is the first branch's check: it must fail
            fires = False if holds is True else None
        else:
            fires = None
        if fires is False:
            return False
        if fires is None:
            result = None
    return result
