"""How node prints a JavaScript error, and which files are tests (pure)."""

from __future__ import annotations

import re

from errordex.model import ThrowSite

#: what node prints as the error's name for an assert without its own error
_ASSERT = "AssertionError [ERR_ASSERTION]"


def message_line(site: ThrowSite, exception: str | None = None) -> str:
    """``TypeError: bad port``: the error's name, then its message, as
    node's stack header prints them."""
    text = site.template.display()
    if site.kind == "assert" and (site.exception_type or "AssertionError") == "AssertionError":
        name = _ASSERT
    else:
        name = exception or (site.exception_type or "Error").rsplit(".", 1)[-1]
    if (
        site.exception_type is None
        and site.kind in ("throw", "reject")
        and not site.template.dynamic
    ):
        return text  # a thrown string prints as itself, with no name
    return f"{name}: {text}" if text else name


def printed_form(site: ThrowSite, line: str) -> str:
    """The stack trace node prints for an uncaught error; a thrown value that
    is not an Error prints under the line that threw it, with no stack."""
    if site.exception_type is None and site.kind in ("throw", "reject"):
        return f"{site.path}:{site.line}\n...\n{line}"
    return f"{line}\n    at {site.symbol or '<anonymous>'} ({site.path}:{site.line}:{site.column})"


def is_test_file(name: str) -> bool:
    """``parse.test.js``, ``api.spec.ts``, ``test-router.js``."""
    stem = name.rsplit(".", 1)[0]
    if stem.endswith(".d"):
        return False
    return stem.endswith((".test", ".spec", "-test", "_test")) or stem.startswith(
        ("test-", "test_")
    )


#: node's own error classes, each with its chain up to ``Error``
_BUILTIN = {
    name: (name, "Error")
    for name in (
        "TypeError",
        "RangeError",
        "SyntaxError",
        "ReferenceError",
        "EvalError",
        "URIError",
        "AggregateError",
    )
}


#: what node prints for an error whose class sets no ``name`` of its own: its
#: nearest builtin base's (``class ConfigError extends Error {}`` prints ``Error``)
SHARED_NAMES = frozenset({"Error", *_BUILTIN})


def builtin_classes(name: str) -> tuple[str, ...] | None:
    """The class chain of one of node's error classes.

    >>> builtin_classes("RangeError"), builtin_classes("Error"), builtin_classes("ZodError")
    (('RangeError', 'Error'), ('Error',), None)
    """
    return ("Error",) if name == "Error" else _BUILTIN.get(name)


#: What V8 throws itself (node 18 to 22): a throw that copies one of these
#: verifies against every such message, so the text alone does not say it
#: was that throw.
_V8_FORMS = re.compile(
    r"Cannot (?:read|set) properties of (?:undefined|null) \((?:reading|setting) '.*'\)"
    r"|Cannot access '.+' before initialization"
    r"|.+ is not (?:a function|a constructor|defined|iterable|a function or its return value is not iterable)"
    r"|Assignment to constant variable\."
    r"|Maximum call stack size exceeded"
    r"|Invalid array length"
    r"|Unexpected token .*"
    r"|Class constructor .+ cannot be invoked without 'new'"
)


def runtime_form(message: str, exception_type: str | None) -> bool:
    """Whether ``message`` has the form of one V8 throws itself.

    >>> runtime_form("Cannot read properties of undefined (reading 'req')", "TypeError")
    True
    >>> runtime_form("app.use() requires a middleware function", "TypeError")
    False
    """
    return _V8_FORMS.fullmatch(message) is not None
