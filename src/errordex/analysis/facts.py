"""Facts: what the code proves about an entry, each with its evidence (pure).

A fact is a plain dict with at least ``path`` and ``line`` (its evidence).
``facts`` reads one entry's from the snapshot's ``Index`` (``index.py``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from errordex import plugins
from errordex.analysis.cfg import dependency_line, enabled_by, features_in
from errordex.analysis.evidence import DocLine, FuncDef, TestExpect
from errordex.analysis.index import (
    ROW_SHARE,
    Index,
    Related,
    guarded_names,
    trigrams_of,
    words_of,
)
from errordex.analysis.lift import lift
from errordex.analysis.textmatch import Message, pins
from errordex.forge import parse_forge_url
from errordex.model import ErrorEntry, Repo, ThrowSite

Fact = dict[str, Any]

MAX_SITES = 12
MAX_HOPS = 4
MAX_PATHS = 3
MAX_TESTS = 6
MAX_RELATED = 8
#: a name defined in more places than this says nothing about who is called
AMBIGUOUS = 6
#: words by which a message says it is the library's own bug, not the caller's
_INVARIANT = re.compile(
    r"\bbug\b|internal error|should never|should not happen|never happen"
    r"|this is a bug|not supposed to happen",
    re.I,
)
MAX_CALLERS = 3


def _at(path: str, line: int, **data: Any) -> Fact:
    return {"path": path, "line": line, **data}


# -- facts per entry ---------------------------------------------------------


def guards(sites: list[ThrowSite]) -> list[Fact]:
    out: list[Fact] = []
    for s in sites:
        for g in s.guards:
            fact = _at(s.path, g.line, site=f"{s.path}:{s.line}", kind=g.kind, text=g.text)
            if g.siblings:
                fact["siblings"] = list(g.siblings)
            out.append(fact)
    return out


def catch_all_arms(sites: list[ThrowSite], ix: Index | None = None) -> list[Fact]:
    out: list[Fact] = []
    for s in sites:
        for g in s.guards:
            if (g.kind == "match-arm" and g.siblings and g.text in ("_",)) or (
                g.kind == "match-arm" and g.siblings and g.text[:1].islower()
            ):
                handled = [x for x in g.siblings if x != g.text]
                fact = _at(s.path, g.line, site=f"{s.path}:{s.line}", arm=g.text, handled=handled)
                got = ix.scrutinee(s.path, g.line) if ix is not None else None
                if got:
                    fact["value"] = {"path": s.path, "line": got[1] or g.line, "text": got[0]}
                out.append(fact)
    return out


def _packaged(language: str) -> bool:
    """Whether the language's code lives in packages its manifests declare
    (a crate in a Cargo.toml), with features and a repository to report to."""
    lang = plugins.find(language)
    return lang is not None and bool(lang.project.manifests)


def _raises_classes(language: str) -> bool:
    """Whether the language raises exception classes, with a hierarchy."""
    lang = plugins.find(language)
    return lang is not None and lang.runtime.raise_kind is not None


def _panic_kinds(language: str) -> frozenset[str]:
    lang = plugins.find(language)
    return lang.runtime.panic_kinds if lang is not None else frozenset()


def _reads_callers(language: str) -> bool:
    lang = plugins.find(language)
    return lang is not None and lang.pages.reads_callers


def features(sites: list[ThrowSite], ix: Index) -> list[Fact]:
    out: list[Fact] = []
    seen: set[tuple[str, str, bool]] = set()
    for s in sites:
        crate = s.package
        pkg = ix.packages.get(crate or "")
        if not _packaged(s.language) or pkg is None or crate is None:
            continue
        for g in s.guards:
            if g.kind != "cfg":
                continue
            for feature, negated in features_in(g.text):
                if (crate, feature, negated) in seen:
                    continue
                seen.add((crate, feature, negated))
                fact = _at(
                    s.path,
                    g.line,
                    site=f"{s.path}:{s.line}",
                    crate=crate,
                    feature=feature,
                    negated=negated,
                    cfg=g.text,
                    declared=feature in pkg.features,
                    default=enabled_by(pkg, feature),
                )
                if not fact["declared"]:
                    # Referenced by a cfg but not in [features]: nothing a user can turn on.
                    out.append(fact)
                    continue
                where = ix.workspace.feature_line(crate, feature)
                if where:
                    fact["manifest"] = {"path": where[0], "line": where[1]}
                chains = ix.workspace.chains(crate, feature)
                fact["chains"] = [
                    [
                        {
                            "crate": link.crate,
                            "feature": link.feature,
                            "entry": link.entry,
                            "path": link.manifest,
                            "line": link.line,
                        }
                        for link in chain
                    ]
                    for chain in chains
                ]
                top_crate, top_feature = crate, feature
                if chains:
                    top_crate, top_feature = chains[0][-1].crate, chains[0][-1].feature
                top = ix.packages.get(top_crate)
                fact["top"] = {
                    "crate": top_crate,
                    "feature": top_feature,
                    "default": bool(top and enabled_by(top, top_feature)),
                }
                fact["dependency_line"] = dependency_line(
                    top_crate, top.version if top else None, top_feature
                )
                out.append(fact)
    return out


def reachability(
    sites: list[ThrowSite], ix: Index, catching: frozenset[tuple[str, str]] = frozenset()
) -> list[Fact]:
    """The function around each site, and how public code reaches it; a call
    chain never goes through a function in ``catching`` (path, symbol), which
    catches the error, so it does not escape there."""
    out: list[Fact] = []
    seen: set[tuple[str, str]] = set()
    for s in sites:
        fn = ix.enclosing(s.path, s.line)
        if fn is not None and (fn.path, fn.symbol) in seen:
            # another site of a function already here: the page of either is the same
            same = next(
                (f for f in out if (f["path"], f["function"]) == (fn.path, fn.symbol)), None
            )
            if same is not None:
                same["sites"].append(f"{s.path}:{s.line}")
            continue
        if fn is None:
            continue
        seen.add((fn.path, fn.symbol))
        fact = _at(
            fn.path,
            fn.line,
            site=f"{s.path}:{s.line}",
            function=fn.symbol,
            name=fn.name,
            public=fn.public,
            params=list(fn.params),
            sites=[f"{s.path}:{s.line}"],
        )
        if not fn.public:
            fact["paths"] = _paths_from_public(fn, ix, catching)
        else:
            paths = _paths_from_entry_points(fn, ix, catching)
            if paths:
                fact["paths"] = paths
        # The name a user imports it by, where a package re-exports it.
        for f in [fact, *(chain[0] for chain in fact.get("paths", ()) if chain)]:
            if f.get("public"):
                got = ix.exported_name(f["path"], f["function"])
                if got is not None:
                    f["exported"] = {"name": got[0], "path": got[1], "line": got[2]}
        out.append(fact)
        if len(out) >= 5:
            break
    return out


#: callers(fn): who calls ``fn``, with the line of the call
CallersFn = Callable[[FuncDef], list[tuple[FuncDef, int]]]


def _call_chains(
    start: FuncDef,
    ix: Index,
    callers: CallersFn,
    ends: Callable[[FuncDef], bool],
    catching: frozenset[tuple[str, str]],
) -> list[list[Fact]]:
    """Shortest by-name call chains down to ``start`` from callers that
    ``ends`` accepts, at most ``MAX_HOPS`` long; each hop is the caller and
    the line of its call. No chain goes through a function in ``catching``."""
    found: list[list[Fact]] = []
    frontier: list[tuple[FuncDef, list[Fact]]] = [(start, [])]
    visited = {(start.path, start.symbol)}
    for _ in range(MAX_HOPS):
        nxt: list[tuple[FuncDef, list[Fact]]] = []
        for fn, chain in frontier:
            for caller, line in callers(fn):
                key = (caller.path, caller.symbol)
                if key in visited or key in catching:
                    continue
                visited.add(key)
                hop = _at(
                    caller.path, line, function=caller.symbol, calls=fn.name, public=caller.public
                )
                path = [hop, *chain]
                if ends(caller):
                    found.append(path)
                    if len(found) >= MAX_PATHS:
                        return found
                else:
                    nxt.append((caller, path))
        frontier = nxt
    return found


def _paths_from_public(
    start: FuncDef, ix: Index, catching: frozenset[tuple[str, str]] = frozenset()
) -> list[list[Fact]]:
    """Shortest by-name call chains from a public function down to ``start``."""

    def callers(fn: FuncDef) -> list[tuple[FuncDef, int]]:
        if ix.defined.get(fn.name, 0) > AMBIGUOUS:
            return []
        return list(ix.callers_of(fn.name))

    return _call_chains(start, ix, callers, lambda f: f.public, catching)


def _api_surface(path: str) -> bool:
    """A file whose public functions are a package's API: ``__init__.py``, ``lib.rs``."""
    name = path.rsplit("/", 1)[-1]
    return name in ("__init__.py", "lib.rs")


