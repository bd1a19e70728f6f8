"""Compile a Template into a matcher for the text a user pasted.

    >>> from errordex.template import Hole, Template, Text
    >>> m = compile_template(Template.of("py-percent", Text("expected "), Hole("n", "%d"), Text(" items")))
    >>> r = m.match("expected 20 items")
    >>> [(h.expr, v) for h, v in r.values]
    [('n', '20')]

The matcher is not a regex. A template is a row of literal chunks with groups
of placeholders between them (adjacent placeholders are merged into one
group). Matching finds each chunk with ``str.find``, left to right. A group
that takes free text can absorb anything, so the leftmost place of the chunk
before it is always the right one. Only typed groups (``%d``, ``{:?}``, ...)
make the search try later places, and the number of tries is capped, so a
template of forty ``%s`` against a 100 KB message stays linear.

Whitespace is normalized on both sides (any run of whitespace is one space),
so a message that wrapped onto several lines still matches.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from errordex.template import Hole, Template, Text

__all__ = [
    "MAX_ATTEMPTS",
    "HoleKind",
    "MatchResult",
    "MatchStats",
    "Matcher",
    "compile_template",
    "hole_kind",
    "normalize",
]

#: How many places for the literal chunks one match call may try.
MAX_ATTEMPTS = 256
#: A group of several typed holes is split with a small regex, only over this much text.
_SPLIT_WINDOW = 256

HoleKind = Literal["text", "path", "int", "float", "hex", "repr", "quoted"]

_PERCENT = re.compile(
    r"%(?:\[\d+\])?(?:\([^)]*\))?[#0\- +']*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlLqjzt]*([a-zA-Z%])"
)
_PATH_NAME = re.compile(r"(?:^|[_.])(?:path|file|filename|dir|directory|folder)s?(?:\(\))?$", re.I)

_PATH_VIEW = re.compile(r"(?:\.(?:display|to_string_lossy|to_str|as_ref|unwrap)\(\))+$")

_INT = r"[-+]?\d[\d,_]*"
_FLOAT = (
    r"[-+]?(?:\d[\d,_]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?%?"
    r"|[-+]?(?:[iI]nf(?:inity)?|INF|[nN]a[nN]|NAN)"
)
_HEX = r"[-+]?(?:0[xXbBoO])?[0-9a-fA-F_]+"
_QUOTED = r"\"(?:[^\"\\]|\\.)*\"|`[^`]*`|'(?:[^'\\]|\\.)*'"
_PATTERNS: dict[HoleKind, str] = {
    "text": r".*?",
    "path": r".+?",
    "int": _INT,
    "float": _FLOAT,
    "hex": _HEX,
    "quoted": _QUOTED,
    "repr": r".+?",
}
_FULL: dict[HoleKind, re.Pattern[str]] = {k: re.compile(v) for k, v in _PATTERNS.items()}

_PERCENT_KIND: dict[str, HoleKind] = {
    "d": "int",
    "i": "int",
    "u": "int",
    "o": "int",
    "b": "int",
    "f": "float",
    "F": "float",
    "e": "float",
    "E": "float",
    "g": "float",
    "G": "float",
    "x": "hex",
    "X": "hex",
    "p": "hex",
    "r": "repr",
    "a": "repr",
    "q": "quoted",
}
_FORMAT_KIND: dict[str, HoleKind] = {
    "?": "repr",
    "d": "int",
    "n": "int",
    "o": "int",
    "b": "int",
    "f": "float",
    "F": "float",
    "e": "float",
    "E": "float",
    "g": "float",
    "G": "float",
    "x": "hex",
    "X": "hex",
}


def hole_kind(hole: Hole) -> HoleKind:
    """What text a placeholder can produce, read from its spec.

    >>> hole_kind(Hole("", "{:?}")), hole_kind(Hole("n", "%5d")), hole_kind(Hole("x", "{x!r}"))
    ('repr', 'int', 'repr')
    """
    spec = hole.spec
    kind: HoleKind = "text"
    if spec.startswith("%"):
        m = _PERCENT.fullmatch(spec)
        if m:
            conv = m.group(1)
            if conv == "v" and spec.startswith("%#"):
                kind = "repr"  # Go-syntax representation
            else:
                kind = _PERCENT_KIND.get(conv, "text")
    elif spec.startswith("{") and spec.endswith("}") and not spec.startswith("${"):
        inner = spec[1:-1]
        conv_m = re.search(r"!([rsa])(?::[^:]*)?$", inner)
        fmt = inner.rsplit(":", 1)[1] if ":" in inner else ""
        if conv_m and conv_m.group(1) in "ra":
            kind = "repr"
        elif fmt and not inner.rstrip(":").endswith("="):
            kind = _FORMAT_KIND.get(fmt[-1], "text")
            if fmt.endswith("?") or fmt.endswith("x?") or fmt.endswith("X?"):
                kind = "repr"
    if kind == "text" and _PATH_NAME.search(_PATH_VIEW.sub("", hole.expr.strip())):
        kind = "path"
    return kind


def normalize(message: str) -> str:
    """Whitespace runs become one space; the ends are stripped."""
    global _last_norm
    last = _last_norm
    if last[0] is message:  # explain matches one message against many templates
        return last[1]
    out = " ".join(message.split())
    _last_norm = (message, out)
    return out


_last_norm: tuple[str, str] = ("", "")


def _collapse(text: str) -> str:
    """Whitespace runs become one space; an edge that was whitespace stays one space."""
    words = text.split()
    if not words:
        return " " if text else ""
    lead = " " if text[0].isspace() else ""
    trail = " " if text[-1].isspace() else ""
    return lead + " ".join(words) + trail


def _balanced(value: str) -> bool:
    """Debug/repr output: quotes closed, brackets balanced, not empty."""
    if not value:
        return False
    closers = {")": "(", "]": "[", "}": "{"}
    stack: list[str] = []
    i, n = 0, len(value)
    while i < n:
        c = value[i]
        if c == '"' or (c == "'" and (i == 0 or not value[i - 1].isalnum())):
            j = i + 1
            while j < n and value[j] != c:
                j += 2 if value[j] == "\\" else 1
            if j >= n:
                # an apostrophe inside a word-ish value ("it's") is not a quote
                if c == "'":
                    i += 1
                    continue
                return False
            i = j + 1
            continue
        if c in "([{":
            stack.append(c)
        elif c in closers and (not stack or stack.pop() != closers[c]):
            return False
        i += 1
    return not stack


def _check(kind: HoleKind, value: str) -> bool:
    if kind == "text":
        return True
    v = value.strip()
    if kind == "path":
        return bool(v)
    if kind == "repr":
        return _balanced(v)
    return _FULL[kind].fullmatch(v) is not None


@dataclass
class MatchStats:
    """Work counters of match calls (for tests and benchmarks; not timing)."""

    calls: int = 0
    attempts: int = 0  # places tried for a literal chunk
    finds: int = 0  # str.find calls
    checks: int = 0  # placeholder values validated
    exhausted: int = 0  # calls that stopped at the attempt cap


@dataclass(frozen=True)
class MatchResult:
    """A verified match of a message against a template.

    ``constant_chars`` counts the non-space characters of the message that are
    the template's literal text; ``message_chars`` counts all of them.
    ``partial`` is True when the template only matched a part of the message
    (text before or after it that the template does not explain).
    """

    values: tuple[tuple[Hole, str], ...]
    constant_chars: int
    message_chars: int
    partial: bool = False

    @property
    def coverage(self) -> float:
        """Fraction of the message that is the template's constant text."""
        if self.message_chars == 0:
            return 1.0 if self.constant_chars == 0 else 0.0
        return min(1.0, self.constant_chars / self.message_chars)


