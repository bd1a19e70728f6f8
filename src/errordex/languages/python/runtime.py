"""How Python prints an exception, and how a test file looks (pure).

A ``raise ValueError("x")`` ends the traceback with ``ValueError: x``.
"""

from __future__ import annotations

from errordex.model import ThrowSite


def message_line(site: ThrowSite, exception: str | None = None) -> str:
    """``exception`` is the name to print (see ``runtime.qualified_exception``)."""
    text = site.template.display()
    short = exception or (site.exception_type or "Exception").rsplit(".", 1)[-1]
    return f"{short}: {text}" if text else short


def printed_form(site: ThrowSite, line: str) -> str:
    return f"Traceback (most recent call last):\n  ...\n{line}"


def is_test_file(name: str) -> bool:
    return (
        name.startswith("test_")
        or name.endswith(("_test.py", "_tests.py"))
        or name == "conftest.py"
    )
