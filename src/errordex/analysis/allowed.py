"""The values a check accepts, read off the check itself (pure): issue 16.

A library often says what it takes in the branches it tests, not in a
sentence: ``if encoding == "text": … elif encoding == "bytes": … else:
raise``, ``if where not in {"pre", "post", "mid"}: raise``. The page then
says "`where` is none of `"pre"`, `"post"`, `"mid"`", which is what the
user gave wrong, rather than "`where not in {…}`" or, for an ``else``,
only its first test ("`encoding == "text"` is false").

Only values written in the check are listed (a string, a number, ``None``,
``True``/``False``, a constant or a type named as such): a test against a
variable or a call is no list of values.

    >>> chained(['encoding == "text"', "encoding == 'bytes'", "encoding is None"])
    'encoding in ("text", \\'bytes\\', None)'
    >>> chained(["x == 1", "y == 2"]) is None
    True
    >>> chained(['os.getenv("EVENT") == "push"', 'os.getenv("EVENT") == "pull"'])
    'os.getenv("EVENT") in ("push", "pull")'
    >>> none_of(accepted('where not in {"pre", "post", "mid"}', False))
    '`where` is none of `"pre"`, `"post"`, `"mid"`'
    >>> accepted('mode in ("a", "w")', True).values
    ('"a"', '"w"')
    >>> accepted('mode in ("a", "w")', False) is None
    True
    >>> none_of(accepted('sep is not None and sep not in (",", ";")', False))
    '`sep` is none of `","`, `";"`, `None`'
    >>> accepted('sep not in (",", ";") and strict', False) is None
    True

A test of what the value is, among the tests of values (xarray's
``merge_attrs``: ``if callable(combine_attrs): … elif combine_attrs ==
"drop": …``), is said with them:

    >>> none_of(accepted(chained(["callable(c)", 'c == "drop"', 'c == "override"']), True))
    '`c` is not callable and none of `"drop"`, `"override"`'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from errordex.analysis.lift import split_arguments

#: values listed at most in a sentence; "…" says there are more
MAX_SHOWN = 6
#: what a check is made on: a name, an attribute, an item (``kwargs["func"]``)
#: or what a call of plain arguments returns (``os.getenv("GITHUB_EVENT_NAME")``)
_SUBJECT = (
    r"[A-Za-z_][\w.]*(?:\[(?:\"[^\"]*\"|'[^']*'|\w+)\]|\((?:\"[^\"]*\"|'[^']*'|[\w., ])*\))*"
    r"(?:\.\w+)*"
)
_STRING = r"[bB]?(?:\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')"
_NUMBER = r"-?\d[\d_]*(?:\.\d+)?"
#: a constant (``Feature.X``, ``MAX``), an enum member or a class (``Day``),
#: a builtin type (``str``)
_NAMED = (
    r"(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*)"
    r"|None|True|False|str|bytes|int|float|bool|list|dict|tuple|set|complex"
)
_VALUE = re.compile(rf"(?:{_STRING}|{_NUMBER}|{_NAMED})")
_KEY = re.compile(rf"({_STRING}|{_NUMBER}|{_NAMED})\s*:")
_PREDICATE = re.compile(
    rf"\s*(?:callable\((?P<c>{_SUBJECT})\)|isinstance\((?P<i>{_SUBJECT}),\s*(?P<t>[\w.]+|\([\w., ]+\))\))\s*"
)
_EQUALS = re.compile(rf"\s*(?P<s>{_SUBJECT})\s*(?:==|\bis\b)\s*(?P<v>.+?)\s*")
_EQUALS_BACK = re.compile(rf"\s*(?P<v>{_STRING}|{_NUMBER})\s*==\s*(?P<s>{_SUBJECT})\s*")
_MEMBER = re.compile(
    rf"\s*(?P<s>{_SUBJECT})\s+(?P<op>not\s+in|in)\s+(?P<c>(?:frozenset|set)?[(\[{{].*[)\]}}])\s*",
    re.S,
)


@dataclass(frozen=True, slots=True)
class Accepted:
    """A check that passes only for ``values`` of ``subject``."""

    subject: str
    values: tuple[str, ...]
    #: the tests it passes besides (``callable(S)``, ``isinstance(S, T)``)
    also: tuple[str, ...] = ()


def _value(text: str) -> str | None:
    text = " ".join(text.split())
    return text if _VALUE.fullmatch(text) else None


def _collection(text: str) -> tuple[str, ...] | None:
    """The literal values of ``("a", "b")``, ``["a"]``, ``{"a", "b"}``,
    ``frozenset({…})``, or a dict's keys (``{"a": 1}``)."""
    text = text.strip()
    for wrap in ("frozenset(", "set("):
        if text.startswith(wrap) and text.endswith(")"):
            text = text[len(wrap) : -1].strip()
    if len(text) < 2 or text[0] + text[-1] not in ("()", "[]", "{}"):
        return None
    parts = split_arguments(text[1:-1])
    if not parts:
        return None
    out: list[str] = []
    for p in parts:
        if text[0] == "{":
            key = _KEY.match(p)  # a dict's key
            p = key.group(1) if key else p
        v = _value(p)
        if v is None:
            return None
        out.append(v)
    return tuple(dict.fromkeys(out))


