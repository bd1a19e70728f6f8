"""What a page shows of JavaScript and TypeScript code (pure): whether code
parses, the names in it, what a site does, the example fix (the repository's
own failing call, called only when what the site checks holds), the
``try``/``catch`` defence, and what a ``process.env.NODE_ENV`` guard means.
Each reads the page's writer (``analysis.fixes.Fixes``)."""

from __future__ import annotations

import re
import textwrap
from functools import cache
from typing import Any

from tree_sitter import Node, Parser

from errordex import grammars
from errordex.analysis.fixes import Fixes
from errordex.analysis.sections import Fact, code_block, ev, section
from errordex.languages.javascript.msg import text
from errordex.languages.javascript.words import JS_WORDS
from errordex.runtime import title

_IDENTS = frozenset(
    {"identifier", "property_identifier", "type_identifier", "shorthand_property_identifier"}
)
#: what a guard that reads the build's mode says
_NODE_ENV = "process.env.NODE_ENV"


@cache
def _parser(language: str) -> Parser:
    return grammars.parser(language)


def _root(code: str, language: str) -> Node:
    return _parser(language).parse(code.encode("utf-8", "surrogatepass")).root_node


def _parses(code: str, language: str) -> bool:
    return not _root(code, language).has_error


def _identifiers(code: str, language: str) -> set[str]:
    out: set[str] = set()
    stack = [_root(code, language)]
    while stack:
        n = stack.pop()
        if n.type in _IDENTS:
            out.add(text(n))
        stack.extend(n.children)
    return out


def parses_js(code: str) -> bool:
    return _parses(code, "javascript")


def parses_ts(code: str) -> bool:
    return _parses(code, "typescript")


def parses_tsx(code: str) -> bool:
    return _parses(code, "tsx")


def identifiers_js(code: str) -> set[str]:
    return _identifiers(code, "javascript")


def identifiers_ts(code: str) -> set[str]:
    return _identifiers(code, "typescript")


def identifiers_tsx(code: str) -> set[str]:
    return _identifiers(code, "tsx")


_TYPEOF = re.compile(r"^\s*typeof\s+[\w$.\[\]]+\s*(===?|!==?)\s*(['\"])(\w+)\2\s*$")
_KINDS = {
    "function": "a function",
    "string": "a string",
    "number": "a number",
    "boolean": "a boolean",
    "object": "an object",
    "bigint": "a bigint",
    "symbol": "a symbol",
}


def type_required(condition: str, when_false: bool) -> str | None:
    """The kind of value a ``typeof`` check requires: a throw under
    ``typeof handle !== 'function'`` wants a function.

        >>> type_required("typeof handle !== 'function'", False)
        'a function'
        >>> type_required('typeof fn === "string"', True)
        'a string'
    """
    m = _TYPEOF.match(condition)
    if m is None:
        return None
    negated = m.group(1).startswith("!")
    # the site fires when the value is not of the kind: `!==` taken, or `===` false
    return _KINDS.get(m.group(3)) if negated != when_false else None


def catch_clause(catch: Fact) -> str:
    """``catch (err) { if (err instanceof PortError) … }``, as the scan wrote it."""
    return str(catch.get("text") or f"catch (err) {{ if (err instanceof {catch['exception']}) … }}")


def what(w: Fixes) -> str:
    """What the lead site does, for the summary."""
    exc = w.lead.exception_type or (w.e.exception_types[0] if w.e.exception_types else None)
    named = f" `{exc}`" if exc else ""
    if w.lead.kind == "reject":
        return f"returns a promise rejected with{named or ' this error'}"
    if w.lead.kind == "assert":
        return f"fails an `assert` ({exc or 'AssertionError'})" if exc else "fails an `assert`"
    if w.lead.kind == "new-error":
        return f"builds{named or ' this error'} and hands it on (to a callback or a promise)"
    return f"throws{named}" if exc else "throws"


def notes(w: Fixes) -> list[tuple[str, list[str]]]:
    """A site under a ``process.env.NODE_ENV`` check runs only in some builds."""
    out: list[tuple[str, list[str]]] = []
    for g in w.lead.guards:
        if _NODE_ENV not in g.text:
            continue
        holds = "is false" if g.kind in ("else", "assert") else "holds"
        out.append(
            (
                f"It is checked only when `{g.text}` {holds} ({w.lead.path}:{g.line}): "
                "what the build sets `NODE_ENV` to decides whether it is thrown at all.",
                [f"{w.lead.path}:{g.line}"],
            )
        )
        break
    return out


def _one_call(body: str, language: str) -> Node | None:
    """The call of a test body that is one call statement (``parse(42);``)."""
    root = _root(body, language)
    if root.has_error or len(root.named_children) != 1:
        return None
    stmt = root.named_children[0]
    if stmt.type != "expression_statement" or not stmt.named_children:
        return None
    e = stmt.named_children[0]
    while e.type == "await_expression" and e.named_children:
        e = e.named_children[0]
    return e if e.type in ("call_expression", "new_expression") else None