@dataclass(frozen=True)
class _Group:
    holes: tuple[Hole, ...]
    kinds: tuple[HoleKind, ...]
    split: re.Pattern[str] | None

    @property
    def absorbs_prefix(self) -> bool:
        """True when any text may be added in front of a valid value."""
        return self.kinds[0] == "text" or (self.kinds[0] == "path" and len(self.kinds) == 1)

    def fit(self, region: str, stats: MatchStats) -> list[str] | None:
        """The values of the holes for this region, or None if they cannot produce it."""
        stats.checks += 1
        if len(self.holes) == 1:
            return [region.strip()] if _check(self.kinds[0], region) else None
        if all(k == "text" for k in self.kinds):
            # unknowable split: the whole region goes to the first hole
            return [region.strip()] + [""] * (len(self.holes) - 1)
        region = region.strip()
        if self.split is not None and len(region) <= _SPLIT_WINDOW:
            m = self.split.fullmatch(region)
            if m:
                vals = [g.strip() for g in m.groups()]
                if all(_check(k, v) for k, v in zip(self.kinds, vals, strict=True)):
                    return vals
        if any(k == "text" for k in self.kinds):
            return [region] + [""] * (len(self.holes) - 1)
        return None


def _make_group(holes: list[Hole]) -> _Group:
    kinds = tuple(hole_kind(h) for h in holes)
    split: re.Pattern[str] | None = None
    if len(holes) > 1:
        split = re.compile("".join(f"(\\s*(?:{_PATTERNS[k]})\\s*)" for k in kinds), re.S)
    return _Group(tuple(holes), kinds, split)