def _tested(cond: str) -> Accepted | None:
    """``x == "a"``, ``x is None``, ``"a" == x`` or ``x in ("a", "b")``; a
    test of what ``x`` is (``callable(x)``, ``isinstance(x, T)``) as ``also``."""
    cond = _unwrapped(cond)
    p = _PREDICATE.fullmatch(cond)
    if p is not None:
        return Accepted(p.group("c") or p.group("i"), (), (" ".join(cond.split()),))
    m = _MEMBER.fullmatch(cond)
    if m is not None:
        if m.group("op") != "in":
            return None
        got = _collection(m.group("c"))
        return Accepted(m.group("s"), got) if got else None
    m = _EQUALS.fullmatch(cond) or _EQUALS_BACK.fullmatch(cond)
    if m is None:
        return None
    v = _value(m.group("v"))
    return Accepted(m.group("s"), (v,)) if v is not None else None


def _unwrapped(text: str) -> str:
    """``text`` without parentheses around the whole of it."""
    text = text.strip()
    while text.startswith("(") and text.endswith(")"):
        inner = text[1:-1]
        if split_arguments(inner) != [inner.strip()]:
            break
        text = inner.strip()
    return text


def chained(conds: Sequence[str]) -> str | None:
    """The tests of an ``if``/``elif`` chain (or of the early returns a
    statement falls through), when each one compares the same subject with
    written values: what the ``else`` after them rejects, as one
    membership test (``x in ("a", "b")``); None otherwise."""
    if len(conds) < 2:
        return None
    subject: str | None = None
    values: list[str] = []
    also: list[str] = []
    for c in conds:
        got = _tested(c)
        if got is None or (subject is not None and got.subject != subject):
            return None
        subject = got.subject
        values += got.values
        also += got.also
    if subject is None or not values:
        return None
    listed = list(dict.fromkeys(values))
    tupled = f"({listed[0]},)" if len(listed) == 1 else f"({', '.join(listed)})"
    return " or ".join([*also, f"{subject} in {tupled}"])


