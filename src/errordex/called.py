"""The public call a pasted stack shows the user made into a library.

A traceback (or a panic's backtrace) that runs from the user's code into
the library shows, in the library's frame just below the user's, the
function the user called: ``create_engine`` in sqlalchemy/engine/create.py
for ``create_engine("nosuchdb://x")``, though the raise is three calls down
in ``PluginLoader.load``. The index's call chains may not know that way in
(sqlalchemy reaches the loader through a module-level ``registry``); the
paste does.

The frames are read against the indexed files as stored: the function a
frame runs is the one of that name whose definition holds the frame's
line, and it is a public call when the language's rules say so (Python: no
private part of its name, not nested in a function, in a module a user can
import or re-exported from one). A decorator's wrapper (sqlalchemy's
``warned``, nested in the decorator) passes the call on and is skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from errordex import plugins
from errordex.analysis.evidence import FileEvidence, FuncDef
from errordex.analysis.facts import Fact, _exported
from errordex.analysis.index import Index
from errordex.analysis.scan import scan

#: (repository path, line, function as the runtime printed it), outermost first
StackFrame = tuple[str, int, str]
#: frames of the repository looked at from the way in, at most
MAX_FRAMES = 6
#: package files (``__init__.py``) above a module read for its re-exports, at most
MAX_PACKAGE_DEPTH = 6


def public_call(frames: Sequence[StackFrame], read: Callable[[str], str | None]) -> Fact | None:
    """The public function of the first of ``frames`` (the repository's,
    from the user's call inward) that runs one, as a fact like a chain's
    head: ``function`` (its symbol), ``path``, ``line`` (its definition),
    ``public``, ``params``, ``called_at`` (the frame's line) and, where a
    package re-exports it or its module is importable, ``exported`` (the
    name a user imports it by, with the re-export's path and line). None
    when no frame runs a public function. ``read`` gives a repository
    file's text as indexed (None when it is not stored)."""
    evidence: dict[str, FileEvidence] = {}
    for path, line, function in frames[:MAX_FRAMES]:
        lang = plugins.for_path(path)
        if lang is None:
            return None
        if path not in evidence:
            text = read(path)
            if text is None:
                return None  # a frame not read is no proof of the next one
            evidence[path] = scan(path, text, lang.name)
        fn = _running(evidence[path].functions, line, function)
        if fn is None:
            return None
        ix = _index_of(path, evidence, read)
        if not ix.public(fn) or fn.in_test:
            continue  # a wrapper (a decorator's, nested in it) passes the call on
        fact: Fact = {
            "function": fn.symbol,
            "path": fn.path,
            "line": fn.line,
            "public": True,
            "params": list(fn.params),
            "called_at": line,
        }
        exported = ix.exported_name(fn.path, fn.symbol)
        if exported is not None:
            fact["exported"] = {"name": exported[0], "path": exported[1], "line": exported[2]}
        else:
            named = _exported(fact, ix)
            if named is not None:
                fact["exported"] = named
        return fact
    return None


def _running(functions: Sequence[FuncDef], line: int, printed: str) -> FuncDef | None:
    """The innermost function whose definition holds ``line`` and whose name
    is the one printed (Python prints a function's own name, Rust its path)."""
    holding = [f for f in functions if f.line <= line <= f.end_line]
    named = [f for f in holding if _printed_as(f, printed)]
    return max(named, key=lambda f: f.line) if named else None


def _printed_as(fn: FuncDef, printed: str) -> bool:
    return printed == fn.name or printed.endswith(("." + fn.name, "::" + fn.name))


def _index_of(
    path: str, evidence: dict[str, FileEvidence], read: Callable[[str], str | None]
) -> Index:
    """An index of the stack's files and the packages above ``path`` that
    are stored: enough to say whether a function is API and by what name
    a package re-exports it."""
    dirs = path.split("/")[:-1]
    for depth in range(min(len(dirs), MAX_PACKAGE_DEPTH), 0, -1):
        init = "/".join([*dirs[:depth], "__init__.py"])
        lang = plugins.for_path(init)
        if init not in evidence and path.endswith(".py") and lang is not None:
            text = read(init)
            if text is not None:
                evidence[init] = scan(init, text, lang.name)
    return Index(list(evidence.values()), [], [])


def shown(fact: Fact) -> str:
    """The call as a user writes it (``sqlalchemy.create_engine``)."""
    exported: dict[str, Any] | None = fact.get("exported")
    return str(exported["name"]) if exported else str(fact["function"])
