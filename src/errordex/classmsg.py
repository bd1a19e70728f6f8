"""The message a raise of an exception class shows, from the class (pure).

A raise's arguments are not always its message. The class may build the
message in code (``__str__``, ``__init__``), or take it from one parameter
that is not the first. ``class_message`` reads both from the ClassDefs,
and is shared by the Python extractor (a class defined in the same file)
and ``class_messages`` (a class defined in another file, once every
file's classes are known):

- a class whose code builds the message: the site takes the class's
  template, with each ``__init__`` parameter the template shows filled in
  from the raise's argument for it (by position, or keyword), through
  ``self.detail = detail`` too: starlette's ``HTTPException(status_code=404)``
  with ``f"{self.status_code}: {self.detail}"`` reads ``404: {self.detail}``.
  pip's ``InvalidSchemeCombination("--home", "--prefix")`` prints
  ``Cannot set {before} and {self.args[-1]} together``, not ``--home``;
- a class whose ``__str__`` returns a parameter (``self.message = message``),
  or that hands its arguments on to its base (``super().__init__(message,
  ctx)``) up to one that shows or builds the message: the raise's argument
  for that parameter, or the text ``__init__`` puts in when it is not given.
  click's ``BadOptionUsage(opt, _("Option {name!r} does not take a
  value."))`` reads that text, not ``{opt}``;
- a class that holds a message (``message = "..."``): that message, for a
  raise that gives none.

An argument that is missing or cannot be read leaves its hole in place: the
message is then partly built at run time, never the argument's name as text.
A class whose ``__str__`` cannot be read tells nothing. Classes are found by
name; a qualified one (``errors.FileError``) only in a module of that name.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from errordex import plugins
from errordex.forward import COLLECT
from errordex.model import CallArg, ClassDef, ThrowSite, via_place
from errordex.template import Hole, Part, Template, Text

#: the classes defined under a name (a base is looked up the same way)
Lookup = Callable[[str], list[ClassDef]]

_MAX_BASES = 32


@dataclass(frozen=True)
class ClassMessage:
    """What a raise of a class shows, and what it was read from."""

    template: Template
    #: a class attribute (``message = "..."``): only for a raise that gives
    #: no message of its own
    held: bool
    #: the files of the classes read on the way
    paths: frozenset[str]


def class_messages(
    classes: Iterable[ClassDef],
) -> tuple[frozenset[str], Callable[[ThrowSite], ThrowSite]]:
    """The names ``raised_class`` of the sites a class defined in another file
    may give a message, and what gives it: ``apply(site)`` is the site with
    that message (or ``site`` itself). A site raising another name is never
    changed, so a caller may skip it."""
    by_name: dict[str, list[ClassDef]] = defaultdict(list)
    for c in classes:
        if c.path.endswith((".py", ".pyi")):
            by_name[c.name].append(c)

    def lookup(name: str) -> list[ClassDef]:
        found = by_name.get(name.rsplit(".", 1)[-1], [])
        qualifier = name.rsplit(".", 2)[-2] if "." in name else ""
        if qualifier and qualifier[0].islower() and qualifier not in ("self", "cls"):
            # ``errors.FileError``: a class of that name in a module ``errors``
            # (or a package of that name), not one elsewhere
            found = [c for c in found if qualifier in _module_names(c.path)]
        return found

    def apply(site: ThrowSite) -> ThrowSite:
        return _apply(site, lookup) if raised_class(site) in by_name else site

    return frozenset(by_name), apply


def raised_class(site: ThrowSite) -> str:
    """The name of the class a ``raise`` raises (``errors.FileError`` ->
    ``FileError``), which ``class_messages`` looks up; "" for another site
    (``Runtime.raise_kind`` says which kind raises a class, and
    ``Runtime.value_kind`` which builds a value of a type defined elsewhere)."""
    if not site.exception_type:
        return ""
    lang = plugins.find(site.language)
    if lang is None or site.kind not in (lang.runtime.raise_kind, lang.runtime.value_kind):
        return ""
    return site.exception_type.rsplit(".", 1)[-1]


def raise_key(site: ThrowSite) -> str:
    """``raised_class`` with the site's language (``"python\0FileError"``),
    as ``plugins.class_messages`` names what it revises; "" for a site that
    raises no class."""
    name = raised_class(site)
    return f"{site.language}\0{name}" if name else ""


def _module_names(path: str) -> set[str]:
    """``click/exceptions.py`` -> {"click", "exceptions"}."""
    parts = path.removesuffix(".pyi").removesuffix(".py").split("/")
    return set(parts[:-1] if parts[-1] == "__init__" else parts)


def site_args(template: Template, args: tuple[CallArg, ...]) -> tuple[CallArg, ...]:
    """The arguments a site keeps: none when they are just its message, as
    in most raises (``ValueError("bad")``), since sites travel between
    processes; ``_args`` reads them back."""
    if len(args) == 1 and args[0].name is None and _args(template, ()) == args:
        return ()
    return args


def _args(template: Template, args: tuple[CallArg, ...]) -> tuple[CallArg, ...]:
    """The arguments of a raise with the message ``template``. Without them,
    its message stands for the first argument (see ``site_args``)."""
    if args or template.is_empty:
        return args
    only = template.parts[0]
    if template.syntax == "literal" and template.dynamic and isinstance(only, Hole):
        return (CallArg(None, only.expr),)  # Template.runtime(expr): not readable
    return (CallArg(None, "", template),)


def _apply(site: ThrowSite, lookup: Lookup) -> ThrowSite:
    if not raised_class(site) or site.exception_type is None:
        return site
    # A message forwarded to a helper that raises it stands for the argument
    # the helper was given; a raise whose error a collector raises again
    # (``forward.collected_sites``) is still a raise with its own arguments.
    forwarded = site.via is not None and f".{COLLECT}" not in site.via
    args = _args(site.template, () if forwarded else site.args)
    found = class_message(site.exception_type, lookup, args, forwarded=forwarded)
    # The extractor reads a class of the file it raises in: at the site, or
    # at the helper a forwarded message goes through (packaging's
    # ``raise_syntax_error`` already shows ``ParserSyntaxError.__str__``).
    read = {site.path} | ({via[0]} if forwarded and (via := via_place(site.via)) else set())
    if found is None or found.paths <= read:
        return site  # nothing known, or read by the extractor already
    if found.held and not site.template.is_empty:
        return site
    if found.template == site.template:
        return site
    return replace(site, template=found.template)


def class_message(
    raised: str, lookup: Lookup, args: tuple[CallArg, ...], forwarded: bool = False
) -> ClassMessage | None:
    """The message a raise of ``raised(*args)`` shows, read from its classes
    up their bases; None when they tell nothing (the raise's own argument
    stands), a class builds the message in code that cannot be read, or a
    name on the way is defined more than once.

    ``forwarded``: ``args`` holds only the message a helper was given, so a
    class that takes its message from a parameter tells nothing more.
    """
    shown = raised.rsplit(".", 1)[-1]
    paths: set[str] = set()
    handed = False  # whether ``args`` are what a class handed to its base
    texts: dict[str, Template] = {}  # class attributes, the raised class's first
    for c in _classes(raised, lookup):
        paths.add(c.path)
        for name, text in c.text_attrs:
            texts.setdefault(f"self.{name}", text)
        if c.builds_message:
            if c.message is None:
                return None
            filled = name_the_class(fill(c.message, c, args), shown)
            return ClassMessage(with_attributes(filled, texts), False, frozenset(paths))
        if c.message_param is not None:
            if forwarded:
                return None
            bound, unknown = bind(c.message_params, args)
            if not c.super_args:  # its __str__ returns the parameter
                arg = _given(c.message_param, c, args, bound, unknown, shown)
                found = _value(arg) if arg is not None else None
                return ClassMessage(found, False, frozenset(paths)) if found else None
            args = tuple(_handed(t, c, args, bound, unknown, shown) for t in c.super_args) + tuple(
                replace(_handed(t, c, args, bound, unknown, shown), name=k)
                for k, t in c.super_kwargs
            )
            handed = True
            continue
        if c.message is not None:
            if handed:
                break  # its message attribute is not what ``str()`` shows
            return ClassMessage(c.message, True, frozenset(paths))
    # Exception.__init__ got one argument: ``str()`` shows it as it is
    found = _value(args[0]) if handed and len(args) == 1 else None
    return ClassMessage(found, False, frozenset(paths)) if found is not None else None


def with_attributes(template: Template, texts: dict[str, Template]) -> Template:
    """A message a class builds from its attributes, with the text the raised
    class (or a base on the way) sets them to: werkzeug's ``f"{code}
    {self.name}: {self.description}"`` raised as ``MethodNotAllowed`` reads
    ``{code} {self.name}: The method is not allowed for the requested URL.``
    """
    if not texts or not any(h.expr in texts for h in template.holes):
        return template
    parts: list[Part] = []
    for p in template.parts:
        text = texts.get(p.expr) if isinstance(p, Hole) and _shows_str(p.spec) else None
        parts.extend(text.parts if text is not None else (p,))
    return Template.of(template.syntax, *parts)


#: an argument whose value is not known
_UNKNOWN = CallArg(None, "")


def _given(
    param: str,
    c: ClassDef,
    args: tuple[CallArg, ...],
    bound: dict[str, CallArg],
    unknown: set[str],
    shown: str,
) -> CallArg | None:
    """The argument ``param`` of ``c.__init__`` gets: the raise's, the text
    ``__init__`` puts in for the message parameter, or an unknown value
    (named after the parameter); None when it cannot be told (after a
    splat, or a raise with no arguments at all, which may not reach here)."""
    arg = bound.get(param)
    if arg is not None:
        return replace(arg, name=None)
    if param in unknown:
        return None
    if param == c.message_param and c.message is not None:
        return CallArg(None, "", name_the_class(fill(c.message, c, args), shown))
    return CallArg(None, param) if args else None


def _handed(
    t: Template | None,
    c: ClassDef,
    args: tuple[CallArg, ...],
    bound: dict[str, CallArg],
    unknown: set[str],
    shown: str,
) -> CallArg:
    """What ``c`` hands to its base for one of ``ClassDef.super_args``."""
    if t is None:
        return _UNKNOWN
    only = t.parts[0] if len(t.parts) == 1 else None
    if isinstance(only, Hole) and t.syntax == "literal" and t.dynamic:
        if only.expr.startswith("*"):
            return CallArg("*", "")
        if only.expr in c.message_params:
            return _given(only.expr, c, args, bound, unknown, shown) or _UNKNOWN
    return CallArg(None, "", fill(t, c, args))


def _classes(name: str, lookup: Lookup) -> Iterator[ClassDef]:
    """The class ``name`` and its bases defined in the repo, first base
    first; stops where a name is defined more than once."""
    seen: set[str] = set()
    while name not in seen and len(seen) < _MAX_BASES:
        seen.add(name)
        found = lookup(name)
        if len(found) != 1:
            return
        c = found[0]
        yield c
        up = [b for b in c.bases if lookup(b)]
        if not up:
            return
        name = up[0]


def bind(params: tuple[str, ...], args: tuple[CallArg, ...]) -> tuple[dict[str, CallArg], set[str]]:
    """The argument each parameter gets (positional by order, keywords by
    name), and the parameters a splat (``*rest``, ``**kw``) may fill."""
    bound: dict[str, CallArg] = {}
    unknown: set[str] = set()
    position: int | None = 0  # None past a ``*rest``: the places are unknown
    for a in args:
        if a.name is None:
            if position is not None and position < len(params):
                bound[params[position]] = a
            position = None if position is None else position + 1
        elif a.name == "*":
            unknown.update(params[position:] if position is not None else ())
            position = None
        elif a.name == "**":
            unknown.update(params)
        elif a.name in params:
            bound[a.name] = a
    return bound, unknown - bound.keys()


def fill(template: Template, cls: ClassDef, args: tuple[CallArg, ...]) -> Template:
    """``template`` (built by ``cls``) with each hole of an ``__init__``
    parameter showing the raise's argument for it: ``DecodeError("Expecting
    value", s, 0)`` with ``'%s: line %d (char %d)' % (msg, lineno, pos)``
    reads ``Expecting value: line %d (char 0)``. A hole whose argument is not
    given or not readable stays a hole (named after the argument, if any)."""
    if not args or not template.holes:
        return template
    bound, _ = bind(cls.message_params, args)
    if not bound:
        return template
    attrs = dict(cls.param_attrs)
    parts: list[Part] = []
    for p in template.parts:
        arg = bound.get(attrs.get(p.expr, p.expr)) if isinstance(p, Hole) else None
        if arg is None or not isinstance(p, Hole):
            parts.append(p)
        else:
            parts.extend(_shown(arg, p))
    return Template.of(template.syntax, *parts)


def _value(arg: CallArg) -> Template | None:
    """The message an argument is, when passed as the message; None when
    its value is not known."""
    if arg.value is not None:
        return arg.value
    return Template.runtime(arg.expr) if arg.expr else None


def _shown(arg: CallArg, hole: Hole) -> tuple[Part, ...]:
    """What the placeholder ``hole`` prints for ``arg``."""
    value, spec = arg.value, hole.spec
    if value is not None and not value.dynamic:
        if arg.integer and (_shows_str(spec) or _shows_int(spec) or _shows_repr(spec)):
            return (Text(str(int(arg.expr))),)
        if _shows_str(spec):
            return value.parts
        if _shows_repr(spec) and not value.holes:
            return (Text(repr("".join(p.text for p in value.parts if isinstance(p, Text)))),)
    if not arg.expr or arg.name in ("*", "**"):
        return (hole,)
    return (Hole(arg.expr, spec),)


def _shows_str(spec: str) -> bool:
    """``%s``, ``%(message)s``, ``{}``, ``{msg}``: the value's text as is."""
    return _STR.fullmatch(spec) is not None


def _shows_int(spec: str) -> bool:
    """``%d``, ``%(n)i``, ``{:d}``, ``{n!r}``: an integer's digits."""
    return _INT.fullmatch(spec) is not None


def _shows_repr(spec: str) -> bool:
    """``%r``, ``{x!r}``: the value's repr."""
    return _REPR.fullmatch(spec) is not None


_STR = re.compile(r"%(?:\([^)]*\))?s|\{[^!:=]*\}")
_INT = re.compile(r"%(?:\([^)]*\))?[di]|\{[^!:=]*(?:![rs])?(?::d)?\}")
_REPR = re.compile(r"%(?:\([^)]*\))?r|\{[^!:=]*!r\}")

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
