"""How Rust prints a panic or an error, and how a test or a manifest looks (pure).

``panic!("x")`` prints ``x``; ``unimplemented!("x")`` prints ``not implemented: x``.
"""

from __future__ import annotations

from errordex.model import ThrowSite
from errordex.template import Template

#: Rust's std macros put these before the message (library/core/src/panic.rs).
PREFIX = {
    "unimplemented": "not implemented",
    "todo": "not yet implemented",
    "unreachable": "internal error: entered unreachable code",
}
#: What a macro with no message prints.
BARE = {"panic": "explicit panic", **PREFIX}
#: Sites that return or declare an error rather than panic: no panic header.
_NOT_PANICS = ("error-attr", "err-return", "display-impl", "bail", "anyhow", "construct")


def bare_panic(site: ThrowSite) -> bool:
    """``panic!()`` with no arguments, which prints "explicit panic" (the
    message is the runtime's, not in the source: the template stays empty)."""
    return site.kind == "panic" and site.template.syntax == "none" and site.template.is_empty


def bare_key(site: ThrowSite) -> str | None:
    """A bare ``panic!()`` groups with ``panic!("explicit panic")``: what it prints."""
    return "explicit panic" if bare_panic(site) else None


def message_line(site: ThrowSite, exception: str | None = None) -> str:
    text = site.template.display()
    t = site.template
    if t.is_empty and t.syntax == "none" and site.kind in BARE:
        return Template.literal(BARE[site.kind]).display()  # what the runtime prints
    prefix = PREFIX.get(site.kind)
    if prefix:
        return f"{prefix}: {text}" if text else prefix
    if site.kind == "assert" and not text:
        return "assertion failed"
    if site.kind == "expect":
        return f"{text}: {{error:?}}"
    return text


def printed_form(site: ThrowSite, line: str) -> str:
    if site.kind not in _NOT_PANICS:
        return f"thread 'main' panicked at {site.path}:{site.line}:{site.column}:\n{line}"
    return line


_TEST_FILES = ("tests.rs", "test.rs")


def is_test_file(name: str) -> bool:
    return name.endswith("_test.rs") or name in _TEST_FILES
