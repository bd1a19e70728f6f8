"""A reproducing test's failing call beside the same call made with valid
input elsewhere in the repository's tests: an example fix's "before" and
"after", both as the repository writes them.

semver's ``test_parse`` has ``version_err("1.2")`` (a test helper that is
``Version::parse(text).unwrap_err()``) and, a few lines on,
``version("1.2.3")`` (``Version::parse(text).unwrap()``): the user's call is
``Version::parse("1.2")``, and ``Version::parse("1.2.3")`` is one the library
takes. Nothing is made up: the "after" is a call some test makes outside any
block that expects an error, with literal arguments only.

    >>> calls_in('let err = version_err("1.2");')
    [('version_err', '"1.2"')]
    >>> split_args('"a, b", [1, 2], x=3')
    ['"a, b"', '[1, 2]', 'x=3']
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterator
from difflib import SequenceMatcher
from typing import Any

from errordex.analysis.index import Helper, Index
from errordex.extract.common import is_test_path

Fact = dict[str, Any]

#: a callee as written before its ``(``: ``Version::parse``, ``fields.Email``, ``f``
_CALLEE = re.compile(r"(?<![\w.:])((?:[A-Za-z_]\w*(?:::|\.))*[A-Za-z_]\w*)\s*(?:::<[^()]*>)?\(")
#: a literal argument: a string, a number, a char, a bool or None, a keyword
#: given one, a list/slice of them (``&[1, 2]``)
_LITERAL = re.compile(
    r"""(?:[A-Za-z_]\w*\s*=\s*)?&?(?:
        [rbuRBU]{0,2}"(?:[^"\\]|\\.)*"
      | [rbuRBU]{0,2}'(?:[^'\\]|\\.)*'
      | -?\d[\d_]*(?:\.\d+)?(?:[eE][-+]?\d+)?(?:[iu](?:8|16|32|64|128|size)|f32|f64)?
      | true|false|True|False|None
    )""",
    re.X,
)
#: calls whose being made says the call before them failed (``x.unwrap_err()``)
_ERRORISH = ("unwrap_err", "expect_err", "is_err", "err", "raises", "assertRaises")
#: test-code calls that assert, not make the library call
_ASSERTS = re.compile(r"^assert", re.I)
#: the most successful calls looked at per name
_MAX_LOOK = 400


def split_args(text: str) -> list[str]:
    """A call's arguments at their top-level commas (brackets and strings kept whole)."""
    out: list[str] = []
    depth, quote, cur, i = 0, "", "", 0
    while i < len(text):
        c = text[i]
        if quote:
            cur += c
            if c == "\\" and i + 1 < len(text):
                cur += text[i + 1]
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'" and not (c == "'" and depth >= 0 and _lifetime(text, i)):
            quote, cur = c, cur + c
        elif c in "([{":
            depth, cur = depth + 1, cur + c
        elif c in ")]}":
            depth, cur = depth - 1, cur + c
        elif c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return out


def _lifetime(text: str, i: int) -> bool:
    """``'a`` (a Rust lifetime) opens no string: no closing ``'`` two or three on."""
    return not re.match(r"'(?:[^'\\]|\\.{1,8})'", text[i:])


def calls_in(text: str, last: bool = False) -> list[tuple[str, str]]:
    """(callee, argument text) of each call in ``text``, outermost first;
    with ``last``, only those whose result is not called on
    (``validate.Range(2, 3)(1)`` fails in the second call, not the first;
    ``Version::parse("1").unwrap()`` in the first)."""
    out: list[tuple[str, str]] = []
    for m in _CALLEE.finditer(text):
        if _in_string(text, m.start()):
            continue
        start = m.end()
        i, closed = _past_close(text, start, chars=True)
        if closed and not (last and _called_on(text[i:])):
            out.append((m.group(1), text[start : i - 1]))
    return out