class Matcher:
    """A compiled template. ``match`` is safe on any input and bounded in work."""

    def __init__(self, template: Template) -> None:
        self.template = template
        lits: list[str] = [" "]
        groups: list[_Group] = []
        pending: list[Hole] = []
        for p in template.parts:
            if isinstance(p, Text):
                if pending:
                    groups.append(_make_group(pending))
                    pending = []
                    lits.append("")
                lits[-1] += p.text
            else:
                pending.append(p)
        if pending:
            groups.append(_make_group(pending))
            lits.append("")
        lits[-1] += " "
        self._lits = [_collapse(s) for s in lits]
        self._groups = groups
        self._needles = [s.strip() for s in self._lits if s.strip()]
        #: non-space characters of literal text
        self.constant_chars = sum(len(s) - s.count(" ") for s in self._lits)
        #: False when the template cannot match by its text (dynamic or empty)
        self.textual = not template.dynamic and not template.is_empty and self.constant_chars > 0
        #: True when the literal text has a word (a letter or a digit) of its own:
        #: ``{msg} ({e.strerror})`` and ``{a}: {b}`` have only punctuation, which
        #: nearly any text matches
        self.worded = any(ch.isalnum() for lit in self._lits for ch in lit)

    @property
    def hole_count(self) -> int:
        return sum(len(g.holes) for g in self._groups)

    def match(
        self,
        message: str,
        *,
        partial: bool = False,
        stats: MatchStats | None = None,
        max_attempts: int = MAX_ATTEMPTS,
    ) -> MatchResult | None:
        """Match the whole message (or, with ``partial``, a part of it)."""
        st = stats if stats is not None else MatchStats()
        st.calls += 1
        if not self.textual:
            return None
        norm = normalize(message)
        if any(n not in norm for n in self._needles):
            return None
        msg = " " + norm + " "
        lits = list(self._lits)
        if partial:
            lits[0] = lits[0].lstrip()
            lits[-1] = lits[-1].rstrip()
        run = _Run(msg, lits, self._groups, partial, st, max_attempts)
        found = run.solve()
        if found is None:
            return None
        values, start, end = found
        pairs = tuple(
            (h, v)
            for g, vs in zip(self._groups, values, strict=True)
            for h, v in zip(g.holes, vs, strict=True)
        )
        message_chars = len(norm) - norm.count(" ")
        covered_partial = partial and (msg[:start].strip() != "" or msg[end:].strip() != "")
        return MatchResult(
            values=pairs,
            constant_chars=self.constant_chars,
            message_chars=message_chars,
            partial=covered_partial,
        )


