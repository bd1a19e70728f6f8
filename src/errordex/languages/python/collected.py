"""Errors collected and raised together (Python, pure): issue 15, pattern 1.

marshmallow's fields raise one error each; ``Schema.load`` catches them,
collects their messages by field and raises one error of the same class::

    raise self.make_error("invalid")          # fields.py: "Not a valid integer."
    ...
    exc = ValidationError(errors, data=data, valid_data=result)
    raise exc                                 # schema.py: the traceback ends here

and the user reads ``ValidationError: {'n': ['Not a valid integer.']}``.
The text is written at the field's raise; the traceback ends at the
collector's. A raise of class ``T`` whose message is a collection of
errors (a name such as ``errors`` or ``messages``) is a collector of ``T``:
a ``Forwarder`` named ``collect:T`` that no call reaches.
``errordex.forward.collected_sites`` gives each raise of ``T`` in the repository with a
readable message a site per collector, with that collector as its
``via``, when the repository has at most ``errordex.forward.MAX_COLLECTORS`` of them; a
repository that collects in many places says nothing about which.
"""

from __future__ import annotations

import re

from errordex.forward import COLLECT
from errordex.model import Forwarder
from errordex.template import Hole, Template

#: a name that holds the errors collected so far
_COLLECTION = re.compile(
    r"(?:^|[._])(?:errors|errs|messages|error_messages|error_dict|error_list|exceptions)$"
)


def collector(
    path: str, line: int, exc_type: str, template: Template, symbol: str | None
) -> Forwarder | None:
    """The collector a raise of ``exc_type(errors, ...)`` is, if it is one."""
    only = template.parts[0] if len(template.parts) == 1 else None
    if not template.dynamic or not isinstance(only, Hole) or not _COLLECTION.search(only.expr):
        return None
    name = COLLECT + exc_type.rsplit(".", 1)[-1]
    return Forwarder(
        name=name,
        qualname=f"{symbol or '<module>'}.{name}",
        path=path,
        line=line,
        param_name="message",
        param_index=0,
        exception_type=exc_type,
        template=Template.runtime("message"),
        method=False,
    )
