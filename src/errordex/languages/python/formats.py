"""Messages whose format is not the raise's first argument (Python, pure):
issue 15, pattern 5.

A raise's first positional argument is usually its message. Some
exception classes take a code first and the message after it, formatted
later from a context dict (pydantic-core's errors)::

    raise PydanticCustomError("byte_size_unit", "Could not interpret byte unit: {unit}", {"unit": unit})

prints ``Could not interpret byte unit: kb``: the code is not the message.
``message_index`` says which argument is; ``context_format`` reads the
``{name}`` fields of a message formatted from such a dict as placeholders.
"""

from __future__ import annotations

import re

from errordex.languages.python import keyed
from errordex.template import Template

#: an error code: a lower-case word or dotted or dashed words, no spaces;
#: or upper case with a digit (elementpath's ``"XPST0017"``, ``"E501"``)
_CODE = re.compile(r"[a-z][a-z0-9]*(?:[_.\-][a-z0-9]+)*\Z|(?=[A-Z_]*[0-9])[A-Z][A-Z0-9_]*\Z")


def is_code(t: Template | None) -> bool:
    """``"byte_size_unit"``: literal text that reads as a code, not a sentence.

    >>> is_code(Template.literal("byte_size_unit")), is_code(Template.literal("bad unit"))
    (True, False)
    >>> is_code(Template.literal("XPST0017")), is_code(Template.literal("ERROR"))
    (True, False)
    """
    return t is not None and not t.holes and _CODE.match(t.literal_text()) is not None


def is_sentence(t: Template | None) -> bool:
    """Text with a space in its constant part: what a message reads as."""
    return t is not None and not t.dynamic and any(" " in c for c in t.chunks())


def message_index(values: list[Template | None]) -> int:
    """Which positional argument of a raise's call is the message: the second
    when the first is a code and the second a sentence, else the first."""
    if len(values) >= 2 and is_code(values[0]) and is_sentence(values[1]):
        return 1
    return 0


def context_format(message: Template, rest: list[str]) -> Template:
    """The message of a code-first raise: formatted from the context dict
    after it (``rest``: the source of the arguments that follow), so its
    ``{name}`` fields are placeholders; as written without one."""
    if any(r.startswith(("{", "dict(")) or r.startswith("context=") for r in rest):
        return keyed.placeholders(message)
    return message