#: what may follow the call that fails: taking its error or its value
_TAKES = re.compile(
    r"\s*(?:\?|\.(?:unwrap|expect|unwrap_err|expect_err|is_err|is_ok|err|ok)\s*\(|[^\s(.\[])"
)


def _called_on(rest: str) -> bool:
    """Whether the text after a call goes on with a call on its result."""
    return bool(rest.strip()) and _TAKES.match(rest) is None


def _in_string(text: str, at: int) -> bool:
    return text[:at].count('"') % 2 == 1


def literal_args(args: str, modules: frozenset[str] = frozenset(), empty: bool = False) -> bool:
    """Whether every argument is written out in the call: a literal, a list
    of them, or a constant named by its path (``fields.TimeDelta.SECONDS``,
    ``Ordering::Less``: capitalised, or from one of ``modules``), never a
    variable the test set. ``empty``: no arguments count too."""
    parts = split_args(args)
    return (bool(parts) or empty) and all(_literal(p, modules) for p in parts)


_PATH_ARG = re.compile(r"(?:[A-Za-z_]\w*\s*=\s*)?&?([A-Za-z_]\w*)(?:(?:::|\.)[A-Za-z_]\w*)+")


#: a literal and a conversion with no arguments of its own
_CONVERTED = re.compile(
    r"(.+?)\.(?:as_bytes|as_str|to_string|to_owned|to_vec|into|as_ref)\(\)", re.S
)


def _literal(arg: str, modules: frozenset[str] = frozenset()) -> bool:
    arg = re.sub(r"^[A-Za-z_]\w*\s*=(?!=)\s*", "", arg.strip())  # a keyword's value
    if _LITERAL.fullmatch(arg):
        return True
    # a literal turned into the type the call takes (`"null".as_bytes()`)
    converted = _CONVERTED.fullmatch(arg)
    if converted is not None and _LITERAL.fullmatch(converted.group(1)):
        return True
    path = _PATH_ARG.fullmatch(arg)
    if path is not None and (
        "::" in arg or path.group(1)[:1].isupper() or path.group(1) in modules
    ):
        return True
    inner = re.fullmatch(r"&?\[(.*)\]", arg, re.S)
    if inner is not None:
        return all(_literal(p, modules) for p in split_args(inner.group(1)))
    # a value the library builds from literals (`validate=validate.Length(min=1)`)
    call = re.fullmatch(
        r"(?:[A-Za-z_]\w*\s*=\s*)?&?((?:[A-Za-z_]\w*(?:::|\.))*[A-Za-z_]\w*)\((.*)\)", arg, re.S
    )
    if call is None or not _literal(call.group(1), modules):
        return False  # `MyValidator()`: a class of the tests' own is no value a user has
    got = calls_in(arg)
    return (
        bool(got)
        and got[0][1] == call.group(2)
        and literal_args(call.group(2), modules, empty=True)
    )


def _inline(h: Helper, args: str, ix: Index) -> tuple[str, str] | None:
    """The call ``h`` makes with the test's ``args`` in place of its
    parameters: (callee, call text); None when it does not pass them all on
    to one call of a function the repository defines outside tests."""
    given = split_args(args)
    if len(given) != len(h.params) or any("=" in a.split("(")[0] for a in given):
        return None
    for callee, text in h.calls:
        got = calls_in(text)
        if not got or got[0][0].rsplit("::", 1)[-1].rsplit(".", 1)[-1] != callee:
            continue  # a call on another's result (`….unwrap_err()`)
        if not _defined(callee, ix) or _ASSERTS.match(callee):
            continue
        used = [p for p in h.params if re.search(rf"\b{re.escape(p)}\b", got[0][1])]
        if len(used) != len(h.params):
            continue
        return got[0][0], _substitute(text, dict(zip(h.params, given, strict=True)))
    return None