def _paths_from_entry_points(
    start: FuncDef, ix: Index, catching: frozenset[tuple[str, str]] = frozenset()
) -> list[list[Fact]]:
    """For a public function that other public code calls: the shortest
    by-name call chains down to it from entry points: public functions of a
    package's API file, or that nothing in the repository calls (``json.loads``
    -> ``JSONDecoder.decode`` -> ``JSONDecoder.raw_decode``)."""

    def callers(fn: FuncDef) -> list[tuple[FuncDef, int]]:
        if ix.defined.get(fn.name, 0) != 1:
            # by name, a call of `split_to` may be another type's `split_to`:
            # only a call that names this one's type is known to reach it
            return _typed_callers(fn, ix)
        return list(ix.callers_of(fn.name))

    def entry(fn: FuncDef) -> bool:
        return fn.public and (_api_surface(fn.path) or not callers(fn))

    return _call_chains(start, ix, callers, entry, catching)


def _typed_callers(fn: FuncDef, ix: Index) -> list[tuple[FuncDef, int]]:
    """Calls outside tests written with ``fn``'s type (``Dispatch::backward(x)``
    for ``<Dispatch as AutodiffBackend>::backward``), which reach it whatever
    else is named the same."""
    owner = _owner_type(fn.symbol)
    if owner is None:
        return []
    named = re.compile(
        rf"(?<![\w:]){re.escape(owner)}(\s+as\s+[\w:]+>)?::{re.escape(fn.name)}\s*\("
    )
    out: list[tuple[FuncDef, int]] = []
    for path, caller, line, text in ix.call_texts.get(fn.name):
        if not named.search(text):
            continue
        f = ix.function(path, caller)
        if f is not None and not f.in_test and (f.path, f.symbol) != (fn.path, fn.symbol):
            out.append((f, line))
    return out[:MAX_CALLERS]


