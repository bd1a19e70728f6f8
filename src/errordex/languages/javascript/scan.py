"""What a JavaScript or TypeScript file proves to the analysis (pure): its
functions (with their JSDoc ``@throws`` and summary), the calls between
them, the tests that expect an error (jest/vitest ``expect(...).toThrow``,
node's ``assert.throws``/``rejects``, ava's ``t.throws``, chai's
``.to.throw``) and the names it holds."""

from __future__ import annotations

import re

from tree_sitter import Node, Tree

from errordex import grammars
from errordex.analysis.evidence import Call, Catch, DocLine, FileEvidence, FuncDef, TestExpect
from errordex.extract.common import decode_all, is_test_path
from errordex.languages.javascript import extract, msg
from errordex.languages.javascript.msg import text
from errordex.languages.javascript.names import (
    FUNCTIONS,
    class_name,
    function_name,
    innermost,
    loop_name,
    params,
    symbol_of,
)

_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_WORD = re.compile(r"[A-Za-z_]\w*")
_NAME_BYTES = re.compile(rb"[A-Za-z_$][A-Za-z0-9_$]*")
# each starts with its literal text, which the regex engine looks for first
_EXPORTED = (
    re.compile(r"exports\.([A-Za-z_$][\w$]*)\s*="),
    re.compile(r"module\.exports\s*=\s*([A-Za-z_$][\w$]*)\s*;?[ \t]*$", re.M),
    re.compile(r"export\s+default\s+([A-Za-z_$][\w$]*)\s*;?[ \t]*$", re.M),
)
_EXPORT_LISTS = (
    re.compile(r"module\.exports\s*=\s*\{([^}]{0,4000})\}"),
    re.compile(r"export\s*\{([^}]{0,4000})\}"),
)
#: a call that holds one test: ``it('rejects bad input', () => ...)``
_TEST_CALLS = frozenset({"it", "test", "specify"})
#: the matchers that expect a throw, and node's assert functions that do
_THROW_MATCHERS = frozenset({"toThrow", "toThrowError", "throw", "throws", "rejectedWith"})
_ASSERT_THROWS = frozenset({"throws", "rejects", "throwsAsync"})
#: a test body longer than this is not shown
MAX_BODY = 600
MAX_CALL_TEXT = 160


def _exported_names(source: str) -> set[str]:
    out: set[str] = set()
    if "export" not in source:
        return out
    for rx in _EXPORTED:
        out.update(rx.findall(source))
    for rx in _EXPORT_LISTS:
        for body in rx.findall(source):
            for item in body.split(","):
                name = item.strip().split(":", 1)[0].split(" as ", 1)[0].strip()
                if _NAME.fullmatch(name):
                    out.add(name)
    return out


def _statement(node: Node) -> Node:
    """The statement a function is written in (its JSDoc sits above it)."""
    n = node
    while n.parent is not None and n.parent.type in (
        "variable_declarator",
        "lexical_declaration",
        "variable_declaration",
        "export_statement",
        "assignment_expression",
        "expression_statement",
        "pair",
    ):
        n = n.parent
    return n


def _jsdoc(node: Node) -> tuple[DocLine, ...]:
    """The summary line and ``@throws`` lines of the ``/** ... */`` above ``node``."""
    prev = _statement(node).prev_named_sibling
    if prev is None or prev.type != "comment":
        return ()
    body = text(prev)
    if not body.startswith("/**"):
        return ()
    start = prev.start_point[0] + 1
    out: list[DocLine] = []
    summary_done = False
    for k, raw in enumerate(body.splitlines()):
        line = raw.strip().removeprefix("/**").removesuffix("*/").strip().lstrip("*").strip()
        if not line:
            if out:
                summary_done = True
            continue
        if line.startswith("@"):
            summary_done = True
            tag, _, rest = line.partition(" ")
            if tag in ("@throws", "@exception") and rest.strip():
                out.append(DocLine("Raises", rest.strip(), start + k))
            continue
        if not summary_done and not any(d.section == "Summary" for d in out):
            first = line.split(". ", 1)[0].rstrip(".")
            out.append(DocLine("Summary", first + ".", start + k))
            if ". " in line:
                summary_done = True
    return tuple(out)


def _private(node: Node, name: str) -> bool:
    if name.startswith(("_", "#")):
        return True
    return any(c.type == "accessibility_modifier" and text(c) != "public" for c in node.children)


def _function(
    node: Node, path: str, exported: set[str], in_test: bool, memo: dict[int, str | None]
) -> FuncDef | None:
    name, owner = function_name(node)
    if name is None:
        return None
    symbol = symbol_of(node, memo) or name
    method = node.type == "method_definition" or owner is not None
    stmt = _statement(node)
    public = not _private(node, name) and (
        method
        or name in exported
        or stmt.type == "export_statement"
        or (stmt.parent is not None and stmt.parent.type == "export_statement")
        or "." in symbol  # a method of an object or class
    )
    return FuncDef(
        name=name,
        symbol=symbol,
        path=path,
        line=node.start_point[0] + 1,
        end_line=node.end_point[0] + 1,
        public=public,
        in_test=in_test,
        docs=_jsdoc(node),
        params=params(node),
    )


