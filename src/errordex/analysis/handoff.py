"""Who hands a value to another library's trait (pure).

An impl of a trait the repository does not declare (``impl<'de>
de::Deserializer<'de> for &mut Deserializer``) is called by that other
library, not by the repository: nothing here calls ``deserialize_struct`` by
name. A user reaches it through the repository's function that builds the
value and hands it over (``from_bytes_seed`` builds a ``Deserializer`` with
``Deserializer::from_bytes_with_options(…)`` and passes ``&mut`` it to
``seed.deserialize``). So the functions that call one of the type's
constructors are its callers, one hop below the user's call.
"""

from __future__ import annotations

import re

from errordex.analysis.evidence import FuncDef
from errordex.analysis.index import Index

#: the type an impl is for: ``Deserializer`` of ``<&'a mut de::Deserializer<R> as Tr>::f``
_SELF_TYPE = re.compile(r"^<\s*(?:&\s*(?:'\w+\s+)?(?:mut\s+)?)?((?:\w+::)*)(\w+)")
#: qualifiers that name the current crate or module, not another module
_HERE = frozenset({"crate", "self", "super", "Self"})
MAX_HANDOFFS = 6


def self_type(symbol: str) -> str | None:
    """``Deserializer`` of ``<&'a mut Deserializer as de::Deserializer<'de>>::deserialize_any``."""
    m = _SELF_TYPE.match(symbol)
    return m.group(2) if m is not None else None


def constructors(fn: FuncDef, ix: Index) -> list[str]:
    """The names of the associated functions without ``self`` that the
    impl's type defines in the impl's own file (``from_str``,
    ``from_bytes_with_options``, ``new``): what builds a value of it."""
    owner = self_type(fn.symbol)
    if owner is None:
        return []
    out: list[str] = []
    for g in ix.functions_in(fn.path):
        if g.in_test or g.symbol != f"{owner}::{g.name}":
            continue
        if any(p.lstrip("&").removeprefix("mut ").startswith("self") for p in g.params):
            continue
        if g.name not in out:
            out.append(g.name)
    return out


def _module_of(path: str) -> str:
    """The module a file is: ``id`` of ``src/de/id.rs``, ``de`` of ``src/de/mod.rs``."""
    parts = path.removesuffix(".rs").split("/")
    if parts[-1] in ("mod", "lib", "main") and len(parts) > 1:
        return parts[-2]
    return parts[-1]


def handoff_callers(fn: FuncDef, ix: Index) -> list[tuple[FuncDef, int]]:
    """Functions outside tests, and outside the type's own impls, that build
    the value ``fn``'s impl is for with one of its constructors
    (``Deserializer::from_str(s)``, ``id::Deserializer::new(…)``), with the
    line of the call. A call qualified by another module's name
    (``tag::Deserializer::new`` for a type of ``id.rs``) is another type."""
    owner = self_type(fn.symbol)
    if owner is None:
        return []
    module = _module_of(fn.path)
    built = re.compile(
        rf"(?<![\w])((?:\w+::)*){re.escape(owner)}\s*(?:::<[^>]*>)?::(\w+)\s*(?:::<[^>]*>\s*)?\("
    )
    out: list[tuple[FuncDef, int]] = []
    for name in constructors(fn, ix):
        for path, caller, line, text in ix.call_texts.get(name):
            # ``built`` needs the type's name written: most calls of a
            # constructor's name (`new`) are another type's, looked at first
            m = built.search(text) if owner in text else None
            if m is None or m.group(2) != name:
                continue
            qualifier = m.group(1).rstrip(":").rsplit("::", 1)[-1]
            if qualifier and qualifier not in _HERE and qualifier != module:
                continue
            mine = caller.rpartition("::")[0]
            if self_type(mine) == owner or mine == owner or caller.startswith(f"{owner}::"):
                continue  # the type's own functions build it for their callers
            f = ix.function(path, caller)
            if f is None or f.in_test or any(g == f for g, _ in out):
                continue
            out.append((f, line))
            if len(out) >= MAX_HANDOFFS:
                return out
    return out
