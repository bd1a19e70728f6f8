"""Facts: what the code proves about an entry, each with its evidence (pure).

A fact is a plain dict with at least ``path`` and ``line`` (its evidence).
``Index`` is built once per snapshot from every file's evidence; ``facts``
reads it for one entry. Lookups across files are kept in memory, compact;
a file's own functions and lines are read back by path when asked (so the
evidence of a large repository can wait on disk, see ``CrossFile``).
"""

from __future__ import annotations

import builtins
import heapq
import re
import sys
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import islice
from typing import Any

from errordex.analysis.cfg import Workspace, dependency_line, enabled_by, features_in
from errordex.analysis.evidence import Catch, FileEvidence, FuncDef, Manifest, TestExpect
from errordex.analysis.textmatch import Message, pins
from errordex.forge import parse_forge_url
from errordex.model import ClassDef, ErrorEntry, Package, Repo, ThrowSite
from errordex.template import Template

Fact = dict[str, Any]

MAX_SITES = 12
MAX_HOPS = 4
MAX_PATHS = 3
MAX_TESTS = 6
MAX_RELATED = 8
#: a name defined in more places than this says nothing about who is called
AMBIGUOUS = 6
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
#: words by which a message says it is the library's own bug, not the caller's
_INVARIANT = re.compile(
    r"\bbug\b|internal error|should never|should not happen|never happen"
    r"|this is a bug|not supposed to happen",
    re.I,
)
MAX_CALLERS = 3
#: Rust sites that panic (a `#[should_panic]` test can reproduce them).
_PANIC_KINDS = frozenset({"panic", "unimplemented", "todo", "unreachable", "assert", "expect"})
#: a table row's text pins the messages it matches when they are this few...
FEW_MESSAGES = 3
#: ...and this much of it is their literal text (not a placeholder's)
ROW_SHARE = 0.8


def builtin_exception(name: str) -> bool:
    obj = getattr(builtins, name, None)
    return isinstance(obj, type) and issubclass(obj, BaseException)


def useful_calls(ev: FileEvidence) -> FileEvidence:
    """``ev`` without the calls ``Index`` can never use: it keeps a call with
    its text (``call_texts``), or one made by a non-test function defined in
    the same file (a ``callers`` edge; the callee is checked by ``Index``)."""
    if not ev.calls:
        return ev
    first: dict[str, FuncDef] = {}
    for f in ev.functions:
        first.setdefault(f.symbol, f)
    kept = tuple(
        c
        for c in ev.calls
        if c.text or ((who := first.get(c.caller)) is not None and not who.in_test)
    )
    return ev if len(kept) == len(ev.calls) else replace(ev, calls=kept)


#: load(path): the part of a file's evidence ``CrossFile.add`` left, or None
LoadFn = Callable[[str], FileEvidence | None]

#: files whose by-path lookups an Index keeps loaded (each process its own)
CACHE_FILES = 1024