def _callee(call: Node) -> str | None:
    fn = call.child_by_field_name("function")
    if fn is None:
        return None
    if fn.type == "identifier":
        return text(fn)
    if fn.type == "member_expression":
        prop = fn.child_by_field_name("property")
        obj = fn.child_by_field_name("object")
        if (
            obj is not None
            and obj.type == "subscript_expression"
            and prop is not None
            and text(prop) in ("apply", "call")
        ):
            # `route[method].apply(route, …)`: the method the loop names
            return loop_name(obj.child_by_field_name("index")) or text(prop)
        return text(prop) if prop is not None else None
    if fn.type == "subscript_expression":
        return loop_name(fn.child_by_field_name("index"))
    return None


def _test_title(node: Node) -> str | None:
    """The title of the ``it``/``test`` call ``node`` is in."""
    n = node.parent
    while n is not None:
        if n.type == "call_expression" and _callee(n) in _TEST_CALLS:
            args = n.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children else None
            title = msg.string_value(first) if first is not None else None
            if title:
                return " ".join(title.split())
        n = n.parent
    return None


def _body(fn: Node | None) -> tuple[str, int, tuple[str, ...]]:
    """The code a thrower runs (an arrow's body, a function's statements), its
    line, and the names it calls."""
    if fn is None:
        return "", 0, ()
    body = fn.child_by_field_name("body") if fn.type in FUNCTIONS else fn
    if body is None:
        return "", 0, ()
    if body.type == "statement_block":
        stmts = body.named_children
        if not stmts:
            return "", 0, ()
        code = "\n".join(text(s) for s in stmts)
        line = stmts[0].start_point[0] + 1
    else:
        code = text(body)
        line = body.start_point[0] + 1
        if fn.type in FUNCTIONS and not code.rstrip().endswith(";"):
            code += ";"
    calls: list[str] = []
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "call_expression":
            got = _callee(n)
            if got is not None:
                calls.append(got)
        stack.extend(n.named_children)
    if len(code) > MAX_BODY:
        code = ""
    return code, line, tuple(dict.fromkeys(calls))


def _expected(arg: Node | None) -> tuple[str | None, str | None, bool]:
    """(exception, pattern, is_regex) an expectation's argument names."""
    if arg is None:
        return None, None, False
    if arg.type == "regex":
        source = arg.child_by_field_name("pattern")
        return None, text(source) if source is not None else None, True
    value = msg.string_value(arg)
    if value is not None:
        return None, value, False
    if arg.type in ("identifier", "member_expression"):
        return text(arg).rsplit(".", 1)[-1], None, False
    if arg.type == "object":
        exc: str | None = None
        pattern: str | None = None
        regex = False
        for pair in arg.named_children:
            if pair.type != "pair":
                continue
            key = text(pair.child_by_field_name("key") or pair).strip("'\"")
            value_node = pair.child_by_field_name("value")
            if value_node is None:
                continue
            if key == "message":
                _, pattern, regex = _expected(value_node)
            elif key == "name":
                exc = msg.string_value(value_node)
        return exc, pattern, regex
    return None, None, False


def _expectation(call: Node, path: str) -> TestExpect | None:
    """A test's expectation of a throw, from the call that states it."""
    fn = call.child_by_field_name("function")
    args_node = call.child_by_field_name("arguments")
    if fn is None or args_node is None or fn.type != "member_expression":
        return None
    prop = fn.child_by_field_name("property")
    obj = fn.child_by_field_name("object")
    if prop is None or obj is None:
        return None
    name = text(prop)
    args = [a for a in args_node.named_children if a.type != "comment"]
    thrower: Node | None = None
    kind = ""
    expected: tuple[str | None, str | None, bool] = (None, None, False)
    if name in _THROW_MATCHERS:
        # expect(fn).toThrow(x), expect(p).rejects.toThrow(x), expect(fn).to.throw(E, 'msg')
        n: Node | None = obj
        while n is not None and n.type == "member_expression":
            n = n.child_by_field_name("object")
        if n is None or n.type != "call_expression" or _callee(n) != "expect":
            return None
        inner = n.child_by_field_name("arguments")
        thrower = inner.named_children[0] if inner is not None and inner.named_children else None
        kind = "expect.toThrow" if name != "throw" else "expect.to.throw"
        if name == "throw" and len(args) >= 2:
            exc = _expected(args[0])[0]
            expected = (exc, *_expected(args[1])[1:])
        else:
            expected = _expected(args[0] if args else None)
    elif name in _ASSERT_THROWS and text(obj) in ("assert", "t", "assert.strict"):
        thrower = args[0] if args else None
        kind = f"{text(obj)}.{name}"
        second = args[1] if len(args) > 1 else None
        if second is not None and msg.string_value(second) is not None and text(obj) != "t":
            second = (
                None  # node's assert.throws(fn, 'text'): the text is the assertion's own message
            )
        expected = _expected(second)
    else:
        return None
    title = _test_title(call)
    if title is None:
        return None
    if thrower is not None and thrower.type in ("identifier", "member_expression"):
        code = f"{text(thrower)}();"
        body, line = code, thrower.start_point[0] + 1
        calls: tuple[str, ...] = (_callee_name(thrower),)
    else:
        body, line, calls = _body(thrower)
    exc, pattern, regex = expected
    return TestExpect(
        test=title,
        path=path,
        line=call.start_point[0] + 1,
        kind=kind,
        exception=exc,
        pattern=pattern,
        is_regex=regex,
        body=body,
        body_line=line or call.start_point[0] + 1,
        calls=calls,
    )


