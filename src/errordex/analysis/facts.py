"""Facts: what the code proves about an entry, each with its evidence (pure).

A fact is a plain dict with at least ``path`` and ``line`` (its evidence).
``facts`` reads one entry's from the snapshot's ``Index`` (``index.py``).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from typing import Any, cast

from errordex import plugins
from errordex.analysis.allowed import chained
from errordex.analysis.calledon import called_by_path
from errordex.analysis.cfg import dependency_line, enabled_by, features_in
from errordex.analysis.decide import decided_by_check
from errordex.analysis.evidence import DocLine, FuncDef, TestExpect
from errordex.analysis.handoff import handoff_callers, self_type
from errordex.analysis.index import (
    ROW_SHARE,
    Index,
    Related,
    base_name,
    guarded_names,
    impl_method,
    trigrams_of,
    words_of,
)
from errordex.analysis.lift import lift
from errordex.analysis.textmatch import Message, pins, wrapped_heads
from errordex.analysis.traits import by_syntax, conversion_call
from errordex.analysis.validcall import (
    call_keywords,
    calls_in,
    swapped_keyword,
    swapped_literal,
    valid_call,
)
from errordex.extract.common import is_test_path, is_test_support
from errordex.forge import parse_forge_url
from errordex.model import ClassDef, ErrorEntry, Guard, Repo, ThrowSite

Fact = dict[str, Any]

MAX_SITES = 12
MAX_HOPS = 6
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
            if g.values:
                fact["values"] = [list(v) for v in g.values]
            accepts = _accepts(g)
            if accepts is not None:
                fact["accepts"] = accepts
            out.append(fact)
    return out


def _accepts(g: Guard) -> str | None:
    """What an ``else`` after a chain of tests of one value (or a statement
    after early returns for such tests) rejects, as one membership test:
    xarray's ``if missing_dims == "raise": … elif … == "warn": … elif … ==
    "ignore": … else: raise`` accepts ``missing_dims in ("raise", "warn",
    "ignore")``, not only what its first test says."""
    if g.kind == "else":
        return chained([g.text, *g.siblings])
    if g.kind == "fall-through":
        return chained(g.siblings)
    return None


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
        fn = ix.enclosing(s.path, s.line) or _macro_function(s)
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
            public=ix.public(fn),
            params=list(fn.params),
            sites=[f"{s.path}:{s.line}"],
        )
        debug = ix.modules.debug_only(fn.path)
        if debug is not None:
            # clap's `#[cfg(debug_assertions)] mod debug_asserts;`: not in a release build
            fact["debug_only"] = _at(*debug)
        trait = _TRAIT_IMPL.match(fn.symbol)
        if trait is not None and trait.group(1) not in ix.traits:
            fact["foreign"] = True  # another library's trait: that library calls it
        own = _own_constructor(s, fn)
        if own:
            # `InvalidMethod { _priv: () }` in `InvalidMethod::new`: the value
            # is built for a user where `Err(InvalidMethod::new())` is returned
            fact["builders"] = [
                _at(g.path, line, function=g.symbol)
                for g, line in _typed_callers(fn, ix)
                if (g.path, g.symbol) != (fn.path, fn.symbol)
            ]
        # another library calls a foreign trait's impl: the way in is the
        # repository's function that hands it the value, as for a private one
        if not fact["public"] or (own and fact["builders"]) or fact.get("foreign"):
            fact["paths"] = _paths_from_public(fn, ix, catching)
            if not fact["paths"] and catching:
                # every way in catches it (packaging's `Requirement.__init__`
                # turns a `ParserSyntaxError` into `InvalidRequirement`): the
                # chains through the catchers say who does (``catches``)
                caught = _paths_from_public(fn, ix)
                if caught:
                    fact["caught_paths"] = caught
        else:
            paths = _paths_from_entry_points(fn, ix, catching)
            if paths:
                fact["paths"] = paths
                if _called_back(fn, ix):
                    fact["callback"] = True
                if any(c and c[-1].get("via") == "registry" for c in paths):
                    fact["registry"] = True  # `DEFAULT_CONVERTERS` holds its class
        cls, dot, _ = fn.symbol.rpartition(".")
        said = ix.class_doc(fn.path, cls) if dot and "::" not in fn.symbol else None
        if said is not None:
            # a method's class's docstring: what the object the user holds is for
            fact["owner_doc"] = _at(fn.path, said.line, name=cls, text=said.text)
        converts = conversion_call(fn.symbol)
        owner = _owner_type(fn.symbol)
        if (
            converts
            and owner
            and ix.modules.declares(fn.path, owner)
            and ix.exported_name(fn.path, owner) is not None
        ):
            # a public type's std conversion: `s.parse::<DType>()` is the direct way in
            fact["converts"] = converts
        if fact.get("foreign") and not fact.get("paths"):
            way_in = _bound_caller(fn, ix)
            if way_in is not None:
                fact["dispatch"] = way_in
        init = _constructor_calling(fn, ix) if fact["public"] else None
        if init is not None:
            # `OpenAPIResponse(request)` renders in its `__init__`: the class is what was called
            fact["constructor"] = _at(
                init[0].path,
                init[1],
                function=init[0].symbol,
                calls=fn.name,
                public=True,
                params=list(init[0].params),
            )
        # The name a user imports it by, where a package re-exports it.
        for f in [
            fact,
            *(chain[0] for chain in fact.get("paths", ()) if chain),
            *([fact["constructor"]] if init is not None else []),
        ]:
            if f.get("public"):
                _name_it(f, ix)
        out.append(fact)
        if len(out) >= 5:
            break
    return out


#: a bound that stands for another trait (serde's ``DeserializeOwned`` is
#: ``for<'de> Deserialize<'de>``)
_BOUND_ALIASES = {"Deserialize": ("DeserializeOwned",)}


def _called_back(fn: FuncDef, ix: Index) -> bool:
    """Whether ``fn`` is a hook its own object's methods call on an event
    (werkzeug's ``Request.on_json_loading_failed``, which ``get_json`` calls
    as ``self.on_json_loading_failed(e)`` when the body is no JSON): named
    ``on_…`` by the convention for such methods, and called so by the
    library. A user overrides it, or meets it through the call that fires
    the event; they do not call it."""
    if not fn.name.startswith("on_"):
        return False
    own = fn.symbol.rpartition(".")[0] or fn.symbol.rpartition("::")[0]
    for _, caller, _, text in ix.call_texts.get(fn.name):
        mine = caller.rpartition(".")[0] or caller.rpartition("::")[0]
        if mine == own and text.startswith(f"self.{fn.name}("):
            return True
    return False


def _bound_caller(fn: FuncDef, ix: Index) -> Fact | None:
    """For a method of a foreign trait's impl on a public type (``impl<'de>
    Deserialize<'de> for Value``), which nothing in the crate calls by name:
    the crate's public generic function whose type parameter that trait
    bounds (``ron::from_str<T: Deserialize>``). A user's
    ``ron::from_str::<Value>(…)`` runs the impl. Free functions only, by
    the shortest path a user imports; ``type`` is the impl's type, as the
    user names it."""
    trait = _TRAIT_IMPL.match(fn.symbol)
    owner = _owner_type(fn.symbol)
    if trait is None or owner is None or ix.exported_name(fn.path, owner) is None:
        return None
    names = (trait.group(1), *_BOUND_ALIASES.get(trait.group(1), ()))
    best: tuple[tuple[int, int, str], Fact] | None = None
    for name in names:
        for path, symbol in ix.bounded.get(name, ()):
            g = ix.function(path, symbol)
            # a method's bound is the method's business (`Number::visit<E: de::Error>`)
            if "::" in symbol or g is None or g.in_test or not ix.public(g):
                continue
            shown = ix.exported_name(path, symbol)
            if shown is None:
                continue
            rank = (shown[0].count("::"), len(shown[0]), shown[0])
            if best is None or rank < best[0]:
                best = (
                    rank,
                    _at(
                        g.path,
                        g.line,
                        function=g.symbol,
                        public=True,
                        params=list(g.params),
                        type=owner,
                        bound=name,
                        exported={"name": shown[0], "path": shown[1], "line": shown[2]},
                    ),
                )
    return best[1] if best is not None else None


def _own_constructor(site: ThrowSite, fn: FuncDef) -> bool:
    """Whether ``site`` builds an error value inside a function of the
    error's own type (``DeviceError::already_initialized`` building
    ``DeviceError::AlreadyInitialized``, ``InvalidMethod::new``): a
    constructor the library calls, not a place a user meets it."""
    if site.kind != "construct" or not site.exception_type or "::" not in fn.symbol:
        return False
    return _owner_type(fn.symbol) == site.exception_type.split("::", 1)[0]


def _constructor_calling(fn: FuncDef, ix: Index) -> tuple[FuncDef, int] | None:
    """The public ``__init__`` of a method's own class that calls it on the
    instance it builds (``self.render(content)``), and the line: a user who
    writes ``C(…)`` runs the method without naming it. Python only (a Rust
    constructor is a function like any other)."""
    owner, _, name = fn.symbol.rpartition(".")
    if not owner or "::" in fn.symbol or name.startswith("__"):
        return None
    init = ix.function(fn.path, f"{owner}.__init__")
    if init is None or not ix.public(init):
        return None
    for path, caller, line, text in ix.call_texts.get(name):
        if path == fn.path and caller == init.symbol and text.startswith(f"self.{name}("):
            return init, line
    return None


def _name_it(f: Fact, ix: Index) -> None:
    """Give a public function's fact the name a user imports it by: where a
    package re-exports it, or its module's (``exported``); worked out once
    per function and line in a process (the chains of many entries go
    through the same public functions)."""
    key = (f["path"], f["function"], f["line"])
    memo = ix.memo("exported")
    if key not in memo:
        memo[key] = _exported(f, ix)
    got = memo[key]
    if got is not None:
        f["exported"] = dict(got)


def _exported(f: Fact, ix: Index) -> Fact | None:
    got = ix.exported_name(f["path"], f["function"]) or _through_subclass(f, ix)
    if got is not None:
        return {"name": got[0], "path": got[1], "line": got[2]}
    lang = plugins.for_path(f["path"])
    name = lang.pages.import_name(f["path"], f["function"]) if lang else None
    if name is not None and not is_test_path(f["path"]):
        return {"name": name, "path": f["path"], "line": f["line"]}
    return None


def _through_subclass(f: Fact, ix: Index) -> tuple[str, str, int] | None:
    """A method of a mixin no package exports, named as a user calls it: on
    the exported class that inherits it without defining it again, the one
    a package nearest the top exports, then the nearest (redis-py's
    ``StreamCommands.xadd`` is ``redis.Redis.xadd``: ``Redis`` inherits
    ``CoreCommands``, which ``redis.commands`` exports, and which inherits
    ``DataAccessCommands``, which inherits ``StreamCommands``); with the
    re-export's path and line."""
    owner, dot, method = f["function"].rpartition(".")
    if not dot or "." in owner or not f["path"].endswith(".py"):
        return None
    level, seen = [(owner, f["path"])], {owner}
    found: list[tuple[int, int, tuple[str, str, int]]] = []
    for depth in range(_MAX_SUBCLASS_HOPS):
        nxt: list[tuple[str, str]] = []
        for name, path in level:
            for c in ix.subclasses(name):
                if c.name in seen or c.qualname != c.name or is_test_path(c.path):
                    continue
                if c.path != path and any(d.path == c.path for d in ix.classes.get(name, ())):
                    continue  # its file's own class of that name (redis.asyncio's `Connection`)
                seen.add(c.name)
                if len(seen) > _MAX_SUBCLASSES:
                    break  # a base of half the repository: its subclasses say nothing
                if ix.function(c.path, f"{c.name}.{method}") is not None:
                    continue  # it has its own
                got = ix.exported_name(c.path, f"{c.name}.{method}")
                if got is not None:
                    found.append((got[0].count("."), depth, got))
                nxt.append((c.name, c.path))
        level = nxt
    return min(found, key=lambda g: (g[0], g[1], g[2][0]))[2] if found else None


