"""What a printed value holds tells which entry it is (pure): helpers of
``explain``'s reading of a Debug value (``_by_name``, ``_named_match``).

- ``kind_of_io``: an ``io::ErrorKind`` entry found by a name printed with
  values (pem's ``InvalidData(InvalidByte(0, 33))``), or beside an error
  value (``kinds_beside_values``), is not that kind's;
- ``enum_wide``: one text an enum prints for every variant says less of a
  variant than its own text (rmp's ``DecodeStringError``);
- ``gives_text``: a text the value holds is written whole in a message its
  construction made (jpeg-decoder's ``Format("invalid length in SOF")``);
- ``holds_value``: a wrapper's placeholder is filled with the value it holds.
"""

from __future__ import annotations

from collections.abc import Sequence

from errordex.match.index import Candidate
from errordex.paste.model import Named
from errordex.template import Template

__all__ = [
    "enum_wide",
    "gives_text",
    "holds_value",
    "kind_of_io",
    "kinds_beside_values",
    "last_name",
]


def last_name(exception_type: str) -> str:
    """``Error`` of ``crate::Error``, ``ParseError`` of ``ParseError<T>``."""
    bare = exception_type.replace(" ", "").split("<", 1)[0]
    return bare.rsplit("::", 1)[-1]


def kind_of_io(c: Candidate, n: Named, beside_values: frozenset[str] = frozenset()) -> bool:
    """An entry of an ``io::ErrorKind`` (``io::Error::new(ErrorKind::InvalidData,
    "..")``) found by a name printed with values: std prints a kind bare
    (``kind: InvalidData``), so ``InvalidData(InvalidByte(0, 33))`` is a
    crate's own variant of that name (pem's), not the kind of png's texts.
    Nor is a kind printed beside an error value (``beside_values``, see
    ``kinds_beside_values``): that entry's value would be its text."""
    if not (n.fields or n.items or n.name in beside_values) or not c.exception_types:
        return False
    return all(
        last_name(t) == n.name and t.replace(" ", "").startswith("io::ErrorKind::")
        for t in c.exception_types
    )


def kinds_beside_values(named: Sequence[Named]) -> frozenset[str]:
    """The ``io::ErrorKind`` names printed beside an error value, not a
    text: std's ``Custom { kind: InvalidData, error: LengthDelimitedCodecError }``
    (tokio-util's error in an ``io::Error``) prints that value's message,
    while ``io::Error::new(InvalidData, "Unable to decode input as UTF8")``
    would print ``error: "Unable to decode input as UTF8"``.

    >>> kinds_beside_values([Named("Custom", 0, (("kind", "InvalidData"), ("error", "Codec")))])
    frozenset({'InvalidData'})
    >>> kinds_beside_values([Named("Custom", 0, (("kind", "InvalidData"), ("error", '"bad"')))])
    frozenset()
    """
    out: set[str] = set()
    for n in named:
        fields = dict(n.fields)
        if n.name != "Custom" or set(fields) != {"kind", "error"}:
            continue
        held = fields["error"].strip()
        if held[:1].isupper() and not held.startswith(("Some(", "None")):
            out.add(fields["kind"].strip())
    return frozenset(out)


def gives_text(t: Template, n: Named) -> bool:
    """Whether a text the value holds (``Format("invalid length in SOF")``)
    is written whole in the template's constant text: the message of a
    construction that gave the variant that text
    (``invalid JPEG format: invalid length in SOF``), not another variant's
    of the name with a placeholder the text would fill.

    >>> from errordex.template import Text
    >>> t = Template.of("rust-fmt", Text("invalid JPEG format: invalid length in SOF"))
    >>> gives_text(t, Named("Format", 0, (), ('"invalid length in SOF"',)))
    True
    >>> gives_text(t, Named("Format", 0, (), ('"SOF"',)))
    False
    """
    held = [v for v in (*n.items, *(value for _, value in n.fields)) if len(v) > 2]
    texts = [v[1:-1] for v in held if v[0] == v[-1] == '"']
    chunks = t.chunks()
    return any(len(x.split()) >= 2 and any(x in c for c in chunks) for x in texts)


def enum_wide(types: Sequence[str], name: str) -> bool:
    """Whether an entry found by the variant ``name`` is a text its enum
    prints for every variant (rmp's ``DecodeStringError``: ``error while
    decoding string`` whatever it holds): its types hold the enum itself
    beside the variants.

    >>> enum_wide(("E::A", "E::B", "E::TypeMismatch", "E"), "TypeMismatch")
    True
    >>> enum_wide(("E::TypeMismatch", "F::TypeMismatch"), "TypeMismatch")
    False
    >>> enum_wide(("SendError", "RecvError::Closed", "RecvError"), "Closed")
    False
    """
    bare = {t.replace(" ", "") for t in types}
    variants: dict[str, int] = {}
    for t in bare:
        if "::" in t:
            enum = t.rsplit("::", 1)[0]
            variants[enum] = variants.get(enum, 0) + 1
    # three variants or more beside the enum: not two types that print one text
    # (tokio's RecvError and its TryRecvError::Closed, both "channel closed")
    return any(e in bare and k >= 3 and last_name(e) != name for e, k in variants.items())


def holds_value(values: dict[str, str]) -> bool:
    """Whether a placeholder is filled with a named value (``Error { pos: ..
    }``), the error a wrapper holds, not with the text itself (a ``{}`` of
    ``Error("expected identifier")``: a value that prints its own text)."""
    return any(v.lstrip()[:1].isupper() for v in values.values())