def _substitute(text: str, values: dict[str, str]) -> str:
    """``text`` with each parameter's name (a whole word) replaced by its value."""
    words = re.compile(r"\b(?:" + "|".join(re.escape(p) for p in values) + r")\b")

    def value(m: re.Match[str]) -> str:
        return values[m.group(0)]

    return words.sub(value, text)


def _last_name(callee: str) -> str:
    return callee.rsplit("::", 1)[-1].rsplit(".", 1)[-1]


def _defined(name: str, ix: Index) -> bool:
    """Whether the repository defines ``name`` outside tests (a function, or
    a class: ``C(...)`` runs its ``__init__``)."""
    return bool(ix.defined.get(name)) or any(
        not is_test_path(c.path) for c in ix.classes.get(name, ())
    )


def _errorish(h: Helper) -> bool:
    """Whether a helper expects an error (``…unwrap_err()``, ``pytest.raises``)."""
    return any(c in _ERRORISH or c.endswith(".raises") for c, _ in h.calls)


def _api_call(
    callee: str, args: str, body: str, ix: Index
) -> tuple[str, str, Helper | None] | None:
    """(callee path, call text, the helper it went through) of a call the
    user makes: one of the repository's functions outside tests, called by
    its path (not on a value the test built: its state, not the arguments,
    may be what fails), or a test helper that makes such a call."""
    name = callee.rsplit("::", 1)[-1].rsplit(".", 1)[-1]
    if _ASSERTS.match(name):
        return None
    for h in ix.helpers.get(name, ()):
        got = _inline(h, args, ix)
        if got is not None and _by_path(got[0], body, ix):
            return got[0], got[1], h
    if _defined(name, ix) and _by_path(callee, body, ix):
        return callee, f"{callee}({args})", None
    return None


def _by_path(callee: str, body: str, ix: Index) -> bool:
    """Whether ``callee`` is named by a path, not a value's method (the
    value's state, not the arguments, may be what fails): a Rust path
    (``Version::parse``), a class (``Spinner``, ``fields.Email``) or a
    function of one of the repository's modules (``utils.from_timestamp``),
    never a variable the test binds (``field.deserialize``)."""
    if "." not in callee:
        return True  # `f(…)`, `Version::parse(…)`
    if "::" in callee:
        return False  # `value.method` after a path: a value's
    first = callee.split(".", 1)[0]
    if re.search(rf"\b{re.escape(first)}\s*=[^=]|\blet\s+(?:mut\s+)?{re.escape(first)}\b", body):
        return False
    return first[:1].isupper() or first in _module_names(ix)


def valid_call(t: Fact, ix: Index, reaching: frozenset[str] | None = None) -> Fact | None:
    """For a reproducing test ``t`` (a ``facts.tests`` fact with a body):
    its failing call as the user makes it, and the same function called with
    literal arguments in a test, outside any block that expects an error
    (the nearest: the same file first). ``reaching``: the names of the
    functions on the way to the entry's sites; the failing call is one of
    them (not the test's setup, `TensorData::from([3i64])`, nor an argument)."""
    body = str(t.get("body") or "")
    if not body:
        return None
    for callee, args in calls_in(_without_expected(body), last=True):
        if not literal_args(args):
            continue
        api = _api_call(callee, args, body, ix)
        if api is None:
            continue
        if reaching is not None and _last_name(api[0]) not in reaching:
            continue
        path_, failing, helper = api
        if helper is None:
            # `ron::from_str::<f64>("1.0e1.0")`: the type the test asks for is
            # part of the call, and of the one that works
            failing = _with_turbofish(body, callee, args, failing)
        got = _successful(path_, failing, t, ix)
        if got is None:
            continue
        path, line, made, via = got
        fact: Fact = {
            "path": path,
            "line": line,
            "callee": path_,
            "before": failing,
            "after": made,
            "test": t["test"],
            "test_path": t["path"],
            "test_line": t["line"],
        }
        if helper is not None:
            fact["helper"] = {"name": helper.name, "path": helper.path, "line": helper.line}
        if via is not None:
            fact["after_helper"] = {"name": via.name, "path": via.path, "line": via.line}
        return fact
    return None