#: how far down ``_through_subclass`` looks for an exported class, and among how many
_MAX_SUBCLASS_HOPS = 5
_MAX_SUBCLASSES = 200


#: the trait of an impl's method: ``Deserializer`` of ``<V as serde::Deserializer<'de>>::f``
_TRAIT_IMPL = re.compile(r"<[^<>]*?\bas\s+(?:[\w:]*::)?(\w+)")
#: a site's symbol inside a ``macro_rules!`` body (``uniform_float_impl!::new``)
_MACRO_FN = re.compile(r"(?:^|::)[A-Za-z_]\w*!::([A-Za-z_]\w*)$")


def _macro_function(site: ThrowSite) -> FuncDef | None:
    """The function a ``macro_rules!`` body defines around ``site``: the
    scan reads no function in a macro's tokens, but the extractor names it
    (rand's ``uniform_float_impl!::new``, an impl of ``UniformSampler::new``
    for each float type)."""
    m = _MACRO_FN.search(site.symbol or "")
    if m is None:
        return None
    return FuncDef(
        name=m.group(1),
        symbol=site.symbol or "",
        path=site.path,
        line=site.line,
        end_line=site.line,
        public=False,
        in_test=site.in_test,
    )


#: callers(fn): who calls ``fn``, with the line of the call
CallersFn = Callable[[FuncDef], list[tuple[FuncDef, int]]]
#: a caller that reaches a function other than by a call of its name: the
#: name it calls (or the function's own), and how ("encloses": a nested
#: function's outer one; "init": ``C(...)`` for ``C.__init__``;
#: "constructs": it builds the instance whose method raises)
Via = tuple[str, str]


def _call_chains(
    start: FuncDef,
    ix: Index,
    callers: CallersFn,
    ends: Callable[[FuncDef], bool],
    catching: frozenset[tuple[str, str]],
    accept: Callable[[list[Fact]], bool] | None = None,
) -> list[list[Fact]]:
    """Shortest by-name call chains down to ``start`` from callers that
    ``ends`` accepts, at most ``MAX_HOPS`` long; each hop is the caller and
    the line of its call. No chain goes through a function in ``catching``.
    A chain ``accept`` refuses goes on up past its end."""
    found: list[list[Fact]] = []
    frontier: list[tuple[FuncDef, list[Fact]]] = [(start, [])]
    visited = {(start.path, start.symbol)}
    for _ in range(MAX_HOPS):
        nxt: list[tuple[FuncDef, list[Fact]]] = []
        for fn, chain in frontier:
            for caller, line, *how in map(_with_via, callers(fn)):
                key = (caller.path, caller.symbol)
                if key in visited or key in catching:
                    continue
                visited.add(key)
                hop = _at(
                    caller.path,
                    line,
                    function=caller.symbol,
                    calls=fn.name,
                    public=ix.public(caller),
                )
                if how[0] is not None:
                    hop.update(calls=how[0][0], via=how[0][1])
                path = [hop, *chain]
                if (
                    ends(caller)
                    and not _exception_method(caller, ix)
                    and (accept is None or accept(path))
                ):
                    found.append(path)
                    if len(found) >= MAX_PATHS:
                        return found
                else:
                    nxt.append((caller, path))
        frontier = nxt
    return found


def _exception_method(fn: FuncDef, ix: Index) -> bool:
    """A method of an exception class (``TemplateNotFound.__init__``): a
    library builds its errors, a user does not call them, so a chain goes on
    past it to what raised it."""
    owner, dot, _ = fn.symbol.rpartition(".")
    if not dot:
        return False
    lang = plugins.for_path(fn.path)
    for name, found in itertools.islice(_up_classes(owner.rsplit(".", 1)[-1], ix), 12):
        if found is None:
            return bool(lang is not None and lang.runtime.builtin_classes(name))
    return False


def _up_classes(name: str, ix: Index) -> Iterator[tuple[str, ClassDef | None]]:
    """The class ``name`` and its first bases up, each with its definition
    in the repository; the last, a name it does not define, with None."""
    seen: set[str] = set()
    while name and name not in seen:
        seen.add(name)
        defs = ix.classes.get(name)
        if not defs:
            yield name, None
            return
        yield name, defs[0]
        name = next((b.rsplit(".", 1)[-1] for b in defs[0].bases if b != "object"), "")


def _paths_from_public(
    start: FuncDef, ix: Index, catching: frozenset[tuple[str, str]] = frozenset()
) -> list[list[Fact]]:
    """Shortest by-name call chains from a public function down to ``start``."""

    def callers(fn: FuncDef) -> list[tuple[FuncDef, int]]:
        return _callers_by_name(fn, ix)  # type: ignore[return-value]

    # A foreign trait's impl is public, but the other library calls it: a
    # chain goes on past it to the repository's function that hands it the
    # value, and on to a public function with no type of its own (`from_str`,
    # not `Options::from_bytes_seed`); failing that, it ends as before.
    def user_call(fn: FuncDef) -> bool:
        # an operator's impl is what a user writes (`value[i] = …`), std's trait or not
        return ix.public(fn) and (not _foreign_impl(fn, ix) or by_syntax(fn.symbol) is not None)

    def top_level(chain: list[Fact]) -> bool:
        handed = any(h.get("via") == "hands" for h in chain)
        return not handed or "::" not in chain[0]["function"]

    found = _call_chains(start, ix, callers, user_call, catching, accept=top_level)
    return found or _call_chains(start, ix, callers, ix.public, catching)


def _bare_calls(name: str, ix: Index) -> set[tuple[str, str, int]]:
    """(path, caller, line) of the calls of ``name`` written bare, ``name(…)``."""
    return {
        (path, caller, line)
        for path, caller, line, text in ix.call_texts.get(name)
        if text.startswith(f"{name}(")
    }


def _resolved_callers(fn: FuncDef, owner: str, ix: Index) -> list[tuple[FuncDef, int]]:
    """``_find_resolved_callers``, worked out once per function in a process:
    the call chains of many entries go up through the same methods, and each
    chain asks twice (is it an entry point? who calls it?)."""
    key = (fn.path, fn.symbol, fn.line, fn.end_line, fn.name, owner)
    memo = ix.memo("resolved_callers")
    got = memo.get(key)
    if got is None:
        got = memo[key] = tuple(_find_resolved_callers(fn, owner, ix))
    return list(got)


def _find_resolved_callers(fn: FuncDef, owner: str, ix: Index) -> list[tuple[FuncDef, int]]:
    """The calls of a name defined in many places that can only be ``fn``:
    ``self.m(…)`` in a method of ``fn``'s class, ``client.m(…)`` on a
    receiver named as that class is (``Client``) or bound at module level
    to an instance of it (json's ``_default_decoder.decode(s)``, with
    ``_default_decoder = JSONDecoder()``), or ``f(…)`` in ``fn``'s own
    module for a module-level function (httpx's ``post`` calls its ``request``)."""
    cls = owner.rsplit(".", 1)[-1].lower()
    dotted, bare = f".{fn.name}(", f"{fn.name}("
    bases = _ancestors(owner.rsplit(".", 1)[-1], ix) if owner else set()
    out: list[tuple[FuncDef, int]] = []
    for path, caller, line, text in ix.call_texts.get(fn.name):
        # The call's text first: reading the caller's definition loads its
        # file's evidence (the stdlib's `get` has 1,300 calls in 300 files).
        if owner:
            receiver = text.split(dotted, 1)[0] if dotted in text else None
            mine = caller.rpartition(".")[0]
            # a base class's `self.m(…)` runs the override (`Field.deserialize`
            # calls `self._deserialize`, which `List` overrides): the template
            # method a framework calls is how a user reaches it
            if receiver is None or not (
                (receiver == "self" and (mine == owner or mine.rsplit(".", 1)[-1] in bases))
                or receiver.lower() == cls
                or _instance_of(path, receiver, owner, fn.name, ix)
            ):
                continue
        elif path != fn.path or not text.startswith(bare):
            continue
        f = ix.function(path, caller)
        if f is None or f.in_test:
            continue
        out.append((f, line))
        if len(out) >= 2 * MAX_CALLERS:
            break
    return out


def _instance_of(path: str, receiver: str, owner: str, method: str, ix: Index) -> bool:
    """Whether ``receiver`` is a module-level name of ``path`` bound to an
    instance of ``owner``'s class, or of a subclass that does not define
    ``method`` itself (so its ``receiver.method(…)`` runs ``owner``'s)."""
    if not receiver.isidentifier():
        return False
    got = ix.instance_class(path, receiver)
    if got is None:
        return False
    cls = owner.rsplit(".", 1)[-1]
    if got == cls:
        return True
    return cls in _ancestors(got, ix) and not any(
        ix.function(c.path, f"{c.qualname}.{method}") for c in ix.classes.get(got, ())
    )


