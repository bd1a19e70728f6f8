"""Names in a JavaScript or TypeScript tree: what a function is called, the
qualified symbol around a node, and the parameters of a function (pure)."""

from __future__ import annotations

from tree_sitter import Node

from errordex.languages.javascript.msg import text

#: nodes that open a function (a site's ``symbol`` and a guard's boundary)
FUNCTIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "method_definition",
        "arrow_function",
        "function_expression",
        "function",
        "generator_function",
    }
)
CLASSES = frozenset({"class_declaration", "class", "abstract_class_declaration"})
#: how deep a symbol is looked for
MAX_UP = 200


def _key(node: Node | None) -> str | None:
    if node is None:
        return None
    if node.type in ("identifier", "property_identifier", "private_property_identifier"):
        return text(node)
    if node.type == "string":
        return text(node)[1:-1] or None
    if node.type == "type_identifier":
        return text(node)
    return None


def function_name(node: Node) -> tuple[str | None, str | None]:
    """(name, owner) of a function-like node: ``function f`` is ("f", None),
    ``Foo.prototype.bar = function`` ("bar", "Foo"), ``exports.x = () =>``
    ("x", None), an anonymous callback (None, None)."""
    own = _key(node.child_by_field_name("name"))
    if node.type == "method_definition" or (
        own is not None and node.type not in ("function_expression", "function")
    ):
        return own, None
    # `app.use = function use(fn)`: named by what it is assigned to, as it is called
    assigned = _assigned_name(node)
    if assigned != (None, None):
        return assigned
    return own, None


#: arrays a computed method name is looped over, by the module they come
#: from, with the name a page gives such a method: the npm ``methods``
#: package lists the HTTP methods (express's ``Route.prototype[method]``
#: for each), and a user most often calls ``get``
LOOP_MODULES = {"methods": "get"}


def loop_name(index: Node | None) -> str | None:
    """The method name a computed key stands for: ``method`` in
    ``methods.forEach(function (method) { Route.prototype[method] = … })``,
    where ``methods`` is an array literal (its first string) or a module
    ``LOOP_MODULES`` knows (``require('methods')``); None otherwise."""
    if index is None or index.type != "identifier":
        return None
    name = text(index)
    n = index.parent
    while n is not None and n.type not in ("program",):
        if n.type in ("function_expression", "arrow_function", "function"):
            params = n.child_by_field_name("parameters") or n.child_by_field_name("parameter")
            names = (
                [text(p) for p in params.named_children]
                if params is not None and params.type == "formal_parameters"
                else [text(params)]
                if params is not None
                else []
            )
            if name in names:
                return _looped(n, names.index(name))
        n = n.parent
    return None


def _looped(fn: Node, position: int) -> str | None:
    """The first value of the array whose ``forEach`` calls ``fn``."""
    args = fn.parent
    call = args.parent if args is not None and args.type == "arguments" else None
    callee = call.child_by_field_name("function") if call is not None else None
    if position != 0 or callee is None or callee.type != "member_expression":
        return None
    if _key(callee.child_by_field_name("property")) != "forEach":
        return None
    array = callee.child_by_field_name("object")
    if array is None:
        return None
    if array.type == "identifier":
        array = _bound_value(array)
    if array is None:
        return None
    if array.type == "array":
        first = next((e for e in array.named_children if e.type == "string"), None)
        return text(first)[1:-1] or None if first is not None else None
    if (
        array.type == "call_expression"
        and text(array.child_by_field_name("function") or array) == "require"
    ):
        got = array.child_by_field_name("arguments")
        module = got.named_children[0] if got is not None and got.named_children else None
        if module is not None and module.type == "string":
            return LOOP_MODULES.get(text(module)[1:-1])
    return None


def _bound_value(ident: Node) -> Node | None:
    """The value a module-level ``var``/``const`` gives ``ident``'s name."""
    root = ident
    while root.parent is not None:
        root = root.parent
    want = text(ident)
    for stmt in root.named_children:
        if stmt.type not in ("variable_declaration", "lexical_declaration"):
            continue
        for d in stmt.named_children:
            if d.type == "variable_declarator" and _key(d.child_by_field_name("name")) == want:
                return d.child_by_field_name("value")
    return None