def hierarchy(entry: ErrorEntry, ix: Index) -> list[Fact]:
    """The exception's classes, from the raised one up to a builtin."""
    if not entry.exception_types or not _raises_classes(entry.sites[0].language):
        return []
    name = entry.exception_types[0].rsplit(".", 1)[-1]
    lang = plugins.find(entry.sites[0].language)
    out: list[Fact] = []
    seen: set[str] = set()
    while name and name not in seen:
        seen.add(name)
        defs = ix.classes.get(name)
        if not defs:
            mro = lang.runtime.builtin_classes(name) if lang is not None else None
            if mro:
                out.append({"name": name, "builtin": True, "mro": list(mro)})
            break
        c = defs[0]
        fact = _at(c.path, c.line, name=c.name, qualname=c.qualname, bases=list(c.bases))
        said = ix.class_doc(c.path, c.qualname)
        if said is not None:
            fact["doc"] = {"path": c.path, "line": said.line, "text": said.text}
        out.append(fact)
        name = next((b.rsplit(".", 1)[-1] for b in c.bases if b not in ("object",)), "")
    return out


def _caught_names(chain: list[Fact]) -> list[str]:
    """The names an ``except`` of the error can use: its classes in the repo,
    or for a builtin raised directly, that exact name."""
    if chain and chain[0].get("builtin"):
        return [chain[0]["name"]]
    return [f["name"] for f in chain if not f.get("builtin")]