class CrossFile:
    """What lookups across files read (definitions per name, call edges, call
    texts, tests, catches, manifests), gathered one file at a time so a file's
    evidence need not stay in memory: ``add`` returns the part that is read
    by path, to be kept elsewhere and handed to ``Index`` through ``load``."""

    def __init__(self) -> None:
        #: name -> how many functions outside tests define it
        self.defined: dict[str, int] = defaultdict(int)
        #: files in the order they were added (an edge names its file by number)
        self.paths: list[str] = []
        #: callee name -> calls made by a function outside tests defined in the
        #: same file, each packed into one int (``_pack``: file, function, line)
        self.edges: dict[str, array[int]] = {}
        #: callee name -> (path, caller symbol, line, call text), calls written on one line
        self.call_texts: dict[str, list[tuple[str, str, int, str]]] = defaultdict(list)
        self.tests: list[TestExpect] = []
        self.catches: dict[str, list[Catch]] = defaultdict(list)
        self.manifests: dict[str, tuple[str, Manifest]] = {}

    def add(self, ev: FileEvidence) -> FileEvidence:
        """Take from ``ev`` what lookups across files read; return the rest."""
        path = ev.path
        file_no = len(self.paths)
        self.paths.append(path)
        #: symbol -> index of its first definition in ev.functions
        first: dict[str, int] = {}
        for i, f in enumerate(ev.functions):
            first.setdefault(f.symbol, i)
            if not f.in_test:
                self.defined[sys.intern(f.name)] += 1
        for c in ev.calls:
            callee, caller = sys.intern(c.callee), sys.intern(c.caller)
            func_no = first.get(caller)
            if func_no is not None and not ev.functions[func_no].in_test:
                edges = self.edges.get(callee)
                if edges is None:
                    edges = self.edges[callee] = array("Q")
                edges.append(_pack(file_no, func_no, c.line))
            if c.text:
                self.call_texts[callee].append((path, caller, c.line, c.text))
        self.tests.extend(ev.tests)
        for x in ev.catches:
            self.catches[x.exception.rsplit(".", 1)[-1]].append(x)
        if ev.manifest is not None and ev.manifest.crate:
            self.manifests[ev.manifest.crate] = (path, ev.manifest)
        return FileEvidence(
            path=path,
            language=ev.language,
            n_lines=ev.n_lines,
            functions=ev.functions,
            calls=tuple(c for c in ev.calls if c.text and c.callee in _UNWRAPS),
            scrutinees=ev.scrutinees,
        )


_UNWRAPS = ("expect", "unwrap")
#: bits of a packed call edge: file number, function number in the file, line
_FILE_BITS, _FUNC_BITS, _LINE_BITS = 22, 20, 22


def _pack(file_no: int, func_no: int, line: int) -> int:
    if file_no >> _FILE_BITS or func_no >> _FUNC_BITS or line >> _LINE_BITS:
        raise ValueError(f"a call edge out of range: file {file_no} function {func_no} line {line}")
    return (file_no << (_FUNC_BITS + _LINE_BITS)) | (func_no << _LINE_BITS) | line


def _unpack(edge: int) -> tuple[int, int, int]:
    return (
        edge >> (_FUNC_BITS + _LINE_BITS),
        (edge >> _LINE_BITS) & ((1 << _FUNC_BITS) - 1),
        edge & ((1 << _LINE_BITS) - 1),
    )


