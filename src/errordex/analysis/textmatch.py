"""Does a test's expected text belong to a template? (pure)

``#[should_panic(expected = "x")]`` passes when ``x`` is a substring of the
panic message, and ``pytest.raises(match=r"x")`` when ``re.search`` finds
``x``. So the question is whether some message the template can print
contains the expected text, with placeholders standing for any text.

    >>> from errordex.template import Template, Text, Hole
    >>> t = Template.of("rust-fmt", Text("index "), Hole("i", "{i}"), Text(" out of range"))
    >>> occurs_in("index 7 out of", t), occurs_in("out of bounds", t)
    (True, False)
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from errordex.template import Template, Text

_WILD = "\0"
_META = re.compile(r"[.^$*+?{}\[\]|()\\]")


def _pattern_text(t: Template) -> str:
    return "".join(p.text if isinstance(p, Text) else _WILD for p in t.parts)


def occurs_in(expected: str, t: Template, share: float = 0.5) -> bool:
    """Whether ``expected`` is a substring of a message ``t`` can print, with
    ``share`` of it (at least) matched by literal text (a placeholder alone
    proves nothing)."""
    if t.dynamic or t.is_empty or not expected.strip():
        return False
    r = _pattern_text(t)
    if _WILD not in r:
        # All literal: every surviving state matched each character of ``expected``.
        return expected in r
    size = len(expected.strip())
    need = min(max(4, math.ceil(size * share)), size)
    if not _has_long_run(expected, r, need):
        return False
    n = len(r)
    # state: position in r -> most literal characters matched so far.
    # Every position starts at 0; after the first character, the states are
    # the placeholders (which took it) and the places right after it.
    first = expected[0]
    cur: dict[int, int] = dict.fromkeys(_positions(r, _WILD), 0)
    if first != _WILD:
        cur.update(dict.fromkeys((j + 1 for j in _positions(r, first)), 1))
    if not cur:
        return False
    cur = _close(cur, r)
    for ch in expected[1:]:
        nxt: dict[int, int] = {}
        for j, lit in cur.items():
            if j < n:
                if r[j] == _WILD:
                    nxt[j] = max(nxt.get(j, -1), lit)
                elif r[j] == ch:
                    nxt[j + 1] = max(nxt.get(j + 1, -1), lit + 1)
        if not nxt:
            return False
        cur = _close(nxt, r)
    return max(cur.values()) >= need


def _has_long_run(expected: str, r: str, need: int) -> bool:
    """A quick necessary test: the literal characters a match needs come in
    at most one run per literal part of ``r``, so one run of ``expected``, at
    least ``need / parts`` long, is text of ``r``."""
    parts = r.count(_WILD) + 1
    size = max(1, -(-need // parts))
    return any(expected[i : i + size] in r for i in range(len(expected) - size + 1))


def _positions(r: str, ch: str) -> list[int]:
    out: list[int] = []
    j = r.find(ch)
    while j >= 0:
        out.append(j)
        j = r.find(ch, j + 1)
    return out


def _close(states: dict[int, int], r: str) -> dict[int, int]:
    """A placeholder may stand for the empty string."""
    out = dict(states)
    for j in sorted(states):
        k, lit = j, states[j]
        while k < len(r) and r[k] == _WILD:
            k += 1
            if out.get(k, -1) < lit:
                out[k] = lit
    return out


@lru_cache(maxsize=4096)
def literal_of(regex: str) -> str | None:
    """The text a regex matches when it is a plain string with escapes
    (``re.escape`` output, ``^...$``); None when it has real operators."""
    body = regex.removeprefix("^").removesuffix("$")
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt.isalnum():
                return None
            out.append(nxt)
            i += 2
            continue
        if _META.match(c):
            return None
        out.append(c)
        i += 1
    return "".join(out)


def pattern_matches(pattern: str, is_regex: bool, t: Template, share: float = 0.5) -> bool:
    """``occurs_in`` for a test's expected text (a regex when ``is_regex``)."""
    if not is_regex:
        return occurs_in(pattern, t, share)
    plain = literal_of(pattern)
    if plain is not None:
        return occurs_in(plain, t, share)
    # A real regex: each literal run of it must occur, in order, in the message.
    runs = _runs(pattern)
    return bool(runs) and all(occurs_in(r, t, share) for r in runs)


@lru_cache(maxsize=4096)
def _runs(pattern: str) -> tuple[str, ...]:
    return tuple(r for r in re.split(r"(?:\\.|[.^$*+?{}\[\]|()])+", pattern) if len(r.strip()) >= 4)


def literal_runs(pattern: str) -> tuple[str, ...]:
    """The literal runs (4+ characters) of a real regex, in order."""
    return _runs(pattern)


def pins(pattern: str, is_regex: bool, t: Template) -> bool:
    """Whether a test's expected text pins this message, not only a word that
    other messages share: at least half its literal text, or 12 characters."""
    plain = literal_of(pattern) if is_regex else pattern
    size = len(plain) if plain is not None else sum(len(r) for r in literal_runs(pattern))
    literal = sum(len(c) for c in t.chunks())
    return size >= min(12, (literal + 1) // 2)