def _catching(chain: list[Fact], ix: Index) -> frozenset[tuple[str, str]]:
    """(path, function) of every ``except`` of the error or a base in the repo."""
    return ix.catching(_caught_names(chain))


def catches(chain: list[Fact], ix: Index, reach: list[Fact] | None = None) -> list[Fact]:
    """The ``except`` clauses of the error or a base. One whose function calls
    a function on the way from public code to a site, before the ``except``
    line, is ``on_path`` (``calls`` names what it calls), and comes first:
    the library catches the error itself there."""
    names = _caught_names(chain)
    # Only a function that both catches the error and calls on the way can be
    # on the path: without one, the first ten catches are the answer. So only
    # the calls made in a file with such an ``except`` are looked at (the
    # others would load every caller's file).
    catching = ix.catching(names)
    way: dict[tuple[str, str], tuple[str, int]] = {}
    if catching:
        paths = ix.catching_paths(names)
        for name in sorted(_names_on_the_way(reach or [])):
            if ix.defined.get(name, 0) > AMBIGUOUS:
                continue
            for f, line in ix.callers_of(name, paths):
                if (f.path, f.symbol) in catching:
                    way.setdefault((f.path, f.symbol), (name, line))
    on_path: list[Fact] = []
    other: list[Fact] = []
    for c in ix.catches_of(names):
        got = way.get((c.path, c.symbol)) if way else None
        if got is not None and got[1] <= c.line:
            fact = _at(c.path, c.line, exception=c.exception, function=c.symbol, text=c.text)
            fact.update(on_path=True, calls=got[0])
            on_path.append(fact)
        elif len(other) < 10:
            other.append(_at(c.path, c.line, exception=c.exception, function=c.symbol, text=c.text))
        elif not way:
            break
        if len(on_path) >= 3 and len(other) >= 10:
            break
    return (on_path + other)[:10]


def _names_on_the_way(reach: list[Fact]) -> set[str]:
    """The names of the functions around the sites and on the call chains to them."""
    return {r["name"] for r in reach} | {
        _last_name(hop["function"]) for r in reach for c in r.get("paths", ()) for hop in c
    }


def docs(sites: list[ThrowSite], reach: list[Fact], entry: ErrorEntry, ix: Index) -> list[Fact]:
    out: list[Fact] = []
    fns: list[FuncDef] = []
    for r in reach:
        f = ix.function(r["path"], r["function"])
        if f is not None:
            fns.append(f)
        for chain in r.get("paths", ()):
            g = ix.function(chain[0]["path"], chain[0]["function"])
            if g is not None:
                fns.append(g)
    short = {t.rsplit(".", 1)[-1] for t in entry.exception_types}
    seen: set[tuple[str, int]] = set()
    for f in fns:
        lines = list(f.docs)
        raises = [d for d in lines if d.section == "Raises"]
        if raises and short:
            lines = [d for d in lines if d.section != "Raises"] + _raises_items(raises, short)
        for d in lines:
            if (f.path, d.line) not in seen:
                seen.add((f.path, d.line))
                out.append(_at(f.path, d.line, function=f.symbol, section=d.section, text=d.text))
    return out[:20]


#: the head of an item of a docstring's Raises section: an exception's name
_RAISES_ITEM = re.compile(
    r"^[A-Za-z_][\w.]*(Error|Exception|Warning|Exit|Interrupt)\b|^[A-Z]\w*\s*:"
)


MAX_PROSE = 3
_PANICS = re.compile(r"\bpanic(s|ked)?\b", re.I)


