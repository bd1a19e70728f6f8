"""How a message looks when the program prints it (pure): each language's
runtime says (``Language.message_line``, ``Language.printed_form``,
``Language.bare_messages``); a site of a language not installed shows its
message as written.
"""

from __future__ import annotations

from collections.abc import Sequence

from errordex import plugins
from errordex.model import ErrorEntry, ThrowSite
from errordex.template import Template


def runtime_text(kind: str) -> str | None:
    """What the runtime prints for a site of ``kind`` with no message of its
    own, as Rust's bare ``todo!()`` prints "not yet implemented"."""
    return plugins.bare_messages().get(kind)


def matched_template(template: Template, kinds: Sequence[str]) -> Template:
    """The text an entry's error shows at run time, for the matcher to find
    and verify: its template, or for a bare site (no message in the source,
    of a kind whose runtime prints one: ``runtime_text``) the text the
    runtime prints."""
    if template.is_empty and template.syntax == "none" and kinds:
        text = runtime_text(kinds[0])
        if text:
            return Template.literal(text)
    return template


def message_line(site: ThrowSite, exception: str | None = None) -> str:
    """The message as the runtime prints it, placeholders left in;
    ``exception`` is the name to print, where the language prints one (see
    ``Language.printed_type``)."""
    lang = plugins.find(site.language)
    if lang is None:
        return site.template.display()
    return lang.runtime.message_line(site, exception)


def printed_form(site: ThrowSite, exception: str | None = None) -> str:
    """The lines a user sees in the terminal for this site."""
    line = message_line(site, exception)
    lang = plugins.find(site.language)
    return lang.runtime.printed_form(site, line) if lang is not None else line


def _short(expr: str, limit: int = 48) -> str:
    """An expression for a title: one line, and cut with an ellipsis."""
    flat = " ".join(expr.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def title(entry: ErrorEntry) -> str:
    """A human title: the message, or what stands in for it."""
    t = entry.template
    lead = entry.sites[0] if entry.sites else None
    if t.dynamic:
        exprs = ", ".join(_short(h.expr) for h in t.holes if h.expr) or "a value"
        what = (
            entry.exception_types[0] if entry.exception_types else (lead.kind if lead else "error")
        )
        return f"{what} (message built at run time from {exprs})"
    if t.is_empty and lead is not None:
        return message_line(lead) or "(an empty message)"  # panic!("")
    return one_line(t.display())


def one_line(shown: str) -> str:
    """A message of several lines as a title of one line: a paragraph's lines
    joined (celery's triple-quoted "Retry limit exceeded…"), up to the first
    indented one, which shows a value (packaging's source and its `~~^`)."""
    if "\n" not in shown.rstrip("\n"):
        return shown
    lines = shown.strip("\n").split("\n")
    kept = [lines[0]]
    for ln in lines[1:]:
        if ln[:1].isspace() or not ln.strip():
            return " ".join(" ".join(kept).split()) + " …"
        kept.append(ln)
    return " ".join(" ".join(kept).split())
