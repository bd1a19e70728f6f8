"""The message an ``Error`` subclass supplies, for the sites that throw it
(pure): ``throw new NotFound(id)`` of ``class NotFound extends Error {
constructor(id) { super(`no such id: ${id}`) } }`` reads ``no such id: ${id}``,
with the argument in the hole when it is known. The classes of every file
are read once they are all known (``Runtime.class_messages``); the
reading itself is Python's, ``classmsg.class_message``, over the
``ClassDef`` values the extractor gives."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import replace

from errordex import classmsg
from errordex.model import ClassDef, ThrowSite
from errordex.template import Hole, Part, Template, Text

#: the files whose classes a JavaScript or TypeScript site may throw
EXTENSIONS = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")


def class_messages(
    classes: Iterable[ClassDef],
) -> tuple[frozenset[str], Callable[[ThrowSite], ThrowSite]]:
    by_name: dict[str, list[ClassDef]] = defaultdict(list)
    for c in classes:
        if c.path.endswith(EXTENSIONS):
            by_name[c.name].append(c)

    def lookup(name: str) -> list[ClassDef]:
        found = by_name.get(name.rsplit(".", 1)[-1], [])
        # A package built for ESM and CommonJS beside its .ts sources (zod)
        # defines each class three times alike: that is one class.
        if len(found) > 1 and len({_shape(c) for c in found}) == 1:
            return found[:1]
        return found

    def apply(site: ThrowSite) -> ThrowSite:
        raised = site.exception_type
        if raised is None or lookup(raised) == []:
            return site
        printed = _printed(raised, lookup)
        if printed is not None:  # the type a user sees is the name node prints
            site = replace(site, exception_type=printed)
        found = classmsg.class_message(raised, lookup, site.args)
        if found is None or (found.held and not site.template.is_empty):
            return site
        got = _filled(found.template, site)
        return site if got == site.template else replace(site, template=got)

    return frozenset(by_name), apply


def _filled(template: Template, site: ThrowSite) -> Template:
    """A hole the class's message shows for an argument whose text is known
    (``new ValidationError('x')``'s ``${field}``) reads that text: the hole is
    named after the argument by ``classmsg.fill``."""
    known = {
        a.expr: a.value for a in site.args if a.value is not None and not a.value.dynamic and a.expr
    }
    if not known or not any(h.expr in known for h in template.holes):
        return template
    parts: list[Part] = []
    for p in template.parts:
        value = known.get(p.expr) if isinstance(p, Hole) else None
        parts.extend(value.parts if value is not None else (p,))
    return Template.of(template.syntax, *parts)


def _printed(raised: str, lookup: Callable[[str], list[ClassDef]]) -> str | None:
    """The name node prints for ``raised`` when its class (or a base on the
    way) sets another: ``class Named extends Error { constructor() { ...;
    this.name = 'BadValue' } }`` prints ``BadValue``. None when it prints the
    class's own name (or the name is not known)."""
    name = raised.rsplit(".", 1)[-1]
    seen: set[str] = set()
    at = name
    while at not in seen and len(seen) < _MAX_BASES:
        seen.add(at)
        found = lookup(at)
        if len(found) != 1:
            return None
        c = found[0]
        given = dict(c.text_attrs).get("name")
        if given is not None:
            shown = "".join(p.text for p in given.parts if isinstance(p, Text))
            return shown if shown and shown != name and not given.holes else None
        if not c.bases:
            return None
        at = c.bases[0].rsplit(".", 1)[-1]
    return None


_MAX_BASES = 32


def _shape(c: ClassDef) -> tuple[object, ...]:
    """What a class says of its message, wherever it is defined."""
    return (
        c.bases,
        c.message,
        c.builds_message,
        c.message_param,
        c.message_params,
        c.super_args,
        c.text_attrs,
    )
