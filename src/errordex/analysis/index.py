"""The lookups the facts read across a whole snapshot.

``Index`` is built once per snapshot from every file's evidence; ``facts``
reads it for one entry. Lookups across files are kept in memory, compact,
but for the calls written on one line, which wait on disk (``CallTexts``);
a file's own functions and lines are read back by path when asked (so the
evidence of a large repository can wait on disk, see ``CrossFile``).
"""

from __future__ import annotations

import heapq
import re
from array import array
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Container, Hashable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, TypeVar

from errordex import plugins
from errordex.analysis.calltexts import CallTexts
from errordex.analysis.cfg import Workspace
from errordex.analysis.evidence import (
    Catch,
    DocLine,
    FileEvidence,
    FuncDef,
    Manifest,
    TestExpect,
    TraitDecl,
)
from errordex.analysis.modpaths import ModuleTree
from errordex.analysis.prose import Prose
from errordex.analysis.textmatch import Message, is_wrapper
from errordex.extract.common import is_test_path
from errordex.model import ClassDef, ErrorEntry, Guard, Package, via_place
from errordex.scratch.spill import SpillList
from errordex.template import Template

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
#: a table row's text pins the messages it matches when they are this few...
FEW_MESSAGES = 3
#: wrapping messages (``is_wrapper``) kept for the tests' text to be read through
MAX_WRAPPERS = 16
#: ...and this much of it is their literal text (not a placeholder's)
ROW_SHARE = 0.8


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
#: keys an ``Index.memo`` holds before it starts again
MEMO_KEYS = 8192
#: a memo of the facts' (``Index.memo``): a key -> what was worked out for it
Memo = dict[Hashable, Any]


@dataclass(frozen=True, slots=True)
class CrossPart:
    """What ``CrossFile`` keeps of one file, worked out by ``cross_part`` where
    the file was scanned (an extraction worker), so the index process only
    files it away."""

    path: str
    #: names of the functions defined outside tests
    defined: tuple[str, ...] = ()
    #: (callee, function number and line packed by ``_pack`` with file 0) of
    #: the calls made by a function outside tests defined in the same file
    edges: tuple[tuple[str, int], ...] = ()
    #: (callee, caller symbol, line, call text) of the calls written on one line
    call_texts: tuple[tuple[str, str, int, str], ...] = ()
    tests: tuple[TestExpect, ...] = ()
    catches: tuple[Catch, ...] = ()
    #: the file's manifest, when it names a crate
    manifest: Manifest | None = None
    #: a package's re-exports (``FileEvidence.exports``)
    exports: tuple[tuple[str, str, str, int], ...] = ()
    #: a prose document's lines (``FileEvidence.prose``)
    prose: tuple[tuple[int, str], ...] = ()
    #: a module file's ``mod`` and ``pub use`` items (``FileEvidence.modules``, ``.uses``)
    modules: tuple[tuple[str, bool], ...] = ()
    traits: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    uses: tuple[tuple[str, str, str, int], ...] = ()
    #: the test helpers of the file (``Helper``): short functions of test code
    helpers: tuple[Helper, ...] = ()
    #: (method name, trait) of each trait impl's method outside tests (Rust
    #: ``<AddOp as CustomOp3>::cuda_fwd``): which names only a trait defines
    trait_methods: tuple[tuple[str, str], ...] = ()
    #: (trait, symbol) of each public function outside tests whose type
    #: parameter that trait bounds (``FuncDef.bounds``)
    bounded: tuple[tuple[str, str], ...] = ()
    trait_decls: tuple[TraitDecl, ...] = ()
    registered: tuple[tuple[str, str], ...] = ()
    looked_up: tuple[tuple[str, int, str], ...] = ()
    #: ``FileEvidence.debug_modules``
    debug_modules: tuple[tuple[str, int], ...] = ()
    #: module-level instances (``FileEvidence.instances``): few, and asked of
    #: every call text of a method, so kept in memory rather than read by path
    instances: tuple[tuple[str, str], ...] = ()


#: a trait impl's method, in inline modules or not: (trait's last name, method)
#: (``("IndexMut", "index_mut")`` of ``<Value as ops::IndexMut<I>>::index_mut``)
_IMPL_METHOD = re.compile(r"(?:^|::)<[^<>]*?\bas\s+(?:[\w:]*::)?(\w+)\s*(?:<.*>)?\s*>::(\w+)$")


def base_name(base: str) -> str:
    """A base class as written (``typing.Generic[T]``, ``commands.CoreCommands``)
    by its last name (``Generic``, ``CoreCommands``)."""
    return base.split("[", 1)[0].rsplit(".", 1)[-1].strip()


def impl_method(symbol: str) -> tuple[str, str] | None:
    """(trait, method) of a trait impl's method symbol, else None.

    >>> impl_method("<Value as ops::IndexMut<I>>::index_mut")
    ('IndexMut', 'index_mut')
    >>> impl_method("into_header_name::<HeaderName as Sealed>::insert")
    ('Sealed', 'insert')
    >>> impl_method("Value::get") is None
    True
    """
    m = _IMPL_METHOD.search(symbol)
    return (m.group(1), m.group(2)) if m is not None else None


