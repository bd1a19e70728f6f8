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
from collections.abc import Callable
from functools import lru_cache

from errordex.template import Hole, Template, Text

_WILD = "\0"
_META = re.compile(r"[.^$*+?{}\[\]|()\\]")


def _pattern_text(t: Template) -> str:
    return "".join(p.text if isinstance(p, Text) else _WILD for p in t.parts)


def occurs_in(expected: str, t: Template, share: float = 0.5) -> bool:
    """Whether ``expected`` is a substring of a message ``t`` can print, with
    ``share`` of it (at least) matched by literal text (a placeholder alone
    proves nothing)."""
    return Message(t).occurs(expected, share)


class Message:
    """The messages one template can print, read once to check many tests'
    expected texts against (each distinct check is worked out once).

        >>> from errordex.template import Template, Text, Hole
        >>> m = Message(Template.of("rust-fmt", Text("index "), Hole("i", "{i}"), Text(" out")))
        >>> m.matches("^index 7 out$", True), m.matches("in range", False)
        (True, False)
    """

    __slots__ = ("_done", "_parts", "_text")

    def __init__(self, t: Template) -> None:
        #: the literal text with ``_WILD`` for each placeholder (None: nothing to match)
        self._text = None if t.dynamic or t.is_empty else _pattern_text(t)
        #: the literal parts between placeholders
        self._parts = [p for p in self._text.split(_WILD) if p] if self._text else []
        self._done: dict[tuple[str, bool, float], bool] = {}

    def matches(self, pattern: str, is_regex: bool, share: float = 0.5) -> bool:
        """``pattern_matches`` for this template."""
        key = (pattern, is_regex, share)
        got = self._done.get(key)
        if got is None:
            got = self._done[key] = self._matches(pattern, is_regex, share)
        return got

    def _matches(self, pattern: str, is_regex: bool, share: float) -> bool:
        if not is_regex:
            return self.occurs(pattern, share)
        plain = literal_of(pattern)
        if plain is not None:
            return self.occurs(plain, share)
        dotted = _dotted(pattern)
        if dotted is not None:
            # `match="Invalid input."`: a sentence whose dot was left
            # unescaped means the text, not "any character" (it would also
            # match "Invalid input type.", another message)
            return self.occurs(dotted, share)
        # A real regex: each literal run of it must occur, in order, in the message.
        runs = _runs(pattern)
        return bool(runs) and all(self.occurs(r, share) for r in runs)

    def whole(self, printed: str) -> bool:
        """Whether ``printed`` is a whole message this template prints (a
        documented example's output is all of it, not a part: attrs' "'x'
        must be <= 42: 43" is the ``le`` validator's, not "Length of …").

            >>> from errordex.template import Template, Text, Hole
            >>> m = Message(Template.of("py-f", Text("Length of "), Hole("n", "{n}"), Text(" big")))
            >>> m.whole("Length of 'x' big"), m.whole("'x' big")
            (True, False)
        """
        if self._text is None:
            return False
        return _glob_whole(self._text.split(_WILD), printed.strip())

    def occurs(self, expected: str, share: float = 0.5) -> bool:
        """``occurs_in`` for this template."""
        r = self._text
        if r is None or not expected.strip():
            return False
        if _WILD not in r:
            # All literal: every surviving state matched each character of ``expected``.
            return expected in r
        size = len(expected.strip())
        need = min(max(4, math.ceil(size * share)), size)
        if self._most_literal(expected) < need:
            return False
        return self._literal_count(expected) >= need

    def literal_in(self, pattern: str, is_regex: bool) -> int:
        """How many characters of a test's expected text this template prints
        as literal text where it matches (the rest taken by placeholders), or
        -1 where it does not match: of two messages that match "Not a valid
        integer.", "Not a valid integer." prints all 20 and "Not a valid
        {awareness} {obj_type}." 13, so the test expects the first.

            >>> from errordex.template import Template, Text, Hole
            >>> n = Message(Template.of("py-f", Text("Not a valid "), Hole("a", "{a}"), Text(".")))
            >>> n.literal_in("Not a valid integer.", False), n.literal_in("Oops", False)
            (13, -1)
        """
        if not self.matches(pattern, is_regex):
            return -1
        plain = literal_of(pattern) if is_regex else pattern
        if plain is None and is_regex:
            plain = _dotted(pattern)
        texts = (plain,) if plain is not None else _runs(pattern)
        if self._text is not None and _WILD not in self._text:
            return sum(len(t) for t in texts)
        return sum(max(self._literal_count(t), 0) for t in texts)

    def _literal_count(self, expected: str) -> int:
        """The most literal characters of a match of ``expected`` inside a
        message (a template with placeholders), or -1 when none matches."""
        r = self._text
        if r is None or not expected:
            return -1
        n = len(r)
        # state: position in r -> most literal characters matched so far.
        # Every position starts at 0; after the first character, the states are
        # the placeholders (which took it) and the places right after it.
        first = expected[0]
        cur: dict[int, int] = dict.fromkeys(_positions(r, _WILD), 0)
        if first != _WILD:
            cur.update(dict.fromkeys((j + 1 for j in _positions(r, first)), 1))
        if not cur:
            return -1
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
                return -1
            cur = _close(nxt, r)
        return max(cur.values())

    def _most_literal(self, expected: str) -> int:
        """A quick upper bound on the literal characters a match of
        ``expected`` has: a match takes the end of one literal part, then
        whole parts, then the start of another; so at most the longest start
        of ``expected`` found in the text, the longest end, and each part that
        occurs in it whole."""
        r = self._text or ""
        start = _longest(lambda n: expected[:n] in r, len(expected))
        end = _longest(lambda n: expected[len(expected) - n :] in r, len(expected))
        return start + end + sum(len(p) for p in self._parts if p in expected)


