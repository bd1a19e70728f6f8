"""What a command built with click prints for its user's mistake (pure).

click catches its own exceptions in ``Command.main`` and prints them, not a
traceback (issue 16: "a CLI framework's errors are shown as the framework
prints them")::

    Usage: app.py [OPTIONS]
    Try 'app.py --help' for help.

    Error: Invalid value for '--n': 'x' is not a valid integer.

The message a library wrote is the part after click's own words: a
``BadParameter``'s ``Invalid value for '--n': `` and a ``FileError``'s
``Could not open file 'a.txt': `` are click's ``format_message``
(``runtime.CLICK_ERRORS``). Peeled, the inner text matches the template
``{value!r} is not a valid {number_type}.`` whole, and the option's name is
kept as a value of the paste (``param_hint``), not bound to the template's
first placeholder.
"""

from __future__ import annotations

import re

from errordex.languages.python.runtime import CLICK_ERRORS
from errordex.paste.model import Found, ParsedError

_ERROR = re.compile(r"^Error: (?=\S)(.+)$")
_USAGE = re.compile(r"^Usage: \S")
_TRY = re.compile(r"^Try '[^'\n]{1,200} --help' for help\.$")
#: click's ``param_hint``: one quoted name or several joined by " / "
_HINT = r"'[^'\n]{1,200}'(?: / '[^'\n]{1,200}')*"
_FIELD = re.compile(r"\{(\w+)(![rs])?\}")


def _wrapper(words: str) -> re.Pattern[str]:
    """A regex reading click's ``format_message`` words back
    (``runtime.CLICK_ERRORS``): ``Invalid value for {param_hint}: {message}``."""
    out, at = ["^"], 0
    for m in _FIELD.finditer(words):
        out.append(re.escape(words[at : m.start()]))
        name = m.group(1)
        if name == "message":
            body = ".+"
        elif name == "param_hint":
            body = _HINT
        else:
            body = r"'[^'\n]{1,4096}'" if m.group(2) == "!r" else ".+?"
        out.append(f"(?P<{name}>{body})")
        at = m.end()
    return re.compile("".join(out) + re.escape(words[at:]) + "$")


#: click's words around an error's message: (class, regex)
_WRAPPERS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (cls, _wrapper(words)) for cls, (_, words) in CLICK_ERRORS.items() if words != "{message}"
)
#: lines between click's usage block and its ``Error:`` line, at most
_NEAR = 3


def find(lines: list[str]) -> list[Found]:
    """click's printed errors in cleaned ``lines``: an ``Error:`` line after
    click's usage block, or one whose text is in click's words.

    >>> [f.error.message for f in find(["Usage: app [OPTIONS]",
    ...     "Try 'app --help' for help.", "", "Error: No such option: --x"])]
    ['No such option: --x']
    """
    found: list[Found] = []
    for i, line in enumerate(lines):
        m = _ERROR.match(line.strip())
        if m is None:
            continue
        start = _usage_start(lines, i)
        error = _error(m.group(1), line.strip(), usage=start is not None)
        if error is not None:
            found.append(Found(i if start is None else start, i, error))
    return found


def _usage_start(lines: list[str], at: int) -> int | None:
    """Where click's usage block before line ``at`` starts, if there is one."""
    seen_try = None
    for j in range(at - 1, max(-1, at - 2 - _NEAR), -1):
        text = lines[j].strip()
        if _TRY.match(text):
            seen_try = j
        elif _USAGE.match(text):
            return j
        elif text and seen_try is None:
            return None
    return seen_try


def _error(text: str, raw: str, usage: bool) -> ParsedError | None:
    """The error an ``Error:`` line printed; None when nothing says it is click's."""
    for cls, wrapper in _WRAPPERS:
        w = wrapper.match(text)
        if w is not None:
            values = {k: v for k, v in w.groupdict().items() if k != "message"}
            return ParsedError(w.group("message"), raw, cls, "python", "raise", values=values)
    if not usage:
        return None
    return ParsedError(text, raw, None, "python", "raise", values={"printed_by": "click"})
