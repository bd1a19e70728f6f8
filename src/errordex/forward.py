"""Join message calls to the forwarders they reach (pure).

A forwarder raises the message it is given (``ParamType.fail``); a message
call passes readable text to a function of that name (``self.fail(_("..."),
param, ctx)``). Each call that surely reaches a forwarder becomes a throw
site at the call, where the text lives, with ``via`` naming the raise::

    ThrowSite(path="click/types.py", line=472, symbol="Choice.convert",
              exception_type="BadParameter", via="click/types.py:222 ParamType.fail")

Calls are matched by name, conservatively; nothing is guessed:

- ``self.fail(...)``/``cls.fail(...)`` follows the calling class and its bases
  (by name, through the classes of the repository) to the first class that
  defines ``fail``; it must be a forwarder.
- any other call (``ctx.fail(...)``, ``fail(...)``) matches only when every
  function of that name in the repository is a forwarder, and there are at
  most ``MAX_DEFINITIONS`` of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from errordex import plugins
from errordex.model import CallArg, ClassDef, Forwarder, MessageCall, ThrowSite
from errordex.template import Hole, Part, Template

MAX_DEFINITIONS = 5
#: the name of a forwarder that raises the errors it collected of a class
#: (``collect:ValidationError``): no call reaches it (``collected_sites``)
COLLECT = "collect:"
#: the ``Forwarder.kind`` of a collector that raises a new error of its own
#: class around the one it caught: its sites take that class
RETYPED = "retyped"
#: the ``Forwarder.kind`` of a collector that raises the caught error again,
#: kept in a name (``err = copy.copy(e)`` ... ``raise err``)
KEPT = "kept"
#: the collectors of one class followed: marshmallow's ValidationError has 6
#: (Schema._do_load, List, Tuple, Dict, Nested and validate.And)
MAX_COLLECTORS = 8
_MAX_BASES = 32


def forwarded_sites(
    forwarders: Iterable[Forwarder],
    calls: Iterable[MessageCall],
    classes: Iterable[ClassDef],
    functions: Iterable[str],
) -> list[ThrowSite]:
    """One site per (call, forwarder, message form) that surely joins."""
    by_qualname: dict[str, list[Forwarder]] = {}
    for fw in forwarders:
        by_qualname.setdefault(fw.qualname, []).append(fw)
    if not by_qualname:
        return []
    names = {q.rsplit(".", 1)[-1] for q in by_qualname}
    # name -> qualnames defining it, for the names of forwarders (the only
    # ones looked up), so the whole repository's functions are not held
    defined: dict[str, set[str]] = {}
    for q in functions:
        name = q.rsplit(".", 1)[-1]
        if name in names:
            defined.setdefault(name, set()).add(q)
    bases: dict[str, list[str]] = {}
    for c in classes:
        bases.setdefault(c.name, []).extend(_base_name(b) for b in c.bases)
    out: list[ThrowSite] = []
    for call in calls:
        if call.callee not in names:
            continue
        if call.receiver in ("self", "cls"):
            targets = _through_class(call, by_qualname, defined, bases)
        else:
            targets = _by_name(call, by_qualname, defined)
        seen: set[tuple[str, str | None, str, str]] = set()
        for fw in targets:
            for site in _sites(call, fw):
                # one helper in several impls (a trait's) builds one value per call
                arg = site.args[0].value if site.args and site.args[0].value else None
                key = (
                    site.kind,
                    site.exception_type,
                    site.template.key(),
                    arg.key() if arg else "",
                )
                if fw.kind is None or key not in seen:
                    seen.add(key)
                    out.append(site)
    return out


def _base_name(base: str) -> str:
    """``t.Generic[T]`` -> ``Generic``; ``mod.Base`` -> ``Base``."""
    return base.split("[", 1)[0].split("(", 1)[0].rsplit(".", 1)[-1].strip()


def _through_class(
    call: MessageCall,
    by_qualname: dict[str, list[Forwarder]],
    defined: dict[str, set[str]],
    bases: dict[str, list[str]],
) -> list[Forwarder]:
    if call.owner is None:
        return []
    qualnames = defined.get(call.callee, set())
    queue: list[str] = [call.owner]
    seen: set[str] = set()
    while queue and len(seen) < _MAX_BASES:
        cls = queue.pop(0)
        if cls in seen:
            continue
        seen.add(cls)
        here = [
            q
            for q in qualnames
            if q == f"{cls}.{call.callee}" or q.endswith(f".{cls}.{call.callee}")
        ]
        if here:  # the first class in the bases that defines the name wins
            if len(here) > MAX_DEFINITIONS or not all(q in by_qualname for q in here):
                return []
            return [fw for q in sorted(here) for fw in by_qualname[q] if fw.method]
        queue.extend(bases.get(cls, []))
    return []


def _by_name(
    call: MessageCall, by_qualname: dict[str, list[Forwarder]], defined: dict[str, set[str]]
) -> list[Forwarder]:
    qualnames = defined.get(call.callee, set())
    if not qualnames or len(qualnames) > MAX_DEFINITIONS:
        return []
    in_module = _in_module(call, by_qualname)
    if in_module:
        return in_module
    if not all(q in by_qualname for q in qualnames):
        return []  # a function of that name that does not raise: cannot tell which
    found = [fw for q in sorted(qualnames) for fw in by_qualname[q]]
    if call.receiver is None:  # a bare call reaches a function, not a method
        return [fw for fw in found if not fw.method]
    # ``ctx.fail`` and ``Context.fail`` vs ``ParamType.fail``: when the
    # receiver's name abbreviates exactly one class, that is the one.
    named = [fw for fw in found if _abbreviates(call.receiver, fw.qualname)]
    owners = {fw.qualname for fw in named}
    return named if len(owners) == 1 else found


def _in_module(call: MessageCall, by_qualname: dict[str, list[Forwarder]]) -> list[Forwarder]:
    """``util.warn(...)``: a module's function, when the receiver names a
    directory or file of the forwarders of that name that are module
    functions (``sqlalchemy/util/langhelpers.py``'s ``warn``); a method or
    a nested function of the same name elsewhere is not what it reaches."""
    word = (call.receiver or "").rsplit(".", 1)[-1]
    if not word or not word.isidentifier() or word in ("self", "cls"):
        return []
    return [
        fw
        for fw in by_qualname.get(call.callee, [])
        if not fw.method and word in fw.path.removesuffix(".py").split("/")
    ]


def _abbreviates(receiver: str, qualname: str) -> bool:
    """``ctx`` -> ``Context.fail``, ``self.parser`` -> ``ArgumentParser.error``."""
    word = receiver.rsplit(".", 1)[-1].lower().strip("_")
    owner = qualname.rsplit(".", 2)[-2].lower() if "." in qualname else ""
    if not word or not owner or not word[0].isalpha():
        return False
    if word in owner:
        return True
    rest = iter(owner)
    return word[0] == owner[0] and all(ch in rest for ch in word)


def _sites(call: MessageCall, fw: Forwarder) -> list[ThrowSite]:
    out: list[ThrowSite] = []
    # A forwarder raises: a call to one is a raise of its file's language.
    lang = plugins.for_path(call.path)
    kind = fw.kind or (lang.runtime.raise_kind if lang is not None else None)
    if lang is None or kind is None:
        return out
    seen: set[str] = set()
    for key, message in call.args:
        if key != fw.param_name and key != fw.param_index:
            continue
        if fw.formats:
            message = lang.runtime.formatted(message, fw.formats)
        template = substitute(fw.template, fw.param_name, message)
        if template is None or template.key() in seen:
            continue
        seen.add(template.key())
        args: tuple[CallArg, ...] = ()
        if fw.kind is not None and fw.kind == lang.runtime.value_kind:
            # a value built of the text: its type says what it prints
            template, args = Template.empty(), (CallArg(None, "", template),)
        out.append(
            ThrowSite(
                path=call.path,
                line=call.line,
                column=call.column,
                end_line=call.end_line,
                language=lang.name,
                kind=kind,
                args=args,
                template=template,
                exception_type=call.exception_type or _class_passed(call, fw) or fw.exception_type,
                symbol=call.symbol,
                guards=call.guards,
                in_test=call.in_test,
                context_hash=call.context_hash,
                via=f"{fw.path}:{fw.line} {fw.qualname}",
            )
        )
    return out


def _class_passed(call: MessageCall, fw: Forwarder) -> str | None:
    """The class a call passes to a forwarder that raises its parameter
    (configobj's ``self._handle_error("Duplicate section name",
    DuplicateError, infile, cur_index)``), or None."""
    if fw.class_param is None:
        return None
    return next(
        (name for key, name in call.classes if key in (fw.class_param, fw.class_index)), None
    )


def substitute(template: Template, param: str, message: Template) -> Template | None:
    """``template`` with the hole ``param`` replaced by ``message``::

    f"error: {msg}" with "disk full" -> "error: disk full"
    """
    if len(template.parts) == 1:
        return message  # the parameter is the whole message
    parts: list[Part] = []
    for p in template.parts:
        if isinstance(p, Hole) and p.expr == param:
            parts.extend(message.parts)
        else:
            parts.append(p)
    return Template.of(template.syntax, *parts)


def collected_classes(forwarders: Iterable[Forwarder]) -> dict[str, list[Forwarder]]:
    """The collectors of each class (its bare name), for the classes that
    have at most ``MAX_COLLECTORS``: a repository that collects in many
    places says nothing about which."""
    out: dict[str, list[Forwarder]] = {}
    for fw in forwarders:
        if fw.name.startswith(COLLECT):
            out.setdefault(fw.name.removeprefix(COLLECT), []).append(fw)
    return {
        k: sorted(v, key=lambda f: (f.path, f.line))
        for k, v in out.items()
        if len(v) <= MAX_COLLECTORS
    }


def collected_sites(
    sites: Iterable[ThrowSite], collectors: dict[str, list[Forwarder]]
) -> Iterator[ThrowSite]:
    """A site per (raise of a collected class with a readable message,
    collector), with the collector as its ``via``."""
    for site in sites:
        if site.in_test or site.via is not None or site.exception_type is None:
            continue
        found = collectors.get(site.exception_type.rsplit(".", 1)[-1])
        # a message of its own, or arguments its class builds one from later
        # (``classmsg``: pyparsing's ParseException(instring, loc, msg, elem))
        readable = not site.template.dynamic and site.template.chunks()
        if not found or not (readable or site.args):
            continue
        for fw in found:
            if (fw.path, fw.line) != (site.path, site.line):
                # a new error of the collector's class around it: the class the user reads
                retyped = fw.kind == RETYPED and fw.exception_type is not None
                yield replace(
                    site,
                    via=f"{fw.path}:{fw.line} {fw.qualname}",
                    exception_type=fw.exception_type if retyped else site.exception_type,
                )


def with_subclasses(
    collectors: dict[str, list[Forwarder]], classes: Iterable[ClassDef]
) -> dict[str, list[Forwarder]]:
    """``collectors`` with each class's collectors also under its subclasses
    (by name, through the bases of the repository's classes): a collector of
    a caught ``ParseBaseException`` raises every ``ParseException`` too."""
    if not collectors:
        return collectors
    children: dict[str, set[str]] = {}
    for c in classes:
        for b in c.bases:
            children.setdefault(_base_name(b), set()).add(c.name)
    out = {k: list(v) for k, v in collectors.items()}
    for name, found in collectors.items():
        queue, seen = [name], {name}
        while queue and len(seen) < 256:
            for sub in children.get(queue.pop(), ()):
                if sub in seen:
                    continue
                seen.add(sub)
                queue.append(sub)
                have = out.setdefault(sub, [])
                have.extend(fw for fw in found if fw not in have)
    return {k: v for k, v in out.items() if len(v) <= MAX_COLLECTORS}