#: a trait impl's method symbol: its trait's last name (``CustomOp3`` of ``<X as ops::CustomOp3>::f``)
_IMPL_OF = re.compile(r"^<[^<>]*?\bas\s+(?:[\w:]*::)?(\w+)[^>]*>::\w+$")


#: the most lines a test helper spans (``fn version_err(text: &str) -> Error {
#: Version::parse(text).unwrap_err() }`` on its own lines is 4 with attributes)
HELPER_LINES = 4


@dataclass(frozen=True, slots=True)
class Helper:
    """A short function of test code that passes its parameters on to a
    call (semver's ``version_err(text)`` is ``Version::parse(text).unwrap_err()``):
    a test's call of it is that call with the test's arguments."""

    name: str
    path: str
    line: int
    params: tuple[str, ...]
    #: (callee, text) of the calls it makes, written on one line each
    calls: tuple[tuple[str, str], ...]


def _helpers(ev: FileEvidence) -> tuple[Helper, ...]:
    out: list[Helper] = []
    by_caller: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for c in ev.calls:
        if c.text:
            by_caller[c.caller].append((c.callee, c.text))
    for f in ev.functions:
        params = tuple(p for p in f.params if p not in ("self", "cls"))
        if (
            f.in_test
            and params
            and all(params)
            and f.end_line - f.line < HELPER_LINES
            and by_caller.get(f.symbol)
        ):
            out.append(Helper(f.name, f.path, f.line, params, tuple(by_caller[f.symbol])))
    return tuple(out)