def _without_expected(body: str) -> str:
    """A test's body without the error it expects written out (``Err(…)``):
    a call there builds the expected value (``Err(Error::InvalidIdentifier(
    String::from("Hello World")))``), it is not the call that fails.

        >>> _without_expected('assert_eq!(f("x"), Err(E::Bad(String::from("x"))));')
        'assert_eq!(f("x"), Err());'
    """
    out, i = [], 0
    for m in re.finditer(r"\bErr\(", body):
        if m.start() < i:
            continue
        j, closed = _past_close(body, m.end())
        out.append(body[i : m.end()])
        i = j - 1 if closed else j
    out.append(body[i:])
    return "".join(out)


#: a builder made by its type's path, then a method called on it:
#: ``Router::<()>::new().route(`` (the receiver is the user's to write)
_BUILT = re.compile(
    r"(?<![\w:.])((?:[A-Za-z_]\w*::)*[A-Z]\w*(?:::<[^()]*>)?::(?:new|default)\(\))"
    r"\s*\.\s*([a-z_]\w*)\s*\("
)
#: a string literal argument
_STRING = re.compile(r'[rb]?"(?:[^"\\]|\\.)*"')


def swapped_literal(
    t: Fact, ix: Index, reaching: frozenset[str], checked: dict[str, set[int]]
) -> Fact | None:
    """For a reproducing test whose failing call is a method of a builder
    made by its type's path (axum's ``Router::<()>::new().route("/:foo",
    get(|| async move {}))``), with a string literal among its arguments:
    the same call with, in that place, the nearest literal another test
    passes to the method outside any expectation of an error
    (``"/{foo}"``). Only the literal changes, and only one the checks on
    the way read (``checked``: the method's name -> the positions of the
    parameters they read); the rest is the test's."""
    body = str(t.get("body") or "")
    for m in _BUILT.finditer(body):
        name = m.group(2)
        if name not in reaching:
            continue
        # the chain's last call is the one that fails (`.route(a, h).route(a, h)`)
        calls = list(_chain_spans(body, m.end(), name))
        if not calls:
            continue
        start, args = calls[-1]
        parts = split_args(args)
        for i, arg in enumerate(parts):
            if not _STRING.fullmatch(arg) or i not in checked.get(name, ()):
                continue
            got = _literal_elsewhere(_built_type(m.group(1)), name, i, arg, t, ix)
            if got is None:
                continue
            path, line, literal = got
            head = body[m.start() : start]
            before = f"{head}{args})"
            after = f"{head}{', '.join([*parts[:i], literal, *parts[i + 1 :]])})"
            return {
                "path": path,
                "line": line,
                "callee": name,
                "before": _one_line(before),
                "after": _one_line(after),
                "literal": literal,
                "test": t["test"],
                "test_path": t["path"],
                "test_line": t["line"],
            }
    return None


def _one_line(code: str) -> str:
    """A chain of calls written on several lines, on one."""
    return re.sub(r"\s+\.", ".", " ".join(code.split()))


def _chain_spans(text: str, end: int, name: str) -> Iterator[tuple[int, str]]:
    """(where its arguments start, their text) of each call of ``name`` in a
    chain whose first call's ``(`` ends at ``end``."""
    more = re.compile(rf"\s*\.\s*{re.escape(name)}\s*\(")
    while True:
        args = _args_at(text, end)
        if args is None:
            return
        yield end, args
        nxt = more.match(text, end + len(args) + 1)
        if nxt is None:
            return
        end = nxt.end()


def _args_at(text: str, start: int) -> str | None:
    """The argument text of a call whose ``(`` ends just before ``start``."""
    end, closed = _past_close(text, start)
    return text[start : end - 1] if closed else None


