"""The sentences inside a message that is the repr of a Python container.

An exception prints ``str(args[0])`` when it was given one argument, and the
repr of its ``args`` tuple when it was given several; a class whose
``__str__`` formats a dict of per-field messages prints that dict. Either way
the sentence the code wrote is one of the string literals inside the repr:
rfc3986's ``MissingComponentError`` prints
``('scheme was required but missing', URIReference(...), ['scheme'])`` and
colander's ``Invalid`` prints ``{'a': '"x" is not a number'}``.

    >>> inner_sentences("('scheme was required but missing', URIReference(scheme=None), ['scheme'])")
    ['scheme was required but missing', 'scheme']
    >>> inner_sentences("{'a': '\\"x\\" is not a number', 'b': 'Required'}")
    ['"x" is not a number', 'Required']
    >>> inner_sentences("not a repr ('quoted')")
    []
"""

from __future__ import annotations

import ast
import re

# a Python string literal, as repr() writes one (no prefixes: repr of str has none)
_LITERAL = re.compile(r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*\"""")
_CLOSERS = {"(": ")", "{": "}", "[": "]"}
_KEY_AFTER = re.compile(r"\s*:")


def inner_sentences(message: str) -> list[str]:
    """The string values inside ``message`` when it is a tuple, dict or list repr, in order.

    A dict's keys are left out (field names, not messages); so are empty strings.
    """
    text = message.strip()
    if len(text) < 2 or _CLOSERS.get(text[0]) != text[-1]:
        return []
    out: list[str] = []
    for m in _LITERAL.finditer(text, 1, len(text) - 1):
        if _KEY_AFTER.match(text, m.end()):
            continue
        try:
            value = ast.literal_eval(m.group(0))
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, str) and value.strip() and value not in out:
            out.append(value)
    return out