@dataclass(frozen=True, slots=True)
class _ByPath:
    """One file's by-path lookups."""

    functions: tuple[FuncDef, ...] = ()
    #: symbol -> its first definition in the file
    first: dict[str, FuncDef] = field(default_factory=dict)
    #: line of a catch-all arm -> (matched expression, line of the match)
    scrutinees: dict[int, tuple[str, int]] = field(default_factory=dict)
    #: line -> (caller, text) of an ``.expect(..)``/``.unwrap()`` call
    unwraps: dict[int, tuple[str, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, ev: FileEvidence | None) -> _ByPath:
        if ev is None:
            return cls()
        first: dict[str, FuncDef] = {}
        for f in ev.functions:
            first.setdefault(f.symbol, f)
        unwraps: dict[int, tuple[str, str]] = {}
        for c in ev.calls:
            if c.text and c.callee in _UNWRAPS:
                unwraps.setdefault(c.line, (c.caller, c.text))
        scrutinees = {sc.line: (sc.text, sc.match_line) for sc in ev.scrutinees}
        return cls(ev.functions, first, scrutinees, unwraps)


class Index:
    """Lookups over a whole snapshot's evidence.

    ``evidence`` is every file's evidence, or a ``CrossFile`` gathered from
    it together with ``load``, which gives back the rest of one file's
    evidence (the last ``cache_size`` files read are kept).
    """

    def __init__(
        self,
        evidence: Iterable[FileEvidence] | CrossFile,
        packages: Iterable[Package],
        classes: Iterable[ClassDef],
        entries: Iterable[ErrorEntry] = (),
        load: LoadFn | None = None,
        cache_size: int = CACHE_FILES,
    ) -> None:
        if isinstance(evidence, CrossFile):
            cross = evidence
            assert load is not None, "an Index of a CrossFile reads files through load"
        else:
            cross = CrossFile()
            rest = {ev.path: cross.add(ev) for ev in evidence}
            load = rest.get
        self._by_path = lru_cache(maxsize=cache_size)(lambda path: _ByPath.of(load(path)))
        self.defined = cross.defined
        #: callee name -> (path, caller symbol, line of the call)
        self.paths = cross.paths
        #: callee name -> packed call edges (``callers_of``), of defined callees only
        self.callers = {k: v for k, v in cross.edges.items() if k in self.defined}
        self.call_texts = cross.call_texts
        self.tests = cross.tests
        #: exception name -> its catches, in ``catches_of`` order
        self.catches = {n: sorted(found, key=_catch_order) for n, found in cross.catches.items()}
        #: exception name -> (path, symbol) of the functions with such an ``except``
        self.catchers = {
            n: frozenset((c.path, c.symbol) for c in found) for n, found in self.catches.items()
        }
        self.manifests = cross.manifests
        # Tests by the words of their expected text, so an entry checks only
        # the tests that share a word with its message (not every test).
        self.tests_by_word: dict[str, list[int]] = defaultdict(list)
        self.tests_wordless: list[int] = []
        #: (exception name, called name) -> tests without expected text
        self.tests_by_exception_call: dict[tuple[str, str], list[int]] = defaultdict(list)
        self.should_panic_by_call: dict[str, list[int]] = defaultdict(list)
        for i, t in enumerate(self.tests):
            if t.pattern:
                words = {w.lower() for w in _WORD.findall(t.pattern) if len(w) >= 3}
                for w in words:
                    self.tests_by_word[w].append(i)
                if not words:
                    self.tests_wordless.append(i)
            elif t.exception:
                exception = t.exception.rsplit(".", 1)[-1]
                for name in dict.fromkeys(t.calls):
                    self.tests_by_exception_call[exception, name].append(i)
            elif t.kind == "should_panic":  # no expected text: known by what it calls
                for name in t.calls:
                    self.should_panic_by_call[name].append(i)
        self._few: dict[tuple[str, bool], bool] = {}
        self.packages = {p.name: p for p in packages}
        self.workspace = Workspace(self.packages, self.manifests)
        self.classes: dict[str, list[ClassDef]] = defaultdict(list)
        for cls in classes:
            self.classes[cls.name].append(cls)
        self.by_symbol: dict[tuple[str, str], list[Related]] = defaultdict(list)
        self.by_path: dict[str, list[Related]] = defaultdict(list)
        self.by_word: dict[str, list[Related]] = defaultdict(list)
        #: the entries' templates, and their positions by each word of their text
        self.templates: list[Template] = []
        self.templates_by_word: dict[str, list[int]] = defaultdict(list)
        for e in entries:
            cat = e.catalog_sites
            if not cat:
                continue
            for w in _words(e.template):
                self.templates_by_word[w].append(len(self.templates))
            self.templates.append(e.template)
            r = Related.of(e)
            for key in {(s.path, s.symbol or "") for s in cat}:
                self.by_symbol[key].append(r)
            for path in {s.path for s in cat}:
                self.by_path[path].append(r)
            for trigram in _trigrams(e):
                self.by_word[trigram].append(r)

    def matches_few(self, pattern: str, is_regex: bool) -> bool:
        """Whether ``pattern`` matches at most ``FEW_MESSAGES`` of the snapshot's
        messages (so it names them, though it is short)."""
        key = (pattern, is_regex)
        got = self._few.get(key)
        if got is None:
            got = self._few[key] = self._count_matches(pattern, is_regex) in range(
                1, FEW_MESSAGES + 1
            )
        return got

    def _count_matches(self, pattern: str, is_regex: bool) -> int:
        """How many messages ``pattern`` matches, counted up to ``FEW_MESSAGES + 1``."""
        n = 0
        seen: set[int] = set()
        for w in {w.lower() for w in _WORD.findall(pattern) if len(w) >= 3}:
            for i in self.templates_by_word.get(w, ()):
                if i not in seen:
                    seen.add(i)
                    n += Message(self.templates[i]).matches(pattern, is_regex, ROW_SHARE)
                    if n > FEW_MESSAGES:
                        return n
        return n

    def catches_of(self, names: Iterable[str]) -> Iterator[Catch]:
        """The catches of these exception names: outside tests first, then by
        path and line, ties in the order of the names."""
        return heapq.merge(*(self.catches.get(n, ()) for n in names), key=_catch_order)

    def catching(self, names: Iterable[str]) -> frozenset[tuple[str, str]]:
        """(path, symbol) of the functions with an ``except`` of one of these names."""
        found = [self.catchers[n] for n in names if n in self.catchers]
        return found[0] if len(found) == 1 else frozenset().union(*found)

    def functions_in(self, path: str) -> tuple[FuncDef, ...]:
        return self._by_path(path).functions

    def function(self, path: str, symbol: str) -> FuncDef | None:
        """The first function of ``path`` with this symbol."""
        return self._by_path(path).first.get(symbol)

    def callers_of(self, name: str) -> Iterator[tuple[FuncDef, int]]:
        """Functions outside tests that call ``name``, with the line of the call."""
        for edge in self.callers.get(name, ()):
            file_no, func_no, line = _unpack(edge)
            yield self.functions_in(self.paths[file_no])[func_no], line

    def scrutinee(self, path: str, line: int) -> tuple[str, int] | None:
        return self._by_path(path).scrutinees.get(line)

    def unwrap(self, path: str, line: int) -> tuple[str, str] | None:
        return self._by_path(path).unwraps.get(line)

    def enclosing(self, path: str, line: int) -> FuncDef | None:
        best: FuncDef | None = None
        for f in self.functions_in(path):
            if f.line <= line <= f.end_line and (best is None or f.line >= best.line):
                best = f
        return best


@dataclass(frozen=True, slots=True)
class Related:
    """An entry as ``related`` reads it (its message worked out once)."""

    id: str
    message: str
    #: whether it has text to read as a message (not built at run time)
    readable: bool
    path: str
    line: int

    @classmethod
    def of(cls, e: ErrorEntry) -> Related:
        s = e.catalog_sites[0]
        readable = not e.template.dynamic and bool(e.template.chunks())
        return cls(e.id, e.message, readable, s.path, s.line)


def _catch_order(c: Catch) -> tuple[bool, str, int]:
    """Catches outside tests first, then by place."""
    return ("test" in c.path, c.path, c.line)


def _words(t: Template) -> set[str]:
    return {w.lower() for w in _WORD.findall(" ".join(t.chunks())) if len(w) >= 3}


def _trigrams(e: ErrorEntry) -> set[str]:
    words = [w.lower() for w in _WORD.findall(" ".join(e.template.chunks()))]
    return {" ".join(words[i : i + 3]) for i in range(len(words) - 2)}


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


def features(sites: list[ThrowSite], ix: Index) -> list[Fact]:
    out: list[Fact] = []
    seen: set[tuple[str, str, bool]] = set()
    for s in sites:
        crate = s.package
        pkg = ix.packages.get(crate or "")
        if s.language != "rust" or pkg is None or crate is None:
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
        if fn is None or (fn.path, fn.symbol) in seen:
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
        )
        if not fn.public:
            fact["paths"] = _paths_from_public(fn, ix, catching)
        else:
            paths = _paths_from_entry_points(fn, ix, catching)
            if paths:
                fact["paths"] = paths
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
            return []  # by name, a call of `split_to` may be another type's `split_to`
        return list(ix.callers_of(fn.name))

    def entry(fn: FuncDef) -> bool:
        return fn.public and (_api_surface(fn.path) or not callers(fn))

    return _call_chains(start, ix, callers, entry, catching)


