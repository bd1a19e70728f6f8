"""Messages that an exception class defined in another file builds (pure).

The Python extractor reads one file at a time. When a raise names a class
defined in the same file, it already knows whether the class builds its
message (``__str__``, ``__init__``) or holds one (``message = "..."``). For a
class defined elsewhere it reads the first argument as the message; this
pass corrects that once every file's classes are known:

- a class whose code builds the message: the raise's arguments are not the
  message (pip's ``InvalidSchemeCombination("--home", "--prefix")`` prints
  ``Cannot set --home and --prefix together``), so the site takes the class's
  template, with the first argument put in for ``__init__``'s first parameter
  where the template shows it;
- a class that holds a message, raised with no arguments: that message.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import replace

from errordex.model import ClassDef, ThrowSite
from errordex.template import Hole, Part, Template, Text


def with_class_messages(sites: list[ThrowSite], classes: Iterable[ClassDef]) -> list[ThrowSite]:
    """``sites`` with the messages of classes defined in other files applied."""
    by_name: dict[str, list[ClassDef]] = defaultdict(list)
    for c in classes:
        if c.path.endswith((".py", ".pyi")):
            by_name[c.name].append(c)
    if not by_name:
        return sites
    return [_apply(s, by_name) for s in sites]


def _apply(site: ThrowSite, by_name: dict[str, list[ClassDef]]) -> ThrowSite:
    if site.language != "python" or site.kind != "raise" or not site.exception_type:
        return site
    raised = site.exception_type.rsplit(".", 1)[-1]
    held = _message_class(raised, by_name)
    if held is None or held.message is None or held.path == site.path:
        return site  # unknown, ambiguous, or read by the extractor already
    if held.builds_message:
        return replace(site, template=name_the_class(_filled(held, site.template), raised))
    if site.template.is_empty:
        return replace(site, template=held.message)
    return site


#: How a message built in a class names the class it is raised as.
_CLASS_NAME = frozenset(
    {"self.__class__.__name__", "type(self).__name__", "self.__class__.__qualname__"}
)


def name_the_class(template: Template, raised: str) -> Template:
    """A message an exception class builds, ``f"<{self.__class__.__name__}: ...>"``,
    raised as ``X`` reads ``<X: ...>``: the raise names the class, so that part
    is not built at run time. (Only for a class's own message: elsewhere
    ``self`` is some other object.)"""
    if not any(h.expr in _CLASS_NAME and h.spec == f"{{{h.expr}}}" for h in template.holes):
        return template
    parts = [
        Text(raised)
        if isinstance(p, Hole) and p.expr in _CLASS_NAME and p.spec == f"{{{p.expr}}}"
        else p
        for p in template.parts
    ]
    return Template.of(template.syntax, *parts)


def _message_class(name: str, by_name: dict[str, list[ClassDef]]) -> ClassDef | None:
    """The class, from ``name`` up its bases, whose message a raise of ``name``
    shows; None when a name on the way is defined more than once."""
    seen: set[str] = set()
    while name not in seen:
        seen.add(name)
        found = by_name.get(name, [])
        if len(found) != 1:
            return None
        c = found[0]
        if c.message is not None:
            return c
        up = [b.rsplit(".", 1)[-1] for b in c.bases if b.rsplit(".", 1)[-1] in by_name]
        if not up:
            return None
        name = up[0]
    return None


def _filled(cls: ClassDef, first_arg: Template) -> Template:
    """The class's template, with the raise's first argument in the holes of
    ``__init__``'s first parameter (``JSONDecodeError("Expecting value", ...)``
    in ``'%s: line %d ...' % (msg, ...)``)."""
    assert cls.message is not None
    first = cls.message_params[0] if cls.message_params else None
    if first is None or first_arg.is_empty or first_arg.dynamic:
        return cls.message
    parts: list[Part] = []
    for p in cls.message.parts:
        if isinstance(p, Hole) and p.expr == first and p.spec in ("%s", "{}", f"{{{first}}}"):
            parts.extend(first_arg.parts)
        else:
            parts.append(p)
    return Template.of(cls.message.syntax, *parts)
