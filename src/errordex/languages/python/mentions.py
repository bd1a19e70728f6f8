"""The parts of a docstring, outside its Raises section, that say the
function raises a named exception (pure).

A public function often documents an error where it documents the argument
that leads to it, not under "Raises" (click's ``get_current_context``:
":param silent: … The default behavior is to raise a :exc:`RuntimeError`.").
Each paragraph or list item is one piece, so a parameter's description is
quoted whole, with the parameter it is about.
"""

from __future__ import annotations

import re

from errordex.analysis.evidence import DocLine

#: the verb: the piece says something is raised
_RAISE = re.compile(r"\brais(?:e[sd]?|ing)\b", re.I)
#: an exception class named in the piece (the entry's own is checked later)
_CLASS = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Warning|Exit)\b")
#: an item's head: `:param x:`, numpydoc `x : int`, Google `x (int):` / `x:`
_ITEM = re.compile(
    r"^\s*(?::\w+(?:\s+[\w.]+)*:|\*{0,2}\w+(?:\s*,\s*\*{0,2}\w+)*\s*(?:\([^)]*\))?\s*:)(?:\s|$)"
)
#: a section heading (numpydoc's underline, Google's `Args:`)
_HEADING = re.compile(r"^\s*(?:-{3,}|={3,}|[A-Z][A-Za-z ]*:)\s*$")
#: sections whose text is code or the Raises list itself (read apart)
_SKIPPED = re.compile(r"^\s*(Raises|Examples?|Example usage)\s*:?\s*$")
#: a quoted piece is cut to this many characters, at a sentence
MAX_PIECE = 400


def mentions(text: str, start: int) -> list[DocLine]:
    """Each paragraph or item of the docstring ``text`` (whose first line is
    line ``start``) that says an exception class is raised, as a
    "Docstring" line, outside the Raises and Examples sections and code.

    >>> doc = '''Return the context.
    ...
    ...     :param silent: if set to `True` the return value is `None`.
    ...                    The default behavior is to raise a
    ...                    :exc:`RuntimeError`.
    ...     :param other: unrelated.
    ...     '''
    >>> [(d.line, d.text) for d in mentions(doc, 10)]
    [(12, '`silent`: if set to `True` the return value is `None`. The default behavior is to raise a `RuntimeError`.')]
    >>> mentions("Raise it.\\n\\nRaises\\n------\\nValueError\\n    If bad.", 1)
    []
    """
    if not _RAISE.search(text):
        return []  # most docstrings
    out: list[DocLine] = []
    piece: list[str] = []
    head = 0
    indent = -1
    skipping = False

    def flush() -> None:
        joined = _plain(" ".join(piece).strip().strip("\"'").strip())
        piece.clear()
        if joined and _RAISE.search(joined) and _CLASS.search(joined):
            out.append(DocLine("Docstring", _cut(joined), start + head))

    lines = text.splitlines()
    for i, raw in enumerate(lines):
        line = raw.strip().strip("\"'") if i in (0, len(lines) - 1) else raw.strip()
        if i == 0:
            line = re.sub(r'^[rRbBuU]{0,2}("""|\'\'\'|"|\')', "", raw).strip()
        at = len(raw) - len(raw.lstrip())
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        heading = _HEADING.match(raw) or (nxt and set(nxt) <= {"-", "="} and len(nxt) >= 3)
        if heading:
            flush()
            if not set(line) <= {"-", "="}:
                skipping = bool(_SKIPPED.match(raw))
            continue
        if not line or line.startswith((">>>", "...", ".. ")):
            flush()
            continue
        if skipping:
            continue
        # a new item, or the next one at the indent of this one's head
        if piece and (at < indent or (at == indent and _ITEM.match(raw))):
            flush()
        if not piece:
            head, indent = i, at
        piece.append(line)
    flush()
    return out


#: Sphinx's markup, as a reader of the rendered docs sees it
_ROLE = re.compile(r":(?:py:)?(?:exc|class|func|meth|attr|obj|data|mod|const):`~?\.?([^`]+)`")
_FIELD = re.compile(r"^:(?:param|arg|argument|key|keyword)\s+(?:[\w.\[\], ]+\s+)?(\w+):")


def _plain(text: str) -> str:
    """``:param x: … :exc:`E` …`` -> ```x`: … `E` …``, one space between words."""
    text = _FIELD.sub(r"`\1`:", _ROLE.sub(r"`\1`", text))
    return " ".join(text.split())


def _cut(text: str) -> str:
    """``text`` cut after the sentence that raises, when it is long."""
    if len(text) <= MAX_PIECE:
        return text
    m = _RAISE.search(text)
    end = text.find(". ", m.end() if m else 0)
    return text if end < 0 or end > MAX_PIECE * 2 else text[: end + 1]