@dataclass
class _Run:
    """One match call: a depth-first search over the places of each chunk."""

    msg: str
    lits: list[str]
    groups: list[_Group]
    partial: bool
    stats: MatchStats
    max_attempts: int
    attempts: int = 0
    start: int = 0

    def solve(self) -> tuple[list[list[str]], int, int] | None:
        msg, first = self.msg, self.lits[0]
        starts: Iterable[int]
        if not self.partial:
            whole = msg == first if len(self.lits) == 1 else msg.startswith(first)
            starts = [0] if whole else []
        elif first:
            starts = self._occurrences(first, 0)
        else:
            starts = [1]  # a leading group in partial mode starts at the text
        for s in starts:
            self.start = s
            res = self._place(1, s + len(first))
            if res is not None:
                return res[0], self.start, res[1]
            if self.attempts >= self.max_attempts:
                break
            if not self.groups or self.groups[0].absorbs_prefix:
                break  # a later place cannot do better
        return None

    def _occurrences(self, needle: str, start: int) -> Iterator[int]:
        """The places of a needle from ``start`` on, found lazily."""
        msg, i = self.msg, start
        while self.attempts < self.max_attempts:
            self.stats.finds += 1
            i = msg.find(needle, i)
            if i < 0:
                return
            yield i
            i += 1

    def _place(self, k: int, pos: int) -> tuple[list[list[str]], int] | None:
        """Place literal k (after group k-1, whose text starts at pos)."""
        if k >= len(self.lits):
            return [], pos
        msg, lit, group = self.msg, self.lits[k], self.groups[k - 1]
        last = k == len(self.lits) - 1
        # "a {} b" with an empty value reads "a b": the two spaces are one;
        # not for a value that opens the message, where the space before it
        # is the match's own padding (``{code} {self.name}: …`` against
        # ``403 Forbidden: …`` takes ``403``, not an empty code)
        shortcut = lit.startswith(" ") and msg[pos - 1 : pos] == " "
        padded = shortcut and k == 1 and not self.lits[0].strip()
        start = pos - 1 if shortcut else pos
        ends: Iterable[int]
        if last and not self.partial:
            e = len(msg) - len(lit)
            ends = [e] if e >= start and msg.endswith(lit) else []
        elif last and not lit:
            ends = _trailing_ends(msg, pos, group)
        elif padded:
            # a value first, then the empty one (``{} is bad`` against ``is bad``)
            empty = [start] if msg.startswith(lit, start) else []
            ends = itertools.chain(self._occurrences(lit, pos), empty)
        else:
            ends = self._occurrences(lit, start)
        lead = self.partial and k == 1 and not self.lits[0] and not group.absorbs_prefix
        for e in ends:
            self.attempts += 1
            self.stats.attempts += 1
            region = msg[pos : max(pos, e)]
            if lead:
                cut = _shortest_valid_tail(region, group, self.stats)
                self.start = pos + len(region) - len(cut)
                region = cut
            vals = group.fit(region, self.stats)
            if vals is not None:
                rest = self._place(k + 1, e + len(lit))
                if rest is not None:
                    return [vals, *rest[0]], rest[1]
                nxt = self.groups[k] if k < len(self.groups) else None
                if nxt is None or nxt.absorbs_prefix:
                    return None  # a later place cannot do better
            if self.attempts >= self.max_attempts:
                self.stats.exhausted += 1
                return None
        return None


def _trailing_ends(msg: str, pos: int, group: _Group) -> list[int]:
    """Partial mode, template ending in holes: where the last group can end."""
    if group.absorbs_prefix and group.kinds[-1] in ("text", "path"):
        return [len(msg)]
    # typed tail: try word boundaries, longest first, a few of them
    spaces = [i for i in range(pos, min(len(msg), pos + _SPLIT_WINDOW)) if msg[i] == " "]
    return [len(msg), *reversed(spaces)][:9]


def _shortest_valid_tail(region: str, group: _Group, stats: MatchStats) -> str:
    """Partial mode, template starting with a typed group: drop leading words."""
    if group.fit(region, stats) is not None:
        return region
    cut = region
    for _ in range(8):
        i = cut.find(" ", 1)
        if i < 0:
            break
        cut = cut[i:]
        if group.fit(cut, stats) is not None:
            return cut
    return region


def compile_template(t: Template) -> Matcher:
    """Compile a template into a Matcher (cheap: no regex for single holes)."""
    return Matcher(t)
