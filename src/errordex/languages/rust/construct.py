"""Where a Rust error value is built, and the message it prints (pure).

A variant or struct with a message (thiserror's ``#[error("...")]``, a match
arm of a hand-written ``impl Display``, displaydoc) is defined in one place
and built in many: ``Err(Error::ShapeMismatchBinaryOp { .. }.bt())``,
``.map_err(Error::Io)``, ``ErrorKind::Empty.into()``, ``bail!(Error::X)``.
Those places are where a user's call goes wrong, so each one is a throw
site of the definition's entry (kind ``construct``).

The extractor (``constructs``) records every value built of a type whose
name says it is an error (``Error``, ``ParseErrorKind``, ``FooErr``) or that
the file declares one (``impl Error for``), with an empty message and
``exception_type`` the ``Type::Variant`` as written (``Self`` read as the
``impl``'s type). Once every file is read, ``class_messages`` gives each the
message of its definition (``definitions``), the nearest one in the tree
when several crates of a workspace define the same name; a value of a type
that has no message (``io::ErrorKind::Other``, ``#[error(transparent)]``) is
not a site. A variant with no message of its own takes its enum's, when one
``Display`` prints the whole enum. A variant that only passes a field through (``#[error("{0}")]
Msg(String)``) prints what it is given: its site takes the message written
at the construction (``Error::Msg(format!("no {}", x))``), or is dropped.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Callable, Container, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from tree_sitter import Node

from errordex.languages.rust import helpers, macros
from errordex.model import CallArg, ClassDef, Forwarder, ThrowSite
from errordex.template import Hole, Part, Template, Text

if TYPE_CHECKING:
    from errordex import grammars


class _File(Protocol):
    """A file being extracted, as this pass reads it (``extract._File``)."""

    @property
    def src(self) -> bytes: ...

    @property
    def error_types(self) -> set[str]: ...

    @property
    def path(self) -> str: ...

    @property
    def forwarders(self) -> list[Forwarder]: ...

    @property
    def conversions(self) -> list[ClassDef]: ...

    def text_of(self, node: Node) -> str: ...

    def impl_type(self, node: Node) -> str | None: ...

    def string_expr(self, nodes: list[Node]) -> Template | None: ...

    def site(
        self, kind: str, start: Node, end: Node, tmpl: Template, exception_type: str | None = None
    ) -> ThrowSite: ...


KIND = "construct"
#: the kinds of site that define a message a construction prints
DEFINING = frozenset({"error-attr", "display-impl"})

#: ``Error::X``, ``crate::error::ParseErrorKind::X``, ``Self::X``: (type, variant)
_PATH = re.compile(rb"(?:^|::)\s*(Self|[A-Z]\w*)\s*::\s*([A-Z]\w*)$")
_ERRISH = re.compile(r"Err")
#: parents that make a path a pattern, not a value
_PATTERNS = frozenset(
    {
        "match_pattern",
        "tuple_struct_pattern",
        "struct_pattern",
        "or_pattern",
        "tuple_pattern",
        "slice_pattern",
        "field_pattern",
        "let_condition",
        "scoped_identifier",
        "scoped_type_identifier",
        "use_declaration",
        "use_list",
        "scoped_use_list",
        "use_as_clause",
        "generic_type",
    }
)
#: macros whose arguments hold patterns, not values
_PATTERN_MACROS = frozenset({"matches", "assert_matches", "debug_assert_matches"})


def constructs(f: _File, caught: grammars.Captures) -> list[ThrowSite]:
    """The values of error types built in one file, messages not yet known."""
    out: list[ThrowSite] = []
    for node in caught.get("construct.path", ()):
        parent = node.parent
        if parent is None or parent.type in _PATTERNS:
            continue
        io = _io_error(f, node) or _custom(f, node) or _message_ctor(f, node)
        if io is not None:
            out.append(io)
            continue
        named = _named(f, node)
        if named is None:
            continue
        arg: CallArg | None = None
        end = node
        if parent.type == "call_expression" and parent.child_by_field_name("function") == node:
            end = parent
            args = parent.child_by_field_name("arguments")
            arg = _first_arg(f, args) if args is not None else None
            _helper(f, args, named)
            _conversion(f, parent, named)
        out.append(_site(f, node, end, named, arg))
    for name in caught.get("err.name", ()):
        # ``Error("Unknown file magic")``: a tuple struct of an error type
        # built like a call (object's)
        call = name.parent
        text = f.text_of(name)
        if call is None or not text[:1].isupper() or text in ("Err", "Ok", "Some"):
            continue
        if not _errish(f, text):
            continue
        args = call.child_by_field_name("arguments")
        arg = _first_arg(f, args) if args is not None else None
        _helper(f, args, text)
        out.append(_site(f, name, call, text, arg))
    for name in caught.get("construct.struct", ()):
        parent = name.parent
        if parent is None:
            continue
        named = _named(f, name)
        if named is not None:
            built = _site(f, name, parent, named, None)
            fields = _field_args(f, parent)
            out.append(replace(built, args=fields) if fields else built)
    for name in caught.get("construct.unit", ()):
        # `.ok_or(Empty)?`: a unit struct of an error type the file declares (rand's `Choose::new`)
        text = f.text_of(name)
        if (
            text[:1].isupper()
            and text not in ("Err", "Ok", "Some", "None")
            and text in f.error_types
        ):
            out.append(_site(f, name, name, text, None))
    for word in caught.get("tt.name", ()):
        site = _token(f, word)
        if site is not None:
            out.append(site)
    return out


#: the suffix of a ``From`` conversion's definition (``Error::from``)
FROM = "::from"


def _conversion(f: _File, call: Node, named: str) -> None:
    """``impl<S: Into<String>> From<S> for Error { fn from(from: S) -> Self {
    Self::ErrorString(from.into()) } }`` (rust_decimal's): ``Error::from("..")``
    builds ``Error::ErrorString`` of that text. Filed as a definition named
    ``Error::from`` that passes its text through, built as ``named``."""
    fn = call.parent
    while fn is not None and fn.type not in ("function_item", "impl_item"):
        fn = fn.parent
    impl = fn.parent.parent if fn is not None and fn.parent is not None else None
    name = fn.child_by_field_name("name") if fn is not None else None
    trait = impl.child_by_field_name("trait") if impl is not None else None
    if fn is None or impl is None or name is None or trait is None:
        return
    if f.text_of(name) != "from" or not f.text_of(trait).startswith("From"):
        return
    args = call.child_by_field_name("arguments")
    one = [c for c in args.named_children if "comment" not in c.type] if args else []
    if len(one) != 1 or helpers.forwarder(f, param(one[0], f.text_of), named) is None:
        return
    owner = f.impl_type(call)
    if owner is None:
        return
    f.conversions.append(
        ClassDef(
            name=owner + FROM,
            qualname=named,
            path=f.path,
            line=call.start_point.row + 1,
            message=Template.runtime("from"),
            builds_message=True,
        )
    )


def _helper(f: _File, args: Node | None, named: str) -> None:
    """A value built of one parameter of its function: that function is a
    helper that builds it of the text it is given (``helpers``)."""
    one = [c for c in args.named_children if "comment" not in c.type] if args else []
    if len(one) == 1:
        fw = helpers.forwarder(f, one[0], named)
        if fw is not None:
            f.forwarders.append(fw)


def _named(f: _File, node: Node) -> str | None:
    """``Type::Variant`` (or ``Type`` of a struct) of an error type, or None."""
    text = f.src[node.start_byte : node.end_byte]
    m = _PATH.search(text)
    if m is None:
        if node.type != "type_identifier":
            return None
        name = text.decode("utf-8", "replace")
        return name if _errish(f, name) else None
    owner, variant = m.group(1).decode(), m.group(2).decode()
    if owner == "Self":
        impl = f.impl_type(node)
        if impl is None:
            return None
        owner = impl
    elif not _errish(f, owner):
        return None
    return f"{owner}::{variant}"


#: ``io::Error::new``, ``std::io::Error::other``: the standard library's error with a message
_IO_NEW = re.compile(rb"(?:^|::)\s*io\s*::\s*Error\s*::\s*(new|other)$")


def _io_error(f: _File, node: Node) -> ThrowSite | None:
    """``io::Error::new(ErrorKind::InvalidInput, "invalid gzip header")``:
    its Display is the message (its Debug ``Custom { kind: InvalidInput,
    error: "invalid gzip header" }``), so it is a site with that message."""
    m = _IO_NEW.search(f.src[node.start_byte : node.end_byte])
    call = node.parent
    if m is None or call is None or call.type != "call_expression":
        return None
    args = call.child_by_field_name("arguments")
    named = [c for c in args.named_children if "comment" not in c.type] if args else []
    want = 2 if m.group(1) == b"new" else 1
    if len(named) != want or (
        want == 2 and b"ErrorKind" not in f.src[named[0].start_byte : named[0].end_byte]
    ):
        return None
    tmpl = f.string_expr([named[-1]])
    if tmpl is None:
        return None
    # the kind names it in its Debug (``InvalidInput``); ``Error`` would be
    # any crate's own error type
    kind = (
        re.search(rb"(\w+)\s*$", f.src[named[0].start_byte : named[0].end_byte])
        if want == 2
        else None
    )
    exc = f"io::ErrorKind::{kind.group(1).decode()}" if kind else "io::ErrorKind::Other"
    return f.site("err-return", node, call, tmpl, exc)


#: ``de::Error::custom``, ``D::Error::custom``, ``E::custom``: serde's way to
#: build a format's error of a message (every serde format passes it through)
_CUSTOM = re.compile(rb"(?:^|::)\s*[A-Z]\w*\s*::\s*custom$")


def _custom(f: _File, node: Node) -> ThrowSite | None:
    """``Error::custom(format_args!("invalid type: {}, expected {}", ..))``:
    its message is the text it is given."""
    if _CUSTOM.search(f.src[node.start_byte : node.end_byte]) is None:
        return None
    call = node.parent
    if call is None or call.type != "call_expression":
        return None
    args = call.child_by_field_name("arguments")
    named = [c for c in args.named_children if "comment" not in c.type] if args else []
    if len(named) != 1 or named[0].type not in (
        "string_literal",
        "raw_string_literal",
        "macro_invocation",
    ):
        return None
    tmpl = f.string_expr(named)
    if tmpl is None:
        return None
    return f.site("err-return", node, call, tmpl)


#: ``Error::new(span, "lex error")``, ``Error::from("Invalid decimal: empty")``,
#: ``Self::msg(..)``: an error type's constructor given its text
_MESSAGE_CTOR = re.compile(rb"(?:^|::)\s*(Self|[A-Z]\w*)\s*::\s*(new|from|msg)$")
#: a function of a type, by any lowercase name (read in ``Err(..)`` only)
_ANY_CTOR = re.compile(rb"(?:^|::)\s*(Self|[A-Z]\w*)\s*::\s*([a-z]\w*)$")


def _in_err(call: Node) -> bool:
    """Whether ``call`` is the one argument of ``Err(..)``."""
    args = call.parent
    err = args.parent if args is not None and args.type == "arguments" else None
    func = err.child_by_field_name("function") if err is not None else None
    return (
        func is not None
        and func.type == "identifier"
        and func.text == b"Err"
        and args is not None
        and args.named_child_count == 1
    )


def _message_ctor(f: _File, node: Node) -> ThrowSite | None:
    """``Error::new(err.span(), "lex error")`` (syn's), ``Error::new(
    ErrorKind::EnvVarNotFound, "Environment variable OUT_DIR not defined.")``
    (cc's), ``Error::from("Invalid decimal: empty")`` (rust_decimal's): a
    value of an error type built of one text, which it keeps and prints (a
    ``Display`` may add to it: cc prints ``{kind:?}: {message}``, the text
    is then found inside). Built of the function's parameter instead
    (``Error::new(span, message)``, ``format!("unexpected end of input, {}",
    message)``), the function is a helper each call of which passes the text
    (``helpers``)."""
    m = _MESSAGE_CTOR.search(f.src[node.start_byte : node.end_byte])
    call = node.parent
    if m is None and call is not None and _in_err(call):
        # ``Err(DecodingError::format("unexpected EOF"))`` (gif's): any
        # function of an error type, returned as the error, given a text of
        # words alone (serde's ``missing_field("name")`` is given a name)
        m = _ANY_CTOR.search(f.src[node.start_byte : node.end_byte])
        args = call.child_by_field_name("arguments")
        only = [c for c in args.named_children if "comment" not in c.type] if args else []
        text = f.string_expr(only) if len(only) == 1 else None
        if text is None or " " not in "".join(text.chunks()).strip():
            m = None
    if m is None or call is None or call.type != "call_expression":
        return None
    if call.child_by_field_name("function") != node:
        return None
    owner = m.group(1).decode()
    if owner == "Self":
        found = f.impl_type(node)
        if found is None:
            return None
        owner = found
    if not _errish(f, owner):
        return None
    args = call.child_by_field_name("arguments")
    named = [c for c in args.named_children if "comment" not in c.type] if args else []
    if not named or (m.group(2) == b"from" and len(named) != 1):
        return None
    texts = [(a, t) for a in named if (t := f.string_expr([a])) is not None]
    if len(texts) > 1:
        return None  # which one it prints, its type says
    if not texts:
        fw = helpers.forwarder(f, param(named[-1], f.text_of), owner)
        if fw is not None:
            f.forwarders.append(replace(fw, kind="err-return"))
        return None
    arg, tmpl = texts[0]
    for h in tmpl.holes:  # format!("unexpected end of input, {}", message)
        word = _named_in(f, arg, h.expr) if h.expr else None
        fw = helpers.forwarder(f, word, owner) if word is not None else None
        if fw is not None:
            f.forwarders.append(replace(fw, kind="err-return", template=tmpl))
            break
    if tmpl.dynamic:
        return None
    if m.group(2) == b"from":  # its From impl says what it builds (``_conversion``)
        site = f.site(KIND, node, call, Template.empty(), owner + FROM)
        return replace(site, args=(CallArg(None, "", tmpl),))
    return f.site("err-return", node, call, tmpl, owner)


_TO_TEXT = frozenset({"into", "to_string", "to_owned"})


def param(node: Node, text_of: Callable[[Node], str]) -> Node:
    """The identifier a text argument passes on: ``message``, ``&message``,
    ``message.into()``, ``message.to_string()``; else ``node``."""
    while node.type in ("reference_expression", "call_expression"):
        if node.type == "reference_expression":
            inner = node.child_by_field_name("value")
        else:
            func = node.child_by_field_name("function")
            args = node.child_by_field_name("arguments")
            field = func.child_by_field_name("field") if func is not None else None
            if (
                field is None
                or text_of(field) not in _TO_TEXT
                or args is None
                or args.named_child_count
            ):
                return node
            inner = func.child_by_field_name("value") if func is not None else None
        if inner is None:
            return node
        node = inner
    return node


def _named_in(f: _File, node: Node, word: str) -> Node | None:
    """The identifier ``word`` among the tokens of ``node`` (a ``format!``'s)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "identifier" and f.text_of(n) == word:
            return n
        stack.extend(n.children)
    return None


def _errish(f: _File, name: str) -> bool:
    return bool(_ERRISH.search(name)) or name in f.error_types


def _first_arg(f: _File, args: Node) -> CallArg | None:
    named = [c for c in args.named_children if c.type not in ("line_comment", "block_comment")]
    if len(named) != 1:
        return None
    tmpl = f.string_expr([named[0]])
    return CallArg(None, "", tmpl) if tmpl is not None else None


def _field_args(f: _File, struct: Node) -> tuple[CallArg, ...]:
    """``Error::GenericError { msg: format!("Unknown template '{}'", name) }``
    (tinytemplate's): each field given a text, by name, for a Display that
    prints one field as it is (``_passes_through``)."""
    body = struct.child_by_field_name("body")
    out: list[CallArg] = []
    for c in body.named_children if body is not None else ():
        if c.type != "field_initializer":
            continue
        field = c.child_by_field_name("field")
        value = c.child_by_field_name("value")
        if field is None or value is None:
            continue
        tmpl = f.string_expr([value])
        if tmpl is not None:
            out.append(CallArg(f.text_of(field), "", tmpl))
    return tuple(out)


def _site(f: _File, start: Node, end: Node, named: str, arg: CallArg | None) -> ThrowSite:
    site = f.site(KIND, start, end, Template.empty(), named)
    return replace(site, args=(arg,)) if arg is not None else site


def _token(f: _File, word: Node) -> ThrowSite | None:
    """``Error :: X`` written as tokens (the arguments of ``bail!``, a
    ``macro_rules!`` body)."""
    colons = word.next_sibling
    variant = colons.next_sibling if colons is not None else None
    if colons is None or variant is None or colons.type != "::" or variant.type != "identifier":
        return None
    before = word.prev_sibling
    if before is not None and before.type == "::":
        return None  # the middle of a longer path: its last pair is read instead
    nxt = variant.next_sibling
    if nxt is not None and nxt.type == "::":
        return None
    owner, name = f.text_of(word), f.text_of(variant)
    if not name[:1].isupper() or not owner[:1].isupper():
        return None
    if owner == "Self":
        found = f.impl_type(word)
        if found is None:
            return None
        owner = found
    elif not _errish(f, owner):
        return None
    tt = word.parent
    mac = tt.parent if tt is not None else None
    if mac is not None and mac.type == "macro_invocation":
        m = mac.child_by_field_name("macro")
        if m is not None and f.text_of(m).rsplit("::", 1)[-1] in _PATTERN_MACROS:
            return None
    prev = before
    if prev is not None and prev.type == "=>":
        return None
    if nxt is not None and nxt.type == "=>":
        return None  # a match arm's pattern, written as tokens
    return _site(f, word, variant, f"{owner}::{name}", None)


def builds(f: _File, tokens: list[Node]) -> bool:
    """Whether a macro argument (tokens) is a value of an error type:
    ``Error::X { .. }``, ``Error::X(..)``, ``Error::X``."""
    if len(tokens) < 3 or tokens[0].type != "identifier" or tokens[1].type != "::":
        return False
    owner, variant = f.text_of(tokens[0]), tokens[2]
    return (
        variant.type == "identifier"
        and f.text_of(variant)[:1].isupper()
        and (owner == "Self" or _errish(f, owner))
    )


# -- the pass over every file's definitions ---------------------------------


def enums(f: _File, caught: grammars.Captures) -> dict[str, tuple[str, ...]]:
    """The enums a file declares, each with its variants' names."""
    out: dict[str, tuple[str, ...]] = {}
    for name in caught.get("enum.name", ()):
        body = name.parent.child_by_field_name("body") if name.parent is not None else None
        if body is None:
            continue
        variants = (v.child_by_field_name("name") for v in body.named_children)
        out[f.text_of(name)] = tuple(f.text_of(v) for v in variants if v is not None)
    return out


def debug_forms(f: _File, caught: grammars.Captures) -> dict[str, Template]:
    """What ``#[derive(Debug)]`` prints for each variant of the file's enums
    that derive it, by ``Enum::Variant``: ``SizeMismatch``,
    ``WrongArgs({:?})``, ``TooBig { size: {:?}, len: {:?} }``. The text of
    a variant whose ``Display`` is its ``Debug`` (bytemuck's
    ``write!(f, "{:?}", self)`` for ``PodCastError``, fasteval's for its
    ``Error``)."""
    out: dict[str, Template] = {}
    for name in caught.get("enum.name", ()):
        item = name.parent
        body = item.child_by_field_name("body") if item is not None else None
        if item is None or body is None or not _derives_debug(f, item):
            continue
        owner = f.text_of(name)
        for v in body.named_children:
            vname = v.child_by_field_name("name") if v.type == "enum_variant" else None
            if vname is not None:
                word = f.text_of(vname)
                out[f"{owner}::{word}"] = _derived_debug(f, word, v.child_by_field_name("body"))
    return out


def _derives_debug(f: _File, item: Node) -> bool:
    """Whether the attributes above an item derive ``Debug``."""
    above = item.prev_named_sibling
    while above is not None and above.type in ("attribute_item", "line_comment", "block_comment"):
        if above.type == "attribute_item" and _DERIVES_DEBUG.search(f.text_of(above)):
            return True
        above = above.prev_named_sibling
    return False


_DERIVES_DEBUG = re.compile(r"^#\[\s*derive\s*\([^)]*\bDebug\b")


def _derived_debug(f: _File, word: str, body: Node | None) -> Template:
    """The derived ``Debug`` of one variant: its name, then its fields'."""
    if body is None:
        return Template.of("rust-fmt", Text(word))
    if body.type == "ordered_field_declaration_list":
        fields = [c for c in body.named_children if c.type not in _NOT_FIELDS]
        parts: list[Part] = [Text(f"{word}(")]
        for i in range(len(fields)):
            if i:
                parts.append(Text(", "))
            parts.append(Hole(f"self.{i}", "{:?}"))
        return Template.of("rust-fmt", *parts, Text(")"))
    names = [
        f.text_of(n)
        for c in body.named_children
        if c.type == "field_declaration" and (n := c.child_by_field_name("name")) is not None
    ]
    if not names:
        return Template.of("rust-fmt", Text(word))
    parts = [Text(f"{word} {{ ")]
    for i, field in enumerate(names):
        parts.append(Text(f"{', ' if i else ''}{field}: "))
        parts.append(Hole(f"self.{field}", "{:?}"))
    return Template.of("rust-fmt", *parts, Text(" }"))


#: children of a tuple variant's ``( .. )`` that are no field
_NOT_FIELDS = frozenset({"line_comment", "block_comment", "visibility_modifier", "attribute_item"})


def definitions(
    path: str,
    sites: Iterable[ThrowSite],
    enums: dict[str, tuple[str, ...]] | None = None,
    forms: dict[str, Template] | None = None,
) -> list[ClassDef]:
    """One ``ClassDef`` per error type or variant with a message in a file:
    ``name`` is ``Type::Variant`` (or ``Type``), ``message`` its template.
    A name with more than one message (arms that print differently) is
    left out: a value of it prints one or the other. One text for a whole
    enum the file declares (``enums``) is each variant's that has none of
    its own: a construction of another enum of that name (parse-zoneinfo's
    ``line::Error``, which has no ``Display``) is not one of its sites.
    When that one text is the value's ``Debug`` (``write!(f, "{:?}",
    self)``), each variant prints its derived ``Debug`` (``forms``):
    bytemuck's ``SizeMismatch``, fasteval's ``WrongArgs({:?})``."""
    found: dict[str, list[ThrowSite]] = defaultdict(list)
    for s in sites:
        if s.kind in DEFINING and s.exception_type and not s.in_test:
            found[_short(s.exception_type)].append(s)
    out: list[ClassDef] = []
    for name, defs in found.items():
        # ``write!(f, "{}", self.description())`` prints the text read from
        # that method (its own site): parse-zoneinfo's ``"interpretation error"``
        defs = [d for d in defs if not _prints_a_method(d.template)] or defs
        if len({d.template for d in defs}) != 1:
            continue
        d = defs[0]
        variants = (enums or {}).get(name) if "::" not in name else None
        names = (
            [f"{name}::{v}" for v in variants if f"{name}::{v}" not in found] if variants else []
        )
        for each in names or [name]:
            own = (forms or {}).get(each) if _debug_of_self(d.template) else None
            out.append(
                ClassDef(
                    name=each,
                    qualname=d.exception_type if each == name and d.exception_type else each,
                    path=path,
                    line=d.line,
                    message=own or d.template,
                    builds_message=True,
                )
            )
    return out


def _debug_of_self(t: Template) -> bool:
    """``write!(f, "{:?}", self)``: a ``Display`` that prints the ``Debug``.

    >>> _debug_of_self(Template.of("rust-fmt", Hole("self", "{:?}")))
    True
    >>> _debug_of_self(Template.of("rust-fmt", Hole("self.0", "{:?}")))
    False
    """
    return (
        _passes_through(t)
        and t.holes[0].expr.replace(" ", "").lstrip("&*") == "self"
        and t.holes[0].spec.replace(" ", "") in ("{:?}", "{:#?}")
    )


def _short(name: str) -> str:
    """The last two segments of a path: ``crate::error::Error::X`` -> ``Error::X``."""
    return "::".join(name.replace(" ", "").split("::")[-2:])


class _Every:
    """Every name: a construction of a type with no message is dropped, so
    each one is revised."""

    def __contains__(self, name: object) -> bool:
        return True


def class_messages(
    classes: Iterable[ClassDef],
) -> tuple[Container[str], Callable[[ThrowSite], ThrowSite | None]]:
    """(the names whose construction sites are revised, and how): a site
    takes its definition's message, or is dropped (None)."""
    by_name: dict[str, list[ClassDef]] = defaultdict(list)
    for c in classes:
        if c.path.endswith(".rs") and c.builds_message and c.message is not None:
            by_name[c.name].append(c)

    def apply(site: ThrowSite) -> ThrowSite | None:
        if site.kind != KIND or not site.exception_type:
            return site
        if site.exception_type.startswith(macros.PREFIX):
            return macros.resolve(site, by_name)
        if site.exception_type.endswith(FROM):
            return _converted(site, by_name.get(_short(site.exception_type), []))
        d = _definition(
            site.path,
            by_name.get(_short(site.exception_type), []),
            by_name.get(_owner(site.exception_type), []),
        )
        if d is None or d.message is None:
            return None
        message = d.message
        if _passes_through(message):
            given = _given(site, message)
            if given is None or given.is_empty or given.dynamic:
                return None
            message = given
        else:
            message = _filled(site, message)
        return replace(site, template=message, args=())

    return _Every(), apply


def _given(site: ThrowSite, message: Template) -> Template | None:
    """The text a construction gives the one placeholder ``message`` is: its
    one argument, or the field of that name (``msg`` of ``write!(f, "{}",
    msg)``; ``self.0`` is the first)."""
    if not site.args:
        return None
    if all(a.name is None for a in site.args):
        return site.args[0].value
    hole = message.holes[0].expr.removeprefix("self.").lstrip("&*")
    return next((a.value for a in site.args if a.name == hole), None)


def _filled(site: ThrowSite, message: Template) -> Template:
    """The message with its one text placeholder filled by the words a
    construction gives it: jpeg-decoder's ``#[error]``-less ``Format(String)``
    prints ``invalid JPEG format: {}``, and
    ``Error::Format("first two bytes are not an SOI marker".to_owned())`` is a
    site of ``invalid JPEG format: first two bytes are not an SOI marker``.
    A ``{:?}`` placeholder (it prints the text quoted), a text with no words
    of its own, or two placeholders leave the message as it is.

    >>> from errordex.model import CallArg
    >>> from errordex.template import Text
    >>> m = Template.of("rust-fmt", Text("invalid JPEG format: "), Hole("", "{}"))
    >>> s = ThrowSite("a.rs", 1, 1, 1, "rust", KIND, Template.empty(),
    ...               args=(CallArg(None, "", Template.literal("bad SOF")),))
    >>> _filled(s, m).display()
    'invalid JPEG format: bad SOF'
    """
    holes = message.holes
    if len(holes) != 1:
        return message
    quoted = holes[0].spec.replace(" ", "") == "{:?}"
    if ":" in holes[0].spec and not quoted:
        return message
    given = _given(site, message)
    if given is None or given.is_empty or given.dynamic or not _WORDS.search(given.display()):
        return message
    if quoted and given.holes:
        return message
    filling = (Text(_debug_str(given.display())),) if quoted else given.parts
    parts: list[Part] = []
    for part in message.parts:
        parts.extend(filling if isinstance(part, Hole) else (part,))
    return Template.of(message.syntax, *parts)


def _debug_str(text: str) -> str:
    """A string as ``{:?}`` prints it: quoted, with its quotes, backslashes
    and control characters escaped.

    >>> print(_debug_str('a "b"'))
    "a \\"b\\""
    """
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ch == "\x7f":
            out.append(f"\\u{{{ord(ch):x}}}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0"}


_WORDS = re.compile(r"[A-Za-z]{3}")


def _converted(site: ThrowSite, defs: list[ClassDef]) -> ThrowSite | None:
    """``Error::from("Invalid decimal: empty")``: a site of that text, of the
    variant its ``From`` impl builds (``_conversion``); of the type itself
    when no one impl says which."""
    given = site.args[0].value if site.args else None
    if given is None or given.is_empty or given.dynamic:
        return None
    d = _nearest(site.path, defs) if defs else None
    if d is not None and d.message is not None and _passes_through(d.message):
        return replace(site, template=given, args=(), exception_type=d.qualname)
    owner = (site.exception_type or "").removesuffix(FROM)
    return replace(site, kind="err-return", template=given, args=(), exception_type=owner)


def _owner(name: str) -> str:
    """The enum of ``Type::Variant``, whose one ``Display`` may print every
    variant (smallvec's ``write!(f, "Allocation error: {:?}", self)``):
    ``CollectionAllocErr::CapacityOverflow`` -> ``CollectionAllocErr``; ``""``
    for a name that is no variant.

    >>> _owner("CollectionAllocErr::CapacityOverflow"), _owner("error::Error")
    ('CollectionAllocErr', '')
    """
    parts = name.replace(" ", "").split("::")
    if len(parts) < 2 or not (parts[-1][:1].isupper() and parts[-2][:1].isupper()):
        return ""
    return parts[-2]


def _definition(path: str, variants: list[ClassDef], owners: list[ClassDef]) -> ClassDef | None:
    """The definition a construction at ``path`` of ``Type::Variant`` prints:
    the variant's own (``variants``), the nearest; or its enum's one
    ``Display`` (``owners``) when that is nearer still. Two enums of one name
    in one crate are told apart by where they are built: datetime 0.5's
    ``Err(Error::OutOfRange)`` in ``cal/datetime.rs`` is that file's
    ``Error`` (``"datetime field out of range"``, one text for the enum),
    not ``cal/offset.rs``'s ``Error::OutOfRange`` (``"offset field out of
    range"``)."""
    d = _nearest(path, variants) if variants else None
    owner = _nearest(path, owners) if owners else None
    if owner is None:
        return d
    if not variants or _shared(path, owner) > max(_shared(path, v) for v in variants):
        return owner
    return d


def _nearest(path: str, defs: list[ClassDef]) -> ClassDef | None:
    """The definition in the directory nearest ``path`` (its crate); None
    when two are as near."""
    if len(defs) == 1:
        return defs[0]
    ranked = sorted(defs, key=lambda d: _shared(path, d), reverse=True)
    if _shared(path, ranked[0]) == _shared(path, ranked[1]):
        return None
    return ranked[0]


def _shared(path: str, d: ClassDef) -> int:
    """How many leading path segments ``path`` and ``d``'s file share."""
    common = posixpath.commonpath([path, d.path]) if "/" in path and "/" in d.path else ""
    return len(common.split("/")) if common else 0


def _passes_through(t: Template) -> bool:
    """``#[error("{0}")]``: the message is the field, whatever it is."""
    return len(t.parts) == 1 and isinstance(t.parts[0], Hole)


def _prints_a_method(t: Template) -> bool:
    """``write!(f, "{}", self.description())``: the message is what a method
    of the value returns, which is read as a site of its own.

    >>> _prints_a_method(Template.of("rust-fmt", Hole("self.description()", "{}")))
    True
    >>> _prints_a_method(Template.of("rust-fmt", Hole("self.0", "{}")))
    False
    """
    return _passes_through(t) and t.holes[0].expr.replace(" ", "").endswith("()")
