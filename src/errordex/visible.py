"""Control characters made visible, for text shown to a person.

Repository text may hold ESC, NUL or a C1 CSI; a terminal would obey them and
a page would hide them. ``visible_controls`` writes each as ``\\xNN``, keeping
newlines and tabs:

    >>> visible_controls("a\\x1b[2Jb\\x00c\\x9b\\tend\\n")
    'a\\\\x1b[2Jb\\\\x00c\\\\x9b\\tend\\n'
"""

from __future__ import annotations

import re

#: C0 controls but tab and newline, DEL, and the C1 controls
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def visible_controls(text: str) -> str:
    """``text`` with every control character but ``\\n`` and ``\\t`` as ``\\xNN``."""
    if not _CONTROLS.search(text):
        return text
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
