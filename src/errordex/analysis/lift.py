"""A private helper's check, lifted to the public call's arguments (pure).

A site in a private helper is guarded by a condition on the helper's own
parameters (``size < 0`` in ``_check(size)``). The public function a user
calls reaches it through calls written in the library (``_check(width)`` in
``area(width, height)``). Following those calls, argument for parameter,
the condition reads in the public call's parameters (``width < 0``), which
is what the user passed. A hop whose call is not written on one line, or
whose arguments the condition needs but the call does not give plainly
(``*args``, a default), stops the lift: the page then says where the check
is instead.

    >>> bind("_check(width)", ("size",))
    {'size': 'width'}
    >>> bind("self.buf.split_to(at + 1)", ("self", "at"))
    {'self': 'self.buf', 'at': 'at + 1'}
    >>> substitute("size < 0 and size.real", {"size": "width"})
    'width < 0 and width.real'
    >>> substitute("!(w >= zero)", {"w": "weights.next()", "zero": "X::ZERO"})
    '!(weights.next() >= X::ZERO)'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from errordex import plugins
from errordex.analysis.calltexts import CallText
from errordex.analysis.evidence import FuncDef
from errordex.analysis.index import Index
from errordex.analysis.sections import CONDITION_KINDS, FIRES_WHEN_FALSE

Fact = dict[str, Any]

#: guard kinds whose text is a condition on values (the writer's choice of condition)
CONDITIONS = CONDITION_KINDS
#: conditions kept at most per hop (a helper called that many times on a line)
MAX_ALTERNATIVES = 4
_SELF = ("self", "&self", "&mut self", "mut self", "cls")
#: a string literal, or a name not after ``.``/``::`` (an attribute or path segment is not a name)
_TOKEN = re.compile(r"(\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')|(?<![\w.:])([A-Za-z_]\w*)")
_BOUND = re.compile(r"\bfor\s+([A-Za-z_]\w*)\s+in\b|\blambda\s+([A-Za-z_]\w*)")
_CLOSURE = re.compile(r"\|([^|]*)\|")
_NAMES = re.compile(r"[A-Za-z_]\w*")
#: a module's private or constant name, or a class (``Mapping``), which a
#: caller's module reads alike
_CONSTANT = re.compile(r"_[a-z]\w*|[A-Z][A-Z0-9_]+|[A-Z][a-z]\w*")
_LOOSE = re.compile(r"\bor\b|\|\||\bif\b|\blambda\b")
_SELF_READ = re.compile(r"(?<![\w.])self\b")
_KEYWORD = re.compile(r"\s*([A-Za-z_]\w*)\s*=(?!=)\s*(.*)", re.S)
#: an argument that needs no parentheses where a name stood
_PLAIN = re.compile(
    r"[\w.]+(?:::\w+)*(?:(?:\(.*\)|\[.*\])[\w.]*)*|\"[^\"]*\"|'[^']*'|-?\d[\w.]*", re.S
)


def split_arguments(inner: str) -> list[str] | None:
    """The top-level comma-separated parts of a call's argument text."""
    out: list[str] = []
    depth = 0
    quote = ""
    start = 0
    i = 0
    while i < len(inner):
        c = inner[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                return None
        elif c == "," and depth == 0:
            out.append(inner[start:i].strip())
            start = i + 1
        i += 1
    if quote or depth:
        return None
    last = inner[start:].strip()
    if last:
        out.append(last)
    return out


def bind(call: str, params: Sequence[str]) -> dict[str, str] | None:
    """Which argument text each parameter of the callee gets at ``call``
    (written ``f(a, k=b)``, ``x.f(a)`` or ``T::f(x, a)``); None when the call
    cannot be read. A method called on a receiver binds ``self`` to it."""
    call = call.strip()
    open_at = call.find("(")
    if open_at <= 0 or not call.endswith(")"):
        return None
    head, inner = call[:open_at], call[open_at + 1 : -1]
    args = split_arguments(inner)
    if args is None:
        return None
    params = list(params)
    out: dict[str, str] = {}
    if params and params[0] in _SELF:
        receiver, dot, _ = head.rpartition(".")
        if dot:
            out["self"] = receiver
            params = params[1:]
        elif params[0] == "cls":
            params = params[1:]
    positional = True
    for i, a in enumerate(args):
        if a.startswith("*"):
            return None  # *args / **kw: which parameter gets what is unknown
        kw = _KEYWORD.fullmatch(a)
        if kw is not None and kw.group(1) in params:
            positional = False
            out[kw.group(1)] = kw.group(2).strip()
        elif positional and i < len(params):
            out[params[i]] = a
        else:
            return None
    return out


def substitute(condition: str, binding: Mapping[str, str]) -> str:
    """``condition`` with each name of ``binding`` replaced by its argument."""

    def one(m: re.Match[str]) -> str:
        name = m.group(2)
        if name is None or name not in binding:
            return m.group(0)
        arg = binding[name]
        return arg if _PLAIN.fullmatch(arg) or _enclosed(arg) else f"({arg})"

    return _TOKEN.sub(one, condition)


def constant(name: str) -> bool:
    """A module's private or constant name, or a class: the same in a caller."""
    return _CONSTANT.fullmatch(name) is not None


def _enclosed(text: str) -> bool:
    """Whether ``text`` is one bracketed whole (``(a, b)``, ``[1, 2]``), which
    needs no parentheses where a name stood.

    >>> _enclosed("(re.search, None)"), _enclosed("(a) + (b)")
    (True, False)
    """
    if not text or text[0] not in "([{" or text[-1] not in ")]}":
        return False
    parts = split_arguments(text[1:-1])
    return parts is not None and text[1:-1].count(text[0]) == text[1:-1].count(text[-1])


def expanded(cond: Fact) -> str:
    """A guard's text with the locals it reads replaced by their values
    (``Guard.values``): ``func not in valid_funcs`` reads
    ``func not in (re.fullmatch, None)``.

        >>> expanded({"text": "func not in valid", "values": [["valid", "(re.match, None)"]]})
        'func not in (re.match, None)'
        >>> expanded({"text": "s not in S", "values": [["s", "s.title()"], ["S", "{'Lax'}"]]})
        "s.title() not in {'Lax'}"
    """
    # an `else` after tests of one value: what the chain accepts (`facts._accepts`)
    text = str(cond.get("accepts") or cond["text"])
    values = {n: v for n, v in cond.get("values", ())}
    text = substitute(text, values) if values else text
    # a value may read another local; a parameter bound again reads itself
    # (`samesite = samesite.title()`): once is its value
    again = {n: v for n, v in values.items() if n not in _names_in(v)}
    return substitute(text, again) if again else text


def _names_in(text: str) -> set[str]:
    return {m.group(2) for m in _TOKEN.finditer(text) if m.group(2)}


def modules_read(text: str, params: Iterable[str]) -> set[str]:
    """The names ``text`` reads only as ``name.attr`` that are not among
    ``params``: a module (``re`` of ``re.search``), the same in a caller
    (a local would have been replaced by its value: ``Guard.values``).

    >>> sorted(modules_read("func not in (re.search, None) and x.y", ["func"]))
    ['re', 'x']
    """
    dotted = set(re.findall(r"(?<![\w.])([A-Za-z_]\w*)\s*\.(?=\s*[A-Za-z_])", text))
    bare = set(re.findall(r"(?<![\w.])([A-Za-z_]\w*)\b(?!\s*\.)", text))
    return dotted - bare - set(params)


@lru_cache(maxsize=4096)
def code_identifiers(language: str, text: str) -> frozenset[str]:
    """``identifiers`` of the language's pages for a piece of code, parsed
    once per process: the same conditions come again in many entries' facts
    and pages (the stdlib's 4,900 asks)."""
    lang = plugins.find(language)
    return frozenset(lang.pages.identifiers(text)) if lang is not None else frozenset()


def names_read(language: str, text: str) -> frozenset[str]:
    """``code_identifiers`` of ``text`` but the attributes it reads off a value
    (``lhs`` and not ``dtype`` in ``lhs.dtype()``)."""
    return code_identifiers(language, text) - set(re.findall(r"\.\s*([A-Za-z_]\w*)", text))


def _reads(text: str, language: str, params: Iterable[str] = ()) -> set[str] | None:
    """The names ``text`` reads that are not the language's own words, nor
    bound inside it (``for c in color``, ``|c|``), nor a module's constant
    (``_ansi_colors``, ``MAX_LEN``: the same in the caller), nor, given the
    function's ``params``, a module it reads attributes of (``re.search``)."""
    lang = plugins.find(language)
    if lang is None:
        return None
    attrs = set(re.findall(r"\.\s*([A-Za-z_]\w*)", text))
    # a path's segments (`X::ZERO`, `Error::Empty`) name a type or an item, not a value
    attrs |= set(re.findall(r"([A-Za-z_]\w*)\s*::", text))
    attrs |= set(re.findall(r"::\s*([A-Za-z_]\w*)", text))
    bound = {n for pair in _BOUND.findall(text) for n in pair if n}
    bound |= {n for group in _CLOSURE.findall(text) for n in _NAMES.findall(group)}
    params = list(params)
    modules = modules_read(text, params) if params else set()
    return {
        n
        for n in code_identifiers(language, text) - attrs - bound - modules
        if n not in lang.pages.words and not _CONSTANT.fullmatch(n)
    }


#: what a binding's value says that a reader of the check does not need:
#: a copy or a borrow, and an ``Option`` turned into an early error return
_NOISE = re.compile(
    r"\.(?:clone|borrow|to_owned|as_ref|as_slice)\(\)|\.ok_or(?:_else)?\((?:[^()]|\([^()]*\))*\)\?"
)
#: rounds of substitution (``let a = b.f(); let c = a.g();``)
MAX_LET_ROUNDS = 3


def through_lets(
    text: str, fn: FuncDef | None, before: int, language: str
) -> tuple[str, list[int]]:
    """``text``, a check at line ``before`` in ``fn``, with each name that is
    one of ``fn``'s own bindings there (``let`` before it, not changed since)
    replaced by what it holds; the lines of the bindings used
    (``tests/analysis/test_lift_lets.py``)."""
    if fn is None or not fn.lets:
        return text, []
    used: list[int] = []
    for _ in range(MAX_LET_ROUNDS):
        names = _reads(text, language)
        if not names:
            break
        binding: dict[str, str] = {}
        for name, value, line, until in fn.lets:
            if name in names and name not in fn.params and line < before:
                if until and until < before:
                    binding.pop(name, None)  # changed before the check: not known
                    continue
                binding[name] = _NOISE.sub("", value)
                used.append(line)
        if not binding:
            break
        text = substitute(text, binding)
    return text, sorted(set(used))


def condition_of(site: str, guards: Iterable[Fact]) -> Fact | None:
    """The condition the page states for ``site`` (the innermost one)."""
    conds = [g for g in guards if g["site"] == site and g["kind"] in CONDITIONS]
    return conds[-1] if conds else None


def _call_text(ix: Index, hop: Fact) -> list[str]:
    return [
        text
        for path, caller, line, text in ix.call_texts.get(hop["calls"])
        if path == hop["path"] and line == hop["line"] and caller == hop["function"]
    ]


#: callers(fn): who reaches ``fn``, with the line, and how when not by its
#: name (``facts._callers_by_name``: (name called, "init" | "encloses" | "constructs"))
Callers = Callable[[FuncDef], list[tuple[Any, ...]]]
#: public calls above the one a condition was lifted to, kept at most
MAX_HIGHER = 16
#: ...and how far above it they are looked for
HIGHER_HOPS = 4


def lift(
    reach: list[Fact],
    guards: list[Fact],
    ix: Index,
    language: str,
    callers: Callers | None = None,
) -> list[Fact]:
    """For each private site function with a public caller: its condition
    written in the public caller's parameters, with the calls it went
    through (their lines are its evidence). With ``callers``, also the
    public calls above that one which hand it the arguments the condition
    reads (``higher``: httpx's ``Request(data=…)`` is built by
    ``Client.request(data=…)``, which ``httpx.post(data=…)`` calls)."""
    out: list[Fact] = []
    for r in reach:
        cond = condition_of(r["site"], guards)
        if cond is None or cond["kind"] == "except":
            continue
        site_fn = ix.function(r["path"], r["function"])
        text, lets = through_lets(expanded(cond), site_fn, cond["line"], language)
        # a public trait impl is reached through the public method that calls it
        if r["public"] and not r["function"].startswith("<"):
            own = _own(text, lets, cond, r, language)
            if own is not None:
                out.append(own)
            continue
        if not r.get("paths"):
            continue
        for chain in r["paths"]:
            got = _lift_chain(
                text,
                list(r["params"]),
                chain,
                ix,
                language,
                cond["kind"] in FIRES_WHEN_FALSE,
            )
            if got is None:
                continue
            text, read, calls, params = got
            top = ix.function(chain[0]["path"], chain[0]["function"])
            higher = (
                _higher(text, top, ix, language, callers)
                if callers is not None and top is not None
                else []
            )
            out.append(
                {
                    "higher": higher,
                    "path": cond["path"],
                    "line": cond["line"],
                    "site": r["site"],
                    "kind": cond["kind"],
                    "condition": cond["text"],
                    "text": text,
                    "read": read,
                    "function": chain[0]["function"],
                    "params": params,
                    "calls": [*calls, *_let_lines(cond["path"], lets)],
                }
            )
            break
    return out


def _higher(text: str, start: FuncDef, ix: Index, language: str, callers: Callers) -> list[Fact]:
    """The public functions above ``start`` that pass the arguments
    ``text`` reads through to it, nearest first, each with the condition in
    its own parameters and the calls on the way (``lift``)."""
    out: list[Fact] = []
    frontier: list[tuple[FuncDef, str, list[Fact]]] = [(start, text, [])]
    seen = {(start.path, start.symbol)}
    # name -> its calls by (path, caller, line): a caller's call is looked up,
    # not found among every call of the name (candle's `forward`: thousands)
    by_site: dict[str, dict[tuple[str, str, int], list[CallText]]] = {}
    for depth in range(1, HIGHER_HOPS + 1):
        nxt: list[tuple[FuncDef, str, list[Fact]]] = []
        for fn, t, calls in frontier:
            names = _reads(t, language, fn.params)
            if names is None:
                return out
            if _SELF_READ.search(t):
                names.add("self")
            for caller, line, *how in callers(fn):
                via = how[0] if how and how[0] is not None else None
                key = (caller.path, caller.symbol)
                if key in seen or caller.in_test or (via and via[1] in ("constructs", "hands")):
                    continue
                params = list(fn.params)
                if via and via[1] == "init" and params[:1] == ["self"]:
                    params = params[1:]
                name = via[0] if via else fn.name
                sites = by_site.get(name)
                if sites is None:
                    sites = by_site[name] = {}
                    for c in ix.call_texts.get(name):
                        sites.setdefault(c[:3], []).append(c)
                for path, _, at, call in sites.get((caller.path, caller.symbol, line), ()):
                    binding = bind(call, params)
                    if binding is None or not names <= binding.keys():
                        continue
                    lifted = substitute(t, binding)
                    got = _reads(lifted, language, caller.params) or set()
                    plain = [p for p in caller.params if p not in _SELF]
                    if not got or not got <= set(plain) | {"self"}:
                        continue
                    seen.add(key)
                    way = [*calls, {"path": path, "line": at, "text": call}]
                    if ix.public(caller):
                        out.append(
                            {
                                "path": caller.path,
                                "line": caller.line,
                                "function": caller.symbol,
                                "text": lifted,
                                "read": [p for p in plain if p in got],
                                "params": list(caller.params),
                                "depth": depth,
                                "calls": way,
                            }
                        )
                        if len(out) >= MAX_HIGHER:
                            return out
                    nxt.append((caller, lifted, way))
                    break
        frontier = nxt
    return out


def _let_lines(path: str, lines: list[int]) -> list[Fact]:
    return [{"path": path, "line": n, "text": ""} for n in lines]


def _own(text: str, lets: list[int], cond: Fact, r: Fact, language: str) -> Fact | None:
    """The check of a public function, read through its own bindings
    (``total_weight`` is the first of ``weights``), when that leaves only
    its parameters."""
    if not lets:
        return None
    params = [p for p in r["params"] if p and p not in _SELF]
    names = _reads(text, language)
    if not names or not names <= set(params) | {"self"}:
        return None
    read = [p for p in params if p in names]
    if not read:
        return None
    return {
        "path": cond["path"],
        "line": cond["line"],
        "site": r["site"],
        "kind": cond["kind"],
        "condition": cond["text"],
        "text": text,
        "read": read,
        "function": r["function"],
        "params": list(r["params"]),
        "calls": _let_lines(cond["path"], lets),
    }


def _lift_chain(
    text: str,
    params: list[str],
    chain: list[Fact],
    ix: Index,
    language: str,
    when_false: bool = False,
) -> tuple[str, list[str], list[Fact], list[str]] | None:
    """The condition through each call of ``chain``, last hop first. A hop
    whose line calls the helper twice (``_check(width) * _check(height)``)
    gives both: either one raises (``width < 0 or height < 0``; for a
    condition the site needs false, ``a and b`` is what must hold)."""
    texts = [text]
    calls: list[Fact] = []
    for i in range(len(chain) - 1, -1, -1):
        hop = chain[i]
        lifted: list[str] = []
        via = hop.get("via")
        if via in ("constructs", "hands"):
            return None  # the instance's own state, set when it was built
        if via == "init" and params[:1] == ["self"]:
            params = params[1:]  # `C(a)` gives `a` to the first after `self`
        if via == "encloses":
            lifted = texts  # a nested function reads its outer one's names as they are
        for t in texts if via != "encloses" else ():
            names = _reads(t, language, params)
            if names is None:
                return None
            if _SELF_READ.search(t):
                names.add("self")
            for call in _call_text(ix, hop):
                binding = bind(call, params)
                if binding is not None and names <= binding.keys():
                    lifted.append(substitute(t, binding))
                    calls.append({"path": hop["path"], "line": hop["line"], "text": call})
        caller = ix.function(hop["path"], hop["function"])
        if caller is None:
            return None
        # an argument that is the caller's own binding (`width` of
        # `let (width, height) = input_buffer.dimensions();`)
        texts = []
        for t in dict.fromkeys(lifted):
            t, lets = through_lets(t, caller, hop["line"], language)
            texts.append(t)
            calls += _let_lines(hop["path"], lets)
        texts = list(dict.fromkeys(texts))[:MAX_ALTERNATIVES]
        if not texts:
            return None
        params = list(caller.params)
    plain = [p for p in params if p not in _SELF]
    names = set()
    for t in texts:
        got = _reads(t, language, params)
        if not got or not got <= set(plain) | {"self"}:
            return None
        names |= got
    read = [p for p in plain if p in names]
    if not read:
        return None
    lang = plugins.find(language)
    if when_false:
        joiner = lang.pages.both if lang is not None else " and "
        # `or` binds looser than `and`: a condition with one is grouped
        text = joiner.join(f"({t})" if len(texts) > 1 and _LOOSE.search(t) else t for t in texts)
    else:
        joiner = lang.pages.either if lang is not None else " or "
        # comparisons, `and`, `not` bind tighter than `or`: only a conditional is grouped
        text = joiner.join(f"({t})" if " if " in t or "lambda" in t else t for t in texts)
    seen = {(c["path"], c["line"], c["text"]): c for c in reversed(calls)}
    return text, read, list(seen.values()), params