def _catches(clause: Node, path: str, memo: dict[int, str | None]) -> list[Catch]:
    """``catch (err) { if (err instanceof X) ... }``: the classes a ``catch``
    tells apart (JavaScript's ``catch`` names none itself)."""
    param = clause.child_by_field_name("parameter")
    body = clause.child_by_field_name("body")
    if param is None or body is None or param.type != "identifier":
        return []
    name = text(param)
    out: list[Catch] = []
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "binary_expression":
            op = n.child_by_field_name("operator")
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if (
                op is not None
                and op.type == "instanceof"
                and left is not None
                and right is not None
                and text(left) == name
            ):
                out.append(
                    Catch(
                        exception=text(right),
                        path=path,
                        line=n.start_point[0] + 1,
                        symbol=symbol_of(clause, memo) or "",
                        text=f"catch ({name}) {{ if ({name} instanceof {text(right)}) … }}",
                    )
                )
        elif n.type in FUNCTIONS:
            continue
        stack.extend(n.named_children)
    return out


def _callee_name(node: Node) -> str:
    return text(node).rsplit(".", 1)[-1]


def scan_as(language: str, path: str, source: str, tree: Tree | None = None) -> FileEvidence:
    if tree is None:
        tree = extract.parse_as(language, source)
    caps = grammars.captures(language, tree)
    in_test = is_test_path(path)
    exported = _exported_names(source)
    memo: dict[int, str | None] = {}
    functions = [
        f
        for f in (_function(n, path, exported, in_test, memo) for n in caps.get("js.function", ()))
        if f is not None
    ]
    calls: list[Call] = []
    tests: list[TestExpect] = []
    all_calls = caps.get("js.call", ())
    spans = [(n.start_byte, n.end_byte, symbol_of(n, memo)) for n in caps.get("js.function", ())]
    callers = innermost(spans, [c.start_byte for c in all_calls])
    for call, caller in zip(all_calls, callers, strict=True):
        callee = _callee(call)
        if callee is None:
            continue
        line = call.start_point[0] + 1
        one_line = call.start_point[0] == call.end_point[0]
        body = text(call) if one_line else ""
        calls.append(
            Call(
                callee=callee,
                caller=caller or "",
                line=line,
                text=body if len(body) <= MAX_CALL_TEXT else "",
            )
        )
        if callee in _THROW_MATCHERS or callee in _ASSERT_THROWS:
            got = _expectation(call, path)
            if got is not None:
                tests.append(got)
    functions.sort(key=lambda f: f.line)
    calls.sort(key=lambda c: c.line)
    tests.sort(key=lambda t: t.line)
    # `$ZodRegistry` as the name it is, and as the word a page's checker reads in it
    names = set(_NAME_BYTES.findall(source.encode("utf-8", "surrogatepass")))
    idents = set(decode_all(names))
    idents.update([w for n in idents if "$" in n for w in _WORD.findall(n)])
    class_docs = []
    for cls in caps.get("js.class", ()):
        name = class_name(cls)
        summary = next((d for d in _jsdoc(cls) if d.section == "Summary"), None)
        if name is not None and summary is not None:
            class_docs.append((name, summary))
    catches = [c for n in caps.get("js.catch", ()) for c in _catches(n, path, memo)]
    return FileEvidence(
        path=path,
        language=language,
        n_lines=source.count("\n") + 1,
        functions=tuple(functions),
        calls=tuple(calls),
        tests=tuple(tests),
        catches=tuple(sorted(catches, key=lambda c: c.line)),
        idents=frozenset(idents),
        class_docs=tuple(sorted(class_docs, key=lambda c: c[1].line)),
    )
