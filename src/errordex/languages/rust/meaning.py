"""What a Rust error means, from the code that leads to its lead site (pure).

A ``bail!("input cos has to be contiguous")`` has no doc of its own; what it
means is the state the code is in when it gets there: the arms of the
``match`` it sits in, the ``if`` or ``let … else`` it is the failing branch
of, the ``#[cfg]`` it is compiled under, and which of the message's
placeholders show a value that check read or that arm bound. Each clause is
the site's own guard, with its line as evidence; nothing is said that holds
for every error (``bail!`` returns early, ``?`` propagates).

    >>> from errordex.model import Guard
    >>> clauses([Guard("match-arm", "None", 41)], "panic")
    ['the value its `match` reads at line 41 is `None`']
    >>> clauses([Guard("else", "let Object::List(d) = pylist", 518)], "bail")
    ['`pylist` is not `Object::List(d)` (line 518)']
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from errordex.analysis.fixes import Fixes
from errordex.model import Guard
from errordex.template import Hole

#: Kinds of site that panic (``fixes.PANICKING``).
_PANICS = ("panic", "unimplemented", "todo", "unreachable", "assert", "expect")
_LET = re.compile(r"let\s+(.+?)\s*=\s*(.+)", re.DOTALL)
_IDENT = re.compile(r"[A-Za-z_]\w*")
#: Clauses written in one sentence, the innermost last.
MAX_CLAUSES = 3


def clauses(guards: Sequence[Guard], kind: str) -> list[str]:
    """When the site is reached, one clause per guard, outermost first: the
    arms it sits in, then the condition it is the failing or taken branch of."""
    out: list[str] = []
    for g in guards:
        text = " ".join(g.text.split())
        if not text:
            continue
        if g.kind == "match-arm" and text != "_" and not g.siblings:
            out.append(f"the value its `match` reads at line {g.line} is `{text}`")
        elif g.kind in ("if", "elif"):
            m = _LET.fullmatch(text)
            if m is not None:
                out.append(f"`{m.group(2)}` is `{m.group(1)}` (line {g.line})")
            else:
                out.append(f"`{text}` holds (line {g.line})")
        elif g.kind in ("else", "assert"):
            m = _LET.fullmatch(text)
            if m is not None:
                out.append(f"`{m.group(2)}` is not `{m.group(1)}` (line {g.line})")
            elif kind == "assert" and g.kind == "assert":
                out.append(f"`{text}` is false")
            else:
                out.append(f"`{text}` is false (line {g.line})")
    return out[-MAX_CLAUSES:]


def _shown(w: Fixes, guards: Sequence[Guard]) -> list[str]:
    """The message's placeholders whose value a guard reads or an arm binds."""
    read: set[str] = set()
    for g in guards:
        if g.kind in ("match-arm", "if", "elif", "else", "assert"):
            read.update(_IDENT.findall(g.text))
    out: list[str] = []
    for h in w.e.template.holes:
        if not isinstance(h, Hole) or not h.expr:
            continue
        names = set(_IDENT.findall(h.expr)) - {"self"}
        if names and names <= read and h.expr not in out:
            out.append(h.expr)
    return out


def _documented(w: Fixes) -> bool:
    """Whether the page quotes docs that say when it fails: a ``# Panics`` or
    ``# Errors`` line about this error (a call's summary says what it does,
    not when it fails)."""
    return bool(w.contract())


def notes(w: Fixes) -> list[tuple[str, list[str]]]:
    """What reaching the lead site means, as its guards say."""
    if _documented(w):
        return []  # the docs say what it means, in the library's words
    lead = w.lead
    guards = [g for g in lead.guards if g.kind in ("match-arm", "if", "elif", "else", "assert")]
    said = clauses(guards, lead.kind)
    if not said:
        return []
    verb = "panics" if lead.kind in _PANICS else "returns this error"
    where = [f"{lead.path}:{g.line}" for g in guards]
    text = f"{w.fn_name()} {verb} at {lead.path}:{lead.line} when " + " and ".join(said) + "."
    shown = _shown(w, guards)
    if shown:
        names = ", ".join(f"`{x}`" for x in shown)
        text += (
            f" The message shows {names}: the value{'s' if len(shown) > 1 else ''} checked there."
        )
    return [(text, where)]