def _past_close(text: str, start: int, chars: bool = False) -> tuple[int, bool]:
    """Where the bracket opened just before ``start`` closes: the index just
    past it, and whether it closes at all (else the end of ``text``).
    Brackets inside a ``"…"`` string do not count; with ``chars``, nor inside
    a ``'…'`` one (a Rust lifetime ``'a`` opens none)."""
    depth, quote, i = 1, "", start
    while i < len(text) and depth:
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c == '"' or (chars and c == "'" and not _lifetime(text, i)):
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        i += 1
    return i, depth == 0


def _built_type(builder: str) -> str:
    """The type a builder is made of: ``Router`` of ``Router::<()>::new()``."""
    return re.sub(r"::<[^()]*>", "", builder).rsplit("::", 1)[0]


def _chain_args(text: str, built: str, name: str) -> Iterator[str]:
    """The arguments of each call of the method ``name`` made right on a
    builder of the type ``built`` (``Router::new().route(a, …).route(b, …)``):
    a value set up otherwise first (``.without_v07_checks()``) may take what
    a new one does not."""
    for m in _BUILT.finditer(text):
        if _built_type(m.group(1)) != built or m.group(2) != name:
            continue
        for _, args in _chain_spans(text, m.end(), name):
            yield args


def _literal_elsewhere(
    built: str, name: str, at: int, failing: str, t: Fact, ix: Index
) -> tuple[str, int, str] | None:
    """(path, line, literal) of the string literal most like ``failing``
    that a test passes as argument ``at`` of a method ``name`` called on a
    new builder of the type ``built``, on a line where no error is expected."""
    errorish = _errorish_lines(ix)
    best: tuple[tuple[float, bool, int], str, int, str] | None = None
    for path, caller, line, text in ix.call_texts.get(name)[:_MAX_LOOK]:
        f = ix.function(path, caller)
        if f is None or not f.in_test or ix.expecting(path, line) or (path, line) in errorish:
            continue
        for args in _chain_args(text, built, name):
            parts = split_args(args)
            if len(parts) <= at or not _STRING.fullmatch(parts[at]) or parts[at] == failing:
                continue
            like = SequenceMatcher(None, parts[at], failing).ratio()
            rank = (-round(like, 2), path != t["path"], abs(line - int(t["line"])))
            if best is None or rank < best[0]:
                best = (rank, path, line, parts[at])
    return best[1:] if best is not None else None


def _turbofish(text: str) -> str:
    """The ``::<…>`` a call's callee is written with (``""`` for none)."""
    m = re.match(r"\s*(?:[A-Za-z_]\w*(?:::|\.))*[A-Za-z_]\w*\s*(::<[^()]*>)\s*\(", text)
    return re.sub(r"\s+", "", m.group(1)) if m else ""


def _with_turbofish(body: str, callee: str, args: str, failing: str) -> str:
    """``failing`` with the ``::<…>`` the body writes its callee with.

    >>> _with_turbofish('ron::from_str::<f64>("1.0e1")', "ron::from_str", '"1.0e1"',
    ...                 'ron::from_str("1.0e1")')
    'ron::from_str::<f64>("1.0e1")'
    """
    m = re.search(rf"(?<![\w:]){re.escape(callee)}\s*(::<[^()]*>)\s*\({re.escape(args)}\)", body)
    if m is None:
        return failing
    fish = re.sub(r"\s+", "", m.group(1))
    return f"{callee}{fish}({args})"