def hierarchy(entry: ErrorEntry, ix: Index) -> list[Fact]:
    """The exception's classes, from the raised one up to a builtin."""
    if not entry.exception_types or entry.sites[0].language != "python":
        return []
    name = entry.exception_types[0].rsplit(".", 1)[-1]
    out: list[Fact] = []
    seen: set[str] = set()
    while name and name not in seen:
        seen.add(name)
        defs = ix.classes.get(name)
        if not defs:
            if builtin_exception(name):
                mro = [c.__name__ for c in getattr(builtins, name).__mro__ if c is not object]
                out.append({"name": name, "builtin": True, "mro": mro})
            break
        c = defs[0]
        out.append(_at(c.path, c.line, name=c.name, qualname=c.qualname, bases=list(c.bases)))
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


def catches(chain: list[Fact], ix: Index) -> list[Fact]:
    return [
        _at(c.path, c.line, exception=c.exception, function=c.symbol, text=c.text)
        for c in islice(ix.catches_of(_caught_names(chain)), 10)
    ]


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
            named = [d for d in raises if any(n in d.text for n in short)]
            lines = [d for d in lines if d.section != "Raises"] + named
        for d in lines:
            if (f.path, d.line) not in seen:
                seen.add((f.path, d.line))
                out.append(_at(f.path, d.line, function=f.symbol, section=d.section, text=d.text))
    return out[:20]


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
    python = entry.sites[0].language == "python"
    strong: list[Fact] = []
    weak: list[Fact] = []
    # The tests that may expect it: by a word of its text; without expected
    # text, by its exception and a call of a name on the way to it, or by a
    # call of a function that panics here.
    picked: set[int] = set(ix.tests_wordless)
    for w in _words(entry.template):
        picked.update(ix.tests_by_word.get(w, ()))
    for exception in short:
        for name in names:
            picked.update(ix.tests_by_exception_call.get((exception, name), ()))
    panics = any(s.language == "rust" and s.kind in _PANIC_KINDS for s in entry.catalog_sites)
    if panics:
        for name in names:
            if ix.defined.get(name, 0) <= AMBIGUOUS:
                picked.update(ix.should_panic_by_call.get(name, ()))
    message = Message(entry.template)
    for t in (ix.tests[i] for i in sorted(picked)):
        if t.pattern and message.matches(t.pattern, t.is_regex):
            # A table's message column: a row counts only where its text pins the message.
            if t.inputs and not (
                (not python or not t.exception or t.exception.rsplit(".", 1)[-1] in catching)
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


def related(entry: ErrorEntry, ix: Index) -> list[Fact]:
    """Up to ``MAX_RELATED`` other entries: thrown in the same function, with
    the same three words in a row, or in the same file (in that order)."""
    out: dict[str, Fact] = {}
    # the same text twice (another template that reads the same) says nothing
    said = {entry.message}
    for e, reason in _related_candidates(entry, ix):
        if len(out) >= MAX_RELATED:
            break
        if e.id == entry.id or e.id in out or e.message in said:
            continue
        if e.readable:
            said.add(e.message)
            out[e.id] = _at(e.path, e.line, id=e.id, message=e.message, reason=reason)
    return list(out.values())


def _related_candidates(entry: ErrorEntry, ix: Index) -> Iterator[tuple[Related, str]]:
    """Entries that may be related, and why, best reason first."""
    cat = entry.catalog_sites
    for s in cat:
        if s.symbol:
            for e in ix.by_symbol.get((s.path, s.symbol), ()):
                yield e, f"same function `{s.symbol}`"
    for t in sorted(_trigrams(entry)):
        for e in ix.by_word.get(t, ()):
            yield e, "shared wording"
    for s in cat[:1]:
        for e in ix.by_path.get(s.path, ())[:20]:
            yield e, "same file"


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
    got = ix.manifests.get(lead.package or "") if lead.language == "rust" else None
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
            for path, caller, line, text in ix.call_texts.get(name, ()):
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
        if s.kind != "expect" or s.language != "rust":
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
    return {
        "guards": guards(sites),
        "arms": catch_all_arms(sites, ix),
        "invariant": broken,
        "upstream": upstream(entry, ix, repo) if broken else [],
        "callers": callers(sites, reach, ix) if sites[0].language == "rust" else [],
        "expects": expects(sites, ix),
        "features": features(sites, ix),
        "reachability": reach,
        "hierarchy": chain,
        "catches": catches(chain, ix),
        "docs": docs(sites, reach, entry, ix),
        "tests": tests(entry, reach, ix, chain),
        "related": related(entry, ix),
    }