def _bound(call: Node, params: list[str]) -> dict[str, str] | None:
    """Each parameter's argument text in ``call``; None past a spread."""
    args = call.child_by_field_name("arguments")
    out: dict[str, str] = {}
    for p, a in zip(params, args.named_children if args is not None else (), strict=False):
        if a.type == "spread_element" or p.startswith("..."):
            return None
        out[p] = text(a)
    return out


def _substitute(cond: str, values: dict[str, str], language: str) -> str | None:
    """``cond`` with each parameter read as the argument given for it."""
    root = _root(f"({cond});", language)
    if root.has_error:
        return None
    src = f"({cond});".encode()
    edits: list[tuple[int, int, str]] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "identifier" and text(n) in values:
            v = values[text(n)]
            simple = v.replace("_", "").replace(".", "").isalnum() or v[:1] in "'\"`"
            edits.append((n.start_byte, n.end_byte, v if simple else f"({v})"))
        stack.extend(n.children)
    for a, b, v in sorted(edits, reverse=True):
        src = src[:a] + v.encode() + src[b:]
    return src.decode()[1:-2]


def example_fix(w: Fixes) -> dict[str, Any] | None:
    lang = w.lang
    fn = w.fn
    if fn is None or not fn["public"] or w.cond is None:
        return None
    t = next(
        (
            t
            for t in w.tests
            if t.get("body")
            and t.get("matched_by") == "message"
            and w.catches_this(t.get("exception"))
            and w.specific(t)
            and _one_call(t["body"], lang) is not None
        ),
        None,
    )
    if t is None:
        return None
    call = _one_call(t["body"], lang)
    assert call is not None
    callee = call.child_by_field_name("function") or call.child_by_field_name("constructor")
    if callee is None or text(callee).rsplit(".", 1)[-1] != fn["name"]:
        return None
    ifs = list(
        {
            (g["line"], g["text"]): g
            for g in w.f["guards"]
            if g["site"] == w.where and g["kind"] in ("if", "else", "assert")
        }.values()
    )
    params = [p for p in fn.get("params", ())]
    values = _bound(call, params)
    if not ifs or values is None:
        return None
    names = set().union(*(_identifiers(g["text"], lang) for g in ifs))
    members = set().union(*(_members(g["text"], lang) for g in ifs))
    read = [p for p in params if p in names]
    if not read or any(n not in params and n not in JS_WORDS for n in names - members):
        return None
    holds_parts: list[str] = []
    for g in ifs:
        cond = _substitute(g["text"], values, lang)
        if cond is None:
            return None
        holds_parts.append(f"({cond})" if g["kind"] in ("else", "assert") else f"!({cond})")
    holds = " || ".join(holds_parts)
    exc = w.e.exception_types[0] if w.e.exception_types else "Error"
    said = f"{exc}: {title(w.e)}" if not w.e.template.dynamic else exc
    body = t["body"].rstrip()
    before = code_block(f"// before: throws {said}\n{body}", lang)
    after = code_block(
        "// after: call it only when what it checks holds for what you pass\n"
        f"if ({holds}) {{\n{textwrap.indent(body, '  ')}\n}}",
        lang,
    )
    if before is None or after is None:
        return None
    when = " and ".join(
        f"`{g['text']}` is false" if g["kind"] in ("else", "assert") else f"`{g['text']}`"
        for g in ifs
    )
    text_ = (
        f"The failing call is the repo's own test at {t['path']}:{t['body_line']} (“{t['test']}”). "
        f"`{fn['function']}` throws when {when} ({', '.join(ev(*ifs))}), so what you pass as "
        + ", ".join(f"`{p}`" for p in read)
        + " must keep that from holding."
    )
    evidence = [f"{t['path']}:{t['body_line']}", *ev(t), *ev(*ifs)]
    return section(text_, list(dict.fromkeys(evidence)), before=before, after=after)


def _members(code: str, language: str) -> set[str]:
    """The property names in ``code`` (``x.length``'s ``length``): the
    value's own, not names the caller must have."""
    out: set[str] = set()
    stack = [_root(code, language)]
    while stack:
        n = stack.pop()
        if n.type == "property_identifier":
            out.add(text(n))
        stack.extend(n.children)
    return out


def defences(w: Fixes, body_test: Fact | None) -> list[dict[str, Any]]:
    """Catch the error around the repository's failing call."""
    if not (w.e.exception_types and body_test) or w.lead.kind == "new-error":
        return []
    exc = w.e.exception_types[0].rsplit(".", 1)[-1]
    if exc not in JS_WORDS and exc not in w.known_classes(exc):
        return []
    body = textwrap.indent(body_test["body"].rstrip(), "  ")
    code = (
        f"try {{\n{body}\n}} catch (err) {{\n"
        f"  if (!(err instanceof {exc})) throw err;\n"
        "  // handle it: the input was refused\n}"
    )
    block = code_block(code, w.lang)
    if block is None:
        return []
    return [
        section(
            f"Catch `{exc}` around the call (the test “{body_test['test']}” shows the failing call), "
            "and re-throw any other error.",
            ev(body_test),
            strategy="catch",
            title=f"Catch {exc}",
            **block,
        )
    ]