def _successful(
    callee: str, failing: str, t: Fact, ix: Index
) -> tuple[str, int, str, Helper | None] | None:
    """(path, line, call text, the helper it went through) of a call of
    ``callee`` with other literal arguments, made by a test outside any
    expectation of an error."""
    name = callee.rsplit("::", 1)[-1].rsplit(".", 1)[-1]
    failed_args = calls_in(failing)[0][1] if calls_in(failing) else ""
    # a generic call's type: the call that works asks for the same one
    fish = _turbofish(failing)
    errorish = _errorish_lines(ix)
    modules = _module_names(ix)
    failed_keywords = keywords(failed_args)
    found: list[tuple[tuple[int, float, bool, bool, int], str, int, str, Helper | None]] = []

    def consider(path: str, caller: str, line: int, text: str, via: Helper | None) -> None:
        got = calls_in(text)
        if not got or got[0][0] != callee or not literal_args(got[0][1], modules, empty=True):
            return
        if got[0][1].replace(" ", "") == failed_args.replace(" ", ""):
            return
        if _turbofish(text) != fish:
            # `ron::from_str::<u8>("0b2")` is not fixed by `ron::from_str("1.0")`,
            # which a test makes for an `f64`, nor by a call for `Range<f32>`
            return
        f = ix.function(path, caller)
        if f is None or not f.in_test or ix.expecting(path, line) or (path, line) in errorish:
            return
        # the nearest: the same file, the input most like the failing one
        # (the smallest change to make), the same test, the closest line
        like = SequenceMatcher(None, got[0][1], failed_args).ratio()
        kept = len(failed_keywords & keywords(got[0][1]))
        rank = (
            -kept,
            -round(like, 1),
            path != t["path"],
            caller != t["test"],
            abs(line - int(t["line"])),
        )
        found.append((rank, path, line, text, via))

    for path, caller, line, text in _likeliest(ix.call_texts.get(name), callee, t["path"]):
        consider(path, caller, line, text, None)
    # the same call through a helper that does not expect an error (`version("1.2.3")`)
    for h in _helpers_calling(name, ix):
        for path, caller, line, text in ix.call_texts.get(h.name)[:_MAX_LOOK]:
            got = calls_in(text)
            if not got or got[0][0] != h.name or not literal_args(got[0][1], modules):
                continue
            inlined = _inline(h, got[0][1], ix)
            if inlined is not None and inlined[0] == callee:
                consider(path, caller, line, inlined[1], h)
    if not found:
        return None
    _, path, line, text, via = min(found, key=lambda x: x[0])
    return path, line, text, via


def _likeliest(
    calls: tuple[tuple[str, str, int, str], ...], callee: str, path: str
) -> list[tuple[str, str, int, str]]:
    """At most ``_MAX_LOOK`` of a name's calls, those written with the
    callee's path first (``escape::unescape("&#48;")``, not one of the
    hundreds of ``event.unescape()``), then those in the test's own file."""
    if len(calls) <= _MAX_LOOK:
        return list(calls)
    by_path = [c for c in calls if c[3].lstrip().startswith(callee)]
    near = sorted(by_path, key=lambda c: c[0] != path)
    rest = [c for c in calls if not c[3].lstrip().startswith(callee) and c[0] == path]
    return (near + rest)[:_MAX_LOOK]


#: per Index: lines where an error is taken, helpers by callee
_CACHE: weakref.WeakKeyDictionary[
    Index, tuple[frozenset[tuple[str, int]], dict[str, list[Helper]]]
] = weakref.WeakKeyDictionary()


def _cached(ix: Index) -> tuple[frozenset[tuple[str, int]], dict[str, list[Helper]]]:
    got = _CACHE.get(ix)
    if got is None:
        lines = frozenset(
            (path, line) for name in _ERRORISH for path, _, line, _ in ix.call_texts.get(name)
        )
        calling: dict[str, list[Helper]] = {}
        for helpers in ix.helpers.values():
            for h in helpers:
                if not _errorish(h):
                    for callee in dict.fromkeys(c for c, _ in h.calls):
                        calling.setdefault(callee, []).append(h)
        got = _CACHE[ix] = (lines, calling)
    return got


def _module_names(ix: Index) -> frozenset[str]:
    """The names the repository's Python modules and packages are imported
    by (``fields`` for ``src/marshmallow/fields.py``, ``marshmallow``)."""
    got = _MODULES.get(ix)
    if got is None:
        names: set[str] = set()
        for path in ix.paths:
            if path.endswith(".py"):
                parts = path[:-3].split("/")
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                names.update(p for p in parts[-2:] if p.isidentifier())
        got = _MODULES[ix] = frozenset(names)
    return got


