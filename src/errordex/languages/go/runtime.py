"""How Go prints an error, and what its tests look like (pure).

``panic("x")`` prints ``panic: x`` then the goroutine's stack; an error
value is printed by whoever handles it (``log.Fatal(err)``, ``fmt.Println``),
often wrapped in other errors' text (``load config: <it>``).
"""

from __future__ import annotations

import re

from errordex.model import ThrowSite

#: Kinds that panic (``log.Panic`` logs, then panics with the same text).
PANICS = frozenset({"panic", "log.Panic"})


def message_line(site: ThrowSite, exception: str | None = None) -> str:
    return site.template.display()


def printed_form(site: ThrowSite, line: str) -> str:
    """What the terminal shows: a panic with its goroutine, a ``log.Fatal``
    line with its time stamp; an error value as its ``Error()`` says (a
    caller may print it after text of its own, ``open x: <it>``)."""
    where = f"{site.path}:{site.line}"
    if site.kind in PANICS:
        head = f"YYYY/MM/DD hh:mm:ss {line}\n" if site.kind == "log.Panic" else ""
        func = site.symbol or "main"
        return f"{head}panic: {line}\n\ngoroutine 1 [running]:\n…{func}(…)\n\t…/{where} +0x…"
    if site.kind == "log.Fatal":
        return f"YYYY/MM/DD hh:mm:ss {line}\nexit status 1"
    return line  # an error value: what its Error() returns, however a caller prints it


def is_test_file(name: str) -> bool:
    return name.endswith("_test.go")


#: Run-time panics of the Go runtime itself (``runtime.Error``), at the line
#: of the caller's code that indexed, dereferenced or asserted.
_GO_RUNTIME = re.compile(
    "|".join(
        (
            r"index out of range \[-?\d+\] with length \d+",
            r"slice bounds out of range \[.*\] with (?:length|capacity) \d+",
            r"slice bounds out of range \[.*\]",
            r"invalid memory address or nil pointer dereference",
            r"integer divide by zero",
            r"assignment to entry in nil map",
            r"interface conversion: .*",
            r"makeslice: (?:len|cap) out of range",
            r"hash of unhashable type .*",
            r"comparing uncomparable type .*",
        )
    ),
    re.DOTALL,
)


def go_runtime_panic(message: str, kind: str | None = None) -> bool:
    """Whether a Go panic is the runtime's (``runtime error: index out of
    range [5] with length 3``), raised at the line that did it.

    >>> go_runtime_panic("index out of range [5] with length 3")
    True
    >>> go_runtime_panic("uuid: Parse(x): invalid UUID length: 1", "panic")
    False
    """
    return isinstance(message, str) and bool(_GO_RUNTIME.fullmatch(message.strip()[:2048]))


#: a module's directory in the module cache, with its version (``uuid@v1.3.0/``)
_MODULE_DIR = re.compile(r"@v(\d+\.\d+\.\d+(?:[-+][\w.-]+)?)/")


def ran_version(path: str) -> str | None:
    """The module version a frame's path names (``pkg/mod/…/uuid@v1.3.0/uuid.go``).

    >>> ran_version("/root/go/pkg/mod/github.com/google/uuid@v1.3.0/uuid.go")
    '1.3.0'
    """
    m = _MODULE_DIR.search(path.replace("\\", "/"))
    return m.group(1) if m else None
