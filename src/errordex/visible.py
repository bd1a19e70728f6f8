"""Control characters made visible, so that text from a repository or a paste
is shown, never obeyed: ``\\x1b[2J`` would clear a terminal, an OSC sequence
would set its title.

Pure: no I/O.
"""

from __future__ import annotations

import re

__all__ = ["visible_controls"]

#: C0 and C1 control characters, except tab and newline.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x80-\x9f]")


def visible_controls(text: str) -> str:
    r"""``text`` with each C0 or C1 control character except ``\n`` and ``\t``
    written as its ``\xNN`` escape.

    >>> visible_controls("a\x1b[2Jb\x00c\x9bd\te\n")
    'a\\x1b[2Jb\\x00c\\x9bd\te\n'
    """
    return _CONTROLS.sub(lambda m: f"\\x{ord(m[0]):02x}", text)
