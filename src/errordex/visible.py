"""Control characters made visible, so that text from a repository or a paste
is shown, never obeyed: ``\\x1b[2J`` would clear a terminal, an OSC sequence
would set its title, and a bidirectional override (U+202E) would show a
message's characters in another order than they are (Trojan Source).

Pure: no I/O.
"""

from __future__ import annotations

import re

__all__ = ["visible_controls"]

#: C0 and C1 control characters, except tab and newline, and the bidirectional
#: embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x80-\x9f\u202a-\u202e\u2066-\u2069]")


def visible_controls(text: str) -> str:
    r"""``text`` with each C0 or C1 control character except ``\n`` and ``\t``
    written as its ``\xNN`` escape, and each bidirectional control as its
    ``\uNNNN``.

    >>> visible_controls("a\x1b[2Jb\x00c\x9bd\te\n")
    'a\\x1b[2Jb\\x00c\\x9bd\te\n'
    >>> visible_controls("abc\u202edef")
    'abc\\u202edef'
    """
    return _CONTROLS.sub(_escape, text)


def _escape(m: re.Match[str]) -> str:
    code = ord(m[0])
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"