def cross_part(ev: FileEvidence) -> tuple[CrossPart, FileEvidence]:
    """Split ``ev`` into what lookups across files read and the rest, which
    ``Index`` reads back by path."""
    #: symbol -> index of its first definition in ev.functions
    first: dict[str, int] = {}
    defined: list[str] = []
    trait_methods: list[tuple[str, str]] = []
    bounded: list[tuple[str, str]] = []
    for i, f in enumerate(ev.functions):
        first.setdefault(f.symbol, i)
        if not f.in_test:
            defined.append(f.name)
            if f.public and not f.symbol.startswith("<"):  # a trait impl's method is no way in
                bounded += [(trait, f.symbol) for trait in f.bounds]
            impl = _IMPL_OF.match(f.symbol) if f.symbol.startswith("<") else None
            if impl is not None:
                trait_methods.append((f.name, impl.group(1)))
    edges: list[tuple[str, int]] = []
    texts: list[tuple[str, str, int, str]] = []
    for c in ev.calls:
        func_no = first.get(c.caller)
        if func_no is not None and not ev.functions[func_no].in_test:
            edges.append((c.callee, _pack(0, func_no, c.line)))
        if c.text:
            texts.append((c.callee, c.caller, c.line, c.text))
    part = CrossPart(
        ev.path,
        tuple(defined),
        tuple(edges),
        tuple(texts),
        ev.tests,
        ev.catches,
        ev.manifest
        if ev.manifest is not None and (ev.manifest.crate or ev.manifest.workspace_version)
        else None,
        ev.exports,
        ev.prose,
        ev.modules,
        ev.traits,
        ev.types,
        ev.uses,
        _helpers(ev),
        tuple(trait_methods),
        tuple(bounded),
        ev.trait_decls,
        ev.registered,
        ev.looked_up,
        ev.debug_modules,
        ev.instances,
    )
    rest = FileEvidence(
        path=ev.path,
        language=ev.language,
        n_lines=ev.n_lines,
        functions=ev.functions,
        calls=tuple(c for c in ev.calls if c.text and c.callee in _UNWRAPS),
        scrutinees=ev.scrutinees,
        class_docs=ev.class_docs,
    )
    return part, rest


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
        self.call_texts = CallTexts()
        self.tests: list[TestExpect] = []
        #: name -> the test helpers of that name (``Helper``)
        self.helpers: dict[str, list[Helper]] = defaultdict(list)
        self.catches: dict[str, list[Catch]] = defaultdict(list)
        self.manifests: dict[str, tuple[str, Manifest]] = {}
        #: directory of a workspace's root manifest -> its ``[workspace.package] version``
        self.workspace_versions: dict[str, str] = {}
        #: (module path without extension, name there) -> (the package's
        #: ``__init__`` path, the name it exports, the line of its import)
        self.exports: dict[tuple[str, str], tuple[str, str, int]] = {}
        #: (directory of a package's root file, name) -> (that file, the name
        #: it exports, the line): a re-export whose module is not resolved
        self.root_exports: dict[tuple[str, str], tuple[str, str, int]] = {}
        #: (path, line, text) of the lines of the repository's prose docs
        self.prose: list[tuple[str, int, str]] = []
        #: the traits the repository declares
        self.traits: set[str] = set()
        #: method name -> trait -> how many impls of it define the name
        self.trait_methods: dict[str, dict[str, int]] = defaultdict(dict)
        #: trait -> (path, symbol) of the functions its bound is on (``CrossPart.bounded``)
        self.bounded: dict[str, list[tuple[str, str]]] = defaultdict(list)
        #: trait -> (path, declaration) of each trait of that name
        self.trait_decls: dict[str, list[tuple[str, TraitDecl]]] = defaultdict(list)
        #: (path, name) of a module-level table -> the classes it holds (``CrossPart.registered``)
        self.registered: dict[tuple[str, str], set[str]] = defaultdict(set)
        #: callee -> (path, caller, line) of its calls on an item looked up (``CrossPart.looked_up``)
        self.looked_up: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
        #: (path, name, line) of the ``mod`` items compiled in debug builds only
        self.debug_modules: list[tuple[str, str, int]] = []
        #: (path, ``mod`` items, ``pub use`` items) of the module files that have some
        self.module_items: list[
            tuple[
                str,
                tuple[tuple[str, bool], ...],
                tuple[tuple[str, str, str, int], ...],
                tuple[str, ...],
            ]
        ] = []
        #: path -> a module-level name -> the class of the instance it is bound to
        self.instances: dict[str, dict[str, str]] = {}

    def add(self, ev: FileEvidence) -> FileEvidence:
        """Take from ``ev`` what lookups across files read; return the rest."""
        part, rest = cross_part(ev)
        self.add_part(part)
        return rest

    def add_part(self, part: CrossPart) -> None:
        """Take one file's ``cross_part``."""
        path = part.path
        file_no = len(self.paths)
        self.paths.append(path)
        base = _pack(file_no, 0, 0)
        defined = self.defined
        for name in part.defined:
            defined[name] += 1
        for callee, packed in part.edges:
            edges = self.edges.get(callee)
            if edges is None:
                edges = self.edges[callee] = array("Q")
            edges.append(base | packed)
        for callee, caller, line, text in part.call_texts:
            self.call_texts.add(callee, path, caller, line, text)
        self.tests.extend(part.tests)
        for h in part.helpers:
            self.helpers[h.name].append(h)
        for x in part.catches:
            self.catches[x.exception.rsplit(".", 1)[-1]].append(x)
        if part.manifest is not None and part.manifest.crate:
            self.manifests[part.manifest.crate] = (path, part.manifest)
        for shown, module, name, line in part.exports:
            if module:
                self.exports.setdefault((module, name), (path, shown, line))
            else:  # a package root's re-export by name (Rust's `pub use` in lib.rs)
                where = path.rsplit("/", 1)[0] if "/" in path else ""
                self.root_exports.setdefault((where, name), (path, shown, line))
        self.prose.extend((path, line, text) for line, text in part.prose)
        self.traits.update(part.traits)
        for trait, symbol in part.bounded:
            self.bounded[trait].append((path, symbol))
        for decl in part.trait_decls:
            self.trait_decls[decl.name].append((path, decl))
        if not is_test_path(path):
            for cls, table in part.registered:
                self.registered[path, table].add(cls)
            for caller, line, callee in part.looked_up:
                self.looked_up[callee].append((path, caller, line))
        for name, trait in part.trait_methods:
            got = self.trait_methods[name]
            got[trait] = got.get(trait, 0) + 1
        if part.instances:
            self.instances[path] = dict(part.instances)
        if part.modules or part.uses or part.types:
            self.module_items.append((path, part.modules, part.uses, part.types))
        self.debug_modules += [(path, name, line) for name, line in part.debug_modules]
        if part.manifest is not None and part.manifest.workspace_version:
            root = path.rsplit("/", 1)[0] if "/" in path else ""
            self.workspace_versions[root] = part.manifest.workspace_version


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
    #: a class's qualified name -> its docstring's first line
    class_docs: dict[str, DocLine] = field(default_factory=dict)
    #: ``functions`` by first line, ties in file order, and their first lines
    #: (``Index.enclosing`` looks back from a line instead of at every function)
    by_line: tuple[FuncDef, ...] = ()
    lines: tuple[int, ...] = ()

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
        by_line = tuple(sorted(ev.functions, key=lambda f: f.line))  # stable: file order in ties
        return cls(
            ev.functions,
            first,
            scrutinees,
            unwraps,
            dict(ev.class_docs),
            by_line,
            tuple(f.line for f in by_line),
        )


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
        #: files by number, as the packed call edges name them
        self.paths = cross.paths
        self._package_dirs: frozenset[str] | None = None
        self.classes: dict[str, list[ClassDef]] = defaultdict(list)
        for cls in classes:
            self.classes[cls.name].append(cls)
        #: a base's last name -> the classes that name it (``subclasses``), as asked
        self._subclasses: dict[str, list[ClassDef]] | None = None
        #: callee name -> packed call edges (``callers_of``), of defined
        #: callees only (a class's name too: ``C(...)`` runs ``C.__init__``)
        self.callers = {
            k: v for k, v in cross.edges.items() if k in self.defined or k in self.classes
        }
        self.call_texts = cross.call_texts
        self.call_texts.flush()  # before the analysis forks its readers
        self.tests = cross.tests
        self.helpers = cross.helpers
        #: path -> the lines of the tests' expectations there (``expecting``), as asked
        self._expecting: dict[str, list[tuple[int, int]]] | None = None
        #: exception name -> its catches, in ``catches_of`` order
        self.catches = {n: sorted(found, key=_catch_order) for n, found in cross.catches.items()}
        #: exception name -> (path, symbol) of the functions with such an ``except``
        self.catchers = {
            n: frozenset((c.path, c.symbol) for c in found) for n, found in self.catches.items()
        }
        #: exception name -> the files of its ``catchers``
        self.catcher_paths = {
            n: frozenset(path for path, _ in found) for n, found in self.catchers.items()
        }
        self.manifests = cross.manifests
        self.exports = cross.exports
        self.root_exports = cross.root_exports
        # Tests by the words of their expected text, so an entry checks only
        # the tests that share a word with its message (not every test).
        self.tests_by_word: dict[str, list[int]] = defaultdict(list)
        self.tests_wordless: list[int] = []
        #: (exception name, called name) -> tests without expected text
        self.tests_by_exception_call: dict[tuple[str, str], list[int]] = defaultdict(list)
        #: an error variant (``Error::ExpectedComma``) -> the tests that expect it and no text
        self.tests_by_variant: dict[str, list[int]] = defaultdict(list)
        self.should_panic_by_call: dict[str, list[int]] = defaultdict(list)
        #: called name -> tests that its result is an error, of no variant named
        self.error_result_by_call: dict[str, list[int]] = defaultdict(list)
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
                if "::" in exception:  # `Err(Error::ExpectedComma)`: the variant alone
                    self.tests_by_variant[exception].append(i)
            elif t.kind == "should_panic":  # no expected text: known by what it calls
                for name in t.calls:
                    self.should_panic_by_call[name].append(i)
            elif t.kind == "error-result":  # `assert!(f(x).is_err())`: by what it calls
                for name in t.calls:
                    self.error_result_by_call[name].append(i)
        self._few: dict[tuple[str, bool], bool] = {}
        self._most: dict[tuple[str, bool], int] = {}
        self._by_fn_name: dict[str, frozenset[str]] | None = None
        self._thrown_by_fn: dict[str, list[Related]] | None = None
        self._memos: dict[str, Memo] = {}
        self.prose = Prose(cross.prose)
        self.packages = {
            p.name: _inherited_version(p, self.manifests, cross.workspace_versions)
            for p in packages
        }
        self.workspace = Workspace(self.packages, self.manifests)
        self.traits = frozenset(cross.traits)
        self.bounded = cross.bounded
        self.trait_decls = cross.trait_decls
        self.registered = cross.registered
        self.looked_up = cross.looked_up
        self.instances = cross.instances
        #: the names a ``pub use`` re-exports (a trait in a private inline
        #: module is named so where it is re-exported)
        self._used_names = frozenset(
            name for _, _, uses, _ in cross.module_items for u in uses for name in (u[0], u[2])
        )
        self.trait_methods = cross.trait_methods
        self.modules = ModuleTree({p.name: p.root for p in self.packages.values()})
        for path, mods, uses, types in cross.module_items:
            self.modules.add(path, mods, uses, types)
        for path, name, line in cross.debug_modules:
            self.modules.add_debug(path, name, line)
        #: a package's root directory -> its name
        self.package_at = {p.root: p.name for p in self.packages.values()}
        self.by_symbol: dict[tuple[str, str], list[Related]] = defaultdict(list)
        #: an exception's class name -> the entries that raise it
        self.by_exception: dict[str, list[Related]] = defaultdict(list)
        self.by_word: dict[str, list[Related]] = defaultdict(list)
        #: (path, line) of a raise -> the entries whose sites it raises again
        #: (their ``via``: jsonschema's keyword yields, raised by ``validate``)
        self.by_via: dict[tuple[str, int], list[Related]] = defaultdict(list)
        #: the entries' templates (on disk: only ``matches_few`` reads them,
        #: a few), and their positions by each word of their text
        self.templates = SpillList[Template]()
        templates_by_word: dict[str, list[int]] = defaultdict(list)
        #: messages that print another error's text first (``is_wrapper``)
        self.wrappers: list[Template] = []
        raises: dict[tuple[str, str], list[RaiseSite]] = defaultdict(list)
        #: (path, symbol, the ``except`` line) -> the raises in that clause
        self._in_except: dict[tuple[str, str, int], list[RaiseSite]] = defaultdict(list)
        raise_kinds: dict[str, str | None] = {}
        for e in entries:
            cat = e.catalog_sites
            if not cat:
                continue
            for s in cat:
                if s.language not in raise_kinds:
                    lang = plugins.find(s.language)
                    raise_kinds[s.language] = lang.runtime.raise_kind if lang else None
                if s.exception_type and s.kind == raise_kinds[s.language]:
                    here = RaiseSite(e.id, s.line, s.exception_type.rsplit(".", 1)[-1], s.guards)
                    raises[s.path, s.symbol or ""].append(here)
                    for g in s.guards:
                        if g.kind == "except":
                            self._in_except[s.path, s.symbol or "", g.line].append(here)
            if is_wrapper(e.template) and len(self.wrappers) < MAX_WRAPPERS:
                self.wrappers.append(e.template)
            for w in words_of(e.template):
                templates_by_word[w].append(len(self.templates))
            self.templates.append(e.template)
            r = Related.of(e)
            for key in {(s.path, s.symbol or "") for s in cat}:
                self.by_symbol[key].append(r)
            for name in {t.rsplit(".", 1)[-1] for t in e.exception_types}:
                self.by_exception[name].append(r)
            for trigram in trigrams_of(e):
                self.by_word[trigram].append(r)
            for at in {v for s in cat if (v := via_place(s.via)) is not None}:
                self.by_via[at].append(r)
        self.templates_by_word = {w: array("l", at) for w, at in templates_by_word.items()}
        #: (path, symbol) -> the raises of a class there, of the functions
        #: with two or more (``raises_in``)
        self._raises: dict[tuple[str, str], list[RaiseSite]] = {
            k: v for k, v in raises.items() if len(v) > 1
        }
        # A key of one entry only ever finds that entry itself, which
        # ``related`` skips: dropped, and so are most Related (a third of the
        # Index of a large Python repository).
        # ``by_symbol`` keeps a function of one entry: ``related`` reads the
        # functions on a public call's way to a site by it. (No ``by_path``:
        # the same file alone relates nothing.)
        self.by_exception = _shared(self.by_exception)
        #: name -> path -> positions in ``by_exception[name]`` (``raising_in``), as asked
        self._raising_at: dict[str, dict[str, list[int]]] = {}
        self.by_word = _shared(self.by_word)

    def raises_in(self, path: str, symbol: str) -> list[RaiseSite]:
        """The raises of a class in the function ``symbol`` of ``path``, where
        it has two or more (one is the entry's own: nothing to tell apart)."""
        return self._raises.get((path, symbol), [])

    def raised_in_except(self, path: str, symbol: str, line: int) -> list[RaiseSite]:
        """The raises of a class in the ``except`` clause on ``line`` of the
        function ``symbol`` of ``path`` (packaging's ``except
        ParserSyntaxError as e: raise InvalidRequirement(str(e)) from e``)."""
        return self._in_except.get((path, symbol, line), [])

    def memo(self, kind: str) -> Memo:
        """A lookup that the facts fill with what they work out once per key
        (each process its own; emptied when it holds ``MEMO_KEYS`` keys, so
        the definitions it holds on to stay few)."""
        got = self._memos.get(kind)
        if got is None or len(got) >= MEMO_KEYS:
            got = self._memos[kind] = {}
        return got

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

    def thrown_in_functions_named(self, name: str) -> list[Related]:
        """The entries thrown in a function of this name (``entries_in_functions_named``),
        as ``related`` reads them."""
        if self._thrown_by_fn is None:
            by_name: dict[str, list[Related]] = defaultdict(list)
            for (_, symbol), found in self.by_symbol.items():
                by_name[symbol.rsplit("::", 1)[-1].rsplit(".", 1)[-1]].extend(found)
            self._thrown_by_fn = dict(by_name)
        return self._thrown_by_fn.get(name, [])

    def entries_in_functions_named(self, name: str) -> frozenset[str]:
        """The entries thrown in a function of this name (its last segment:
        ``convert`` of ``File.convert``), of any type or path."""
        if self._by_fn_name is None:
            by_name: dict[str, set[str]] = defaultdict(set)
            for (_, symbol), found in self.by_symbol.items():
                by_name[symbol.rsplit("::", 1)[-1].rsplit(".", 1)[-1]].update(r.id for r in found)
            self._by_fn_name = {k: frozenset(v) for k, v in by_name.items()}
        return self._by_fn_name.get(name, frozenset())

    def most_literal(self, pattern: str, is_regex: bool) -> int:
        """The most characters of a test's expected text that any one of the
        snapshot's messages prints as its literal text (``Message.literal_in``):
        a message that takes fewer into its placeholders is what the test expects."""
        key = (pattern, is_regex)
        got = self._most.get(key)
        if got is None:
            got = -1
            seen: set[int] = set()
            for w in {w.lower() for w in _WORD.findall(pattern) if len(w) >= 3}:
                for i in self.templates_by_word.get(w, ()):
                    if i not in seen:
                        seen.add(i)
                        got = max(got, Message(self.templates[i]).literal_in(pattern, is_regex))
            self._most[key] = got
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

    def expecting(self, path: str, line: int) -> bool:
        """Whether ``line`` of ``path`` is in the block of a test that
        expects an error there (a ``pytest.raises`` block, a
        ``#[should_panic]`` test's body, an asserted error's statement)."""
        if self._expecting is None:
            spans: dict[str, list[tuple[int, int]]] = defaultdict(list)
            for t in self.tests:
                first = t.body_line or t.line
                last = first + max(t.body.count("\n"), 0)
                spans[t.path].append((min(first, t.line), max(last, t.line)))
            self._expecting = dict(spans)
        return any(lo <= line <= hi for lo, hi in self._expecting.get(path, ()))

    def catches_of(self, names: Iterable[str]) -> Iterator[Catch]:
        """The catches of these exception names: outside tests first, then by
        path and line, ties in the order of the names."""
        found = [got for n in names if (got := self.catches.get(n))]
        if len(found) == 1:
            return iter(found[0])  # in that order already (most errors: one name)
        return heapq.merge(*found, key=_catch_order)

    def catching(self, names: Iterable[str]) -> frozenset[tuple[str, str]]:
        """(path, symbol) of the functions with an ``except`` of one of these names."""
        found = [self.catchers[n] for n in names if n in self.catchers]
        return found[0] if len(found) == 1 else frozenset().union(*found)

    def raising_in(self, name: str, paths: Iterable[str]) -> list[Related]:
        """``by_exception[name]`` of the entries at one of ``paths``, in its
        order (a builtin class is raised all over: ValueError by a quarter of
        the stdlib's entries, each of which asks for those in its own files)."""
        at = self._raising_at.get(name)
        if at is None:
            at = self._raising_at[name] = defaultdict(list)
            for i, r in enumerate(self.by_exception.get(name, ())):
                at[r.path].append(i)
        found = self.by_exception.get(name, [])
        return [found[i] for i in sorted(i for path in paths for i in at.get(path, ()))]

    def catching_paths(self, names: Iterable[str]) -> frozenset[str]:
        """The files of ``catching(names)``."""
        found = [self.catcher_paths[n] for n in names if n in self.catcher_paths]
        return found[0] if len(found) == 1 else frozenset().union(*found)

    def exported_name(self, path: str, symbol: str) -> tuple[str, str, int] | None:
        """The name a package's ``__init__`` re-exports a definition under,
        as a user imports it (``src/click/termui.py``'s ``style`` is
        ``click.style``, ``Dataset.isel`` in xarray/core/dataset.py is
        ``xarray.Dataset.isel``), with the path and line of the outermost
        re-export; None when no package re-exports it."""
        if path.endswith(".rs"):
            got = self.modules.public_path(path, symbol)
            # evidence: the last re-export on the way (a name defined where
            # users name it needs no other)
            if got is not None and got[2]:
                return got
            fn = self.function(path, symbol) if got is not None else None
            if got is not None and fn is not None and got[0].count("::") > symbol.count("::"):
                return got[0], path, fn.line  # in `pub mod`s all the way: its definition
        rooted = self._root_exported(path, symbol)
        if rooted is not None:
            return rooted
        module = path.rsplit(".", 1)[0]
        module = module.removesuffix("/__init__")
        head, dot, rest = symbol.partition(".")
        name, hops, at = head, 0, ("", 0)
        while hops < 4:
            got = self.exports.get((module, name))
            if got is None and not name.startswith("_"):
                # `from .m import *` in an `__init__` without an `__all__`
                star = self.exports.get((module, "*"))
                got = (star[0], name, star[2]) if star is not None else None
            if got is None:
                break
            init, name, line = got
            module, at = init.rsplit(".", 1)[0].removesuffix("/__init__"), (init, line)
            hops += 1
        if not hops:
            return None
        parts = _import_parts(module, self.package_dirs())
        return ".".join([*parts, name]) + (f".{rest}" if dot else ""), at[0], at[1]

    def package_dirs(self) -> frozenset[str]:
        """The directories that hold an ``__init__.py``."""
        if self._package_dirs is None:
            self._package_dirs = frozenset(
                p.rpartition("/")[0] for p in self.paths if p.rpartition("/")[2] == "__init__.py"
            )
        return self._package_dirs

    def public(self, fn: FuncDef) -> bool:
        """Whether ``fn`` is API: public where it is written, or (for a
        language whose packages re-export their private modules' names)
        re-exported with no private part of its name, and not nested in a
        function (httpx/_client.py's ``Client.send`` is ``httpx.Client.send``;
        ``Client._send_single_request`` and ``attrs.wrap``, a function inside
        ``attrs``, are not)."""
        if fn.public:
            # an impl's method of a trait a user cannot call it through
            # (serde_yaml's `<usize as Index>::index_or_insert`) is not API
            got = impl_method(fn.symbol) if "<" in fn.symbol else None
            return got is None or not self.hidden_method(*got)
        if fn.in_test:
            return False
        lang = plugins.for_path(fn.path)
        if lang is None or not lang.pages.public_by_reexport:
            return False
        parts = fn.symbol.split(".")
        if not all(lang.pages.name_is_public(p) for p in parts):
            return False
        if any(self.function(fn.path, ".".join(parts[:i])) for i in range(1, len(parts))):
            return False
        return self.exported_name(fn.path, fn.symbol) is not None

    def hidden_method(self, trait: str, method: str) -> bool:
        """Whether no user can call ``method`` of ``trait`` by name: every
        trait of that name that declares it marks it ``#[doc(hidden)]``
        (serde_yaml's and sonic-rs's sealed ``Index::index_or_insert``), or
        is itself out of reach: not ``pub`` (burn's ``pub(crate) trait
        Numeric``), in a private inline module no ``pub use`` names it out
        of, or, named as sealed, in a module file no user can name
        (reqwest's ``IntoUrlSealed``, which only ``IntoUrl: IntoUrlSealed``
        is re-exported to bound). A user runs such a method through a
        public function whose type parameter the trait bounds."""
        memo = self.memo("hidden_method")
        got = memo.get((trait, method))
        if got is None:
            decls = [(p, d) for p, d in self.trait_decls.get(trait, ()) if method in d.methods]
            got = memo[trait, method] = bool(decls) and all(
                self._unnamed(p, d, method) for p, d in decls
            )
        return bool(got)

    def _unnamed(self, path: str, decl: TraitDecl, method: str) -> bool:
        if method in decl.hidden:
            return True
        if decl.name in self._used_names:
            return False  # `pub use crate::io::{decoder::ImageDecoder, …}` (image's)
        if not decl.named:
            return True
        # a `pub` trait in a module file: only one named as sealed is taken
        # to be out of reach where no re-export is seen (burn-vision's
        # `Morphology` is re-exported by a `pub use tensor::*` the module
        # tree does not read, inside a `mod` block)
        return (
            "Sealed" in decl.name
            and self.modules.module_of(path) is not None
            and self.exported_name(path, decl.name) is None
        )

    def subtraits(self, trait: str) -> set[str]:
        """The traits that require ``trait``, and theirs (``IntoUrl`` of
        reqwest's ``IntoUrlSealed``): a bound by one of them calls its methods."""
        out: set[str] = set()
        todo = [trait]
        while todo and len(out) < 16:
            t = todo.pop()
            for decls in self.trait_decls.values():
                for _, d in decls:
                    if t in d.supertraits and d.name not in out:
                        out.add(d.name)
                        todo.append(d.name)
        return out

    def _root_exported(self, path: str, symbol: str) -> tuple[str, str, int] | None:
        """``candle_nn::GroupNorm::new``: the definition's type (or function)
        re-exported by name from the root file of the package it is in."""
        if not self.root_exports:
            return None
        head, sep, rest = symbol.partition("::")
        where = path.rsplit("/", 1)[0] if "/" in path else ""
        while True:
            got = self.root_exports.get((where, head))
            if got is not None:
                pkg_dir = where.rsplit("/", 1)[0] if "/" in where else ""
                pkg = self.package_at.get(pkg_dir)
                if pkg is None:
                    return None
                return f"{pkg.replace('-', '_')}::{got[1]}{sep}{rest}", got[0], got[2]
            if not where:
                return None
            where = where.rsplit("/", 1)[0] if "/" in where else ""

    def subclasses(self, name: str) -> list[ClassDef]:
        """The classes that name ``name`` (its last segment) among their bases."""
        if self._subclasses is None:
            by_base: dict[str, list[ClassDef]] = defaultdict(list)
            for defs in self.classes.values():
                for c in defs:
                    for b in c.bases:
                        by_base[base_name(b)].append(c)
            self._subclasses = dict(by_base)
        return self._subclasses.get(name, [])

    def class_doc(self, path: str, qualname: str) -> DocLine | None:
        """The first line of a class's docstring."""
        return self._by_path(path).class_docs.get(qualname)

    def instance_class(self, path: str, name: str) -> str | None:
        """The class of the instance a module-level ``name`` of ``path`` is
        bound to (``JSONDecoder`` of json's ``_default_decoder``), or None."""
        got = self.instances.get(path)
        return got.get(name) if got is not None else None

    def functions_in(self, path: str) -> tuple[FuncDef, ...]:
        return self._by_path(path).functions

    def function(self, path: str, symbol: str) -> FuncDef | None:
        """The first function of ``path`` with this symbol."""
        return self._by_path(path).first.get(symbol)

    def only_through(self, name: str, trait: str) -> bool:
        """Whether every definition of ``name`` outside tests is an impl of
        ``trait`` (its declaration's default body aside): a call of ``name``
        then dispatches through ``trait`` (candle's ``cuda_fwd``, a
        ``CustomOp3`` method that ``Storage::apply_op3`` calls on ``&dyn``)."""
        impls = self.trait_methods.get(name, {})
        n = impls.get(trait, 0)
        return n > 0 and len(impls) == 1 and self.defined.get(name, 0) - n <= 1

    def callers_of(
        self, name: str, paths: Container[str] | None = None
    ) -> Iterator[tuple[FuncDef, int]]:
        """Functions outside tests that call ``name``, with the line of the
        call (only those defined in ``paths``, when given: the other files
        are not read)."""
        for edge in self.callers.get(name, ()):
            file_no, func_no, line = _unpack(edge)
            path = self.paths[file_no]
            if paths is None or path in paths:
                yield self.functions_in(path)[func_no], line

    def scrutinee(self, path: str, line: int) -> tuple[str, int] | None:
        return self._by_path(path).scrutinees.get(line)

    def unwrap(self, path: str, line: int) -> tuple[str, str] | None:
        return self._by_path(path).unwraps.get(line)

    def enclosing(self, path: str, line: int) -> FuncDef | None:
        """The innermost function around ``line``: of those whose lines hold
        it, the one that starts last (the last in the file of those that
        start on the same line)."""
        at = self._by_path(path)
        by_line = at.by_line
        # back from the last function that starts by ``line``: the first
        # that holds it starts last
        for i in range(bisect_right(at.lines, line) - 1, -1, -1):
            if line <= by_line[i].end_line:
                return by_line[i]
        return None