def _ancestors(cls: str, ix: Index, limit: int = 8) -> set[str]:
    """The names of a class's bases, and theirs, as far as the repository
    defines them (``Field`` for marshmallow's ``List``); empty for a class
    defined more than once, whose bases are not known to be these."""
    if len(ix.classes.get(cls, ())) != 1:
        return set()
    seen: set[str] = set()
    todo = [cls]
    while todo and len(seen) < limit:
        for c in ix.classes.get(todo.pop(), ())[:1]:
            for b in c.bases:
                name = base_name(b)
                if name and name not in seen and name != cls:
                    seen.add(name)
                    todo.append(name)
    return seen


def _enclosing_fn(fn: FuncDef, ix: Index) -> FuncDef | None:
    """The function whose body ``fn`` is written in (Rust symbols name it
    first: ``Event::json_data::<JsonWriter as Write>::write``)."""
    best: FuncDef | None = None
    if fn.symbol.count("::") < 2:
        return None  # `Type::m`, `f`: at most one level
    for g in ix.functions_in(fn.path):
        if (
            g.line < fn.line
            and fn.end_line <= g.end_line
            and fn.symbol.startswith(g.symbol + "::")
            and (best is None or g.line > best.line)
        ):
            best = g
    return best


def _foreign_impl(fn: FuncDef, ix: Index) -> bool:
    """Whether ``fn`` is a method of an impl of a trait the repository does
    not declare (``<RemoteDevice as Default>::default``)."""
    trait = _TRAIT_IMPL.match(fn.symbol)
    return trait is not None and trait.group(1) not in ix.traits


def _own_type_callers(fn: FuncDef, ix: Index) -> list[tuple[FuncDef, int]]:
    """The calls of a method whose name is defined in many places that can
    only be ``fn``: ``self.m(…)`` or ``Self::m(…)`` in a method of the same
    type, ``Type::m(…)`` by the type's name (Rust symbols: ``Type::m``)."""
    owner, _, _ = fn.symbol.rpartition("::")
    if not owner or owner.startswith("<"):
        return []  # a trait impl's method is called through the trait
    cls = owner.rsplit("::", 1)[-1]
    by_self = re.compile(
        rf"(?<![\w:])(?:self\s*\.|Self::){re.escape(fn.name)}\s*(?:::<[^>]*>\s*)?\("
    )
    by_type = re.compile(rf"(?<![\w]){re.escape(cls)}::{re.escape(fn.name)}\s*(?:::<[^>]*>\s*)?\(")
    # what ``by_type`` must find written: most texts lack it (candle's
    # thousands of `forward` calls), and a look for it costs less than a search
    typed = f"{cls}::{fn.name}"
    out: list[tuple[FuncDef, int]] = []
    for path, caller, line, text in ix.call_texts.get(fn.name):
        # The call's text first: reading the caller's definition loads its
        # file's evidence (candle's every `forward` call, in 570 files).
        mine = caller.rpartition("::")[0]
        if not (
            (mine == owner and by_self.search(text)) or (typed in text and by_type.search(text))
        ):
            continue
        f = ix.function(path, caller)
        if f is None or f.in_test or (f.path, f.symbol) == (fn.path, fn.symbol):
            continue
        out.append((f, line))
        if len(out) >= MAX_CALLERS:
            break
    return out


def _defines_own(caller: FuncDef, fn: FuncDef, ix: Index) -> bool:
    """Whether the type ``caller`` is a method of defines a method named as
    ``fn`` in the caller's file: its ``self.m(…)`` is that one (sonic-rs's
    ``LazyValue::get`` calls ``self.get_index(index)``, ``LazyValue``'s, not
    ``Value::get_index``)."""
    theirs = _owner_type(caller.symbol)
    return any(
        g.name == fn.name and _owner_type(g.symbol) == theirs for g in ix.functions_in(caller.path)
    )


def _with_via(got: tuple[FuncDef, int] | tuple[FuncDef, int, Via]) -> tuple[Any, ...]:
    return got if len(got) == 3 else (*got, None)


def _callers_by_name(
    fn: FuncDef, ix: Index
) -> list[tuple[FuncDef, int] | tuple[FuncDef, int, Via]]:
    """``_find_callers_by_name``, worked out once per function in a process:
    the entries of a function, and the functions on their call chains, ask
    for the same callers again (on the stdlib, 4,096 asks of 1,500 functions)."""
    key = (fn.path, fn.symbol, fn.line, fn.end_line, fn.name)
    memo = ix.memo("callers_by_name")
    got = memo.get(key)
    if got is None:
        got = memo[key] = tuple(_find_callers_by_name(fn, ix))
    return list(got)


def _find_callers_by_name(
    fn: FuncDef, ix: Index
) -> list[tuple[FuncDef, int] | tuple[FuncDef, int, Via]]:
    """Who calls ``fn``, by its name; for a method (``C.m``), a caller in a
    class that has its own ``m`` is left out (its ``self.m()`` is that one).
    A function nested in another is reached by the one it is in
    (``attrs.wrap`` by ``attrs``); ``C.__init__`` by calls of ``C``; a
    method of a class nothing calls by name (``_OrValidator.__call__``) by
    what builds the class (``or_``'s ``_OrValidator(...)``): the instance it
    returns is what runs it."""
    if "::" in fn.symbol:
        around = _enclosing_fn(fn, ix)
        if around is not None:
            # an item in a function's body (axum's `Event::json_data` defines
            # `impl Write for JsonWriter` in it): the function is what runs it
            return [(around, fn.line, (fn.name, "encloses"))]
        if _foreign_impl(fn, ix):
            # another library's trait (`impl Default for RemoteDevice`): a
            # call of `default` or `T::default()` reaches every impl in the
            # world, this one by chance; `RemoteDevice::default()` is its own
            return _foreign_callers(fn, ix)
        hidden = impl_method(fn.symbol)
        bound = _bound_callers(fn, hidden[0], ix) if hidden and ix.hidden_method(*hidden) else []
        if bound:
            return [*bound]
        # a trait method's impl is reached by calls through a type parameter too
        generic = _generic_callers(fn, ix) if _implements(fn) else []
        generic += [c for c in _dispatch_callers(fn, ix) if c not in generic]
        # `self.m()` in the same type's impl can only be this one: burn's
        # every `*Config` has an `assertions`; axum's `Event::field` is
        # called so by `Event::event`, and `.field(` by every Debug impl
        own = _own_type_callers(fn, ix)
        if ix.defined.get(fn.name, 0) > AMBIGUOUS:
            return [*own, *(c for c in generic if c not in own)]
        found: list[tuple[FuncDef, int] | tuple[FuncDef, int, Via]] = list(own)
        mine = _owner_type(fn.symbol)
        selfcalls = {
            (p, c, ln)
            for p, c, ln, text in ix.call_texts.get(fn.name)
            if re.match(rf"self\s*\.\s*{re.escape(fn.name)}\s*[(:]", text)
            and _owner_type(c) not in (None, mine)
        }
        found += [
            c
            for c in ix.callers_of(fn.name)
            if c not in own
            and not ((c[0].path, c[0].symbol, c[1]) in selfcalls and _defines_own(c[0], fn, ix))
        ]
        return found + [c for c in generic if c not in found]
    owner, _, _ = fn.symbol.rpartition(".")
    outer = ix.function(fn.path, owner) if owner else None
    if outer is not None:
        return [(outer, fn.line, (fn.name, "encloses"))]
    cls = owner.rsplit(".", 1)[-1]
    out: list[tuple[FuncDef, int] | tuple[FuncDef, int, Via]] = []
    if fn.name != "__init__" and ix.defined.get(fn.name, 0) > AMBIGUOUS:
        out += _resolved_callers(fn, owner, ix)
    elif fn.name != "__init__":
        bare = _bare_calls(fn.name, ix) if owner else set()
        bases = _ancestors(cls, ix) if owner else set()
        for caller, line in ix.callers_of(fn.name):
            mine, _, _ = caller.symbol.rpartition(".")
            if (
                owner
                and mine
                and mine != owner
                and mine.rsplit(".", 1)[-1] not in bases  # a base's call runs the override
                and ix.function(caller.path, f"{mine}.{fn.name}")
            ):
                continue
            if (caller.path, caller.symbol, line) in bare:
                continue  # `request(…)` is a function's call, not a method's
            out.append((caller, line))
    out += [c for c in _registry_callers(fn, cls, ix) if c[:2] not in {o[:2] for o in out}]
    # only a private class's instance comes from a factory (`or_` builds an
    # `_OrValidator`); a user builds a public one (xarray's `Dataset`) themselves
    lang = plugins.for_path(fn.path)
    private_class = lang is not None and not lang.pages.name_is_public(cls)
    if (
        cls
        and (fn.name == "__init__" or (not out and private_class))
        and len(ix.classes.get(cls, ())) <= 1
    ):
        via = (cls, "init" if fn.name == "__init__" else "constructs")
        out += [(c, line, via) for c, line in ix.callers_of(cls) if c.symbol != owner]
    return out


def _bound_callers(fn: FuncDef, trait: str, ix: Index) -> list[tuple[FuncDef, int]]:
    """Who runs an impl's method of a trait no user calls (``Index.hidden_method``):
    the functions outside tests that call it through a type parameter the
    trait, or a trait that requires it, bounds (serde_yaml's ``impl<I:
    Index> IndexMut<I> for Value`` calls ``index.index_or_insert(self)``;
    reqwest's ``Client::request<U: IntoUrl>`` calls ``url.into_url()``;
    burn's ``Tensor::mean`` in ``impl<K: Numeric<B>>`` calls ``K::mean(…)``).
    The trait's other impls calling it (``(**self).index_or_insert(v)``)
    are the same call, not a way in."""
    bounds = {trait} | ix.subtraits(trait)
    out: list[tuple[FuncDef, int]] = []
    for path, caller, line, text in ix.call_texts.get(fn.name):
        # `index.index_or_insert(self)`, or through the type (burn's `K::mean(…)`
        # in `impl<K: Numeric<B>> Tensor<B, D, K>`, a `pub(crate)` trait's method)
        if f".{fn.name}" not in text and f"::{fn.name}" not in text:
            continue
        if text.startswith(("self.", "Self::")):
            continue
        if f".{fn.name}" not in text and not re.search(
            rf"{_GENERIC_HEAD}{re.escape(fn.name)}\b", text
        ):
            continue  # `Tensor::from_data(…)` is the type's own function
        sibling = impl_method(caller)
        if sibling is not None and sibling[0] == trait:
            continue
        f = ix.function(path, caller)
        if f is None or f.in_test or not bounds.intersection(f.bounds) or (f, line) in out:
            continue
        out.append((f, line))
        if len(out) >= MAX_CALLERS:
            break
    return out