def prose(entry: ErrorEntry, reach: list[Fact], ix: Index) -> list[Fact]:
    """Lines of the repository's docs (README, ``docs/``) about this error:
    ones that give its message (its longest run of literal text, of four
    words or more), then ones that name the public call it comes from
    (``Dataset.isel``, ``Tensor::backward``) and say what fails."""
    out: dict[tuple[str, int], Fact] = {}
    chunks = sorted((c.strip(" .:,;") for c in entry.template.chunks()), key=len, reverse=True)
    for chunk in chunks[:1]:
        if len(chunk) >= 20 and len(chunk.split()) >= 4:
            for path, line, text in ix.prose.mentioning(chunk, MAX_PROSE):
                out.setdefault((path, line), _at(path, line, text=text, mentions=chunk))
    # a line naming the call says what fails only when it names the error:
    # its exception class, or a panic for an error without one
    said: list[re.Pattern[str]] | None = None
    for name in _api_names(reach):
        lines = list(ix.prose.at(name, 20))
        if not lines:  # most names: no doc line names them, nothing to compile
            continue
        if said is None:
            short = {t.rsplit(".", 1)[-1] for t in entry.exception_types}
            said = [re.compile(rf"\b{re.escape(s)}\b") for s in short] or [_PANICS]
        # a bare function name counts only as its module writes it (`geo.merge`)
        named = re.compile(
            rf"\w(\.|::){re.escape(name)}\b"
            if "." not in name and "::" not in name
            else re.escape(name)
        )
        for i in lines:
            if len(out) >= MAX_PROSE:
                break
            path, line, text = ix.prose.with_next(i)
            if named.search(text) and any(p.search(text) for p in said):
                out.setdefault((path, line), _at(path, line, text=text, mentions=name))
    return list(out.values())[:MAX_PROSE]


def _api_names(reach: list[Fact]) -> list[str]:
    """The public calls above the sites, as docs write them: the last two
    parts of the name (``Dataset.isel``, ``Tensor::backward``); a bare
    function name is too common a word to look for."""
    names: list[str] = []
    for r in reach:
        for f in [r, *(chain[0] for chain in r.get("paths", ()) if chain)]:
            if not f.get("public"):
                continue
            full = f["exported"]["name"] if f.get("exported") else f["function"]
            sep = "::" if "::" in full else "."
            parts = [p for p in full.split(sep) if p and not p.startswith("<")]
            if len(parts) >= 2:
                names.append(sep.join(parts[-2:]))
            elif parts and len(parts[0]) >= 4:
                names.append(parts[0])
    return list(dict.fromkeys(names))


def _raises_items(raises: list[DocLine], short: set[str]) -> list[DocLine]:
    """The items of a Raises section that name one of ``short``, each with the
    lines that describe it joined to it (numpydoc puts ``ValueError`` on a
    line and the reason, indented, on the next ones)."""
    out: list[DocLine] = []
    keep = False
    prev = -1
    for d in raises:
        if _RAISES_ITEM.match(d.text) or d.line != prev + 1:
            keep = any(n in d.text for n in short)
            if keep:
                out.append(d)
        elif keep and out:
            head = out[-1]
            sep = ": " if " " not in head.text.strip() else " "  # `ValueError` alone on its line
            out[-1] = DocLine(head.section, f"{head.text}{sep}{d.text}", head.line)
        prev = d.line
    return out


