"""Python's own TypeError about a call's keyword arguments (pure).

``Field.__init__() got an unexpected keyword argument 'default'`` is raised
by the interpreter at the user's call, not by a raise of the library: no
entry has its text. What helps is the signature the call missed: the
function's parameters, from the indexed source, and the ones nearest the
keyword given (marshmallow 4 renamed ``default`` to ``load_default`` and
``dump_default``).

    >>> unexpected_keyword("Field.__init__() got an unexpected keyword argument 'default'")
    ('Field.__init__', 'default')
    >>> src = "class Field:\\n    def __init__(self, *, load_default=None, dump_default=None, **kw):\\n        pass\\n"
    >>> parameters(src, "Field.__init__")
    (2, ('load_default', 'dump_default'), True)
"""

from __future__ import annotations

import re

import tree_sitter as ts

from errordex import grammars
from errordex.languages.python import msg

_UNEXPECTED = re.compile(
    r"(?P<name>[A-Za-z_][\w.]{0,200})\(\) got an unexpected keyword argument '(?P<kw>\w{1,100})'"
)


def unexpected_keyword(message: str) -> tuple[str, str] | None:
    """(the callable's qualified name, the keyword) of the interpreter's message."""
    m = _UNEXPECTED.fullmatch(message.strip()) if len(message) < 512 else None
    return (m.group("name"), m.group("kw")) if m else None


def parameters(text: str, qualname: str) -> tuple[int, tuple[str, ...], bool] | None:
    """(line, the parameters a caller may name, whether it takes ``**kwargs``)
    of the function ``qualname`` (``Class.method`` or ``function``) defined
    at the top of a file or in a top-level class of it; None when not found."""
    tree = grammars.parser("python").parse(text.encode("utf-8", "surrogatepass"))
    scope: ts.Node | None = tree.root_node
    names = qualname.split(".")
    fn: ts.Node | None = None
    for i, name in enumerate(names):
        want = "function_definition" if i == len(names) - 1 else "class_definition"
        found = _child_def(scope, want, name) if scope is not None else None
        if found is None:
            return None
        scope = found.child_by_field_name("body")
        fn = found
    if fn is None:
        return None
    params = fn.child_by_field_name("parameters")
    out: list[str] = []
    kwargs = False
    for p in msg.named(params) if params is not None else []:
        inner = p.named_children[0] if p.type == "typed_parameter" and p.named_children else p
        if inner.type == "dictionary_splat_pattern":
            kwargs = True
            continue
        if inner.type in ("list_splat_pattern", "keyword_separator", "positional_separator"):
            continue
        ident = p if p.type == "identifier" else p.child_by_field_name("name")
        if ident is None:
            ident = next((c for c in p.named_children if c.type == "identifier"), None)
        if ident is not None:
            out.append(msg.text_of(ident))
    if len(names) > 1 and out and out[0] in ("self", "cls"):
        out = out[1:]
    return fn.start_point.row + 1, tuple(out), kwargs


def _child_def(scope: ts.Node, kind: str, name: str) -> ts.Node | None:
    for stmt in msg.named(scope):
        if stmt.type == "decorated_definition":
            stmt = stmt.child_by_field_name("definition") or stmt
        n = stmt.child_by_field_name("name") if stmt.type == kind else None
        if n is not None and msg.text_of(n) == name:
            return stmt
    return None