def _inherited_version(
    pkg: Package, manifests: dict[str, tuple[str, Manifest]], versions: dict[str, str]
) -> Package:
    """``pkg`` with the version it takes from its workspace (``version.workspace
    = true``: the nearest enclosing workspace root's ``[workspace.package]``)."""
    got = manifests.get(pkg.name)
    if pkg.version is not None or got is None or not got[1].inherits_version:
        return pkg
    root = pkg.root
    while True:
        if root in versions:
            return replace(pkg, version=versions[root])
        if not root:
            return pkg
        root = root.rsplit("/", 1)[0] if "/" in root else ""


@dataclass(frozen=True, slots=True)
class RaiseSite:
    """A raise of a class (Python's ``raise X(…)``), as a test's call is
    told apart by the checks around it (``facts._decided_by_check``)."""

    id: str  # the entry's
    line: int
    exception: str  # the class's last name
    guards: tuple[Guard, ...]


@dataclass(frozen=True, slots=True)
class Related:
    """An entry as ``related`` reads it (its message worked out once)."""

    id: str
    message: str
    #: whether it has text to read as a message (not built at run time)
    readable: bool
    path: str
    line: int
    #: the names its sites' conditions read (``if``/``assert`` guards)
    guarded: frozenset[str] = frozenset()

    @classmethod
    def of(cls, e: ErrorEntry) -> Related:
        s = e.catalog_sites[0]
        readable = not e.template.dynamic and bool(e.template.chunks())
        return cls(e.id, e.message, readable, s.path, s.line, guarded_names(e))


