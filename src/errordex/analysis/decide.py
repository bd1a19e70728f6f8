"""Which raise a test with no expected text reproduces, told by the checks
(pure, over the Index).

``with pytest.raises(ValueError): Align("foo", "middle")`` names no
message, and ``Align.__init__`` raises ``ValueError`` twice. The test is of
the raise whose checks hold for the call's literal arguments (and the
function's defaults) while the checks of every other raise the test's
class catches there fail: ``align not in ("left", "center", "right")``
holds for ``"middle"``, ``vertical is not None and …`` fails for the
default ``None``. The language works the checks out (``Pages.fires_on_call``);
whatever it cannot work out leaves the test unlinked: nothing is guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from errordex import plugins
from errordex.analysis.calledon import called_by_path
from errordex.analysis.evidence import FuncDef
from errordex.analysis.index import Index, RaiseSite
from errordex.analysis.lift import expanded
from errordex.model import ErrorEntry

Fact = dict[str, Any]


def checks(guards: Iterable[Fact]) -> list[tuple[str, str]]:
    """(kind, text with its locals read as their values) of a site's guards,
    each once (an ``if isinstance`` is listed under two kinds)."""
    out: dict[tuple[int, str], tuple[str, str]] = {}
    for g in guards:
        key = (int(g["line"]), str(g["text"]))
        if key not in out or out[key][0] == "isinstance":
            out[key] = (str(g["kind"]), expanded(g))
    return list(out.values())


def _checks_of(site: RaiseSite) -> list[tuple[str, str]]:
    return checks(
        {"line": g.line, "kind": g.kind, "text": g.text, "values": [list(v) for v in g.values]}
        for g in site.guards
    )


def _catches(expected: str, raised: str, ix: Index, language: str) -> bool:
    """Whether ``pytest.raises(expected)`` catches a raise of ``raised``:
    the class, or one whose bases (the repository's, then the runtime's)
    include it. Unknown bases count as catching: the test may be of that one."""
    if raised == expected:
        return True
    lang = plugins.find(language)
    seen: set[str] = set()
    todo = [raised]
    while todo and len(seen) < 32:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        builtin = lang.runtime.builtin_classes(name) if lang is not None else None
        if builtin is not None:
            if expected in builtin:
                return True
            continue
        defs = ix.classes.get(name, ())
        if not defs:
            return True  # a class from elsewhere: its bases are not known
        for c in defs:
            todo += [b.split("[", 1)[0].rsplit(".", 1)[-1] for b in c.bases]
    return expected in seen


def decided_by_check(
    entry: ErrorEntry,
    reach: list[Fact],
    ix: Index,
    body: str,
    calls: Sequence[str],
    expected: str,
    guards: list[Fact],
    lifted: list[Fact],
) -> bool:
    """Whether a test whose ``body`` makes ``calls`` and expects the class
    ``expected`` (no text) reproduces this entry: it calls a function with
    one of the entry's sites in it (a class, for its ``__init__``), the
    site's checks hold for the call, and those of every other raise there
    that the test's class catches fail; or it calls the public function a
    private helper's check was lifted to (``lift``), that check holds, and
    no function on the way raises such a class anywhere else."""
    if not entry.sites:
        return False
    language = entry.sites[0].language
    lang = plugins.find(language)
    fires = lang.pages.fires_on_call if lang is not None else None
    if fires is None:
        return False
    called = set(calls)
    for r in reach:
        fn = ix.function(r["path"], r["function"])
        if fn is None:
            continue
        owner, _, name = str(r["function"]).rpartition(".")
        owner = owner.rsplit(".", 1)[-1]
        if name == "__init__":
            name = owner
        mine = checks(g for g in guards if g["site"] == r["site"])
        if name in called and mine and _this_one(body, str(r["function"]), name, ix, r["path"]):
            if (
                fires(
                    mine, body, name, fn.params, fn.defaults, owner or None, _before(fn, r["site"])
                )
                is not True
            ):
                continue
            others = [
                s
                for s in ix.raises_in(r["path"], r["function"])
                if s.id != entry.id and _catches(expected, s.exception, ix, language)
            ]
            if all(
                fires(
                    _checks_of(s),
                    body,
                    name,
                    fn.params,
                    fn.defaults,
                    owner or None,
                    _before(fn, s.line),
                )
                is False
                for s in others
            ):
                return True
            continue
        if _by_lifted(entry, r, ix, body, called, expected, lifted, language):
            return True
    return False


def _by_lifted(
    entry: ErrorEntry,
    r: Fact,
    ix: Index,
    body: str,
    called: set[str],
    expected: str,
    lifted: list[Fact],
    language: str,
) -> bool:
    lang = plugins.find(language)
    fires = lang.pages.fires_on_call if lang is not None else None
    if fires is None:
        return False
    for up in lifted:
        if up["site"] != r["site"] or up["kind"] in ("elif", "else", "except"):
            continue
        owner, _, name = str(up["function"]).rpartition(".")
        owner = owner.rsplit(".", 1)[-1]
        if name == "__init__":
            name = owner
        top = ix.function(*_place(up, r))
        if (
            name not in called
            or top is None
            or not _this_one(body, str(up["function"]), name, ix, top.path)
        ):
            continue
        chain = next(
            (c for c in r.get("paths", ()) if c and c[0]["function"] == up["function"]), None
        )
        if chain is None:
            continue
        check = [(str(up["kind"]), str(up["text"]))]
        if (
            fires(
                check,
                body,
                name,
                top.params,
                top.defaults,
                owner or None,
                _before(top, chain[0]["line"]),
            )
            is not True
        ):
            continue
        # no other error thrown on the way (of any class: a function with
        # one raise is in no ``raises_in``): it is this one
        way = [(h["path"], h["function"]) for h in chain] + [(r["path"], r["function"])]
        if not any(
            e.id != entry.id for path, symbol in way for e in ix.by_symbol.get((path, symbol), ())
        ):
            return True
    return False


def _before(fn: FuncDef, at: str | int) -> list[str]:
    """The parameters ``fn`` assigns again before line ``at`` (or the line
    of the site ``path:line``): there a check does not read the argument."""
    line = int(str(at).rsplit(":", 1)[-1])
    return [name for name, first in fn.rebinds if first < line]


def _this_one(body: str, symbol: str, name: str, ix: Index, path: str) -> bool:
    """Whether the test's call of ``name`` is the function ``symbol`` of
    ``path``: the repository defines one function (or class) of that name,
    or the test calls it on its type, or on its module (falcon's
    ``misc.secure_filename('')``, not ``BodyPart.secure_filename``).
    xarray's ``array.to_dataset("x")`` is ``DataArray``'s, not
    ``DataTree``'s, whose ``inherit`` the same argument would fail: the
    checks of another function say nothing."""
    if called_by_path(body, symbol):
        return True
    if "." not in symbol and "::" not in symbol:
        stem = path.rsplit("/", 1)[-1].removesuffix(".py")
        if stem == "__init__":
            stem = path.rsplit("/", 2)[-2] if path.count("/") >= 1 else stem
        if re.search(rf"(?<!\w){re.escape(stem)}\s*\.\s*{re.escape(name)}\s*\(", body):
            return True
    if name[:1].isupper() and symbol.endswith(".__init__"):
        return len(ix.classes.get(name, ())) == 1 and not ix.defined.get(name)
    return ix.defined.get(name, 0) == 1 and not ix.classes.get(name)


def _place(up: Fact, r: Fact) -> tuple[str, str]:
    """The file and symbol of the public function a check was lifted to."""
    for chain in r.get("paths", ()):
        if chain and chain[0]["function"] == up["function"]:
            return str(chain[0]["path"]), str(up["function"])
    return str(r["path"]), str(up["function"])
