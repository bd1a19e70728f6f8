"""Python's example fix and defence on a page (pure): the repository's own
failing call, with what its raise requires; the call wrapped in a ``try``.
Each reads the page's writer (``analysis.fixes.Fixes``).
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

from errordex.analysis.fixes import Fixes
from errordex.analysis.lift import constant, expanded, modules_read
from errordex.analysis.sections import (
    CONDITION_KINDS,
    FIRES_WHEN_FALSE,
    Fact,
    code_block,
    ev,
    section,
    test_named,
)
from errordex.languages.python import examples as px
from errordex.languages.python import scan as scan_python
from errordex.languages.python.printed import KINDS
from errordex.languages.python.words import PY_WORDS
from errordex.runtime import title

#: what a site of a printed kind (``printed``) does, for a page's summary
_PRINTS = {
    "exit": "exits with this message (`sys.exit`)",
    "parser-error": "prints this usage error and exits (`error` of an argument parser)",
    "printed-error": "prints this error and exits",
    "logged-error": "logs this error and exits",
    "logged": "logs this error",
}


def what(w: Fixes) -> str:
    """What the site does, for a page's summary."""
    printed = _PRINTS.get(w.lead.kind)
    if printed is not None:
        return printed
    if not w.e.exception_types:
        # a category handed on through a helper's parameter is not known here
        return "warns" if w.lead.kind == "warning" else "raises"
    exc = w.e.exception_types[0]
    return f"warns with `{exc}`" if w.lead.kind == "warning" else f"raises `{exc}`"


def module_files(dotted: str) -> tuple[str, ...]:
    """The files that may define the module ``dotted`` (a package's
    ``__init__.py`` or a module's file, at the top or under ``src/``).

    >>> module_files("click")
    ('click/__init__.py', 'click.py', 'src/click/__init__.py', 'src/click.py')
    """
    path = dotted.replace(".", "/")
    return tuple(f"{r}{path}{end}" for r in ("", "src/") for end in ("/__init__.py", ".py"))


def _fixed_call(
    body: str, fn: Fact, holds: str
) -> tuple[Fact, str, list[str], dict[str, str]] | None:
    """The test's call of ``fn`` changed so that ``holds`` (what must be
    true for it not to raise): the argument given a value that makes it so
    (``matches_re("a", 0, re.fullmatch)``), else the call made only when it
    holds. (fn, holds, the parameters read, the "after" code block)"""
    params = list(fn.get("params", ()))
    attrs = set(re.findall(r"\.\s*([A-Za-z_]\w*)", holds))
    names = scan_python.identifiers(holds) - attrs - modules_read(holds, params)
    read = [p for p in params if p in names and p not in ("self", "cls")]
    if names & {"self", "cls"}:
        return None  # the library's own object: no name in the user's code
    # a module's public constant or class reads the same in the user's code;
    # its private one (`_names`) is not theirs to write
    if not read or any(
        n not in params and n not in PY_WORDS and (not constant(n) or n.startswith("_"))
        for n in names
    ):
        return None
    owner, _, name = str(fn["function"]).rpartition(".")
    if name == "__init__":  # `URL(…)` runs `URL.__init__`
        name, params = owner.rsplit(".", 1)[-1], params[1:]
    fixed = px.repair_python_call(body, name, params, holds)
    if fixed is not None:
        block = code_block(
            f"# after: {read[0]} given a value for which `{holds}`\n{fixed}", "python"
        )
        if block is not None:
            return fn, holds, read, block
    guarded = px.guard_python_call(body, name, params, read, holds)
    if guarded and re.search(r"^\s*(\w+) = \1\s*$", guarded, re.M):
        guarded = None  # `value = value`: the test's value is not written in it
    block = (
        code_block(f"# after: call it only when this holds for what you pass\n{guarded}", "python")
        if guarded
        else None
    )
    return (fn, holds, read, block) if block is not None else None


def _fails(body: str, fn: Fact, holds: str) -> bool:
    """Whether the test's call of ``fn`` passes a literal that makes
    ``holds`` false (``examples.fails_check``)."""
    params = list(fn.get("params", ()))
    owner, _, name = str(fn["function"]).rpartition(".")
    if name == "__init__":  # `URL(…)` runs `URL.__init__`
        name, params = owner.rsplit(".", 1)[-1], params[1:]
    return px.fails_check(body, name, params, holds)


def defences(w: Fixes, body_test: Fact | None) -> list[dict[str, Any]]:
    if not (w.e.exception_types and body_test) or w.lead.kind in KINDS:
        return []  # a warning or a printed error is not caught with ``except``
    exc = w.e.exception_types[0].rsplit(".", 1)[-1]
    body = textwrap.indent(body_test["body"], "    ")
    code = f"try:\n{body}\nexcept {exc}:\n    ..."
    block = code_block(code, "python")
    if not block or exc not in w.known_classes(exc):
        return []
    return [
        section(
            f"Catch `{exc}` around the call ({test_named(body_test)} shows the failing call).",
            ev(body_test),
            strategy="catch",
            title=f"Catch {exc}",
            **block,
        )
    ]


