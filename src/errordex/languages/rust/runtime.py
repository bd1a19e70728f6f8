"""How Rust prints a panic or an error, and how a test or a manifest looks (pure).

``panic!("x")`` prints ``x``; ``unimplemented!("x")`` prints ``not implemented: x``.
"""

from __future__ import annotations

import re

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
    """What the terminal shows: a panic's header names its place, which for
    a ``#[track_caller]`` function is the line that called it."""
    if site.kind in _NOT_PANICS:
        return line
    if any(g.kind == "track-caller" for g in site.guards):
        return f"thread 'main' panicked at <your file>:<line>:<column>:\n{line}"
    return f"thread 'main' panicked at {site.path}:{site.line}:{site.column}:\n{line}"


_TEST_FILES = ("tests.rs", "test.rs")


def is_test_file(name: str) -> bool:
    return name.endswith("_test.rs") or name in _TEST_FILES


#: Panics of Rust's core and standard library (``#[track_caller]``: the panic
#: location is the line that called them, not a ``panic!`` of the crate).
_RUST_RUNTIME = re.compile(
    "|".join(
        (
            r"index out of bounds: the len is \d+ but the index is \d+",
            r"attempt to [a-z ]+ with overflow",
            r"attempt to (?:divide by zero|calculate the remainder with a divisor of zero)",
            r"range (?:start|end) index \d+ out of range for slice of length \d+",
            r"slice index starts at \d+ but ends at \d+",
            r"byte index \d+ is (?:out of bounds|not a char boundary).*",
            r"already (?:mutably )?borrowed: Borrow(?:Mut)?Error",
            r"capacity overflow",
        )
    ),
    re.DOTALL,
)


def rust_runtime_panic(message: str, kind: str | None = None) -> bool:
    """Whether a Rust panic comes from the language or its standard library
    (``unwrap()``, ``expect()``, an index, an overflow) called at the panic
    location, rather than from a ``panic!`` or ``assert!`` written there.

    >>> rust_runtime_panic("index out of bounds: the len is 3 but the index is 5")
    True
    >>> rust_runtime_panic("cannot advance past `remaining`: 5 <= 3", "panic")
    False
    """
    if kind in ("unwrap", "expect"):
        return True
    return isinstance(message, str) and bool(_RUST_RUNTIME.fullmatch(message.strip()[:2048]))


#: A crate's directory in a registry or vendor tree, with its version
#: (``registry/bytes-1.0.0/src/bytes.rs``).
_CRATE_DIR = re.compile(r"(?:^|/)([A-Za-z0-9_-]+?)-(\d+\.\d+\.\d+(?:[-+][\w.]+)?)/")


def ran_version(path: str) -> str | None:
    """The crate version a frame's path names, if it is in a crate's directory.

    >>> ran_version("/home/u/.cargo/registry/src/x/bytes-1.0.0/src/bytes.rs")
    '1.0.0'
    """
    crate = _CRATE_DIR.search(path.replace("\\", "/"))
    return crate.group(2) if crate else None


#: Rust's own crates, as a backtrace prints their functions
#: (``core::panicking::panic_fmt``, ``<alloc::vec::Vec<T> as ...>``)
_STD_FUNCTION = re.compile(r"<?(?:core|std|alloc|__rustc)::")


def runtime_frame(path: str, function: str | None) -> bool:
    """Whether a backtrace frame is the standard library's: its source is
    under rustc's ``library/`` tree, or its function is in ``core``, ``std``
    or ``alloc``.

    >>> runtime_frame("/rustc/5980/library/core/src/panicking.rs", "core::panicking::panic_fmt")
    True
    >>> runtime_frame("./src/main.rs", "demo::main")
    False
    """
    p = path.replace("\\", "/")
    return (
        "/rustc/" in p
        or p.startswith("library/")
        or bool(function and _STD_FUNCTION.match(function))
    )
