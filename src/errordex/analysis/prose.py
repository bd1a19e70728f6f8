"""The repository's own prose: README and ``docs/`` pages (pure).

A page's "what it means" may quote what the maintainers wrote about an
error: a line of their docs that gives its message, or that names the
public call it comes from together with what fails. A doc file is read as
lines (``lines``); ``Prose`` finds the ones that mention a phrase.

    >>> is_doc("docs/errors.md"), is_doc("README.rst"), is_doc("src/a.md")
    (True, True, False)
    >>> is_doc("axum/src/docs/routing/route.md"), is_doc("docs/CHANGELOG.md")
    (True, False)
    >>> p = Prose([("README.md", 3, "Calling `area` raises ValueError on a negative size.")])
    >>> p.mentioning("negative size")
    [('README.md', 3, 'Calling `area` raises ValueError on a negative size.')]
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable

_SUFFIXES = (".md", ".markdown", ".rst")
#: an intro of fewer words says nothing of the error it shows
MIN_INTRO_WORDS = 6
#: a line that reads as code, not prose (an assignment, a `def`, a `return`)
_CODE_LIKE = re.compile(r"(?<![=!<>])=(?!=)|\bdef\s+\w+\(|\breturn\b|[{};]\s*$")
#: prose that tells what changed, not what an error means
_NOT_DOCS = re.compile(
    r"(changelog|changes|history|news|release|whats-?new|migrat|contributing|code_of_conduct)",
    re.I,
)
#: a line longer than this is cut (a table row, a paragraph on one line)
MAX_LINE = 400
_WORD = re.compile(r"[a-z][a-z0-9_]{3,}")
#: a line of a code block that is an error as printed
_PRINTED = re.compile(r"^(error\b|Error\b|thread '|panicked|[\w.]*(Error|Exception)\b:)")
#: the end of a sentence: a stop (not in ``e.g.`` or a name like ``x.y``) before a space
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[.!?]\s+(?=[A-Z`*(\[])|$")
#: a heading that opens what a Rust doc says of failure (kept however short)
SECTION = re.compile(r"^#+\s*(Panics|Errors)\s*$")
#: a line of markup only: a fence, a rule, a table border, a directive
_MARKUP = re.compile(r"^\s*(```|~~~|[-=*_#|+:]{3,}\s*$|\.\. [\w-]+::|</?\w+[^>]*>\s*$)")


def is_doc(path: str) -> bool:
    """A README anywhere, or a prose file in a ``docs/`` or ``doc/``
    directory (axum keeps its method docs in ``axum/src/docs/``) or a book
    (``burn-book/``, ``candle-book/``)."""
    *dirs, name = path.split("/")
    if not name.lower().endswith(_SUFFIXES) or _NOT_DOCS.search(name):
        return False
    return name.upper().startswith("README") or any(
        d in ("docs", "doc", "book") or d.endswith(("-book", "_book")) for d in dirs
    )


def lines(text: str) -> tuple[tuple[int, str], ...]:
    """The sentences of a doc worth quoting, each with the line it starts
    on: a paragraph's lines are joined first, so a sentence (or a message)
    wrapped over two lines is found whole. Code blocks stay line by line.

        >>> lines("Intro.\\n\\n`MergeError` is raised\\nif values differ. Then more text here.")
        ((3, '`MergeError` is raised if values differ.'), (4, 'Then more text here.'))
    """
    out: list[tuple[int, str]] = []
    para: list[tuple[int, str]] = []
    fenced = False

    def flush() -> None:
        if not para:
            return
        joined = " ".join(t for _, t in para)
        # where each joined line starts, to number a sentence by its first line
        starts: list[tuple[int, int]] = []
        at = 0
        for n, t in para:
            starts.append((at, n))
            at += len(t) + 1
        pos = 0
        for m in _SENTENCE_END.finditer(joined + " "):
            sentence = joined[pos : m.end()].strip()
            line = max(n for a, n in starts if a <= pos) if starts else para[0][0]
            if len(sentence) >= 12:
                out.append((line, sentence[:MAX_LINE]))
            pos = m.end()
        para.clear()

    for n, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if s.startswith(("```", "~~~")):
            flush()
            fenced = not fenced
            continue
        if fenced:
            # a code sample's line is the library's code, not what it says;
            # a printed error in one is
            if len(s) >= 12 and _PRINTED.match(s):
                out.append((n, s[:MAX_LINE]))
            continue
        if not s or _MARKUP.match(s) or s.startswith("#"):
            flush()
            if s.startswith("#") and (len(s) >= 12 or SECTION.match(s)):
                out.append((n, s[:MAX_LINE]))
            continue
        para.append((n, s))
    flush()
    return tuple(out)


class Prose:
    """The doc lines of a snapshot, found by the words they hold."""

    def __init__(self, found: Iterable[tuple[str, int, str]]) -> None:
        self.lines = list(found)
        self.by_word: dict[str, list[int]] = defaultdict(list)
        #: a doc file's lines, as positions in ``lines``
        self.by_path: dict[str, list[int]] = defaultdict(list)
        for i, (path, _, text) in enumerate(self.lines):
            self.by_path[path].append(i)
            for w in set(_WORD.findall(text.lower())):
                self.by_word[w].append(i)

    def mentioning(self, phrase: str, limit: int = 5) -> list[tuple[str, int, str]]:
        """The lines that hold ``phrase`` (case aside), in file order."""
        return [self.lines[i] for i in self.at(phrase, limit)]

    def at(self, phrase: str, limit: int = 5) -> list[int]:
        """Where ``mentioning``'s lines are in ``lines``."""
        want = phrase.lower()
        words = set(_WORD.findall(want))
        if not words:
            return []
        rarest = min(words, key=lambda w: len(self.by_word.get(w, ())))
        out = []
        for i in self.by_word.get(rarest, ()):
            if want in self.lines[i][2].lower():
                out.append(i)
                if len(out) >= limit:
                    break
        return out

    def sections(self, path: str) -> list[tuple[str, int, str]]:
        """The ``# Panics`` and ``# Errors`` sections of a doc file that a
        function's docs are read from: (section, line, text)."""
        out: list[tuple[str, int, str]] = []
        section = ""
        for i in self.by_path.get(path, ()):
            _, line, text = self.lines[i]
            if text.startswith("#"):
                m = SECTION.match(text)
                section = m.group(1) if m else ""
            elif section:
                out.append((section, line, text))
        return out

    def before(
        self, path: str, line: int, skip: Callable[[str], bool], within: int = 5
    ) -> tuple[int, str, int] | None:
        """The sentences of ``path`` that end just before ``line`` (up to
        two, starting at most ``within`` lines above it), joined, with the
        line of the first and the line the message's own sentences (which
        ``skip`` says, passed over first) start on. What a doc says to introduce an error it shows
        ("… by showing an error if setup-related methods are called after
        requests are handled. In that case you'll see this error:")."""
        earlier = [i for i in self.by_path.get(path, []) if self.lines[i][1] < line]
        while earlier and skip(self.lines[earlier[-1]][2]):
            line = self.lines[earlier.pop()][1]
        got = [self.lines[i] for i in earlier[-2:] if line - self.lines[i][1] <= within]
        # an indented code sample (reST's `::` blocks) is read as prose: not an intro
        if not got or any(_CODE_LIKE.search(t) for _, _, t in got):
            return None
        text = " ".join(t for _, _, t in got).rstrip(" :")
        if len(text.split()) < MIN_INTRO_WORDS:
            return None  # "For example": says nothing of the error
        return got[0][1], text, line

    def with_next(self, i: int) -> tuple[str, int, str]:
        """Line ``i`` and the sentence after it, when that one follows in the
        same file within two lines (``merge`` is non-destructive. `MergeError`
        is raised if…)."""
        path, line, text = self.lines[i]
        if i + 1 < len(self.lines):
            p2, l2, t2 = self.lines[i + 1]
            if p2 == path and l2 - line <= 2:
                return path, line, f"{text} {t2}"[: 2 * MAX_LINE]
        return path, line, text
