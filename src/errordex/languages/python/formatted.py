"""Messages a method formats from the class's attributes (Python, pure):
issue 15, patterns 2 and 3.

marshmallow's validators keep their default texts as class attributes and
format them in a method of the class::

    class Length(Validator):
        message_min = "Shorter than minimum length {min}."
        message_all = "Length must be between {min} and {max}."

        def _format_error(self, value, message):
            return (self.error or message).format(input=value, min=self.min, max=self.max)

        def __call__(self, value):
            message = self.message_min if self.max is None else self.message_all
            raise ValidationError(self._format_error(value, message))

    class OneOf(Validator):
        default_message = "Must be one of: {choices}."

        def __init__(self, choices, *, error=None):
            self.error = error or self.default_message

        def _format_error(self, value):
            return self.error.format(input=value, choices=self.choices_text)

A raise whose message is ``self.M(...)``, where ``M`` (a method of the
class or of a base in the file) returns ``X.format(...)``, has the texts
``X`` can be: a class attribute ``self.A``, the one ``__init__`` falls back
to (``self.error = error or self.default_message``), or the argument the
raise passes for one of ``M``'s parameters (``self.message_equal``, or a
local picked from two). A text the user passes (``error=``) is theirs,
not the library's. Each text is a template (``{min}`` is a placeholder).
"""

from __future__ import annotations

import tree_sitter as ts

from errordex.languages.python import msg
from errordex.languages.python.keyed import placeholders
from errordex.template import Template

#: texts one raise can have, at most
MAX_TEXTS = 8
_DEPTH = 16


def messages(
    raise_node: ts.Node, call: ts.Node, classes: dict[str, ts.Node], resolve: msg.Resolver
) -> list[Template]:
    """The texts of ``raise E(self.M(...))`` (``call`` is ``E(...)``); [] when
    its message is not such a call, or the method formats no attribute."""
    args = call.child_by_field_name("arguments")
    first = (
        next((a for a in msg.named(args) if a.type != "keyword_argument"), None)
        if args is not None
        else None
    )
    helper = _self_method(first) if first is not None else None
    if helper is None or first is None:
        return []  # most raises: the class is not looked for (a walk up the tree)
    owner = _owner(raise_node)
    if owner is None:
        return []
    chain = _chain(owner, classes)
    method = _method(chain, helper)
    if method is None:
        return []
    formatted = _formatted(method)
    if formatted is None:
        return []
    params = _params(method)
    given = _arguments(first)
    found: list[str] = []
    for source in _alternatives(formatted):
        if source.type == "identifier" and msg.text_of(source) in params:
            at = params.index(msg.text_of(source))
            passed = given[at] if at < len(given) else None
            for node in _picked(passed, resolve) if passed is not None else []:
                found += _attribute_texts(node, chain)
        else:
            found += _attribute_texts(source, chain)
    out: list[Template] = []
    for text in dict.fromkeys(found):
        t = placeholders(Template.literal(text))
        if t.chunks() and t not in out:
            out.append(t)
    return out[:MAX_TEXTS]


def _self_method(node: ts.Node) -> str | None:
    """``self._format_error(value)`` -> ``_format_error``."""
    if node.type != "call":
        return None
    fn = node.child_by_field_name("function")
    obj = fn.child_by_field_name("object") if fn is not None and fn.type == "attribute" else None
    attr = fn.child_by_field_name("attribute") if fn is not None else None
    if obj is None or attr is None or msg.text_of(obj) != "self":
        return None
    return msg.text_of(attr)


def _arguments(call: ts.Node) -> list[ts.Node]:
    args = call.child_by_field_name("arguments")
    return [a for a in msg.named(args) if a.type != "keyword_argument"] if args else []


def _owner(node: ts.Node) -> ts.Node | None:
    """The class whose method holds ``node``."""
    parent = node.parent
    fn: ts.Node | None = None
    while parent is not None:
        if parent.type == "function_definition":
            fn = parent
        elif parent.type == "class_definition":
            return parent if fn is not None else None
        parent = parent.parent
    return None


def _chain(cls: ts.Node, classes: dict[str, ts.Node]) -> list[ts.Node]:
    """``cls`` and its bases defined in the file, nearest first."""
    out: list[ts.Node] = []
    todo = [cls]
    while todo and len(out) < _DEPTH:
        c = todo.pop(0)
        if any(c.id == o.id for o in out):
            continue
        out.append(c)
        supers = c.child_by_field_name("superclasses")
        for b in msg.named(supers) if supers is not None else []:
            # ``errors.Base`` and a generic ``Base[T]`` are the file's ``Base``
            base = classes.get(msg.text_of(b).split("[", 1)[0].rsplit(".", 1)[-1].strip())
            if base is not None:
                todo.append(base)
    return out


def _body(cls: ts.Node) -> list[ts.Node]:
    body = cls.child_by_field_name("body")
    out = []
    for stmt in msg.named(body) if body is not None else []:
        if stmt.type == "decorated_definition":
            stmt = stmt.child_by_field_name("definition") or stmt
        out.append(stmt)
    return out


def _method(chain: list[ts.Node], name: str) -> ts.Node | None:
    for cls in chain:
        for stmt in _body(cls):
            n = stmt.child_by_field_name("name") if stmt.type == "function_definition" else None
            if n is not None and msg.text_of(n) == name:
                return stmt
    return None


