"""Errors caught and raised again as another class, with the caught
message (Python, pure): issue 15, pattern 5.

toml's parser raises ``ValueError("Empty value is invalid")`` deep inside,
and ``loads`` wraps it with the place in the document::

    except ValueError as err:
        raise TomlDecodeError(str(err), original, pos)
    # TomlDecodeError: Empty value is invalid (line 1 column 1 char 0)

The text is written at the inner raise; the traceback ends at the wrapping
one. A raise whose message shows the caught exception (``str(err)``,
``err``, ``err.args[0]``, ``*err.args``) is a wrapper of the classes its
``except`` clause names. Each raise of such a class in the same file with a
readable message gives a site at that raise, of the wrapper's class, with
the wrapper's message around the inner text, and the wrapper as its
``via``; at most ``MAX_WRAPPED`` of them per wrapper (a file that raises
the caught class in more places says nothing about which).

The wrapper's class must show its message here: a class of this file, or
a builtin. A class of another file reads its message from the raise's
arguments later (``classmsg``), which a ``via`` site does not keep.
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass, replace

from errordex.forward import substitute
from errordex.model import Guard, ThrowSite
from errordex.template import Hole, Template

#: inner raises wrapped by one wrapper, at most
MAX_WRAPPED = 64
_CAUGHT = re.compile(r"^\(?(?P<types>[\w., ]+?)\)?\s+as\s+(?P<name>[A-Za-z_]\w*)\s*$")


@dataclass(frozen=True)
class Wrapper:
    """A raise that wraps what it caught: its site, the hole of its message
    that shows the caught exception, and the classes caught."""

    site: ThrowSite
    hole: str
    caught: tuple[str, ...]


def wrapper(site: ThrowSite, guards: tuple[Guard, ...], local: bool) -> Wrapper | None:
    """The wrapper ``site`` is, when its message shows a caught exception.
    ``local``: its class is defined in this file."""
    exc = site.exception_type
    if exc is None or not (local or exc in vars(builtins)) or site.template.dynamic:
        return None
    for g in reversed(guards):  # the innermost except clause first
        m = _CAUGHT.match(g.text) if g.kind == "except" else None
        if m is None:
            continue
        name = m.group("name")
        shows = {name, f"str({name})", f"{name}.args[0]", f"*{name}.args"}
        holes = [h for h in site.template.holes if h.expr in shows and _shows_str(h)]
        if len(holes) != 1:
            return None
        caught = tuple(t.strip().rsplit(".", 1)[-1] for t in m.group("types").split(","))
        return Wrapper(site, holes[0].expr, tuple(t for t in caught if t))
    return None


def _shows_str(h: Hole) -> bool:
    return h.spec in ("{}", "%s", f"{{{h.expr}}}", f"{{{h.expr}!s}}")


def wrapped_sites(sites: list[ThrowSite], wrappers: list[Wrapper]) -> list[ThrowSite]:
    """A site per (wrapper, raise of a class it catches in this file)."""
    out: list[ThrowSite] = []
    for w in wrappers:
        inner = [
            s
            for s in sites
            if s.kind == "raise"
            and s.via is None
            and not s.in_test
            and s.exception_type is not None
            and s.exception_type.rsplit(".", 1)[-1] in w.caught
            and not s.template.dynamic
            and s.template.chunks()
            and (s.line, s.column) != (w.site.line, w.site.column)
        ]
        if not inner or len(inner) > MAX_WRAPPED:
            continue
        seen: set[tuple[int, str]] = set()
        for s in inner:
            text = _wrap(w, s.template)
            if text is None or (s.line, text.key()) in seen:
                continue
            seen.add((s.line, text.key()))
            out.append(
                replace(
                    s,
                    exception_type=w.site.exception_type,
                    template=text,
                    via=f"{w.site.path}:{w.site.line} {w.site.symbol or '<module>'}",
                    args=(),
                )
            )
    return out


def _wrap(w: Wrapper, inner: Template) -> Template | None:
    return substitute(w.site.template, w.hole, inner)
