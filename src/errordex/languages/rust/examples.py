"""Example Rust code built from real code: a call's arguments, the patterns
a ``match`` handles, a call guarded by what the callee asserts (pure).
Nothing here makes up a name.

    >>> handled_patterns(["Kind::Float(x)", "Kind::Int(_)"])
    'Kind::Float(..) | Kind::Int(..)'
"""

from __future__ import annotations

import re

from tree_sitter import Node

from errordex.languages.rust import scan as scan_rust

_BINDINGS = re.compile(r"\(([^()]*)\)")
_STRUCT_FIELDS = re.compile(r"\{[^{}]*\}")
_SIMPLE_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::)[A-Za-z_][A-Za-z0-9_]*)*")


def handled_patterns(handled: list[str]) -> str | None:
    """The handled arms as one ``matches!`` pattern, bindings replaced by ``..``
    (None when an arm has a guard or a binding we cannot drop)."""
    out: list[str] = []
    for pat in handled:
        if " if " in pat or "@" in pat:
            return None
        p = _BINDINGS.sub(lambda m: "(..)" if _droppable(m.group(1)) else m.group(0), pat)
        p = _STRUCT_FIELDS.sub(
            lambda m: "{ .. }" if _droppable_fields(m.group(0)) else m.group(0), p
        )
        out.append(p)
    code = " | ".join(dict.fromkeys(out))
    return code if out and scan_rust.parses(f"matches!(x, {code});") else None


_VARIANT = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*::)*[A-Z][A-Za-z0-9_]*(?:\s*[({].*[)}])?", re.S)


def variant_patterns(handled: list[str]) -> bool:
    """Whether every handled arm is an enum variant (``Kind::Float(_)``, ``None``):
    such a pattern also matches a reference to the value, unlike a literal
    (``"x"`` does not match a ``&String``)."""
    return bool(handled) and all(
        _VARIANT.fullmatch(alt.strip()) for p in handled for alt in p.split("|")
    )


def _droppable(inner: str) -> bool:
    # Names, `_`, `ref`/`mut` names: bindings only, no literal to keep.
    parts = [p.strip() for p in inner.split(",") if p.strip()]
    return all(re.fullmatch(r"(?:ref\s+)?(?:mut\s+)?[a-z_][A-Za-z0-9_]*|\.\.", p) for p in parts)


def _droppable_fields(block: str) -> bool:
    parts = [p.strip() for p in block.strip("{} ").split(",") if p.strip()]
    return all(re.fullmatch(r"(?:ref\s+)?(?:mut\s+)?[a-z_][A-Za-z0-9_]*|\.\.", p) for p in parts)


def rust_call(text: str) -> tuple[str | None, list[str]] | None:
    """(receiver of a method call or None, argument texts) of a call expression."""
    root = scan_rust._parser().parse(("fn __errordex() {\n" + text + "\n}").encode()).root_node
    if root.has_error:
        return None
    call = _first_of(root, "call_expression")
    if call is None:
        return None
    src = text.encode()
    off = len(b"fn __errordex() {\n")

    def t(n: Node) -> str:
        return src[n.start_byte - off : n.end_byte - off].decode("utf-8", "replace")

    if t(call) != text.strip():
        return None
    fn = call.child_by_field_name("function")
    args = call.child_by_field_name("arguments")
    if fn is None or args is None:
        return None
    receiver = None
    if fn.type == "field_expression":
        value = fn.child_by_field_name("value")
        receiver = t(value) if value is not None else None
    return receiver, [t(a) for a in args.named_children if a.type not in _COMMENTS]


_COMMENTS = ("line_comment", "block_comment")


def _first_of(root: Node, kind: str) -> Node | None:
    stack = [root]
    while stack:
        n = stack.pop(0)
        if n.type == kind:
            return n
        stack.extend(n.children)
    return None


def scrutinee_at_call(scrutinee: str, params: list[str], call_text: str) -> str | None:
    """The expression, at the call site, that the callee's ``match`` looks at:
    ``kind`` (param 0) called as ``f(&tensor.kind)`` is ``&tensor.kind``.
    Only a parameter, or a field path of one, is followed."""
    got = rust_call(call_text)
    if got is None:
        return None
    receiver, args = got
    value = scrutinee.strip()
    deref = ""
    while value[:1] in ("*", "&"):
        deref, value = deref + value[0], value[1:].strip()
    if not _SIMPLE_PATH.fullmatch(value):
        return None
    root, _, rest = value.partition(".")
    if root not in params:
        return None
    i = params.index(root)
    if params and params[0] == "self":
        if receiver is None:
            return None  # called as `Type::f(x, ..)`: argument positions shift; leave it
        arg = receiver if i == 0 else (args[i - 1] if i - 1 < len(args) else None)
    else:
        arg = args[i] if i < len(args) and receiver is None else None
    if arg is None or not re.fullmatch(r"&?(?:mut\s+)?" + _SIMPLE_PATH.pattern, arg.strip()):
        return None  # only a place (a path, or a reference to one) is the same value
    if not rest:
        return f"{deref}{arg}" if not deref else None
    base = arg[1:].strip() if arg.startswith("&") and not arg.startswith("&&") else arg
    if not _SIMPLE_PATH.fullmatch(base) or deref:
        return None
    return f"{base}.{rest}"