def _params(fn: ts.Node) -> list[str]:
    """The method's parameters after ``self``, by name."""
    params = fn.child_by_field_name("parameters")
    names = []
    for p in msg.named(params) if params is not None else []:
        n = p if p.type == "identifier" else p.child_by_field_name("name")
        if n is None and p.named_child_count:
            n = p.named_children[0]
        names.append(msg.text_of(n) if n is not None else "")
    return names[1:]


def _formatted(fn: ts.Node) -> ts.Node | None:
    """``X`` of the method's ``return X.format(...)``, when it has one return."""
    body = fn.child_by_field_name("body")
    stmts = msg.named(body) if body is not None else []
    returns = [s for s in stmts if s.type == "return_statement"]
    value = msg.named(returns[0])[0] if len(returns) == 1 and msg.named(returns[0]) else None
    if value is None or value.type != "call":
        return None
    f = value.child_by_field_name("function")
    attr = f.child_by_field_name("attribute") if f is not None and f.type == "attribute" else None
    if f is None or attr is None or msg.text_of(attr) != "format":
        return None
    return f.child_by_field_name("object")


def _alternatives(node: ts.Node) -> list[ts.Node]:
    """``(self.error or message)`` -> [self.error, message]."""
    while node.type == "parenthesized_expression" and node.named_child_count:
        node = node.named_children[0]
    if node.type == "boolean_operator" and b" or " in (node.text or b""):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        return [*_alternatives(left), *_alternatives(right)] if left and right else []
    return [node]


def _picked(node: ts.Node, resolve: msg.Resolver) -> list[ts.Node]:
    """What a passed argument can be: a local is its value; a conditional
    either branch (``self.message_min if self.max is None else self.message_all``)."""
    for _ in range(3):
        if node.type != "identifier":
            break
        value = resolve(node)
        if value is None:
            return []
        node = value
    if node.type == "conditional_expression":
        kids = msg.named(node)
        return [kids[0], kids[2]] if len(kids) == 3 else []
    return [node]


def _attribute_texts(node: ts.Node, chain: list[ts.Node]) -> list[str]:
    """The texts ``self.A`` can be: the class attribute ``A`` up the chain,
    or what ``__init__`` falls back to when it sets ``self.A``."""
    if node.type != "attribute":
        return []
    obj, attr = node.child_by_field_name("object"), node.child_by_field_name("attribute")
    if obj is None or attr is None or msg.text_of(obj) != "self":
        return []
    name = msg.text_of(attr)
    text = _class_text(chain, name)
    init = _method(chain, "__init__")
    if text is not None:
        again = _init_fallback(init, name) if init is not None else None
        return _formatted_again(text, again, name, chain) if again is not None else [text]
    found = _init_fallback(init, name) if init is not None else None
    if found is None:
        return []
    return [t for n in _alternatives(found) if (t := _self_text(n, chain)) is not None]


def _formatted_again(text: str, value: ts.Node, name: str, chain: list[ts.Node]) -> list[str]:
    """``self.message_min = self.message_min.format(min_op=self.message_gte if
    ... else self.message_gt)`` in ``__init__`` (marshmallow's ``Range``): the
    class text formatted with each text a keyword can be."""
    fn = value.child_by_field_name("function") if value.type == "call" else None
    obj = fn.child_by_field_name("object") if fn is not None and fn.type == "attribute" else None
    attr = fn.child_by_field_name("attribute") if fn is not None else None
    args = value.child_by_field_name("arguments")
    if obj is None or attr is None or args is None or msg.text_of(attr) != "format":
        return [text]
    if msg.text_of(obj) != f"self.{name}":
        return []  # set to something else: not the class's text
    forms: list[dict[str, str]] = [{}]
    for a in msg.named(args):
        key, v = a.child_by_field_name("name"), a.child_by_field_name("value")
        if a.type != "keyword_argument" or key is None or v is None:
            return []
        texts = [t for n in _picked(v, lambda _: None) if (t := _self_text(n, chain)) is not None]
        if not texts:
            return []
        forms = [{**f, msg.text_of(key): t} for f in forms for t in texts][:MAX_TEXTS]
    out = []
    for f in forms:
        try:
            out.append(text.format(**f))
        except (KeyError, IndexError, ValueError):
            return []
    return out


def _self_text(node: ts.Node, chain: list[ts.Node]) -> str | None:
    if node.type != "attribute":
        return None
    obj, attr = node.child_by_field_name("object"), node.child_by_field_name("attribute")
    if obj is None or attr is None or msg.text_of(obj) != "self":
        return None
    return _class_text(chain, msg.text_of(attr))


def _class_text(chain: list[ts.Node], name: str) -> str | None:
    """The string a class attribute ``name`` is set to, nearest class first."""
    for cls in chain:
        for stmt in _body(cls):
            assign = stmt.named_children[0] if stmt.named_child_count else None
            if stmt.type != "expression_statement" or assign is None or assign.type != "assignment":
                continue
            left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
            if left is None or right is None or msg.text_of(left) != name:
                continue
            return (
                msg.string_value(right) if right.type in ("string", "concatenated_string") else None
            )
    return None


def _init_fallback(init: ts.Node, name: str) -> ts.Node | None:
    """The value ``__init__`` sets ``self.<name>`` to (``error or self.default_message``)."""
    body = init.child_by_field_name("body")
    for stmt in msg.named(body) if body is not None else []:
        assign = stmt.named_children[0] if stmt.named_child_count else None
        if stmt.type != "expression_statement" or assign is None or assign.type != "assignment":
            continue
        left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        if left is not None and right is not None and msg.text_of(left) == f"self.{name}":
            return right
    return None