#: a condition's names (attributes too: ``self.len`` reads ``len``)
_NAME = re.compile(r"[A-Za-z_]\w*")
#: words every condition has, which say nothing of what it guards
_NOT_GUARDED = frozenset(
    {
        *("self", "not", "and", "or", "is", "in", "None", "True", "False", "len"),
        *("isinstance", "true", "false", "Some", "Ok", "Err", "if", "let"),
    }
)


def guarded_names(e: ErrorEntry) -> frozenset[str]:
    """The names the conditions around ``e``'s sites read (``at``, ``len``
    aside, for ``at <= self.len()``)."""
    return frozenset(
        n
        for s in e.catalog_sites
        for g in s.guards
        if g.kind in ("if", "elif", "else", "assert", "fall-through")
        for n in _NAME.findall(g.text)
        if n not in _NOT_GUARDED
    )


_K = TypeVar("_K")


def _shared(lookup: dict[_K, list[Related]]) -> dict[_K, list[Related]]:
    """``lookup`` without the keys of one entry."""
    return {k: found for k, found in lookup.items() if len(found) > 1}


def _catch_order(c: Catch) -> tuple[bool, str, int]:
    """Catches outside tests first, then by place."""
    return ("test" in c.path, c.path, c.line)


def words_of(t: Template) -> set[str]:
    return {w.lower() for w in _WORD.findall(" ".join(t.chunks())) if len(w) >= 3}


def trigrams_of(e: ErrorEntry) -> set[str]:
    words = [w.lower() for w in _WORD.findall(" ".join(e.template.chunks()))]
    return {" ".join(words[i : i + 3]) for i in range(len(words) - 2)}


def _import_parts(module: str, packages: frozenset[str]) -> list[str]:
    """The module ``module`` (a path without ``.py``) as it is imported: from
    below the outermost directory that is no package (``src/``, or
    candle's ``candle-pyo3/py_src/``, which is no package).

    >>> _import_parts("candle-pyo3/py_src/candle/nn", frozenset(
    ...     {"candle-pyo3/py_src/candle", "candle-pyo3/py_src/candle/nn"}))
    ['candle', 'nn']
    >>> _import_parts("src/click/termui", frozenset())
    ['click', 'termui']
    """
    parts = module.split("/") if module else []
    if any("/".join(parts[:j]) in packages for j in range(1, len(parts) + 1)):
        for j in range(len(parts) - 1, 0, -1):
            if "/".join(parts[:j]) not in packages:
                return parts[j:]
        return parts
    # no package seen (a namespace package, or files read alone)
    return parts[1:] if parts[:1] in (["src"], ["lib"]) else parts