def _registry_callers(
    fn: FuncDef, cls: str, ix: Index
) -> list[tuple[FuncDef, int] | tuple[FuncDef, int, Via]]:
    """Who runs a method of a class a module-level table holds (``Index.registered``),
    or a base's method one of them inherits: the calls of its name on an
    item looked up in a table (werkzeug's ``self._converters[data].to_url(…)``
    for ``AnyConverter.to_url``, held by ``DEFAULT_CONVERTERS``), or on a
    name bound to one (``convertor = convertors[key]``, then
    ``convertor.to_string(value)``). No call names the class: the table is
    how the library reaches it."""
    if not cls or cls not in _registered_classes(ix):
        return []
    # by a key, not by a position (`x[-1].join(x[:-1])` is a string's join)
    looked_up = re.compile(rf"\[{_KEY}\]\s*\.\s*{re.escape(fn.name)}\s*\(")
    out: list[tuple[FuncDef, int] | tuple[FuncDef, int, Via]] = []
    calls = [
        (p, c, line) for p, c, line, text in ix.call_texts.get(fn.name) if looked_up.search(text)
    ]
    # `convertor = convertors[key]` on a line before `convertor.to_string(value)`
    calls += ix.looked_up.get(fn.name, ())
    for path, caller, line in calls:
        f = ix.function(path, caller)
        if f is None or f.in_test or (f.path, f.symbol) == (fn.path, fn.symbol):
            continue
        out.append((f, line, (fn.name, "registry")))
        if len(out) >= MAX_CALLERS:
            break
    return out


#: a table's key: anything but a number or a slice (`[name]`, `[match.group(1)]`)
_KEY = r"(?!\s*-?\d)[^\[\]:]+"


def _registered_classes(ix: Index) -> frozenset[str]:
    """The classes module-level tables of several classes hold (a table of
    ways to do one thing, keyed by name: werkzeug's converters; not a
    benchmark's dict of inputs, one of which is an ``xr.DataArray(…)``),
    and their bases (a table of ``IntegerConverter`` runs
    ``NumberConverter.to_python``), once per process."""
    memo = ix.memo("registered")
    got = memo.get("")
    if got is None:
        names = {c for held in ix.registered.values() if len(held) > 1 for c in held}
        for cls in list(names):
            names |= _ancestors(cls, ix)
        got = memo[""] = frozenset(names)
    return frozenset(got)


def _foreign_callers(
    fn: FuncDef, ix: Index
) -> list[tuple[FuncDef, int] | tuple[FuncDef, int, Via]]:
    """Who reaches a method of an impl of another library's trait: calls
    written with its type (``RemoteDevice::default()``); else, when none
    is, the functions that build the type's value and hand it to that
    library (``Options::from_bytes_seed`` builds the ``Deserializer`` whose
    ``deserialize_struct`` serde calls): ``handoff``."""
    typed: list[tuple[FuncDef, int] | tuple[FuncDef, int, Via]] = list(_typed_callers(fn, ix))
    trait = _TRAIT_IMPL.match(fn.symbol)
    lang = plugins.for_path(fn.path)
    if typed or trait is None or lang is None or trait.group(1) in lang.pages.called_by_users:
        return typed
    owner = self_type(fn.symbol) or fn.name
    return [(g, line, (owner, "hands")) for g, line in handoff_callers(fn, ix)]


def _dispatch_callers(fn: FuncDef, ix: Index) -> list[tuple[FuncDef, int]]:
    """For a trait impl's method whose name only that trait's impls define:
    each call of the name (on a ``&dyn CustomOp3``, a ``T: CustomOp3``) may
    run this impl, so those callers reach it; the calls in its sibling
    impls' bodies are not the way in."""
    trait = _TRAIT_IMPL.match(fn.symbol)
    if trait is None or not ix.only_through(fn.name, trait.group(1)):
        return []
    out: list[tuple[FuncDef, int]] = []
    for path, caller, line, text in ix.call_texts.get(fn.name):
        # another trait impl's method is another hook (`<Reader as Read>::read`),
        # and `self.advance(…)` in the trait's own default methods is the trait
        # using itself: neither is a way in
        if caller.startswith("<") or text.startswith(("self.", "Self::")):
            continue
        f = ix.function(path, caller)
        if f is not None and not f.in_test and (f, line) not in out:
            out.append((f, line))
    return out[:MAX_CALLERS]


def _implements(fn: FuncDef) -> bool:
    """Whether ``fn`` may implement a trait's method: in a trait impl
    (``<T as Tr>::f``) or in a macro body (which rand's impls are)."""
    return fn.symbol.startswith("<") or "!::" in fn.symbol


#: a call through a type parameter (``B::backward(x)``, ``X::Sampler::new(a, b)``):
#: by convention a parameter is a capital and at most one more letter or digit
_GENERIC_HEAD = r"(?<![\w:])[A-Z][A-Za-z0-9]?(?:::[A-Z]\w*)*::"


def _generic_callers(fn: FuncDef, ix: Index) -> list[tuple[FuncDef, int]]:
    """Calls outside tests of ``fn``'s name through a type parameter
    (``B::backward(x)``): such a call reaches every impl of the trait method
    of that name, this one with them. Callers named like ``fn`` come first
    (``Uniform::new`` calling ``X::Sampler::new`` wraps the same operation).
    Worked out once per function in a process, as ``_typed_callers``."""
    key = (fn.path, fn.symbol, fn.line, fn.end_line, fn.name)
    memo = ix.memo("generic_callers")
    got = memo.get(key)
    if got is None:
        got = memo[key] = tuple(_find_generic_callers(fn, ix))
    return list(got)


def _find_generic_callers(fn: FuncDef, ix: Index) -> list[tuple[FuncDef, int]]:
    head = f"::{fn.name}"
    named: re.Pattern[str] | None = None
    out: list[tuple[FuncDef, int]] = []
    for path, caller, line, text in ix.call_texts.get(fn.name):
        if head not in text:
            continue  # no path before the name: never a call through a type
        if named is None:
            named = re.compile(rf"{_GENERIC_HEAD}{re.escape(fn.name)}\s*(?:::<[^>]*>\s*)?\(")
        if not named.search(text):
            continue
        f = ix.function(path, caller)
        if f is not None and not f.in_test and (f.path, f.symbol) != (fn.path, fn.symbol):
            out.append((f, line))
    out.sort(key=lambda c: (c[0].name != fn.name, not c[0].public))
    return out[:MAX_CALLERS]


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
        if _foreign_impl(fn, ix):
            return _foreign_callers(fn, ix)  # type: ignore[return-value]
        if ix.defined.get(fn.name, 0) != 1:
            # by name, a call of `split_to` may be another type's `split_to`:
            # only a call that names this one's type, or a type parameter
            # bound by its trait, is known to reach it (a Python method: by
            # its receiver, `self` or an instance of the class)
            if "::" not in fn.symbol:
                owner = fn.symbol.rpartition(".")[0]
                resolved: list[tuple[FuncDef, int] | tuple[FuncDef, int, Via]] = [
                    *_resolved_callers(fn, owner, ix)
                ]
                return resolved + _registry_callers(fn, owner.rsplit(".", 1)[-1], ix)  # type: ignore[return-value]
            typed = _typed_callers(fn, ix)
            if _implements(fn):
                typed += [c for c in _generic_callers(fn, ix) if c not in typed]
                typed += [c for c in _dispatch_callers(fn, ix) if c not in typed]
            return typed
        return list(ix.callers_of(fn.name))

    def entry(fn: FuncDef) -> bool:
        return ix.public(fn) and (_api_surface(fn.path) or not callers(fn))

    return _call_chains(start, ix, callers, entry, catching)


def _typed_callers(fn: FuncDef, ix: Index) -> list[tuple[FuncDef, int]]:
    """Calls outside tests written with ``fn``'s type (``Dispatch::backward(x)``
    for ``<Dispatch as AutodiffBackend>::backward``), which reach it whatever
    else is named the same; worked out once per function in a process (each
    entry's chains ask again: candle, 1,124 asks of 561 functions)."""
    key = (fn.path, fn.symbol, fn.line, fn.end_line, fn.name)
    memo = ix.memo("typed_callers")
    got = memo.get(key)
    if got is None:
        got = memo[key] = tuple(_find_typed_callers(fn, ix))
    return list(got)


def _find_typed_callers(fn: FuncDef, ix: Index) -> list[tuple[FuncDef, int]]:
    owner = _owner_type(fn.symbol)
    if owner is None:
        return []
    head = f"::{fn.name}"
    named: re.Pattern[str] | None = None
    out: list[tuple[FuncDef, int]] = []
    for path, caller, line, text in ix.call_texts.containing(fn.name, owner):
        # a call that names the type holds both words: only such a text is
        # searched (and the pattern compiled), most are not
        if head not in text:
            continue
        if named is None:
            named = re.compile(
                rf"(?<![\w:]){re.escape(owner)}(\s+as\s+[\w:]+>)?::{re.escape(fn.name)}\s*\("
            )
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
    lang = plugins.find(entry.sites[0].language)
    out: list[Fact] = []
    for name, c in _up_classes(entry.exception_types[0].rsplit(".", 1)[-1], ix):
        if c is None:
            mro = lang.runtime.builtin_classes(name) if lang is not None else None
            if mro:
                out.append({"name": name, "builtin": True, "mro": list(mro)})
            break
        fact = _at(c.path, c.line, name=c.name, qualname=c.qualname, bases=list(c.bases))
        said = ix.class_doc(c.path, c.qualname)
        if said is not None:
            fact["doc"] = {"path": c.path, "line": said.line, "text": said.text}
        out.append(fact)
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
    # the functions that throw: what they call runs below the raise, so their
    # own `except` is no catch on the way to it
    throwing = {(r["path"], r["function"]) for r in reach or []}
    on_chain = {(h["path"], h["function"]) for r in reach or [] for c in _chains(r) for h in c}
    if catching:
        paths = ix.catching_paths(names)
        for name in sorted(_names_on_the_way(reach or [])):
            if ix.defined.get(name, 0) > AMBIGUOUS:
                continue
            for f, line in ix.callers_of(name, paths):
                key = (f.path, f.symbol)
                if key not in catching or key in throwing:
                    continue
                # a private function off every chain is another way, not the user's
                if key in on_chain or ix.public(f):
                    way.setdefault(key, (name, line))
    on_path: list[Fact] = []
    other: list[Fact] = []
    for c in ix.catches_of(names):
        got = way.get((c.path, c.symbol)) if way else None
        if got is not None and got[1] <= c.line:
            fact = _at(c.path, c.line, exception=c.exception, function=c.symbol, text=c.text)
            fact.update(on_path=True, calls=got[0])
            instead = ix.raised_in_except(c.path, c.symbol, c.line)
            if instead:
                # what the clause raises in its place is what a caller sees
                fact["raises"] = [
                    _at(c.path, r.line, id=r.id, exception=r.exception) for r in instead[:3]
                ]
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
        _last_name(hop["function"]) for r in reach for c in _chains(r) for hop in c
    }