def tests(
    entry: ErrorEntry, reach: list[Fact], ix: Index, classes: list[Fact] | None = None
) -> list[Fact]:
    """Tests that expect this error: by its message, or by its exception type
    and a call of the function that throws it. ``classes``: ``hierarchy``'s."""
    # The functions on the way from public API to a private site; not the
    # entry points above a public one (a test calling `loads` reaches every
    # error of the decoder, so it says nothing about this one).
    names = {r["name"] for r in reach} | {
        hop["function"].rsplit(".", 1)[-1].rsplit("::", 1)[-1]
        for r in reach
        if not r["public"]
        for chain in r.get("paths", ())
        for hop in chain
    }
    short = {t.rsplit(".", 1)[-1] for t in entry.exception_types}
    # What a raises-check must name to catch it: the class or one of its bases.
    catching = short | {h["name"] for h in classes or ()}
    catching |= {m for h in classes or () for m in h.get("mro", ())}
    classes_raised = _raises_classes(entry.sites[0].language)
    strong: list[Fact] = []
    weak: list[Fact] = []
    # The tests that may expect it: by a word of its text; without expected
    # text, by its exception and a call of a name on the way to it, or by a
    # call of a function that panics here.
    picked: set[int] = set(ix.tests_wordless)
    for w in words_of(entry.template):
        picked.update(ix.tests_by_word.get(w, ()))
    for exception in short:
        for name in names:
            picked.update(ix.tests_by_exception_call.get((exception, name), ()))
    panics = any(s.kind in _panic_kinds(s.language) for s in entry.catalog_sites)
    if panics:
        for name in names:
            if ix.defined.get(name, 0) <= AMBIGUOUS:
                picked.update(ix.should_panic_by_call.get(name, ()))
    message = Message(entry.template)
    for t in (ix.tests[i] for i in sorted(picked)):
        expected = t.exception.rsplit(".", 1)[-1] if t.exception else None
        if classes_raised and expected is not None and expected not in catching:
            continue  # it expects another exception: shared words only
        if (
            classes_raised
            and expected is not None
            and expected not in short
            and not (t.pattern and pins(t.pattern, t.is_regex, entry.template))
        ):
            continue  # a base class (`Exception`) counts only with the message pinned
        if t.pattern and message.matches(t.pattern, t.is_regex):
            # A table's message column: a row counts only where its text pins the message.
            if t.inputs and not (
                (
                    not classes_raised
                    or not t.exception
                    or t.exception.rsplit(".", 1)[-1] in catching
                )
                and message.matches(t.pattern, t.is_regex, ROW_SHARE)
                and (
                    pins(t.pattern, t.is_regex, entry.template)
                    or ix.matches_few(t.pattern, t.is_regex)
                )
            ):
                continue
            strong.append(_test_fact(t, "message"))
        elif (
            not t.pattern
            and t.exception
            and t.exception.rsplit(".", 1)[-1] in short
            and names & set(t.calls)
        ):
            weak.append(_test_fact(t, "exception type and call"))
        elif (
            not t.pattern
            and t.kind == "should_panic"
            and panics
            and any(ix.defined.get(n, 0) <= AMBIGUOUS for n in names & set(t.calls))
        ):
            # `#[should_panic]` with no expected text: it calls a function that panics here.
            weak.append(_test_fact(t, "panicking call"))
    strong.sort(key=lambda f: (not f["body"], f["path"], f["line"]))
    # Rows of table tests take turns (each table's first row, then each one's
    # second...), so one long table does not fill the page.
    turn: dict[tuple[str, str, int], int] = defaultdict(int)
    ranks: list[int] = []
    for f in strong:
        if "inputs" in f:
            table = (f["path"], f["test"], f["body_line"])
            ranks.append(turn[table])
            turn[table] += 1
        else:
            ranks.append(0)
    strong = [f for _, f in sorted(zip(ranks, strong, strict=True), key=lambda x: x[0])]
    return (strong + weak)[:MAX_TESTS]


def _test_fact(t: TestExpect, matched_by: str) -> Fact:
    fact = _at(
        t.path,
        t.line,
        test=t.test,
        kind=t.kind,
        exception=t.exception,
        pattern=t.pattern,
        body=t.body,
        body_line=t.body_line,
        matched_by=matched_by,
    )
    if t.inputs:
        # A table row: ``line`` is the row's, ``body`` the block run with its values.
        fact.update(inputs=list(t.inputs), regex=t.is_regex)
    return fact


def related(entry: ErrorEntry, ix: Index, reach: list[Fact] | None = None) -> list[Fact]:
    """Up to ``MAX_RELATED`` other entries, by concept: thrown in the same
    function (those whose checks read the same names first), by the same
    public call (in a function on its way to a site), of the same
    exception class (a builtin one only in the same file), or with the same
    three words in a row. Never merely "in the same file"."""
    out: dict[str, Fact] = {}
    # the same text twice (another template that reads the same) says nothing
    said = {entry.message}
    mine = guarded_names(entry)
    for e, why, detail in _related_candidates(entry, ix, reach or [], mine):
        if len(out) >= MAX_RELATED:
            break
        if e.id == entry.id or e.id in out or e.message in said:
            continue
        if e.readable:
            said.add(e.message)
            reason = _reason(why, detail, mine, e)
            out[e.id] = _at(e.path, e.line, id=e.id, message=e.message, reason=reason)
    return list(out.values())