def expect_receiver(text: str) -> str | None:
    """``parse(s).expect("msg")`` -> ``parse(s)`` (also ``.unwrap()``)."""
    got = rust_call(text)
    if got is None or got[0] is None:
        return None
    m = re.search(r"\.\s*(expect|unwrap)\s*\(", text)
    return got[0] if m else None


_IDENT = re.compile(r"(?<![\w.:])(?:r#)?([A-Za-z_][A-Za-z0-9_]*)\b(?!\s*(?:::|!|\())")
_RUST_LITERAL = re.compile(
    r"-?\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?(?:_?[iuf](?:8|16|32|64|128|size))?"
    r"|'(?:[^'\\]|\\.)+'|true|false"
)
_KEYWORDS = frozenset({"true", "false", "as", "usize", "u8", "u16", "u32", "u64", "i32", "i64"})


def guard_rust_call(
    body: str, name: str, params: list[str], condition: str
) -> tuple[str, str] | None:
    """``body`` (a test's statements) with its one call to ``name`` wrapped in
    ``if <condition> { ... }``, the condition written in the call's arguments:
    ``at <= self.len()`` for ``hello.split_to(33)`` is ``33 <= hello.len()``.
    Returns (that condition, the new body), or None when the condition uses
    anything but the parameters, or the call is not one plain statement."""
    if '"' in condition or "'" in condition:
        return None
    prefix = "fn __errordex() {\n"
    src = (prefix + body + "\n}").encode()
    root = scan_rust._parser().parse(src).root_node
    if root.has_error:
        return None
    calls = [c for c in _all_of(root, "call_expression") if _called_name(c, src) == name]
    if len(calls) != 1:
        return None
    call = calls[0]
    stmt = call
    while stmt.parent is not None and stmt.parent.type != "block":
        stmt = stmt.parent
    if stmt.type not in ("expression_statement", "let_declaration"):
        return None
    pattern = stmt.child_by_field_name("pattern") if stmt.type == "let_declaration" else None
    binds = stmt.type == "let_declaration" and (
        pattern is None or src[pattern.start_byte : pattern.end_byte] != b"_"
    )
    if binds and stmt.next_named_sibling is not None:
        return None  # the binding may be used below: an `if` would hide it
    text = src[call.start_byte : call.end_byte].decode("utf-8", "replace")
    got = rust_call(text)
    if got is None:
        return None
    receiver, args = got
    bound = _bind(params, receiver, args)
    if bound is None:
        return None
    check = _substitute(condition, bound)
    if check is None:
        return None
    lines = body.split("\n")
    first = stmt.start_point.row - 1
    last = stmt.end_point.row - 1
    indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
    wrapped = [f"{indent}if {check} {{", *("    " + ln for ln in lines[first : last + 1])]
    new = [*lines[:first], *wrapped, f"{indent}}}", *lines[last + 1 :]]
    out = "\n".join(new)
    return (check, out) if scan_rust.parses(out) else None


def _all_of(root: Node, kind: str) -> list[Node]:
    out, stack = [], [root]
    while stack:
        n = stack.pop()
        if n.type == kind:
            out.append(n)
        stack.extend(n.children)
    return out


def _called_name(call: Node, src: bytes) -> str | None:
    fn = call.child_by_field_name("function")
    if fn is None:
        return None
    if fn.type == "field_expression":
        fn = fn.child_by_field_name("field")
    elif fn.type == "scoped_identifier":
        fn = fn.child_by_field_name("name")
    return src[fn.start_byte : fn.end_byte].decode() if fn is not None else None


def _bind(params: list[str], receiver: str | None, args: list[str]) -> dict[str, str] | None:
    """Each parameter's argument text, when every one is a place or a literal."""
    if params and params[0] == "self":
        values = [receiver, *args] if receiver is not None else list(args)
    elif receiver is None:
        values = list(args)
    else:
        return None
    if len(values) != len(params):
        return None
    out: dict[str, str] = {}
    for p, v in zip(params, values, strict=True):
        v = (v or "").strip()
        v = re.sub(r"^&(?:mut\s+)?", "", v)
        if not p or not (_SIMPLE_PATH.fullmatch(v) or _RUST_LITERAL.fullmatch(v)):
            return None
        out[p] = v
    return out


def _substitute(condition: str, bound: dict[str, str]) -> str | None:
    """``condition`` with each parameter name replaced by its argument; None
    when it names anything else (a local of the callee, a constant)."""
    ok = True

    def swap(m: re.Match[str]) -> str:
        nonlocal ok
        word = m.group(1)
        if word in bound:
            return bound[word]
        if word not in _KEYWORDS:
            ok = False
        return m.group(0)

    out = _IDENT.sub(swap, condition)
    return out if ok else None