def accepted(text: str, when_false: bool) -> Accepted | None:
    """The values a check accepts: ``S not in (…)`` raises for the others,
    and so does ``S in (…)`` when the site runs where it is false (an
    ``else``, an ``assert``)."""
    parts = _operands(_unwrapped(text), " or " if when_false else " and ")
    members = [(i, m) for i, p in enumerate(parts) if (m := _MEMBER.fullmatch(p)) is not None]
    if len(members) != 1:
        return None
    i, m = members[0]
    if (m.group("op") == "in") != when_false:
        return None
    got = _collection(m.group("c"))
    subject = m.group("s")
    values: list[str] = list(got or ())
    extra: list[str] = []
    for p in parts[:i] + parts[i + 1 :]:
        # `x is None or x in (…)` (an assert) and `x is not None and x not
        # in (…)` (a raise) both let `None` through too
        a = _tested(p) if when_false else _passed(p)
        if a is None or a.subject != subject:
            return None  # `x in (…) or y`: not what `x` alone may be
        values += a.values
        extra += a.also
    values = list(dict.fromkeys(values))
    if not got or len(values) + len(extra) <= 1:
        return None
    return Accepted(subject, tuple(values), tuple(extra))


def all_given(text: str) -> str | None:
    """ "`a` and `b` are both given": a check that holds when each of two or
    more names is not ``None`` (redis-py's ``maxlen is not None and minid is
    not None``), the arguments that cannot be given together.

    >>> all_given("maxlen is not None and minid is not None")
    '`maxlen` and `minid` are both given'
    >>> all_given("a is not None and b is not None and c is not None")
    '`a`, `b` and `c` are all given'
    >>> all_given("a is not None and b > 1") is None
    True
    """
    names: list[str] = []
    for part in _operands(_unwrapped(text), " and "):
        m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s+is\s+not\s+None\s*", part)
        if m is None or m.group(1) in names:
            return None
        names.append(m.group(1))
    if len(names) < 2:
        return None
    listed = ", ".join(f"`{n}`" for n in names[:-1]) + f" and `{names[-1]}`"
    return f"{listed} are {'both' if len(names) == 2 else 'all'} given"


def _passed(cond: str) -> Accepted | None:
    """``x is not None`` or ``x != "a"`` beside a raise's other test: the
    value it names gets past the check."""
    m = re.fullmatch(rf"\s*(?P<s>{_SUBJECT})\s*(?:!=|\bis\s+not\b)\s*(?P<v>.+?)\s*", cond)
    v = _value(m.group("v")) if m is not None else None
    return Accepted(m.group("s"), (v,)) if m is not None and v is not None else None


def _either(text: str) -> list[str]:
    """The operands of a top-level ``or`` (``callable(x) or x in (…)``).

    >>> _either('callable(x) or x in ("a or b", f(c or d))')
    ['callable(x)', 'x in ("a or b", f(c or d))']
    """
    return _operands(text, " or ")


def _operands(text: str, op: str) -> list[str]:
    """The operands of a top-level ``or`` or ``and`` (``op``, with its spaces)."""
    out: list[str] = []
    depth, quote, start = 0, "", 0
    for i, c in enumerate(text):
        if quote:
            quote = "" if c == quote and text[i - 1] != "\\" else quote
        elif c in "\"'":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(op, i):
            out.append(text[start:i].strip())
            start = i + len(op)
    out.append(text[start:].strip())
    return out


def none_of(a: Accepted | None, subject: str | None = None) -> str | None:
    """ "`S` is none of `a`, `b`": ``subject`` names it otherwise (a
    ``self.`` attribute as its object's)."""
    if a is None:
        return None
    shown = ", ".join(f"`{v}`" for v in a.values[:MAX_SHOWN])
    more = ", …" if len(a.values) > MAX_SHOWN else ""
    kinds = [_not(t) for t in a.also]
    besides = f"{', '.join(kinds)} and " if kinds else ""
    return f"{subject or f'`{a.subject}`'} is {besides}none of {shown}{more}"


def _not(test: str) -> str:
    """ "not callable", "not a `str`": what a value failing ``test`` is not."""
    m = _PREDICATE.fullmatch(test)
    if m is None or m.group("c"):
        return "not callable"
    kind = m.group("t").strip("() ")
    return f"not a `{kind}`" if "," not in kind else f"not one of the types `{kind}`"