#: why ``_related_candidates`` offers an entry (``_reason`` words it): most
#: candidates are passed over, so their reason is never written
_SAME_FUNCTION, _SAME_CALL, _SAME_EXCEPTION, _SAME_WORDS = range(4)


def _reason(why: int, detail: str | None, mine: frozenset[str], e: Related) -> str:
    if why == _SAME_FUNCTION:
        both = mine & e.guarded
        return f"same function `{detail}`" + (f", checks `{sorted(both)[0]}` too" if both else "")
    if why == _SAME_CALL:
        return f"also thrown by `{detail}`"
    if why == _SAME_EXCEPTION:
        return f"same exception `{detail}`"
    return "shared wording"


def _related_candidates(
    entry: ErrorEntry, ix: Index, reach: list[Fact], mine: frozenset[str]
) -> Iterator[tuple[Related, int, str | None]]:
    """Entries that may be related, and why (``_reason``), best reason first;
    ``mine``: the entry's ``guarded_names``."""
    cat = entry.catalog_sites
    for s in cat:
        if s.symbol:
            same = ix.by_symbol.get((s.path, s.symbol), ())
            # the same guarded argument first, then in the order the code has them
            for e in sorted(same, key=lambda r: (not (mine & r.guarded), r.path, r.line)):
                yield e, _SAME_FUNCTION, s.symbol
    for r in reach:
        for chain in r.get("paths", ())[:MAX_PATHS]:
            api = chain[0]["function"] if chain else None
            for hop in chain:
                for e in ix.by_symbol.get((hop["path"], hop["function"]), ()):
                    yield e, _SAME_CALL, api
    lang = plugins.find(entry.sites[0].language) if entry.sites else None
    for t in entry.exception_types:
        name = t.rsplit(".", 1)[-1]
        builtin = lang is not None and lang.runtime.builtin_classes(name) is not None
        found = (
            ix.raising_in(name, {s.path for s in cat}) if builtin else ix.by_exception.get(name, ())
        )
        for e in found:
            yield e, _SAME_EXCEPTION, name
    for t in sorted(trigrams_of(entry)):
        for e in ix.by_word.get(t, ()):
            yield e, _SAME_WORDS, None


def invariant(entry: ErrorEntry) -> list[Fact]:
    """Sites whose message or kind says the library's own invariant broke."""
    text = " ".join(entry.template.chunks())
    m = _INVARIANT.search(text)
    out: list[Fact] = []
    for s in entry.catalog_sites[:MAX_SITES]:
        if s.kind == "unreachable":
            out.append(_at(s.path, s.line, reason="unreachable!", words=None))
        elif m:
            out.append(_at(s.path, s.line, reason="message", words=m.group(0)))
    return out


def upstream(entry: ErrorEntry, ix: Index, repo: Repo | str | None) -> list[Fact]:
    """Where to report a bug: the crate's ``repository`` (a forge), with its line."""
    lead = entry.catalog_sites[0]
    got = ix.manifests.get(lead.package or "") if _packaged(lead.language) else None
    if got is not None and got[1].repository is not None:
        declared, line = got[1].repository
        forge = parse_forge_url(declared)
        if forge is not None:
            pkg = ix.packages.get(lead.package or "")
            return [
                _at(
                    got[0],
                    line,
                    url=forge.web_url,
                    issues=forge.web_url + "/issues",
                    crate=lead.package,
                    version=pkg.version if pkg else None,
                )
            ]
    url = repo.url if isinstance(repo, Repo) else None
    forge = parse_forge_url(url) if url else None
    if forge is not None:
        return [{"url": forge.web_url, "issues": forge.web_url + "/issues", "source": "repo"}]
    return []