_MODULES: weakref.WeakKeyDictionary[Index, frozenset[str]] = weakref.WeakKeyDictionary()


def keywords(args: str) -> set[str]:
    """The names of a call's keyword arguments (``validate`` of ``validate=f``)."""
    return {m.group(1) for a in split_args(args) if (m := re.match(r"([A-Za-z_]\w*)\s*=[^=]", a))}


def call_keywords(call: str) -> set[str]:
    """``keywords`` of a whole call as written (``SSEvent(retry=1)``: retry)."""
    got = calls_in(call)
    return keywords(got[0][1]) if got else set()


def _errorish_lines(ix: Index) -> frozenset[tuple[str, int]]:
    """The lines where a call's error is taken (``….unwrap_err()``)."""
    return _cached(ix)[0]


def _helpers_calling(name: str, ix: Index) -> list[Helper]:
    """The test helpers that call ``name`` and expect no error."""
    return _cached(ix)[1].get(name, [])


def swapped_keyword(t: Fact, ix: Index, reaching: frozenset[str], checked: set[str]) -> Fact | None:
    """For a reproducing test whose failing call passes a keyword argument
    the checks on the way read, with a literal (falcon's
    ``SSEvent(retry='5808.25')``): the same call with, for that keyword,
    the literal another test passes it in a call of the same function
    outside any expectation of an error (``SSEvent(json=…, retry=100)``:
    ``SSEvent(retry=100)``). Only that value changes; the rest is the test's."""
    body = str(t.get("body") or "")
    for callee, args in calls_in(_without_expected(body), last=True):
        name = _last_name(callee)
        if name not in reaching or not literal_args(args):
            continue
        parts = split_args(args)
        for i, arg in enumerate(parts):
            kw = re.match(r"([A-Za-z_]\w*)\s*=(?!=)\s*(.*)", arg, re.S)
            if kw is None or kw.group(1) not in checked:
                continue
            got = _keyword_elsewhere(name, kw.group(1), kw.group(2).strip(), t, ix)
            if got is None:
                continue
            path, line, literal = got
            swapped = [*parts[:i], f"{kw.group(1)}={literal}", *parts[i + 1 :]]
            return {
                "path": path,
                "line": line,
                "callee": callee,
                "before": f"{callee}({args})",
                "after": f"{callee}({', '.join(swapped)})",
                "literal": f"`{kw.group(1)}={literal}`",
                "swapped": kw.group(1),
                "test": t["test"],
                "test_path": t["path"],
                "test_line": t["line"],
            }
    return None


def _keyword_elsewhere(
    name: str, keyword: str, failing: str, t: Fact, ix: Index
) -> tuple[str, int, str] | None:
    """(path, line, literal) of the literal a test passes as ``keyword`` in
    a call of ``name``, on a line where no error is expected: the same file
    first, then the nearest line."""
    errorish = _errorish_lines(ix)
    best: tuple[tuple[bool, int], str, int, str] | None = None
    for path, caller, line, text in ix.call_texts.get(name)[:_MAX_LOOK]:
        f = ix.function(path, caller)
        if f is None or not f.in_test or ix.expecting(path, line) or (path, line) in errorish:
            continue
        for callee, args in calls_in(text):
            if _last_name(callee) != name:
                continue
            for arg in split_args(args):
                kw = re.match(rf"{re.escape(keyword)}\s*=(?!=)\s*(.*)", arg, re.S)
                if kw is None:
                    continue
                value = kw.group(1).strip()
                if value == failing or not _LITERAL.fullmatch(value):
                    continue
                rank = (path != t["path"], abs(line - int(t["line"])))
                if best is None or rank < best[0]:
                    best = (rank, path, line, value)
    return best[1:] if best is not None else None