def _chains(r: Fact) -> list[list[Fact]]:
    """A reach fact's call chains from public code, with those that a
    catcher on the way stops (``caught_paths``)."""
    return [*r.get("paths", ()), *r.get("caught_paths", ())]


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
        if not any(d.section == "Summary" for d in lines):
            got = _inherited_summary(f, ix)
            if got is not None:
                fact = _at(got[0], got[1].line, function=f.symbol, section="Summary")
                fact.update(text=got[1].text, documented_on=got[2])
                if (got[0], got[1].line) not in seen:
                    seen.add((got[0], got[1].line))
                    out.append(fact)
        raises = [d for d in lines if d.section == "Raises"]
        if raises and short:
            items = _raises_items(raises, short)
            lines = [d for d in lines if d.section != "Raises"] + items
            if items:  # the Raises section says it: not again in passing
                lines = [d for d in lines if d.section != "Docstring"]
        for d in lines:
            if (f.path, d.line) not in seen:
                seen.add((f.path, d.line))
                out.append(_at(f.path, d.line, function=f.symbol, section=d.section, text=d.text))
        # axum's `#[doc = include_str!("../docs/routing/route.md")]`
        for doc in f.doc_files:
            for section, line, text in ix.prose.sections(doc):
                if (doc, line) not in seen:
                    seen.add((doc, line))
                    out.append(_at(doc, line, function=f.symbol, section=section, text=text))
    return out[:20]


def _inherited_summary(f: FuncDef, ix: Index) -> tuple[str, DocLine, str] | None:
    """Where an undocumented method's documentation is: a constructor's in
    its class's docstring (numpydoc documents ``__init__`` there), an
    override's in the method it overrides (as ``help()`` and Sphinx show
    it: xarray's ``PandasIndex.sel`` is documented on ``Index.sel``).
    (path, the doc line, the symbol documented)"""
    owner, _, name = f.symbol.rpartition(".")
    if not owner or f.in_test:
        return None
    if name == "__init__":
        said = ix.class_doc(f.path, owner)
        return (f.path, said, owner) if said is not None else None
    seen: set[str] = set()
    classes = [c for c in ix.classes.get(owner.rsplit(".", 1)[-1], ()) if c.path == f.path]
    while classes and len(seen) < 8:
        bases = [_base_name(b) for c in classes for b in c.bases]
        classes = []
        for base in bases:
            if not base or base in seen:
                continue
            seen.add(base)
            for c in ix.classes.get(base, ())[:2]:
                g = ix.function(c.path, f"{c.qualname}.{name}")
                said = next((d for d in g.docs if d.section == "Summary"), None) if g else None
                if g is not None and said is not None:
                    return c.path, said, g.symbol
                classes.append(c)
    return None


def _base_name(base: str) -> str:
    """``pd.Index`` -> Index; ``Generic[T]`` -> Generic."""
    return base.split("[", 1)[0].rsplit(".", 1)[-1].strip()


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
    # the docs are read a sentence at a time: a message of several sentences
    # is looked for by each (flask's "The setup method …")
    sentences = _sentences_of(chunks[0]) if chunks else []
    message_words = {w.lower() for c in chunks for w in _WORDS.findall(c)}

    def own(text: str) -> bool:
        """A doc sentence that is the message as printed: its words are the
        message's, but for a value in place of a placeholder ('route')."""
        words = {w.lower() for w in _WORDS.findall(text)}
        return bool(words) and len(words & message_words) >= OWN_SHARE * len(words)

    for sentence in sentences:
        for path, line, text in ix.prose.mentioning(sentence, MAX_PROSE):
            intro = ix.prose.before(path, line, own)
            if intro is not None:
                # a doc that shows the error says what it means just before it
                fact = _at(path, intro[2], text=text, mentions=sentence)
                fact["intro"] = _at(path, intro[0], text=intro[1])
            else:
                fact = _at(path, line, text=text, mentions=sentence)
            out.setdefault((path, fact["line"]), fact)
        if out:
            break
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


#: a doc sentence whose words are the message's, this much of them, is the message shown
OWN_SHARE = 0.75
#: a word of a sentence, for telling a specific one from a common one
_WORDS = re.compile(r"[A-Za-z]{3,}")
#: a sentence's end inside a message: a stop, then a space and a capital
_MESSAGE_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _sentences_of(chunk: str) -> list[str]:
    """A message's text as the docs' sentences are read: the whole of it,
    then each of its sentences of five words and 30 characters or more,
    longest first (a short one is in unrelated docs too).

    >>> _sentences_of("can no longer be called on the app. It has already handled one. Fix")
    ['can no longer be called on the app. It has already handled one. Fix', 'can no longer be called on the app']
    """
    parts = [p.strip(" .:,;") for p in _MESSAGE_SENTENCE.split(chunk)]
    # one sentence of several is found in unrelated docs more easily
    # ("This is not supported"): it needs more words of its own
    alone = [p for p in parts if p != chunk and len(p) >= 30 and len(_WORDS.findall(p)) >= 5]
    found = [chunk] if len(chunk) >= 20 and len(chunk.split()) >= 4 else []
    return found + sorted(alone, key=len, reverse=True)


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
            # `ValueError` alone on its line (numpydoc), or `ValueError:` (Google style)
            sep = " " if " " in head.text.strip() or head.text.rstrip().endswith(":") else ": "
            out[-1] = DocLine(head.section, f"{head.text}{sep}{d.text}", head.line)
        prev = d.line
    return out


def tests(
    entry: ErrorEntry,
    reach: list[Fact],
    ix: Index,
    classes: list[Fact] | None = None,
    conditions: list[Fact] | None = None,
    lifted: list[Fact] | None = None,
) -> list[Fact]:
    """Tests that expect this error: by its message, or by its exception type
    and a call of the function that throws it. ``classes``: ``hierarchy``'s;
    ``conditions`` and ``lifted``: the sites' checks (``guards``, ``lift``),
    which tell which raise a test with no expected text reaches
    (``decide``)."""
    # The functions on the way from public API to a private site; not the
    # entry points above a public one (a test calling `loads` reaches every
    # error of the decoder, so it says nothing about this one).
    # (another library's trait's impl is public, but no user calls it: the
    # calls on its way are the user's)
    names = {r["name"] for r in reach} | {
        hop["function"].rsplit(".", 1)[-1].rsplit("::", 1)[-1]
        for r in reach
        if not r["public"] or r.get("foreign")
        for chain in r.get("paths", ())
        for hop in chain
    }
    # `Spinner("x")` runs `Spinner.__init__`: a test calls the class (only
    # as the call it checks, not to build what it calls next)
    inits = {c for r in reach if (c := _class_of_init(r))}
    names |= inits
    short = {t.rsplit(".", 1)[-1] for t in entry.exception_types}
    # What a raises-check must name to catch it: the class or one of its bases.
    catching = short | {h["name"] for h in classes or ()}
    catching |= {m for h in classes or () for m in h.get("mro", ())}
    classes_raised = _raises_classes(entry.sites[0].language)
    strong: list[Fact] = []
    weak: list[Fact] = []

    def decided(t: TestExpect) -> bool:
        """The checks of this entry's site, on the test's literal arguments,
        say it raises here and at no other raise of its class (``decide``)."""
        caught = (t.exception or "").rsplit(".", 1)[-1]
        return decided_by_check(
            entry, reach, ix, t.body, t.calls, caught, conditions or [], lifted or []
        )

    # The tests that may expect it: by a word of its text; without expected
    # text, by its exception and a call of a name on the way to it, or by a
    # call of a function that panics here.
    picked: set[int] = set(ix.tests_wordless)
    for w in words_of(entry.template):
        picked.update(ix.tests_by_word.get(w, ()))
    for exception in short:
        for name in names:
            picked.update(ix.tests_by_exception_call.get((exception, name), ()))
    # an error variant no other entry has names this error as its text does
    # (`assert_eq!(ron::from_str(s).unwrap_err(), SpannedError { code:
    # Error::ExpectedComma, .. })`), whatever public call the test makes
    variants = {x for x in short if "::" in x and x not in ix.by_exception}
    for exception in variants:
        picked.update(ix.tests_by_variant.get(exception, ()))
    panics = any(s.kind in _panic_kinds(s.language) for s in entry.catalog_sites)
    if panics:
        # (a name many types define counts only where the test calls it on
        # its type: `_panics_here_alone`)
        for name in names:
            picked.update(ix.should_panic_by_call.get(name, ()))
    else:
        for name in names:
            if ix.defined.get(name, 0) <= AMBIGUOUS:
                picked.update(ix.error_result_by_call.get(name, ()))
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
        if t.kind == "doctest" and not (t.pattern and message.whole(t.pattern)):
            continue  # a documented example prints the whole message
        if t.kind == "assert-text" and not (t.pattern and pins(t.pattern, False, entry.template)):
            continue  # no type to go by: a word (`"required" in …`) is no message
        # the whole message inside another error's (`"{}, pos {}"`) is this one too
        inside = bool(
            t.pattern
            and not t.is_regex
            and ix.wrappers
            and any(message.whole(h) for h in _wrapped_heads(t.pattern, ix))
        )
        if t.pattern and (inside or message.matches(t.pattern, t.is_regex)):
            if not inside and message.literal_in(t.pattern, t.is_regex) < ix.most_literal(
                t.pattern, t.is_regex
            ):
                # another message prints more of the expected text as its own
                # words ("Not a valid integer." is `Integer`'s, not what "Not a
                # valid {awareness} {obj_type}." prints with its placeholders)
                continue
            # A table's message column: a row counts only where its text pins the message.
            if (
                t.inputs
                and not inside
                and not (
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
                )
            ):
                continue
            if (
                t.kind == "should_panic"
                and not inside
                and not names & set(t.calls)
                and _said_by_another(t, entry, ix)
            ):
                # `#[should_panic = "index out of bounds"]` is printed by several
                # panics: a function the test calls that throws another of them
                # says which (indexmap's `insert_before` panics with its own,
                # not with `shift_insert`'s)
                continue
            fact = _test_fact(t, "message")
            if (
                classes_raised
                and t.exception
                and not t.inputs
                and not pins(t.pattern, t.is_regex, entry.template)
                and _sole_raiser(entry, reach, ix, t)
            ):
                # a word of the message (`match="capture"`) and a call that
                # raises its type only here: an example fix may start from it
                fact["sole"] = True
            strong.append(fact)
        elif (
            not t.pattern
            and t.exception
            and t.exception.rsplit(".", 1)[-1] in short
            and (
                (names - inits) & set(t.calls)
                or _checked_class(t, inits)
                or t.exception.rsplit(".", 1)[-1] in variants
            )
        ):
            # `pytest.raises(X)` with no text says which error only where the
            # function it calls raises X here and nowhere else (`Spinner("x")`),
            # or where its literal arguments pass the checks of every other
            # raise of X there and fail this one's (`Align("foo", "middle")`);
            # `field.deserialize("bad")` raises X for a dozen messages
            if not classes_raised or _sole_raiser(entry, reach, ix, t):
                fact = _test_fact(t, "exception type and call")
                fact["sole"] = classes_raised
                weak.append(fact)
            elif decided(t):
                fact = _test_fact(t, "exception type and call")
                fact.update(sole=True, decided=True)
                weak.append(fact)
        elif (
            t.kind == "error-result"
            and not t.exception
            and not panics
            and _sole_error(entry, reach, ix, t)
        ):
            # `assert!(f(x).is_err())`: `f` returns this error and no other
            fact = _test_fact(t, "error result of a call")
            fact["sole"] = True
            weak.append(fact)
        elif (
            not t.pattern
            and t.kind == "should_panic"
            and panics
            and _panics_here_alone(entry, reach, ix, t)
        ):
            # `#[should_panic]` with no expected text: it calls a function
            # that panics here and nowhere else.
            weak.append(_test_fact(t, "panicking call"))
        elif (
            classes_raised
            and not t.pattern
            and t.exception
            and t.exception.rsplit(".", 1)[-1] in short
            and inits & set(t.calls)
            and decided(t)
        ):
            # a class built and then called (`validate.Length(1, None,
            # equal=3)("foo")`): its `__init__`'s checks tell
            fact = _test_fact(t, "exception type and call")
            fact.update(sole=True, decided=True)
            weak.append(fact)
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