def _assigned_name(node: Node) -> tuple[str | None, str | None]:
    parent = node.parent
    while parent is not None and parent.type in ("parenthesized_expression", "as_expression"):
        parent = parent.parent
    if parent is None:
        return None, None
    if parent.type == "variable_declarator":
        return _key(parent.child_by_field_name("name")), None
    if parent.type == "pair":
        return _key(parent.child_by_field_name("key")), None
    if parent.type in ("public_field_definition", "field_definition"):
        return _key(
            parent.child_by_field_name("name") or parent.child_by_field_name("property")
        ), None
    if parent.type == "assignment_expression":
        left = parent.child_by_field_name("left")
        if left is None:
            return None, None
        if left.type == "identifier":
            return text(left), None
        if left.type == "subscript_expression":
            # `Route.prototype[method] = function…` in `methods.forEach(…)`
            name = loop_name(left.child_by_field_name("index"))
            obj = left.child_by_field_name("object")
            if name is None or obj is None:
                return None, None
            if obj.type == "member_expression":
                inner = obj.child_by_field_name("object")
                if _key(obj.child_by_field_name("property")) == "prototype" and inner is not None:
                    return name, text(inner)
                return None, None
            return (name, text(obj)) if obj.type == "identifier" else (None, None)
        if left.type == "member_expression":
            prop = _key(left.child_by_field_name("property"))
            obj = left.child_by_field_name("object")
            owner = None
            if obj is not None and obj.type == "member_expression":
                inner = obj.child_by_field_name("object")
                if _key(obj.child_by_field_name("property")) == "prototype" and inner is not None:
                    owner = text(inner)
            elif (
                obj is not None
                and obj.type == "identifier"
                and text(obj)
                not in (
                    "exports",
                    "module",
                    "this",
                )
            ):
                owner = text(obj)
            return prop, owner
    return None, None


def class_name(node: Node) -> str | None:
    name = _key(node.child_by_field_name("name"))
    if name is not None:
        return name
    parent = node.parent
    if parent is not None and parent.type == "variable_declarator":
        return _key(parent.child_by_field_name("name"))
    return None


def symbol_of(node: Node, memo: dict[int, str | None] | None = None) -> str | None:
    """The qualified name of the named function ``node`` is in (``Router.use``,
    ``parse``), an anonymous callback being part of the function around it;
    None at module level. ``memo`` keeps each function's, by node id, for
    the many sites and calls of one file."""
    n: Node | None = node
    steps = 0
    while n is not None and n.type not in FUNCTIONS and steps < MAX_UP:
        n = n.parent
        steps += 1
    if n is None or steps >= MAX_UP:
        return None
    if memo is not None and n.id in memo:
        return memo[n.id]
    got = _symbol(n)
    if memo is not None:
        memo[n.id] = got
    return got


def _symbol(fn: Node) -> str | None:
    n: Node | None = fn
    parts: list[str] = []
    steps = 0
    while n is not None and steps < MAX_UP:
        steps += 1
        if n.type in FUNCTIONS:
            name, owner = function_name(n)
            if name is not None:
                parts.append(name)
                if owner is not None:
                    parts.append(owner)
                    break
        elif n.type in CLASSES and parts:
            cname = class_name(n)
            if cname is not None:
                parts.append(cname)
        n = n.parent
    return ".".join(reversed(parts)) if parts else None


def innermost(spans: list[tuple[int, int, str | None]], points: list[int]) -> list[str | None]:
    """For each byte offset in ``points``, the value of the innermost span
    (start, end, value) holding it: one sweep, for the calls of a file,
    where walking up from each call is slow. Spans are the function nodes
    of one tree, so they nest.

    >>> innermost([(0, 10, "f"), (2, 5, "f.g")], [1, 3, 7, 12])
    ['f', 'f.g', 'f', None]
    """
    spans = sorted(spans, key=lambda s: (s[0], -s[1]))
    out: list[str | None] = [None] * len(points)
    stack: list[tuple[int, int, str | None]] = []
    k = 0
    for i in sorted(range(len(points)), key=points.__getitem__):
        p = points[i]
        while k < len(spans) and spans[k][0] <= p:
            while stack and stack[-1][1] <= spans[k][0]:
                stack.pop()
            stack.append(spans[k])
            k += 1
        while stack and stack[-1][1] <= p:
            stack.pop()
        out[i] = stack[-1][2] if stack else None
    return out


def params(node: Node) -> tuple[str, ...]:
    """The parameter names of a function-like node (a destructured one is
    left out: it has no one name)."""
    ps = node.child_by_field_name("parameters")
    if ps is None:
        one = node.child_by_field_name("parameter")  # `x => ...`
        return (text(one),) if one is not None and one.type == "identifier" else ()
    out: list[str] = []
    for p in ps.named_children:
        n: Node | None = p
        if p.type in ("required_parameter", "optional_parameter"):
            n = p.child_by_field_name("pattern")
        if n is not None and n.type == "assignment_pattern":
            n = n.child_by_field_name("left")
        if n is not None and n.type == "rest_pattern":
            inner = n.named_children[0] if n.named_children else None
            if inner is not None and inner.type == "identifier":
                out.append("..." + text(inner))
            continue
        if n is not None and n.type == "identifier":
            out.append(text(n))
    return tuple(out)


def enclosing_function(node: Node) -> Node | None:
    n = node.parent
    while n is not None:
        if n.type in FUNCTIONS:
            return n
        n = n.parent
    return None