def _longest(found: Callable[[int], bool], most: int) -> int:
    """The largest n <= ``most`` with ``found(n)``, for a ``found`` that holds
    up to some n and not after (a binary search)."""
    lo, hi = 0, most
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if found(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


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


def _dotted(regex: str) -> str | None:
    """The text of a regex whose only operator is an unescaped ``.`` between
    or after words (a sentence written as a pattern), else None.

    >>> _dotted("Invalid input."), _dotted("a.*b"), _dotted("x.y")
    ('Invalid input.', None, 'x.y')
    """
    if "." not in regex:
        return None
    return literal_of(regex.replace("\\.", "\0").replace(".", "\\.").replace("\0", "\\."))


def pattern_matches(pattern: str, is_regex: bool, t: Template, share: float = 0.5) -> bool:
    """``occurs_in`` for a test's expected text (a regex when ``is_regex``)."""
    return Message(t).matches(pattern, is_regex, share)


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


def _glob_whole(parts: list[str], text: str) -> bool:
    """Whether ``text`` is all of ``parts`` in order with anything between
    them (the regex ``.*``-joined, fullmatched with DOTALL; without
    compiling one per message): each middle part found leftmost is never
    worse than one found further on.

    >>> _glob_whole(["Length of ", " big"], "Length of 'x' big"), _glob_whole(["a", "a"], "a")
    (True, False)
    """
    first, last = parts[0], parts[-1]
    if len(parts) == 1:
        return text == first
    end = len(text) - len(last)
    if end < len(first) or not text.startswith(first) or not text.endswith(last):
        return False
    at = len(first)
    for part in parts[1:-1]:
        found = text.find(part, at, end)
        if found < 0:
            return False
        at = found + len(part)
    return True


def is_wrapper(t: Template) -> bool:
    """Whether a message prints another error's text first, then its own
    (jsonb's ``"{}, pos {}"``, an error with the position of the inner
    one): a placeholder, then at least three literal characters."""
    parts = t.parts
    if t.dynamic or len(parts) < 2 or not isinstance(parts[0], Hole):
        return False
    second = parts[1]
    return isinstance(second, Text) and len(second.text.replace(" ", "")) >= 3


def wrapped(expected: str, message: Message, wrappers: list[Template]) -> bool:
    """Whether ``expected`` is a whole message of ``message`` printed in
    the placeholder that opens one of ``wrappers`` (``is_wrapper``):
    "EOF while parsing a value, pos 1" is "EOF while parsing a value"
    inside ``"{}, pos {}"``.

        >>> from errordex.template import Template, Text, Hole
        >>> pos = Template.of("rust-fmt", Hole("code", "{}"), Text(", pos "), Hole("p", "{}"))
        >>> eof = Message(Template.literal("EOF while parsing a value"))
        >>> wrapped("EOF while parsing a value, pos 1", eof, [pos])
        True
        >>> wrapped("EOF while parsing a list, pos 1", eof, [pos])
        False
    """
    return any(message.whole(head) for head in wrapped_heads(expected, wrappers))


def wrapped_heads(expected: str, wrappers: list[Template]) -> tuple[str, ...]:
    """The texts before a wrapper's own text in ``expected`` that the
    wrapper wraps whole (``wrapped`` asks whether one is ``message``'s):
    the same for every message, so they can be worked out once per text.

        >>> from errordex.template import Template, Text, Hole
        >>> pos = Template.of("rust-fmt", Hole("code", "{}"), Text(", pos "), Hole("p", "{}"))
        >>> wrapped_heads("EOF, pos 1, pos 2", [pos])
        ('EOF', 'EOF, pos 1')
    """
    out: list[str] = []
    for w in wrappers:
        first = w.parts[1]
        assert isinstance(first, Text)
        at = expected.find(first.text)
        while at > 0:
            if _tail(w).whole(expected[at:]):
                out.append(expected[:at])
            at = expected.find(first.text, at + 1)
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=256)
def _tail(wrapper: Template) -> Message:
    """A wrapper's message after the placeholder that opens it, read once
    (each test's expected text of each entry is checked against each
    wrapper: burn's index built one per check, 15% of its CPU)."""
    return Message(Template.of(wrapper.syntax, *wrapper.parts[1:]))