def _wrapped_heads(expected: str, ix: Index) -> tuple[str, ...]:
    """``textmatch.wrapped_heads`` of a test's expected text, worked out once
    per text in a process (each entry's tests ask again: the same for all)."""
    memo = ix.memo("wrapped_heads")
    got: tuple[str, ...] | None = memo.get(expected)
    if got is None:
        got = memo[expected] = wrapped_heads(expected, ix.wrappers)
    return got


def _said_by_another(t: TestExpect, entry: ErrorEntry, ix: Index) -> bool:
    """Whether a function the test calls throws another entry whose message
    the test's expected text is part of."""
    pattern = t.pattern or ""
    for name in dict.fromkeys(t.calls):
        if ix.defined.get(name, 0) > AMBIGUOUS:
            continue
        for r in ix.thrown_in_functions_named(name):
            if r.id == entry.id or not r.readable:
                continue
            try:
                said = re.search(pattern, r.message) if t.is_regex else pattern in r.message
            except re.error:
                said = False
            if said:
                return True
    return False


def _checked_class(t: TestExpect, classes: set[str]) -> set[str]:
    """The class of ``classes`` whose call is the one the test checks: its
    body is that call alone (``Spinner("foobar")``), not a setup
    (``xr.DataArray(5).idxmin()`` checks ``idxmin``)."""
    # a trailing comment is no part of the call (`CliRunner(capture="x")  # type: ignore`)
    body = re.sub(r"\s+#[^\n\"']*$", "", t.body.strip())
    got = calls_in(body, last=True) if "\n" not in body else []
    last = got[0][0].rsplit(".", 1)[-1] if got else ""
    return {last} & classes if got and body.endswith(")") else set()


def _class_of_init(r: Fact) -> str:
    """The class whose call runs a reached ``__init__`` (``Spinner`` of
    ``Spinner.__init__``), else ""."""
    parts = str(r["function"]).rsplit(".", 2)
    return parts[-2] if r["name"] == "__init__" and len(parts) >= 2 else ""


def _sole_raiser(entry: ErrorEntry, reach: list[Fact], ix: Index, t: TestExpect) -> bool:
    """Whether the function the test calls raises the test's exception at
    this entry's sites only: then its ``pytest.raises(X)`` with no text
    reproduces this entry all the same (attrs' ``matches_re`` raises
    ``ValueError`` once)."""
    short = (t.exception or "").rsplit(".", 1)[-1]
    for r in reach:
        if r["name"] not in t.calls and not _checked_class(t, {_class_of_init(r)}):
            continue
        fn = ix.function(r["path"], r["function"])
        if fn is None:
            continue
        if (
            r["name"] in t.calls
            and not called_by_path(t.body, r["function"])
            and _name_raises_others(r["name"], entry, ix, short)
        ):
            continue  # another function of the name may raise it first
        others = [
            e
            for e in ix.by_exception.get(short, ())
            if e.id != entry.id and e.path == fn.path and fn.line <= e.line <= fn.end_line
        ]
        return not others
    return False


def _panics_here_alone(entry: ErrorEntry, reach: list[Fact], ix: Index, t: TestExpect) -> bool:
    """Whether a ``#[should_panic]`` test with no expected text reaches this
    entry alone: it calls a function on the way to a site (not a name many
    places define), and neither that function nor the one with the site
    throws any other entry, nor any function between them (bytes'
    ``split_off`` panics "split_off out of bounds" itself, so a test of it
    is no test of the ``abort`` it may also reach)."""
    # the call that panics is the test's last statement's (`v.drain(..=usize::MAX);`),
    # not the setup before it (`BytesMut::with_capacity(8)`)
    called = set(t.calls) & _last_statement_calls(t.body)
    for r in reach:
        mine = [(r["path"], r["function"])]
        ways = (
            [[*mine]]
            if r["name"] in called
            and (
                called_by_path(t.body, r["function"])
                or not _name_raises_others(r["name"], entry, ix, None)
            )
            else []
        )
        for chain in r.get("paths", ()):
            for i, hop in enumerate(chain):
                hop_name = _last_name(hop["function"])
                if hop_name in called and (
                    called_by_path(t.body, hop["function"])
                    or not _name_raises_others(hop_name, entry, ix, None)
                ):
                    # each function from the called one down to the site
                    ways.append([*mine, *((h["path"], h["function"]) for h in chain[i:])])
        for keys in ways:
            symbol = keys[len(mine)][1] if len(keys) > len(mine) else keys[0][1]
            if ix.defined.get(_last_name(symbol), 0) > AMBIGUOUS and not called_by_path(
                t.body, symbol
            ):
                continue  # `advance` of a dozen impls: only `BytesMut`'s, called as such
            if all({e.id for e in ix.by_symbol.get(k, ())} <= {entry.id} for k in keys):
                return True
    return False


_CALLED_NAME = re.compile(r"([A-Za-z_]\w*)\s*(?:::<[^()]*>)?\s*\(")


def _last_statement_calls(body: str) -> set[str]:
    """The names called in the last statement of a test's body."""
    lines = [
        ln.strip()
        for ln in body.splitlines()
        if ln.strip() and not ln.strip().startswith("//") and ln.strip() not in ("}", "};")
    ]
    if not lines:
        return set()
    # a statement over several lines: back to the line after the one ending the one before
    start = len(lines) - 1
    while start > 0 and not lines[start - 1].endswith((";", "{", "}")):
        start -= 1
    return set(_CALLED_NAME.findall(" ".join(lines[start:])))


def _sole_error(entry: ErrorEntry, reach: list[Fact], ix: Index, t: TestExpect) -> bool:
    """Whether a function the test calls is one this entry's sites are in,
    and no other entry's are (so an error from it is this one)."""
    for r in reach:
        if r["name"] not in t.calls or (
            not called_by_path(t.body, r["function"])
            and _name_raises_others(r["name"], entry, ix, None)
        ):
            continue
        others = {e.id for e in ix.by_symbol.get((r["path"], r["function"]), ())}
        if others <= {entry.id}:
            return True
    return False


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
        regex=t.is_regex,
    )
    if t.inputs:
        # A table row: ``line`` is the row's, ``body`` the block run with its values.
        fact.update(inputs=list(t.inputs))
    if t.fixed:
        # a documented example: the same call, made without the error
        fact.update(fixed=t.fixed, fixed_line=t.fixed_line)
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
_SAME_FUNCTION, _SAME_CALL, _SAME_EXCEPTION, _SAME_WORDS, _RAISED_HERE = range(5)


def _reason(why: int, detail: str | None, mine: frozenset[str], e: Related) -> str:
    if why == _SAME_FUNCTION:
        both = mine & e.guarded
        return f"same function `{detail}`" + (f", checks `{sorted(both)[0]}` too" if both else "")
    if why == _SAME_CALL:
        return f"also thrown by `{detail}`"
    if why == _SAME_EXCEPTION:
        return f"same exception `{detail}`"
    if why == _RAISED_HERE:
        return f"made elsewhere, raised here by `{detail}`"
    return "shared wording"


def _related_candidates(
    entry: ErrorEntry, ix: Index, reach: list[Fact], mine: frozenset[str]
) -> Iterator[tuple[Related, int, str | None]]:
    """Entries that may be related, and why (``_reason``), best reason first;
    ``mine``: the entry's ``guarded_names``."""
    cat = entry.catalog_sites
    for s in cat:
        # errors made elsewhere that this raise raises again (``raise error``)
        for e in ix.by_via.get((s.path, s.line), ()):
            yield e, _RAISED_HERE, s.symbol or "<module>"
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


