"""Messages a function of the same file returns (Python, pure): issue 15,
pattern 3.

SQLAlchemy's hstore parser formats its error text in a helper, and the
parser raises what the helper returns::

    def _parse_error(hstore_str, pos):
        ...
        return "After %r, could not parse residual at position %d: %r" % (
            parsed_tail, pos, residual)

    raise ValueError(_parse_error(hstore_str, pos))

The text is written in the helper's ``return``; the raise is where it is
raised. A raise whose message is a call of a function defined once in the
file (``f(...)``, ``self.f(...)``, or a local assigned from one: ``msg =
f(...)``) shows each text the function returns: one site per text, its
placeholders in the helper's own names. A helper that returns another
helper's call is followed one level down. A return that cannot be read
(``return str(x)``) keeps the raise's own dynamic site beside them: the
message may be that one.

    >>> from errordex.languages.python.extract import extract
    >>> src = '''
    ... def _why(pos):
    ...     return "bad byte at %d" % pos
    ... def parse(s):
    ...     raise ValueError(_why(3))
    ... '''
    >>> [s.template.display() for s in extract("m.py", src).sites]
    ['bad byte at %d']
"""

from __future__ import annotations

import tree_sitter as ts

from errordex.languages.python import built, msg
from errordex.template import Template

#: texts one raise can show, at most
MAX_TEXTS = 8
#: helpers followed through a helper that returns another's call
_DEPTH = 2
_SCOPES = ("function_definition", "class_definition", "lambda")


def first_argument(call: ts.Node) -> ts.Node | None:
    """The first positional argument of a call, if any."""
    args = call.child_by_field_name("arguments")
    if args is None or args.type != "argument_list":
        return None
    return next((a for a in msg.named(args) if a.type != "keyword_argument"), None)


def messages(
    arg: ts.Node, functions: dict[str, list[ts.Node]], resolve: msg.Resolver
) -> tuple[list[Template], bool]:
    """The texts the helper call ``arg`` (or the call a name was assigned
    from) returns, and whether some return could not be read. ([], False)
    when ``arg`` is not a call of a function of the file."""
    value: ts.Node | None = arg
    if arg.type == "identifier":
        value = resolve(arg)
    if value is None or value.type != "call":
        return [], False
    found: list[Template] = []
    unread = _returns(value, functions, resolve, _DEPTH, found)
    if unread is None:
        return [], False
    out = list(dict.fromkeys(found))
    return out[:MAX_TEXTS], unread or len(out) > MAX_TEXTS


def _returns(
    call: ts.Node,
    functions: dict[str, list[ts.Node]],
    resolve: msg.Resolver,
    depth: int,
    found: list[Template],
) -> bool | None:
    """Adds to ``found`` the readable texts the function ``call`` calls
    returns; whether one could not be read; None when it is no function of
    the file (or is defined more than once)."""
    name = built.callee_name(call)
    defs = functions.get(name, []) if name is not None else []
    if len(defs) != 1:
        return None
    values = _return_values(defs[0])
    if not values:
        return None
    unread = False
    for value in values:
        if value.type == "call" and depth > 1:
            deeper = _returns(value, functions, resolve, depth - 1, found)
            if deeper is not None:
                unread = unread or deeper
                continue
        t = msg.read_static(value, resolve)
        if t is None or t.dynamic or not t.chunks():
            unread = True
        else:
            found.append(t)
    return unread


def _return_values(fn: ts.Node) -> list[ts.Node]:
    """The values the function's own ``return`` statements give (not those
    of a function nested in it); [] when one returns nothing."""
    body = fn.child_by_field_name("body")
    if body is None:
        return []
    out: list[ts.Node] = []
    stack = list(body.named_children)
    while stack:
        n = stack.pop()
        if n.type == "return_statement":
            kids = msg.named(n)
            if not kids:
                return []
            out.append(kids[0])
        elif n.type not in _SCOPES:
            stack.extend(n.named_children)
    return sorted(out, key=lambda n: n.start_byte)
