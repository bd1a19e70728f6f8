"""The text after a position a class prints before its message.

Parsers and compilers often print where an error is before what it is: an
exception class's ``__str__`` puts the token and its line and column in
front of the text the raise gave (elementpath's ``'nope' name at line 1,
column 1: [err:XPST0017] unknown function 'nope'``), or a caller writes
``file:3:5: ...``. The text the code wrote is what follows; a bracketed
code right after the position (``[err:XPST0017]``) is part of the prefix.

    >>> after_position("'nope' name at line 1, column 1: [err:XPST0017] unknown function 'nope'")
    "unknown function 'nope'"
    >>> after_position("While reading from '<string>' [line  2]: section 's' already exists")
    "section 's' already exists"
    >>> after_position("grammar.c:3:14: expected ';'")
    "expected ';'"
    >>> after_position("unknown function 'nope'") is None
    True
"""

from __future__ import annotations

import re

_PREFIX = re.compile(
    r"""^(?:
        .{0,160}?\b(?:line|ln)\s*:?\s*\d+                       # ... line 3
        (?:\s*,?\s*(?:column|col|char|position|pos)\s*:?\s*\d+)?  # , column 5
        \s*\]?
      | [^\s:]{0,160}:\d+(?::\d+)?                                # file.c:3:14
    ):\s+(?:\[[^\]\s]{1,40}\]\s+)?""",
    re.IGNORECASE | re.VERBOSE,
)


def after_position(message: str) -> str | None:
    """What follows a leading position (and a bracketed code after it), or
    None when the message does not start with one or nothing follows."""
    m = _PREFIX.match(message)
    if m is None:
        return None
    rest = message[m.end() :].strip()
    return rest or None