def type_docs(entry: ErrorEntry, ix: Index) -> list[Fact]:
    """The doc comments of the error value a message is the text of: its
    variant's (``Error::NonFinite``), then its type's (``Error``), read where
    the type's text is defined or built. (A language with exception classes
    quotes its class's docstring with the class chain, ``hierarchy``.)"""
    if not entry.sites or _raises_classes(entry.sites[0].language):
        return []
    out: list[Fact] = []
    names: list[str] = []
    for t in entry.exception_types:
        names.append(t)
        if "::" in t:
            names.append(t.rsplit("::", 1)[0])
    paths = list(dict.fromkeys(s.path for s in entry.catalog_sites))
    for name in dict.fromkeys(names):
        for path in paths:
            said = ix.class_doc(path, name)
            if said is not None:
                out.append(_at(path, said.line, name=name, text=said.text))
                break
    return out[:2]


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
            for path, caller, line, text in ix.call_texts.containing(name, named):
                if (path, line) in seen or (path, caller) == itself:
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


#: the method a user calls in place of an operator that panics: `map.get(k)` for `map[k]`
_INSTEAD_OF_OPERATOR = {"Index": ("get",), "IndexMut": ("get_mut",)}
#: a fallible function's return type
_FALLIBLE = re.compile(r"^(?:[\w:]*::)?(?:Result|Option|io::Result)\b|^Result\b")


def fallible(entry: ErrorEntry, reach: list[Fact], ix: Index) -> list[Fact]:
    """For a panic, the sibling of the public call that returns the failure
    instead of panicking (``try_get_u8`` of ``get_u8``, ``checked_add`` of
    ``add``, ``try_from`` or ``from_str`` of ``from_static``, ``get`` of the
    ``Index`` impl, ``from_utf8`` of ``from_utf8_unchecked``): a function of
    the same type, in the same file, whose
    return type is a ``Result`` or an ``Option``. At most one."""
    lead = entry.catalog_sites[0]
    if lead.kind not in _panic_kinds(lead.language):
        return []
    for r in reach:
        for f in [r, *(chain[0] for chain in r.get("paths", ()) if chain)]:
            if not f.get("public") or "::" not in f["function"]:
                continue
            got = _fallible_sibling(f["path"], f["function"], ix)
            if got is not None:
                return [
                    _at(
                        got.path,
                        got.line,
                        function=got.symbol,
                        instead_of=f["function"],
                        returns=got.returns,
                    )
                ]
    return []


def _fallible_sibling(path: str, symbol: str, ix: Index) -> FuncDef | None:
    owner = _owner_type(symbol)
    name = _last_name(symbol)
    if owner is None:
        return None
    trait = _TRAIT_IMPL.match(symbol)
    if trait is not None and trait.group(1) in _INSTEAD_OF_OPERATOR:
        wanted: tuple[str, ...] = _INSTEAD_OF_OPERATOR[trait.group(1)]
    else:
        wanted = (f"try_{name}", f"checked_{name}", f"{name}_checked")
        if name.endswith("_unchecked"):
            # the checked twin an `_unchecked` function is named after comes
            # first (`from_maybe_shared` of `from_maybe_shared_unchecked`)
            wanted = (name.removesuffix("_unchecked"), *wanted)
        if name.startswith("from_"):
            wanted += ("try_from", "from_str", f"try_{name}")
    found = [
        g
        for g in ix.functions_in(path)
        if g.name in wanted
        and g.public
        and not g.in_test
        and _owner_type(g.symbol) == owner
        and _FALLIBLE.match(g.returns)
    ]
    found.sort(key=lambda g: wanted.index(g.name))
    return found[0] if found else None


#: a message that says a call must come first: the call (``Compute must be
#: called to get final value``, ``call `load()` first``, ``before calling open``)
_CALL_FIRST = (
    # "should be called with an iterable" is about its arguments, not its order
    re.compile(
        r"`?\b([A-Za-z_]\w*)(?:\(\))?`? (?:must|should|has to|needs to) be called "
        r"(?:first|before|prior|to\b)"
    ),
    re.compile(r"\b(?:must|should|please) (?:first )?call `?([A-Za-z_]\w*)", re.I),
    re.compile(r"\bcall `?([A-Za-z_]\w*)(?:\(\))?`? first\b", re.I),
    re.compile(r"\bbefore calling `?([A-Za-z_]\w*)", re.I),
    re.compile(r"`?\b([A-Za-z_]\w*)(?:\(\))?`? (?:has|have) not been called\b"),
)
#: a message that says a value was never set: its words (``image embeddings have not been set``)
_NOT_SET = re.compile(r"\b([a-z][a-z_ ]{1,40}?) (?:has|have) not been (?:set|given|provided)\b")


def call_first(entry: ErrorEntry, reach: list[Fact], ix: Index) -> list[Fact]:
    """The function a state error's message says to call first, found in the
    files of its sites and the calls above them: the one it names
    (``compute``), or the setter of what it says was never set
    (``set_image_embeddings`` of "image embeddings have not been set")."""
    text = " ".join(entry.template.chunks())
    wanted: list[tuple[str, str]] = []  # (function name, how the message says it)
    for pattern in _CALL_FIRST:
        for m in pattern.finditer(text):
            wanted.append((m.group(1).lower() if m.group(1)[:1].isupper() else m.group(1), "call"))
    for m in _NOT_SET.finditer(text):
        words = [w for w in m.group(1).split() if w not in ("the", "a", "an", "this", "its")]
        if 0 < len(words) <= 4:
            stem = "_".join(words)
            wanted += [(f"set_{stem}", "set"), (f"with_{stem}", "set")]
    if not wanted:
        return []
    paths = dict.fromkeys(
        [s.path for s in entry.catalog_sites]
        + [c[0]["path"] for r in reach for c in r.get("paths", ()) if c]
    )
    for name, how in wanted:
        if not ix.defined.get(name):
            continue
        for path in paths:
            g = next((g for g in ix.functions_in(path) if g.name == name and not g.in_test), None)
            if g is not None:
                return [_at(g.path, g.line, function=g.symbol, name=g.name, how=how)]
    return []


#: how many methods a ``setters`` fact names
MAX_SETTERS = 2
#: an attribute of the object a method runs on, as a check reads it
_SELF_ATTR = re.compile(r"\bself\.([A-Za-z_]\w*)\b(?!\s*\()")


def setters(sites: list[ThrowSite], reach: list[Fact], ix: Index) -> list[Fact]:
    """The other methods of the class that set the state the lead site's
    check reads (``ResponseStream.close`` sets ``self.closed = True``, which
    ``write`` checks): what a user did before the call that fails. A
    constructor's value is where the state starts, not a call made since."""
    lead = reach[0] if reach else None
    conds = [g for g in sites[0].guards if g.kind in ("if", "elif", "else", "assert")]
    if lead is None or not conds or "." not in str(lead["function"]):
        return []
    attrs = set(_SELF_ATTR.findall(conds[-1].text))
    owner = str(lead["function"]).rpartition(".")[0]
    out: list[Fact] = []
    for fn in _methods_of_family(str(lead["path"]), owner, ix):
        if fn.name == "__init__" or fn.in_test or fn.symbol == lead["function"]:
            continue
        mine = [(attr, value, line) for attr, value, line in fn.sets if attr in attrs]
        if len(mine) == 1:  # set twice, on two branches: which one ran is not known
            attr, value, line = mine[0]
            out.append(_at(fn.path, line, function=fn.symbol, attr=attr, value=value))
    return out[:MAX_SETTERS] if len(out) <= MAX_SETTERS else []


def _methods_of_family(path: str, owner: str, ix: Index) -> Iterator[FuncDef]:
    """The methods of class ``owner`` (defined in ``path``), then of its
    bases and subclasses the repository defines once each: state that a
    check in a base reads may be set by a subclass (flask's
    ``App._check_setup_finished`` reads what ``Flask.full_dispatch_request``
    sets, in another file)."""
    yield from (f for f in ix.functions_in(path) if f.symbol.rpartition(".")[0] == owner)
    name = owner.rsplit(".", 1)[-1]
    if len(ix.classes.get(name, ())) != 1:
        return
    family = _ancestors(name, ix)
    todo = [name]
    while todo and len(family) < 16:  # subclasses, and theirs
        for sub in _subclasses(todo.pop(), ix):
            if sub != name and sub not in family:
                family.add(sub)
                todo.append(sub)
    for c in sorted(family):
        # a test's own subclass (`class Flask(flask.Flask)` in a test) is not the library's
        defs = [d for d in ix.classes.get(c, ()) if not is_test_path(d.path)]
        if len(defs) != 1:
            continue
        d = defs[0]
        yield from (f for f in ix.functions_in(d.path) if f.symbol.rpartition(".")[0] == d.qualname)


#: how many public calls a ``declared`` fact names
MAX_DECLARED_ON = 3
#: class-name words that say nothing of what a class is for
_PLAIN_WORDS = frozenset({"base", "mixin", "abc", "abstract", "object", "generic", "protocol"})


def declared(reach: list[Fact], ix: Index) -> list[Fact]:
    """The keyword a user declares the site's object with, when the library
    calls that object itself: the page's public call is a class's
    ``__call__`` (``click.ParamType(…)(…)``, ``marshmallow.validate.Range(…)(…)``),
    which nobody calls by hand; a user hands an instance to a public call
    (``click.Option(type=…)``, ``fields.Integer(validate=…)``) whose
    parameter is named after the class's kind (the last word of its name
    or of a base's: ``ParamType`` -> ``type``, ``Validator`` -> ``validate``)."""
    lead = reach[0] if reach else None
    if lead is None:
        return []
    tops = [lead] if lead.get("public") else []
    tops += [chain[0] for chain in lead.get("paths", ()) if chain]
    call = next((t for t in tops if str(t["function"]).endswith(".__call__")), None)
    if call is None:
        call = _inherited_call(str(lead["function"]), ix)
    if call is None:
        return []
    # a kind is a class others derive from: the class whose `__call__` a
    # subclass inherits (`ParamType` of `_NumberParamTypeBase`), or a base of
    # the one that defines it (`Validator` of `Range`); a class of its own
    # (an app, a route) is not one of many a user picks from
    caller, own = (str(f["function"]).rpartition(".")[0].rpartition(".")[2] for f in (call, lead))
    if own and caller != own and caller not in _class_chain(own, ix):
        # `Command.__call__` reaches `Context.lookup_default` on another object:
        # the `Command` a user declares is not the object that raises
        return []
    chain = _class_chain(caller, ix)[caller == own or not own :]
    kinds = [_kind_word(c) for c in chain if len(_subclasses(c, ix)) >= MIN_KINDS]
    memo = ix.memo("declared")
    for word in dict.fromkeys(k for k in kinds if k):
        if word not in memo:
            memo[word] = _declaring(word, ix)
        got = memo[word]
        if got:
            keyword, fns = got
            on = [_at(f.path, f.line, function=f.symbol, public=True) for f in fns]
            for f in on:
                _name_it(f, ix)
            return [
                _at(
                    call["path"],
                    call["line"],
                    keyword=keyword,
                    kind=word,
                    called=call["function"],
                    on=on,
                )
            ]
    return []