def callers(sites: list[ThrowSite], reach: list[Fact], ix: Index) -> list[Fact]:
    """Real calls of the function that throws (or the public function above it),
    as written, for example code: code outside tests first."""
    out: list[Fact] = []
    seen: set[tuple[str, int]] = set()
    for r in reach[:1]:
        targets = [(r["path"], r["function"], r["name"])]
        for chain in r.get("paths", ())[:1]:
            top = chain[0]["function"]
            targets.append((chain[0]["path"], top, _last_name(top)))
        for fpath, symbol, name in targets:
            owner = _owner_type(symbol)
            # The text a call must have ("" is in every one). Another fn of the
            # same name is called as often: only calls that name this one's
            # type are known to reach it.
            if ix.defined.get(name, 0) <= 1:
                named = ""
            elif owner:
                named = owner
            else:
                continue
            # The definition itself (a cfg'd twin may share its path and symbol).
            fdef = next(
                (f for f in ix.functions_in(fpath) if f.symbol == symbol and f.line == r["line"]),
                ix.function(fpath, symbol),
            )
            itself = (r["path"], r["function"])
            found = []
            for path, caller, line, text in ix.call_texts.get(name):
                if named not in text or (path, line) in seen or (path, caller) == itself:
                    continue
                f = ix.function(path, caller)
                in_test = f.in_test if f is not None else False
                found.append((in_test, path, line, caller, text))
            for in_test, path, line, caller, text in sorted(found)[:MAX_CALLERS]:
                seen.add((path, line))
                out.append(
                    _at(
                        path,
                        line,
                        function=caller,
                        calls=symbol,
                        text=text,
                        in_test=in_test,
                        params=list(fdef.params) if fdef is not None else [],
                    )
                )
    return out[:MAX_CALLERS]


def expects(sites: list[ThrowSite], ix: Index) -> list[Fact]:
    """The ``x.expect("...")`` / ``x.unwrap()`` calls of expect sites, as written."""
    out: list[Fact] = []
    for s in sites:
        if s.kind != "expect" or "expect" not in _panic_kinds(s.language):
            continue
        got = ix.unwrap(s.path, s.line)
        if got is not None:
            out.append(_at(s.path, s.line, function=got[0], text=got[1]))
    return out[:MAX_CALLERS]


def _last_name(symbol: str) -> str:
    return symbol.rsplit("::", 1)[-1].rsplit(".", 1)[-1]


def _owner_type(symbol: str) -> str | None:
    """``<Dispatch as AutodiffBackend>::backward`` -> ``Dispatch``; ``Kind::new`` -> ``Kind``."""
    head = symbol.rsplit("::", 1)[0] if "::" in symbol else ""
    if head.startswith("<"):
        head = head[1:].split(" as ", 1)[0]
    head = head.rsplit("::", 1)[-1]
    return head if head[:1].isupper() else None


def facts(entry: ErrorEntry, ix: Index, repo: Repo | str | None = None) -> dict[str, list[Fact]]:
    sites = list(entry.catalog_sites[:MAX_SITES])
    chain = hierarchy(entry, ix)
    reach = reachability(sites, ix, _catching(chain, ix))
    broken = invariant(entry)
    conditions = guards(sites)
    return {
        "guards": conditions,
        "lifted": lift(reach, conditions, ix, sites[0].language),
        "arms": catch_all_arms(sites, ix),
        "invariant": broken,
        "upstream": upstream(entry, ix, repo) if broken else [],
        "callers": callers(sites, reach, ix) if _reads_callers(sites[0].language) else [],
        "expects": expects(sites, ix),
        "features": features(sites, ix),
        "reachability": reach,
        "hierarchy": chain,
        "catches": catches(chain, ix, reach),
        "docs": docs(sites, reach, entry, ix),
        "prose": prose(entry, reach, ix),
        "tests": tests(entry, reach, ix, chain),
        "related": related(entry, ix, reach),
    }