def documented_fix(w: Fixes) -> dict[str, Any] | None:
    """The docs' own pair: a ``>>>`` session that makes a call raising this
    error and the same call without it (attrs' ``C(42)`` and ``C(41)``)."""
    t = next(
        (
            t
            for t in w.tests
            if t.get("kind") == "doctest"
            and t.get("fixed")
            and t.get("matched_by") == "message"
            and w.specific(t)
            and w.catches_this(t.get("exception"))
        ),
        None,
    )
    if t is None:
        return None
    body = str(t["body"])
    failing = body.rsplit("\n", 1)[-1] if "\n" in body else body
    setup = body[: len(body) - len(failing)]
    exc = w.e.exception_types[0] if w.e.exception_types else None
    said = f"{exc}: {title(w.e)}" if exc and not w.e.template.dynamic else (exc or "")
    before = code_block(f"# before: raises {said}\n{body}".rstrip(), "python")
    after = code_block(
        f"# after: the same call as the docs make it without the error\n{setup}{t['fixed']}",
        "python",
    )
    if before is None or after is None:
        return None
    text = (
        f"The docs show both ({t['path']}:{t['line']} and {t['fixed_line']}): "
        f"`{failing.strip()}` raises it, and `{t['fixed'].strip()}` does not."
        if "\n" not in failing and "\n" not in t["fixed"]
        else f"The docs show both ({t['path']}:{t['line']} and {t['fixed_line']})."
    )
    evidence = [f"{t['path']}:{t['line']}", f"{t['path']}:{t['fixed_line']}"]
    if t["body_line"] != t["line"]:
        evidence.append(f"{t['path']}:{t['body_line']}")
    return section(text, evidence, before=before, after=after)


def example_fix(w: Fixes) -> dict[str, Any] | None:
    documented = documented_fix(w)
    if documented is not None:
        return documented
    usable = [
        t
        for t in w.tests
        if t.get("body") and w.catches_this(t.get("exception")) and px.single_python_call(t["body"])
    ]
    for t in usable:
        if (t.get("matched_by") == "message" and (w.specific(t) or t.get("sole"))) or (
            t.get("matched_by") == "exception type and call" and t.get("sole")
        ):
            return _fix_from(w, t)  # the first test that pins this error
    # a test whose expected text is a word of the message (`match="capture"`,
    # said of two errors) reproduces this one where its literal fails the
    # membership this raise checks (`capture="invalid"`, not in {"sys", "fd"})
    for t in usable:
        if t.get("matched_by") == "message" and "inputs" not in t:
            fix = _fix_from(w, t, proven_by_check=True)
            if fix is not None:
                return fix
    return None


def _fix_from(w: Fixes, t: Fact, proven_by_check: bool = False) -> dict[str, Any] | None:
    """The example fix from the reproducing test ``t``; with
    ``proven_by_check``, only where its literal fails the check of the raise."""
    exc = w.e.exception_types[0] if w.e.exception_types else None
    head = f"{exc}: " if exc else ""
    said = f"{head}{title(w.e)}" if not w.e.template.dynamic else (exc or "")
    before = code_block(f"# before: raises {said}\n{t['body']}".rstrip(), "python")
    if before is None:
        return None
    # A table row's input is on the row's line; the block that runs it at body_line.
    line = t["line"] if "inputs" in t else t["body_line"]
    text = f"The failing input is the repo's own case at {t['path']}:{line} ({test_named(t)})."
    c = w.cond
    # Every enclosing `if` must hold for the raise to run: it does not run
    # when any one of them is false (outermost first, as in the code).
    ifs = list(
        {
            (g["line"], g["text"]): g
            for g in w.f["guards"]
            if g["site"] == w.where and g["kind"] in CONDITION_KINDS and g["kind"] != "except"
        }.values()
    )  # an `if isinstance(...)` is listed as both kinds
    ifs = [{**g, "text": expanded(g)} for g in ifs]  # locals read as their values
    negated = [
        g["text"] if g["kind"] in FIRES_WHEN_FALSE else px.negate_python(g["text"]) for g in ifs
    ]
    parts = [f"({n})" if n and (" if " in n or "lambda" in n) else n for n in negated]
    holds = " or ".join(n for n in parts if n) if ifs and all(parts) else None
    fn = w.fn
    up = w.lifted_up()
    # the public calls the check reads in: the site's own function, or
    # those a private helper's one check was lifted to (the test may make
    # any one of them: `httpx.Request(data=…)` or `httpx.post(data=…)`)
    calls: list[tuple[Fact, str, list[Fact]]] = []
    if fn is not None and fn["public"] and holds is not None:
        calls.append((fn, holds, ifs))
    elif fn is not None and up is not None and len(ifs) == 1 and c is not None:
        for f in [up, *up.get("higher", ())]:
            lifted = str(f["text"])
            holding = lifted if c["kind"] in FIRES_WHEN_FALSE else px.negate_python(lifted)
            if holding is not None:
                one = {"function": f["function"], "params": f["params"], "public": True}
                calls.append((one, holding, [{**ifs[0], "text": lifted}]))
    made: tuple[tuple[Fact, str, list[str], dict[str, str]], list[Fact]] | None = None
    for f, said, conds in calls if c is not None else ():
        if proven_by_check and not _fails(t["body"], f, said):
            continue
        got = _fixed_call(t["body"], f, said)
        if got is not None:
            made = got, conds
            break
    if made is None:
        return None  # no condition in the call's own arguments: no fix to show
    (fn, holds, read, after), ifs = made
    evidence = [f"{t['path']}:{line}", *ev(t), f"{t['path']}:{t['body_line']}"]
    when = " and ".join(
        f"`{g['text']}` is false" if g["kind"] in FIRES_WHEN_FALSE else f"`{g['text']}`"
        for g in ifs
    )
    text += (
        f" `{fn['function']}` raises when {when} ({', '.join(ev(*ifs))}), so what you pass "
        f"as {', '.join(f'`{p}`' for p in read)} must make `{holds}` true."
    )
    return section(text, list(dict.fromkeys([*evidence, *ev(*ifs)])), before=before, after=after)