def _inherited_call(method: str, ix: Index) -> Fact | None:
    """The ``__call__`` a method's class inherits from a base, which calls the
    method (``click.Path.convert``, called by ``ParamType.__call__``)."""
    owner, _, name = method.rpartition(".")
    if name.startswith("__"):
        return None  # `__init__` runs when the object is made, not called
    owner = owner.rpartition(".")[2]
    for base in _class_chain(owner, ix)[1:]:
        for c in ix.classes.get(base, ())[:1]:
            fn = ix.function(c.path, f"{c.qualname}.__call__")
            if fn is not None and ix.public(fn):
                return _at(fn.path, fn.line, function=fn.symbol)
    return None


#: how many subclasses make a class a kind a user picks from (`ParamType`, `Validator`)
MIN_KINDS = 3


def _class_chain(name: str, ix: Index, depth: int = 4) -> list[str]:
    """A class and its bases, nearest first (``Range``, ``Validator``)."""
    out: list[str] = []
    todo = [name]
    while todo and len(out) < depth:
        n = todo.pop(0).split("[", 1)[0].rsplit(".", 1)[-1]  # `t.Generic[T]`: `Generic`
        if n in out:
            continue
        out.append(n)
        for c in ix.classes.get(n, ())[:1]:
            todo += [b for b in c.bases if b != "object"]
    return out


def _kind_word(name: str) -> str:
    """The last word of a class's name, lower case, plain words left out
    (``ParamType`` -> ``type``, ``_NumberParamTypeBase`` -> ``type``)."""
    words = [w.lower() for w in re.findall(r"[A-Z][a-z]+", name)]
    words = [w for w in words if w not in _PLAIN_WORDS]
    return words[-1] if words else ""


def _subclasses(name: str, ix: Index) -> list[str]:
    """The names of the classes of the repository that name ``name`` as a base."""
    return [c.name for c in ix.subclasses(name)]


def _named_after(param: str, word: str) -> bool:
    """``type`` for ``type``, ``validate`` for ``validator``: the same word, or
    one stem of seven letters or more."""
    if param == word:
        return True
    stem = 0
    for a, b in zip(param, word, strict=False):
        if a != b:
            break
        stem += 1
    return stem >= 7 and stem >= min(len(param), len(word)) - 1


def _declaring(word: str, ix: Index) -> tuple[str, list[FuncDef]] | None:
    """The public constructors with a parameter named after ``word``, and
    the keyword, the most general first (the fewest parameters)."""
    found: list[tuple[str, FuncDef]] = []
    for fn in _constructors(ix):
        param = next((p for p in fn.params if _named_after(p, word)), None)
        if param is not None and ix.public(fn):
            found.append((param, fn))
    if not found:
        return None
    keyword = Counter(p for p, _ in found).most_common(1)[0][0]
    fns = [f for p, f in found if p == keyword]
    # a base class whose subclasses take it too (`Parameter` of `Option` and
    # `Argument`): those are what a user writes; else the fewest parameters
    inits = {f.symbol.rpartition(".")[0]: f for f in fns if f.name == "__init__"}

    def subclasses(cls: str) -> list[FuncDef]:
        name = cls.rpartition(".")[2]
        return [
            f
            for c, f in inits.items()
            if any(b.rpartition(".")[2] == name for d in ix.classes.get(c, ())[:1] for b in d.bases)
        ]

    base = max(inits, key=lambda c: len(subclasses(c)), default=None)
    if base is not None and subclasses(base):
        return keyword, sorted(subclasses(base), key=lambda f: f.symbol)[:MAX_DECLARED_ON]
    fns.sort(key=lambda f: (len(f.params), f.symbol))
    return keyword, fns[:MAX_DECLARED_ON]


def _constructors(ix: Index) -> tuple[FuncDef, ...]:
    """Every ``__init__`` outside tests, in path order, found once per
    process: each word ``_declaring`` asks for read every file's functions
    (the stdlib's files, loaded again for each)."""
    memo = ix.memo("constructors")
    got = memo.get("")
    if got is None:
        got = memo[""] = tuple(
            fn
            for path in ix.paths
            # `flask.testing.EnvironBuilder(app=…)` is no declaration of an app
            if not (is_test_path(path) or is_test_support(path))
            for fn in ix.functions_in(path)
            # a constructor keeps what it is given, to call later
            if not fn.in_test and fn.name == "__init__"
        )
    return cast(tuple[FuncDef, ...], got)


def _last_name(symbol: str) -> str:
    return symbol.rsplit("::", 1)[-1].rsplit(".", 1)[-1]


def _name_raises_others(name: str, entry: ErrorEntry, ix: Index, exception: str | None) -> bool:
    """Whether a function named ``name`` throws another entry than this one
    (of the class ``exception``, when given): then a test with no expected
    text that calls ``name`` on a value of a type it does not show may reach
    that one instead. click's ``type.convert(value, None, None)``, ``type`` a
    parameter, may be any of a dozen ``convert``s, each with its own
    ``BadParameter``; flask's ``app.open_resource(…)`` reaches this error
    whichever of its two ``open_resource``s it is."""
    others = ix.entries_in_functions_named(name) - {entry.id}
    if others and exception is not None:
        others &= {r.id for r in ix.by_exception.get(exception, ())}
    return bool(others)


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
    lifted = lift(reach, conditions, ix, sites[0].language, lambda f: _callers_by_name(f, ix))
    for up in lifted:
        for f in up.get("higher", ()):
            _name_it(f, ix)
    found = tests(entry, reach, ix, chain, conditions, lifted)
    # only when there is one: most pages have neither, and their facts stay as they were
    instead = {
        k: v
        for k, v in (
            ("fallible", fallible(entry, reach, ix)),
            ("call_first", call_first(entry, reach, ix)),
            ("declared", declared(reach, ix)),
            ("setters", setters(sites, reach, ix)),
        )
        if v
    }
    return {
        **instead,
        "guards": conditions,
        "lifted": lifted,
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
        "type_docs": type_docs(entry, ix),
        "prose": prose(entry, reach, ix),
        "tests": found,
        "valid_calls": valid_calls(found, reach, ix, conditions),
        "related": related(entry, ix, reach),
    }


#: reproducing tests whose call is looked for made with valid input
MAX_VALID_CALLS = 3


def _checked_params(reach: list[Fact], conditions: list[Fact], ix: Index) -> dict[str, set[int]]:
    """For each function on the way to the sites: the positions of its
    parameters (``self`` aside) whose names the sites' checks read
    (``route``'s ``path``, 0, where ``validate_path`` checks ``path.is_empty()``)."""
    read = {w for g in conditions for w in re.findall(r"[A-Za-z_]\w*", str(g["text"]))}
    out: dict[str, set[int]] = {}

    def add(name: str, params: Iterable[str]) -> None:
        ps = [p for p in params if p not in ("self", "&self", "&mut self", "mut self", "cls")]
        out.setdefault(name, set()).update(i for i, p in enumerate(ps) if p in read)

    for r in reach:
        add(str(r["name"]), r.get("params", ()))
        for chain in r.get("paths", ()):
            for hop in chain:
                f = ix.function(hop["path"], hop["function"]) if "path" in hop else None
                if f is not None:
                    add(f.name, f.params)
    return out


def valid_calls(
    found: list[Fact], reach: list[Fact], ix: Index, conditions: list[Fact] | None = None
) -> list[Fact]:
    """For the first reproducing tests: their failing call, as the user
    makes it, beside the same call made with valid input by another test
    (``validcall``), for an example fix. The failing call is one of the
    functions on a path to a site (a class for its ``__init__``)."""
    reaching = frozenset(
        {r["name"] for r in reach}
        | {c for r in reach if (c := _class_of_init(r))}
        | {
            _last_name(hop["function"])
            for r in reach
            for chain in r.get("paths", ())
            for hop in chain
        }
    )
    if not any(t.get("body") and t.get("kind") != "doctest" for t in found):
        return []
    # and the public functions that call one of them (`Version::parse` calls
    # `Version::from_str`; `httpx.URL(…)` calls `urlparse`)
    above: set[str] = set()
    for name in reaching:
        if ix.defined.get(name, 0) > AMBIGUOUS:
            continue
        for f, _ in ix.callers_of(name):
            if f.public:
                owner = f.symbol.rsplit(".", 2)
                above.add(owner[-2] if f.name == "__init__" and len(owner) >= 2 else f.name)
    reaching |= above
    out: list[Fact] = []
    for t in found:
        if t.get("kind") == "doctest" or not t.get("body"):
            continue
        # a table's row is its call alone: no setup to tell it from
        got = valid_call(t, ix, None if t.get("inputs") else reaching)
        if conditions and not t.get("inputs"):
            read = {w for g in conditions for w in re.findall(r"[A-Za-z_]\w*", str(g["text"]))}
            # the failing call's checked keyword given another test's value
            # beats a call that leaves that keyword out
            checked = call_keywords(str(got["before"])) & read if got is not None else set()
            if got is None or (
                len(checked) == 1 and not checked & call_keywords(str(got["after"]))
            ):
                got = swapped_keyword(t, ix, reaching, read) or got
        if got is None and not t.get("inputs") and conditions:
            got = swapped_literal(t, ix, reaching, _checked_params(reach, conditions, ix))
        if got is not None:
            out.append(got)
            if len(out) >= MAX_VALID_CALLS:
                break
    return out
