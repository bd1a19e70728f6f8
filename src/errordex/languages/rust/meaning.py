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
from errordex.analysis.sections import BUILD_CHECK
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
        if not text or BUILD_CHECK.search(text):
            continue  # a debug build's check is no condition of the call
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


#: a call whose value is an ``Option``: ``.expect`` panics on ``None``
_GIVES_OPTION = re.compile(
    r"\.(?:next|next_back|last|first|get|get_mut|pop|pop_front|pop_back|find|find_map|position"
    r"|max|min|max_by_key|min_by_key|nth|peek|strip_prefix|strip_suffix|checked_\w+)"
    r"\((?:[^()]|\([^()]*\))*\)$"
)
#: a call whose value is a ``Result``: ``.expect`` panics on ``Err``, and prints it
_GIVES_RESULT = re.compile(
    r"(?:\.(?:recv|try_recv|recv_timeout|send|try_send|lock|try_lock|join|parse(?:::<[^>]*>)?"
    r"|try_into|read_to_string|read_to_end|write_all|flush|metadata)\((?:[^()]|\([^()]*\))*\)"
    r"|(?:^|::)(?:try_from|var|read_to_string|create_dir_all|read_dir)\((?:[^()]|\([^()]*\))*\))$"
)
#: the longest receiver a sentence shows
_MAX_RECEIVER = 80


def _unwrapped(w: Fixes) -> tuple[str, str] | None:
    """For an ``x.expect("…")`` site: when ``x`` fails it (a clause), and
    what the panic then prints. A ``Result``'s ``expect`` prints its error's
    ``Debug`` text after the message; an ``Option``'s prints the message."""
    at = f"{w.lead.path}:{w.lead.line}"
    got = next((e for e in w.f.get("expects", ()) if f"{e['path']}:{e['line']}" == at), None)
    if got is None or ".expect(" not in got["text"]:
        return None
    # a chain over several lines is read with its breaks as spaces
    receiver = re.sub(r"\s+\.", ".", " ".join(got["text"].rsplit(".expect(", 1)[0].split()))
    if not receiver or len(receiver) > _MAX_RECEIVER:
        return None
    if _GIVES_RESULT.search(receiver):
        return (
            f"`{receiver}` is an `Err`",
            "The panic shows the message, then a colon and the error as debug formatting prints it.",
        )
    if _GIVES_OPTION.search(receiver):
        return f"`{receiver}` is `None`", ""
    return f"`{receiver}` is `None` or an `Err`", ""


def notes(w: Fixes) -> list[tuple[str, list[str]]]:
    """What reaching the lead site means, as its guards say."""
    if _documented(w):
        return []  # the docs say what it means, in the library's words
    lead = w.lead
    guards = [g for g in lead.guards if g.kind in ("match-arm", "if", "elif", "else", "assert")]
    said = clauses(guards, lead.kind)
    unwrapped = _unwrapped(w) if lead.kind == "expect" else None
    if unwrapped is not None:
        said = [*said[-(MAX_CLAUSES - 1) :], unwrapped[0]]
    if not said:
        return []
    verb = "panics" if lead.kind in _PANICS else "returns this error"
    where = [f"{lead.path}:{g.line}" for g in guards] or [f"{lead.path}:{lead.line}"]
    text = f"{w.fn_name()} {verb} at {lead.path}:{lead.line} when " + " and ".join(said) + "."
    if unwrapped is not None and unwrapped[1]:
        text += f" {unwrapped[1]}"
    shown = _shown(w, guards)
    if shown:
        names = ", ".join(f"`{x}`" for x in shown)
        text += (
            f" The message shows {names}: the value{'s' if len(shown) > 1 else ''} checked there."
        )
    return [(text, where)]
