"""The shape a type's Debug form prints, filed with the file's identifiers
(pure).

``#[derive(Debug)]`` prints a tuple struct or variant as ``Name(..)``, one
with fields as ``Name { .. }`` and a unit one as ``Name``. Two crates often
have an error of one name (log's ``ParseLevelError(())``, tracing-core's
``ParseLevelError { _p: () }``); the shape a pasted value shows tells which
one printed it. A hand-written ``Debug`` prints what it likes: one that
calls ``f.debug_struct("Name")`` or ``debug_tuple`` files that shape, any
other files ``Name?`` (its shape says nothing), and one that writes
``"Full(..)"`` (crossbeam's, hiding the value) files ``Full!``: it never
prints a value there. A type that implements ``Error`` files ``Name*``
too, and so do its variants. The keys are
``match.keys.shape_key``'s.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from errordex.match.keys import shape_key

if TYPE_CHECKING:
    from errordex import grammars

#: the shape mark of a type the file implements std's ``Error`` for, or of
#: a variant of one: what a function returns, so what an ``unwrap()``
#: prints outermost (shell-words' ``struct ParseError;``, not num-rational's
#: ``RatioErrorKind::ParseError``, a kind held inside its error)
ERROR_TYPE = "*"
_BODIES = {"field_declaration_list": "{", "ordered_field_declaration_list": "("}
_DEBUG_BUILDERS = re.compile(rb'\.debug_(struct|tuple)\(\s*"([A-Za-z_]\w{0,200})"')
#: ``"Full(..)".fmt(f)``: a Debug that hides the value it holds, always
_HIDDEN = re.compile(rb'"([A-Z]\w{0,200})(?:\(\.\.\)| \{ \.\. \})"')
_GENERICS = re.compile(r"<.*$", re.DOTALL)


def declared(caught: grammars.Captures, src: bytes) -> set[str]:
    """The shape keys of the structs, variants and Debug impls of one file.
    A type whose Debug the file writes by hand files ``?`` for itself and
    its variants instead of the shape it is declared with."""
    out: set[str] = set()
    custom: set[str] = set()
    built_own: set[str] = set()  # hand-written Debugs that build their own name
    errors: set[str] = set()  # the types the file implements std's Error for
    for capture, up in (("impl.trait", 1), ("impl.scoped_trait", 2)):
        for trait in caught.get(capture, ()):
            trait_name = src[trait.start_byte : trait.end_byte]
            if trait_name not in (b"Debug", b"Error"):
                continue
            # .parent walks down from the root: asked once
            up_one = trait.parent
            impl = up_one if up == 1 or up_one is None else up_one.parent
            kind = impl.child_by_field_name("type") if impl is not None else None
            if impl is None or kind is None:
                continue
            if trait_name == b"Error":
                typ = src[kind.start_byte : kind.end_byte].decode("utf-8", "replace")
                errors.add(_GENERICS.sub("", typ).strip().lstrip("&").rsplit("::", 1)[-1])
                continue
            text = src[impl.start_byte : impl.end_byte]
            built = _DEBUG_BUILDERS.findall(text)
            out.update(shape_key(h.decode(), "!") for h in _HIDDEN.findall(text))
            for how, printed in built:
                out.add(shape_key(printed.decode(), "{" if how == b"struct" else "("))
            typ = src[kind.start_byte : kind.end_byte].decode("utf-8", "replace")
            owner = _GENERICS.sub("", typ).strip().lstrip("&").rsplit("::", 1)[-1]
            if any(printed.decode() == owner for _, printed in built):
                # f.debug_struct("DecodeError") in DecodeError's own Debug
                # (prost's, errno's): it prints that shape, filed above, and
                # never the one it is declared with
                built_own.add(owner)
                continue
            custom.add(owner)
    for name in caught.get("shape.name", ()):
        item = name.parent
        if item is None:
            continue
        word = src[name.start_byte : name.end_byte].decode("utf-8", "replace")
        owner = word
        if item.type == "enum_variant":
            up_one = item.parent
            enum = up_one.parent if up_one is not None else None
            found = enum.child_by_field_name("name") if enum is not None else None
            owner = src[found.start_byte : found.end_byte].decode() if found is not None else ""
        if owner in errors:
            out.add(shape_key(word, ERROR_TYPE))
        if owner in custom:
            out.add(shape_key(word, "?"))
            continue
        if owner in built_own:
            continue
        body = item.child_by_field_name("body")
        shape = _BODIES.get(body.type, "") if body is not None else ";"
        if shape:
            out.add(shape_key(word, shape))
    out.update(shape_key(t, "?") for t in custom)
    return out
