"""The Rust extractor: panics, asserts, ``expect``, thiserror, ``Err``, anyhow
and ``Display`` impls of error types (pure: text in, sites out).

One query (``extract.scm``, walked with the evidence scan's: ``grammars.captures``)
finds the candidates in C; Python keeps those with a name it reads, then reads
each one's arguments and walks up its ancestors once for the symbol, the
guards and whether it is test code. Sites inside token trees that tree-sitter
leaves unparsed (``macro_rules!`` bodies, ``quote! {...}``, the arguments of
other macros) are found by the same query as ``panic ! (...)`` token runs.

Guards are listed outermost first: a file's ``#![cfg]``, then the ``mod``,
the ``impl``, the ``fn``, and so on down to the innermost ``if`` or match arm.

    >>> site = extract("src/lib.rs", 'fn f() { panic!("bad {}", x) }').sites[0]
    >>> site.kind, site.symbol, site.template.display()
    ('panic', 'f', 'bad {}')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from tree_sitter import Node, Tree

from errordex import grammars
from errordex.extract.common import context_hash, is_test_path
from errordex.languages.rust import construct, helpers, macros, pieces
from errordex.languages.rust.fmt import parse_format, unescape
from errordex.model import ClassDef, Extraction, Forwarder, Guard, ThrowSite
from errordex.template import Hole, Template, Text

LANGUAGE = "rust"
EXTENSIONS = (".rs",)

_MACRO_KINDS = {
    "panic": "panic",
    "unimplemented": "unimplemented",
    "todo": "todo",
    "unreachable": "unreachable",
    "assert": "assert",
    "debug_assert": "assert",
    "assert_eq": "assert",
    "assert_ne": "assert",
    "debug_assert_eq": "assert",
    "debug_assert_ne": "assert",
    "bail": "bail",
    "ensure": "bail",
    "anyhow": "anyhow",
    "format_err": "anyhow",
    "write": "display-impl",
    "writeln": "display-impl",
}
#: How many arguments come before the message (conditions, the formatter).
_LEADING_ARGS = {
    "assert": 1,
    "debug_assert": 1,
    "assert_eq": 2,
    "assert_ne": 2,
    "debug_assert_eq": 2,
    "debug_assert_ne": 2,
    "ensure": 1,
    "write": 1,
    "writeln": 1,
}
#: The comparison an ``assert_eq!``-style macro checks.
_COMPARING = {
    "assert_eq": "==",
    "debug_assert_eq": "==",
    "assert_ne": "!=",
    "debug_assert_ne": "!=",
}
_NO_MESSAGE_OK = frozenset({"panic", "unimplemented", "todo", "unreachable", "ensure"})
_STRING_NODES = frozenset({"string_literal", "raw_string_literal"})
_COMMENTS = frozenset({"line_comment", "block_comment"})
_CONVERSIONS = frozenset({"to_string", "to_owned", "into", "to_compact_string"})
_STRING_TYPES = frozenset({"String", "Box", "Cow", "Arc", "Rc"})
_FORMAT_MACROS = frozenset({"format", "format_args"})
_ITEM_PREFIXES = frozenset({"pub", "async", "unsafe", "const", "extern", "string_literal"})
_ITEM_WORDS = frozenset({"pub", "crate", "enum", "struct"})
_WS = re.compile(r"\s+")
_TEST_WORD = re.compile(r"\btest\b")


#: the candidates ``run`` reads: (kind, capture, the names it must have or None)
_MACRO, _METHOD, _ERR, _ATTR, _TOKEN = range(5)
_CANDIDATES: tuple[tuple[int, str, frozenset[bytes] | None], ...] = (
    (_MACRO, "macro", None),
    (
        _METHOD,
        "method.name",
        frozenset({b"expect", b"expect_err", b"write_str", b"write_fmt", b"pad", b"fmt"}),
    ),
    (_ERR, "err.name", frozenset({b"Err"})),
    (_ATTR, "attr.name", frozenset({b"error"})),
    (
        _TOKEN,
        "tt.name",
        frozenset(
            n.encode()
            for n in (
                *("panic", "unimplemented", "todo", "unreachable"),
                *("assert", "assert_eq", "assert_ne"),
                *("debug_assert", "debug_assert_eq", "debug_assert_ne"),
                *("bail", "anyhow", "format_err", "ensure"),
                *("expect", "expect_err", "Err", "error", "custom", "display"),
            )
        ),
    ),
)
_IMPLS = frozenset({b"Display", b"Error"})


def parse(text: str) -> Tree:
    """Parse source text (shared with the evidence scan, so a file is parsed once)."""
    return grammars.parser("rust").parse(text.encode("utf-8", "surrogatepass"))


def extract(path: str, text: str, tree: Tree | None = None) -> Extraction:
    """Every throw site in one Rust file (``tree``: ``parse(text)``, if at hand)."""
    return _File(path, text).run(tree)


def _squash(s: str) -> str:
    return _WS.sub(" ", s).strip()


def _type_name(node: Node, f: _File) -> str:
    """``Dispatch<T>`` -> ``Dispatch``; ``&'a Foo`` -> ``Foo``."""
    while node.type in ("generic_type", "reference_type", "pointer_type"):
        inner = node.child_by_field_name("type")
        if inner is None:
            break
        node = inner
    return _squash(f.text_of(node))


class _File:
    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.src = text.encode("utf-8", "surrogatepass")
        self.test_path = is_test_path(path)
        self.sites: list[ThrowSite] = []
        self._lines: list[str] | None = None
        self._file_guards: tuple[list[Guard], bool] | None = None
        #: helpers that build an error of a parameter (``helpers.forwarder``)
        self.forwarders: list[Forwarder] = []
        #: ``impl From<&str> for Error``s that keep the text (``construct.conversion``)
        self.conversions: list[ClassDef] = []
        #: (start, end, type name) of ``impl Display`` blocks of error types.
        self.displays: list[tuple[int, int, str]] = []
        #: the ``impl Display`` nodes of ``displays``, with their type's name
        self.display_impls: list[tuple[Node, str]] = []
        #: the types the file implements ``Error`` for
        self.error_types: set[str] = set()
        #: ``const``/``static`` string items of the file, by name
        self.consts: dict[str, str] = {}

    # -- small readers -------------------------------------------------------

    def text_of(self, node: Node) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def span(self, nodes: Sequence[Node]) -> str:
        return self.src[nodes[0].start_byte : nodes[-1].end_byte].decode("utf-8", "replace")

    def column(self, node: Node) -> int:
        start = node.start_byte
        prefix = self.src[start - node.start_point.column : start]
        return len(prefix.decode("utf-8", "replace")) + 1

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines

    # -- the pass ------------------------------------------------------------

    def run(self, tree: Tree | None = None) -> Extraction:
        if tree is None:
            tree = grammars.parser("rust").parse(self.src)
        caught = grammars.captures("rust", tree)
        self._collect_displays(caught)
        self._collect_consts(caught)
        for _, kind, _, node in sorted(self._candidates(caught)):
            if kind == _MACRO:
                name: Node | None = node.child_by_field_name("macro")
                if name is not None and name.type == "scoped_identifier":
                    name = name.child_by_field_name("name")
                args: Node | None = node.child(node.child_count - 1)
                if (
                    name is not None
                    and name.type == "identifier"
                    and args is not None
                    and args.type == "token_tree"
                ):
                    word = self.text_of(name)
                    if word in _MACRO_KINDS:
                        self._macro(word, node, node, args)
            elif kind == _METHOD:
                above = node.parent
                call: Node | None = above.parent if above is not None else None
                args = call.child_by_field_name("arguments") if call is not None else None
                if call is not None and args is not None:
                    self._method(node, call, args)
            elif kind == _ERR:
                call = node.parent
                args = call.child_by_field_name("arguments") if call is not None else None
                if call is not None and args is not None:
                    self._err(call, _arguments(args))
            elif kind == _ATTR:
                attr = node.parent
                item = attr.parent if attr is not None else None
                args = attr.child_by_field_name("arguments") if attr is not None else None
                if item is not None and args is not None:
                    self._error_attr(item, args)
            else:
                self._token(node)
        self._descriptions(caught)
        for impl, owner in self.display_impls:
            self.sites = pieces.join(self, impl, owner, self.sites)
        self.sites.extend(construct.constructs(self, caught))
        self.sites.extend(macros.calls(self, caught, macros.aliases(self, caught)))
        self.sites.sort(key=lambda s: (s.line, s.column, s.kind))
        classes = (
            construct.definitions(
                self.path,
                self.sites,
                construct.enums(self, caught),
                construct.debug_forms(self, caught),
            )
            + macros.rules(self, caught)
            + self.conversions
        )
        calls = helpers.message_calls(self, caught) if not self.test_path else []
        return Extraction(
            sites=tuple(self.sites),
            classes=tuple(classes),
            forwarders=tuple(self.forwarders),
            calls=tuple(calls),
            functions=tuple(helpers.functions(self, caught)),
        )

    def _candidates(self, caught: grammars.Captures) -> list[tuple[int, int, int, Node]]:
        """(start, kind, index, node) of the captures whose name makes them a
        candidate, in document order."""
        src = self.src
        out: list[tuple[int, int, int, Node]] = []
        for kind, capture, names in _CANDIDATES:
            for i, n in enumerate(caught.get(capture, ())):
                if names is None or src[n.start_byte : n.end_byte] in names:
                    out.append((n.start_byte, kind, i, n))
        return out

    def _collect_displays(self, caught: grammars.Captures) -> None:
        errors: set[str] = set()
        displays: list[tuple[Node, str]] = []
        impls: list[tuple[int, Node, Node]] = []  # (start, impl, trait name)
        for capture, up in (("impl.trait", 1), ("impl.scoped_trait", 2)):
            for trait in caught.get(capture, ()):
                # .parent walks down from the root: asked once
                up_one = trait.parent
                impl = up_one if up == 1 or up_one is None else up_one.parent
                if impl is not None and self.src[trait.start_byte : trait.end_byte] in _IMPLS:
                    impls.append((impl.start_byte, impl, trait))
        impls.sort(key=lambda x: x[0])
        for _, impl, trait in impls:
            type_node = impl.child_by_field_name("type")
            if type_node is None:
                continue
            name = _type_name(type_node, self)
            if self.text_of(trait) == "Error":
                errors.add(name)
                self.error_types.add(name)
            else:
                displays.append((impl, name))
        held = self._held_by_errors(
            {n for _, n in displays if not _errish(n, errors)}, errors | {n for _, n in displays}
        )
        self.error_types.update(held)
        views = {m.decode() for m in _ERROR_VIEW.findall(self.src)}
        for node, name in displays:
            if _errish(name, errors) or name in held or name in views:
                self.displays.append((node.start_byte, node.end_byte, name))
                self.display_impls.append((node, name))

    def _held_by_errors(self, names: set[str], types: set[str]) -> set[str]:
        """Which of ``names`` an error type of the file holds in a field, so
        that its ``Display`` is part of the error's: data-encoding's
        ``DecodeError { kind: DecodeKind, .. }`` prints ``"{} at {}"`` with
        the kind's ``"invalid symbol"``."""
        if not names:
            return set()
        out: set[str] = set()
        for m in _STRUCT_BODY.finditer(self.src):
            owner = m.group(1).decode()
            if owner in names or not _errish(owner, types - names):
                continue
            for t in _FIELD_TYPE.findall(m.group(2)):
                if t.decode() in names:
                    out.add(t.decode())
        return out

    def _collect_consts(self, caught: grammars.Captures) -> None:
        """``static LEVEL_PARSE_ERROR: &str = "...";``: a message written
        once and passed by name (``f.write_str(LEVEL_PARSE_ERROR)``)."""
        for name in caught.get("const.name", ()):
            item = name.parent
            value = item.child_by_field_name("value") if item is not None else None
            if value is not None and value.type in _STRING_NODES:
                lit = unescape(self.text_of(value))
                if lit is not None:
                    self.consts[self.text_of(name)] = lit

    def _descriptions(self, caught: grammars.Captures) -> None:
        """Texts per variant that a ``Display`` prints from elsewhere: one
        site per arm of

        - a method of an error type that returns them (regex-syntax's
          ``fn description(&self) -> &str { match *self { A => "a", .. } }``):
          an inherent one, or ``Error::description`` when the type's
          ``Display`` calls it (otherwise that deprecated method is not what
          the error prints);
        - a ``match`` inside the ``Display`` that picks the text (``let msg =
          match self.kind { A => "a", .. }; f.write_str(msg)``).
        """
        for scope in caught.get("scope", ()):
            if scope.type == "function_item":
                self._one_description(scope)
        for match in caught.get("match", ()):
            inside = self._display_type(match)
            if inside is not None:
                if not self._written_elsewhere(match):
                    self._match_arms(match, inside, *self._written_with(match))
                continue
            fn = _ancestor(match, "function_item")
            ret = fn.child_by_field_name("return_type") if fn is not None else None
            if fn is None or ret is None or "str" not in self.text_of(ret):
                continue
            body = fn.child_by_field_name("body")
            if body is None or _last_expression(body) != match:
                continue
            impl = _ancestor(fn, "impl_item")
            type_node = impl.child_by_field_name("type") if impl is not None else None
            if type_node is None or impl is None:
                continue
            owner = _type_name(type_node, self)
            if not _errish(owner, self.error_types):
                continue
            if impl.child_by_field_name("trait") is not None and not self._display_reads(
                owner, self.text_of(fn.child_by_field_name("name") or fn)
            ):
                continue
            self._match_arms(match, owner, sentences=True)

    def _one_description(self, fn: Node) -> None:
        """``fn __description(&self) -> &str { "out of range .." }`` of an
        error type whose ``Display`` calls it (num-bigint's): its text."""
        ret = fn.child_by_field_name("return_type")
        body = fn.child_by_field_name("body")
        name = fn.child_by_field_name("name")
        if ret is None or body is None or name is None or "str" not in self.text_of(ret):
            return
        last = _last_expression(body)
        if last is None or last.type not in _STRING_NODES:
            return
        impl = _ancestor(fn, "impl_item")
        type_node = impl.child_by_field_name("type") if impl is not None else None
        if type_node is None:
            return
        owner = _type_name(type_node, self)
        if not _errish(owner, self.error_types) or not self._display_reads(
            owner, self.text_of(name)
        ):
            return
        lit = unescape(self.text_of(last))
        if lit is not None and " " in lit.strip():
            self._add("display-impl", last, last, Template.literal(lit), owner)

    def _written_elsewhere(self, match: Node) -> bool:
        """Whether a ``match`` in a ``Display`` is read as another site's:
        the argument of ``f.write_str``/``f.pad``, or an arm of a bigger one."""
        p = match.parent
        if p is not None and p.type == "arguments":
            return True
        arms = match.child_by_field_name("body")
        texts = [self._arm_text(arm) for arm in (arms.named_children if arms else ())]
        found = [t for t in texts if t is not None]
        # one text written by its arm ("a".fmt(f)) is a message; one bare
        # text among other arms may be anything
        written = any(t.parent is not None and t.parent.type == "field_expression" for t in found)
        if not written and len(found) == 1 and self._picks_for_self(match):
            return False  # strsim's one-variant ``let text = match self { .. }``
        return not written and len(found) < 2

    def _picks_for_self(self, match: Node) -> bool:
        """``let text = match self { .. };``: the text of the error itself."""
        on = match.child_by_field_name("value")
        p = match.parent
        return (
            on is not None
            and self.text_of(on).lstrip("&*") == "self"
            and p is not None
            and p.type == "let_declaration"
        )

    def _arm_text(self, arm: Node) -> Node | None:
        """The string literal a match arm gives: ``A => "a"``, ``A => { "a" }``,
        ``A => Some("a")``, or writes, ``A => "a".fmt(f)?`` (toml's Display);
        or the name of a ``const`` string of the file it gives or writes."""
        value = arm.child_by_field_name("value") if arm.type == "match_arm" else None
        if value is not None and value.type == "block" and value.named_child_count == 1:
            value = _first(value)  # A => { "a long text" }
        if value is not None and value.type == "expression_statement":
            value = _first(value)
        if value is not None and value.type == "try_expression":
            value = _first(value)
        if value is not None and value.type == "call_expression" and self._is_some(value):
            args = value.child_by_field_name("arguments")
            value = _first(args) if args is not None and args.named_child_count == 1 else None
        if value is not None and value.type == "call_expression":
            func = value.child_by_field_name("function")
            recv = func.child_by_field_name("value") if func is not None else None
            field = func.child_by_field_name("field") if func is not None else None
            if (
                func is None
                or func.type != "field_expression"
                or field is None
                or self.text_of(field) not in ("fmt", "write_str")
            ):
                return None
            value = recv
        if value is not None and value.type == "identifier" and self.text_of(value) in self.consts:
            return value  # rayon's ``A => GLOBAL_POOL_ALREADY_INITIALIZED.fmt(f)``
        return value if value is not None and value.type in _STRING_NODES else None

    def _text_of_arm(self, value: Node) -> str | None:
        """The text an arm's node (``_arm_text``) stands for."""
        if value.type == "identifier":
            return self.consts.get(self.text_of(value))
        return unescape(self.text_of(value))

    def _written_with(self, match: Node) -> tuple[Template | None, str | None]:
        """``let what = match .. { .. }; write!(f, "invalid duration: {}", what)``:
        the message that writes the picked text, and its placeholder's name."""
        let = match.parent
        pat = let.child_by_field_name("pattern") if let is not None else None
        fn = _ancestor(match, "function_item")
        if let is None or let.type != "let_declaration" or pat is None or fn is None:
            return None, None
        name = self.text_of(pat)
        lo, hi = fn.start_point.row + 1, fn.end_point.row + 1
        found = [
            site.template
            for site in self.sites
            if site.kind == "display-impl"
            and lo <= site.line <= hi
            and any(h.expr == name and "?" not in h.spec for h in site.template.holes)
        ]
        return (found[0], name) if len(found) == 1 else (None, None)

    def _is_some(self, call: Node) -> bool:
        """``Some(..)``: clap's ``fn as_str(self) -> Option<&'static str>``."""
        func = call.child_by_field_name("function")
        return func is not None and func.type == "identifier" and self.text_of(func) == "Some"

    def _display_reads(self, owner: str, method: str) -> bool:
        """Whether the file's ``Display`` of ``owner`` calls ``method``."""
        needle = f"{method}(".encode()
        return any(
            name == owner and needle in self.src[start:end] for start, end, name in self.displays
        )

    def _display_type(self, node: Node) -> str | None:
        for start, end, name in self.displays:
            if start <= node.start_byte < end:
                return name
        return None

    # -- candidates ----------------------------------------------------------

    def _token(self, name: Node) -> None:
        """An identifier inside an unparsed token tree: ``panic ! (...)``,
        ``. expect (...)`` or ``Err (...)``."""
        word = self.text_of(name)
        nxt = name.next_sibling
        if nxt is None:
            return
        if word in _MACRO_KINDS:
            args = nxt.next_sibling
            if nxt.type == "!" and args is not None and args.type == "token_tree":
                self._macro(word, name, name, args)
            return
        if nxt.type != "token_tree" or self.src[nxt.start_byte] != ord("("):
            return
        prev = name.prev_sibling
        if word == "error":
            self._token_error_attr(name, nxt)
            return
        if word == "display":
            self._token_quick_error(name, nxt)
            return
        if word in ("expect", "expect_err") and prev is not None and prev.type == ".":
            groups = _groups(nxt)
            if len(groups) == 1:
                self._add("expect", name, nxt, self._message(groups[0]))
        elif word == "custom" and self._custom_owner(prev):
            # serde's ``Error :: custom (format_args ! ("invalid type: {}, .." ..))``
            groups = _groups(nxt)
            tmpl = self._string_expr(groups[0]) if len(groups) == 1 else None
            if tmpl is not None and not tmpl.dynamic:
                self._add("err-return", name, nxt, tmpl)
        elif word == "Err" and (prev is None or prev.type not in (".", "'")):
            groups = _groups(nxt)
            tmpl = self._string_expr(groups[0]) if len(groups) == 1 else None
            if tmpl is not None:
                self._add("err-return", name, nxt, tmpl)

    def _custom_owner(self, colons: Node | None) -> bool:
        """``Error ::`` or ``E ::`` before ``custom``: a type's constructor."""
        owner = colons.prev_sibling if colons is not None and colons.type == "::" else None
        return owner is not None and self.text_of(owner)[:1].isupper()

    def _token_error_attr(self, name: Node, args: Node) -> None:
        """``# [error("...")]`` in a macro body: thiserror's attribute as tokens."""
        bracket = name.parent
        if bracket is None or name.prev_sibling is None or name.prev_sibling.type != "[":
            return
        hash_ = bracket.prev_sibling
        if hash_ is None or hash_.type != "#":
            return
        groups = _groups(args)
        lit = self._literal(groups[0]) if groups else None
        if lit is None:
            return
        # The item the attribute is on: skip further attributes and keywords.
        target = None
        node = bracket.next_sibling
        while node is not None and target is None:
            word = self.text_of(node)
            if node.type == "metavariable":
                break  # the name is given when the macro is called
            if node.type == "identifier" and word not in _ITEM_WORDS:
                target = word
            elif node.type != "#" and node.type != "token_tree" and word not in _ITEM_WORDS:
                break
            node = node.next_sibling
        enum = bracket.parent.prev_sibling if bracket.parent is not None else None
        keyword = enum.prev_sibling if enum is not None else None
        if (
            target
            and enum is not None
            and enum.type == "identifier"
            and keyword is not None
            and self.text_of(keyword) == "enum"
        ):
            target = f"{self.text_of(enum)}::{target}"
        positional, named = self._fmt_args(groups[1:])
        tmpl = parse_format(lit, positional, named, field_prefix="self.")
        self._add("error-attr", hash_, bracket, tmpl, target)

    def _token_quick_error(self, name: Node, args: Node) -> None:
        """``display("query type {} is invalid", code)`` in a variant of a
        ``quick_error! { pub enum Error { InvalidQueryType(code: u16) { .. } } }``
        (dns-parser's, resolv-conf's): the variant's Display, as thiserror's
        ``#[error]`` is; also quick-error 1's ``display(me) -> ("{}", me.x)``."""
        body = name.parent
        if body is None or self.src[body.start_byte] != ord("{"):
            return
        variant = body.prev_sibling
        if variant is not None and variant.type == "token_tree":
            variant = variant.prev_sibling  # the fields: ``(code: u16)``
        enum_body = body.parent
        enum = enum_body.prev_sibling if enum_body is not None else None
        keyword = enum.prev_sibling if enum is not None else None
        mac = enum_body.parent if enum_body is not None else None
        call = mac.parent if mac is not None else None
        called = call.child_by_field_name("macro") if call is not None else None
        if (
            variant is None
            or variant.type != "identifier"
            or enum is None
            or enum.type != "identifier"
            or keyword is None
            or self.text_of(keyword) != "enum"
            or called is None
            or self.text_of(called).rsplit("::", 1)[-1] != "quick_error"
        ):
            return
        groups = _groups(args)
        arrow = args.next_sibling
        if (
            arrow is not None
            and self.text_of(arrow) == "->"
            and arrow.next_sibling is not None
            and arrow.next_sibling.type == "token_tree"
        ):
            args = arrow.next_sibling
            groups = _groups(args)
        lit = self._literal(groups[0]) if groups else None
        if lit is None:
            return
        positional, named = self._fmt_args(groups[1:])
        tmpl = self._with_consts(parse_format(lit, positional, named))
        target = f"{self.text_of(enum)}::{self.text_of(variant)}"
        self._add("error-attr", name, args, tmpl, target)

    def _macro(self, name: str, site: Node, start: Node, args: Node) -> None:
        kind = _MACRO_KINDS[name]
        exception_type = None
        if kind == "display-impl":
            exception_type = self._display_type(site)
            if exception_type is None:
                return
        groups = _groups(args)
        skip = _LEADING_ARGS.get(name, 0)
        if (
            kind in ("bail", "anyhow")
            and len(groups) > skip
            and construct.builds(self, groups[skip])
        ):
            return  # bail!(Error::X { .. }): a value built, its ``construct`` site throws it
        if len(groups) <= skip:
            if name not in _NO_MESSAGE_OK:
                return
            tmpl = Template.empty()
        else:
            tmpl = self._format(groups, skip)
        if kind == "display-impl" and exception_type is not None:
            if self._token_match_arms(groups[skip + 1 :], tmpl, exception_type):
                return
            exception_type = self._variant(site, exception_type)
        checked = self._checked_condition(name, groups, start)
        made = self.site(kind, start, args, tmpl, exception_type, checked=checked)
        if name.startswith("debug_assert"):  # checked only with debug assertions on
            debug = Guard("cfg", "debug_assertions", start.start_point.row + 1)
            inner = made.guards[-1:] if checked is not None else ()
            outer = made.guards[:-1] if checked is not None else made.guards
            made = replace(made, guards=(*outer, debug, *inner))
        self.sites.append(made)

    def _token_match_arms(self, args: list[list[Node]], tmpl: Template, owner: str) -> bool:
        """``write!(f, "{}", match self { A(..) => "a", B(..) => "b" })``
        (tokio's ``TrySendError``): one site per arm, its text in place of
        the placeholder; False when no argument is such a ``match``."""
        for group in args:
            if len(group) < 3 or self.text_of(group[0]) != "match":
                continue
            body = group[-1]
            if body.type != "token_tree" or self.src[body.start_byte] != ord("{"):
                continue
            expr = _squash(self.span(group))
            if not any(h.expr == expr for h in tmpl.holes):
                continue
            on = _squash(self.span(group[1:-1])).lstrip("&*")
            made = 0
            for arm in _groups(body):
                arrow = next((k for k, t in enumerate(arm) if t.type == "=>"), None)
                if arrow is None or len(arm) != arrow + 2 or arm[-1].type not in _STRING_NODES:
                    continue
                lit = unescape(self.text_of(arm[-1]))
                variant = self._token_variant(arm[:arrow], owner, on == "self")
                if lit is None:
                    continue
                parts = [
                    Text(lit) if isinstance(p, Hole) and p.expr == expr else p for p in tmpl.parts
                ]
                self._add(
                    "display-impl", arm[-1], arm[-1], Template.of(tmpl.syntax, *parts), variant
                )
                made += 1
            return made > 0
        return False

    def _token_variant(self, pattern: list[Node], owner: str, on_self: bool) -> str:
        """``TrySendError :: Full (..)`` -> ``TrySendError::Full``; a bare
        ``Full`` of a match on ``self`` -> ``Owner::Full``; else the owner."""
        path: list[str] = []
        for t in pattern:
            if t.type == "token_tree" or self.text_of(t) == "|":
                break
            if t.type == "identifier" or t.type == "::":
                path.append(self.text_of(t))
        text = "".join(path).removeprefix("ref")
        segments = [x for x in text.split("::") if x]
        if len(segments) >= 2 and segments[-1][:1].isupper():
            owner_of = owner if segments[-2] == "Self" else segments[-2]
            return f"{owner_of}::{segments[-1]}"
        if len(segments) == 1 and segments[0][:1].isupper() and on_self:
            return f"{owner}::{segments[0]}"
        return owner

    def _checked_condition(self, name: str, groups: list[list[Node]], at: Node) -> Guard | None:
        """The condition an ``assert!``/``ensure!`` checks (``a == b`` for
        ``assert_eq!``): the site fires when it is false."""
        if name in ("assert", "debug_assert", "ensure") and groups and groups[0]:
            text = _squash(self.span(groups[0]))
        elif name in _COMPARING and len(groups) >= 2 and groups[0] and groups[1]:
            left, right = _squash(self.span(groups[0])), _squash(self.span(groups[1]))
            text = f"{left} {_COMPARING[name]} {right}"
        else:
            return None
        return Guard("assert", text, at.start_point.row + 1)

    def _method(self, name: Node, call: Node, args: Node) -> None:
        method = self.text_of(name)
        groups = _arguments(args)
        if len(groups) != 1:
            return
        if method in ("expect", "expect_err"):
            self._add("expect", name, call, self._message(groups[0]))
            return
        if method == "fmt":
            self._literal_fmt(name, call)
            return
        owner = self._display_type(call)  # write_str / pad / write_fmt(format_args!(..))
        if owner is None:
            return
        arg = _strip_ref(groups[0])
        if len(arg) == 1 and arg[0].type == "match_expression":
            self._match_arms(arg[0], owner)
            return
        self._add("display-impl", name, call, self._message(groups[0]), self._variant(call, owner))

    def _literal_fmt(self, name: Node, call: Node) -> None:
        """``"sending on a disconnected channel".fmt(f)``, the whole of a
        ``Display`` (crossbeam's); an arm that writes so is read with its
        ``match`` (``_descriptions``)."""
        func = call.child_by_field_name("function")
        recv = func.child_by_field_name("value") if func is not None else None
        if recv is not None and recv.type == "identifier":
            self._bound_fmt(name, call, recv)
            return
        if recv is None or recv.type not in _STRING_NODES:
            return
        owner = self._display_type(call)
        if owner is None or _ancestor(call, "match_arm") is not None:
            return
        lit = unescape(self.text_of(recv))
        if lit is not None:
            self._add("display-impl", name, call, Template.literal(lit), owner)

    def _bound_fmt(self, name: Node, call: Node, recv: Node) -> None:
        """``Error::Custom(ref msg) => msg.fmt(f)`` in a ``Display``
        (serde_urlencoded's): the variant prints the text it holds, so where
        it is built with one (``Error::Custom("unsupported value".into())``)
        is a site of that text (``construct``)."""
        owner = self._display_type(call)
        arm = _ancestor(call, "match_arm")
        pattern = arm.child_by_field_name("pattern") if arm is not None else None
        word = self.text_of(recv)
        if owner is None or pattern is None or word == "self":
            return
        if not re.search(rf"\b{re.escape(word)}\b", self.text_of(pattern)):
            return
        variant = self._variant(call, owner)
        if variant is not None and variant != owner:
            self._add("display-impl", name, call, Template.runtime(word), variant)

    def _match_arms(
        self,
        match: Node,
        owner: str,
        around: Template | None = None,
        hole: str | None = None,
        sentences: bool = False,
    ) -> None:
        """``f.write_str(match self { A => "a", B => "b" })``: one site per arm;
        with ``around``, the arm's text is the placeholder ``hole`` of it.
        ``sentences``: only texts of more than one word (a method that
        names its variants, ``"io"``, says no message)."""
        body = match.child_by_field_name("body")
        for arm in body.named_children if body is not None else ():
            value = self._arm_text(arm)
            if value is not None:
                lit = self._text_of_arm(value)
                if lit is not None and (not sentences or " " in lit.strip()):
                    tmpl = Template.literal(lit)
                    if around is not None:
                        tmpl = Template.of(
                            around.syntax,
                            *(
                                Text(lit) if isinstance(p, Hole) and p.expr == hole else p
                                for p in around.parts
                            ),
                        )
                    self._add("display-impl", value, value, tmpl, self._variant(value, owner))

    def _err(self, call: Node, groups: list[list[Node]]) -> None:
        if len(groups) != 1:
            return
        tmpl = self._string_expr(groups[0]) or self._error_method(groups[0])
        if tmpl is not None:
            self._add("err-return", call, call, tmpl)
        elif len(groups[0]) == 1:
            # ``Err(from.into())`` of the function's text parameter: each
            # call passes the message (rust_decimal's ``tail_error("..")``)
            fw = helpers.forwarder(self, construct.param(groups[0][0], self.text_of), "")
            if fw is not None:
                self.forwarders.append(replace(fw, kind="err-return", exception_type=None))

    def _error_attr(self, attr: Node, args: Node) -> None:
        groups = _groups(args)
        if not groups:
            return
        lit = self._literal(groups[0])
        if lit is None:  # #[error(transparent)], or not thiserror's attribute
            return
        target = attr.next_named_sibling
        while target is not None and (target.type == "attribute_item" or target.type in _COMMENTS):
            target = target.next_named_sibling
        if target is None:
            return
        owner = target
        if target.type == "enum_variant":
            owner = _ancestor(target, "enum_item") or target
        elif target.type not in ("struct_item", "enum_item"):
            return
        type_name = _item_name(owner, self)
        exception_type = type_name
        if target.type == "enum_variant":
            exception_type = f"{type_name}::{_item_name(target, self)}"
        positional, named = self._fmt_args(groups[1:])
        tmpl = parse_format(lit, positional, named, field_prefix="self.")
        self._add("error-attr", attr, attr, tmpl, exception_type, owner, target)

    # -- messages ------------------------------------------------------------

    def _literal(self, nodes: list[Node]) -> str | None:
        """The value of a string literal or ``concat!`` of literals."""
        nodes = _strip_ref(nodes)
        if len(nodes) == 1 and nodes[0].type in _STRING_NODES:
            return unescape(self.text_of(nodes[0]))
        mac = self._as_macro(nodes)
        if mac is None or mac[0] != "concat":
            return None
        out: list[str] = []
        for group in _groups(mac[1]):
            piece = self._literal(group)
            if piece is None:
                return None
            out.append(piece)
        return "".join(out)

    def _as_macro(self, nodes: list[Node]) -> tuple[str, Node] | None:
        """``name!(...)`` as a parsed macro call or as tokens: (name, args)."""
        if len(nodes) == 1 and nodes[0].type == "macro_invocation":
            mac = nodes[0]
            name = mac.child_by_field_name("macro")
            args = mac.child(mac.child_count - 1)
            if name is None or args is None or args.type != "token_tree":
                return None
            if name.type == "scoped_identifier":
                name = name.child_by_field_name("name") or name
            return self.text_of(name), args
        if (
            len(nodes) >= 3
            and nodes[-2].type == "!"
            and nodes[-1].type == "token_tree"
            and nodes[-3].type == "identifier"
        ):
            return self.text_of(nodes[-3]), nodes[-1]
        return None

    def _fmt_args(self, groups: list[list[Node]]) -> tuple[list[str], dict[str, str]]:
        positional: list[str] = []
        named: dict[str, str] = {}
        for g in groups:
            if len(g) >= 3 and g[0].type == "identifier" and g[1].type == "=":
                named[self.text_of(g[0])] = _squash(self.span(g[2:]))
            else:
                positional.append(_squash(self.span(g)))
        return positional, named

    def _format(self, groups: list[list[Node]], skip: int) -> Template:
        """A format string at ``groups[skip]`` and its arguments after it."""
        lit = self._literal(groups[skip])
        if lit is None:  # panic!(msg) in the 2018 edition, bail!(err)
            return Template.runtime(_squash(self.span(groups[skip])))
        if not lit:  # panic!(""): an empty message, not none (panic!() says "explicit panic")
            return Template(syntax="literal", parts=(), dynamic=False)
        positional, named = self._fmt_args(groups[skip + 1 :])
        return self._with_consts(parse_format(lit, positional, named))

    def _with_consts(self, tmpl: Template) -> Template:
        """``write!(f, "{}", CAPERROR)``: a placeholder shown with ``{}`` of
        a string ``const`` of the file is that text (arrayvec's, ascii's)."""
        if not self.consts or not any(
            isinstance(p, Hole) and p.expr in self.consts for p in tmpl.parts
        ):
            return tmpl
        parts = [
            Text(self.consts[p.expr])
            if isinstance(p, Hole) and p.expr in self.consts and p.spec in ("{}", f"{{{p.expr}}}")
            else p
            for p in tmpl.parts
        ]
        return Template.of(tmpl.syntax, *parts)

    def _message(self, nodes: list[Node]) -> Template:
        """A message argument (``expect``): what it says, or a runtime hole."""
        tmpl = self._string_expr(nodes)
        if tmpl is None:
            return Template.runtime(_squash(self.span(nodes)))
        return tmpl

    def _string_expr(self, nodes: list[Node]) -> Template | None:
        """A string built from literals (``"x"``, ``format!(...)``,
        ``"x".to_string()``, ``String::from("x")``), or None for anything
        else (``Err(e)`` passes an error on: it is not a message)."""
        nodes = _strip_ref(nodes)
        if not nodes:
            return None
        lit = self._literal(nodes)
        if lit is not None:
            return Template.literal(lit)
        mac = self._as_macro(nodes)
        if mac is not None:
            if mac[0] not in _FORMAT_MACROS:
                return None
            groups = _groups(mac[1])
            return self._format(groups, 0) if groups else None
        if len(nodes) == 1 and nodes[0].type == "identifier":
            held = self.consts.get(self.text_of(nodes[0]))
            return Template.literal(held) if held is not None else None
        if len(nodes) == 1:
            return self._string_call(nodes[0])
        # token form: x.to_string()  /  String::from(x)
        if (
            len(nodes) >= 4
            and nodes[-3].type == "."
            and nodes[-1].type == "token_tree"
            and nodes[-1].named_child_count == 0
            and self.text_of(nodes[-2]) in _CONVERSIONS
        ):
            return self._string_expr(nodes[:-3])
        if (
            len(nodes) == 4
            and nodes[1].type == "::"
            and nodes[3].type == "token_tree"
            and self.text_of(nodes[0]) in _STRING_TYPES
            and self.text_of(nodes[2]) in ("from", "new")
        ):
            inner = _groups(nodes[3])
            return self._string_expr(inner[0]) if len(inner) == 1 else None
        return None

    def _error_method(self, nodes: list[Node]) -> Template | None:
        """``Err(input.error("expected identifier"))``: a method whose name
        says it makes an error (syn's ``ParseStream::error``, a parser's
        ``self.error(..)``), given one text and nothing else."""
        if len(nodes) != 1 or nodes[0].type != "call_expression":
            return None
        func = nodes[0].child_by_field_name("function")
        args = nodes[0].child_by_field_name("arguments")
        field = func.child_by_field_name("field") if func is not None else None
        if func is None or func.type != "field_expression" or field is None or args is None:
            return None
        if not re.fullmatch(r"(?:\w+_)?err(?:or)?", self.text_of(field)):
            return None
        groups = _arguments(args)
        return self._string_expr(groups[0]) if len(groups) == 1 else None

    def _string_call(self, node: Node) -> Template | None:
        if node.type == "parenthesized_expression" and node.named_child_count == 1:
            inner = _first(node)
            return self._string_expr([inner]) if inner is not None else None
        if node.type != "call_expression":
            return None
        func = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if func is None or args is None:
            return None
        groups = _arguments(args)
        if func.type == "field_expression":
            field = func.child_by_field_name("field")
            value = func.child_by_field_name("value")
            if field is None or value is None or groups:
                return None
            return self._string_expr([value]) if self.text_of(field) in _CONVERSIONS else None
        if func.type != "scoped_identifier" or len(groups) != 1:
            return None
        path = func.child_by_field_name("path")
        name = func.child_by_field_name("name")
        if path is None or name is None or self.text_of(name) not in ("from", "new"):
            return None
        if self.text_of(path).rsplit("::", 1)[-1] not in _STRING_TYPES:
            return None
        return self._string_expr(groups[0])

    # -- context -------------------------------------------------------------

    def _variant(self, node: Node, owner: str | None) -> str | None:
        """``Type::Variant`` from the nearest match arm inside a Display impl:
        the arm's path as written (``ErrorKind::Empty``), or ``Owner::Empty``
        for a bare variant name when the match is on ``self``."""
        p = node.parent
        while p is not None and p.type not in ("impl_item", "function_item"):
            if p.type == "match_arm":
                return self._arm_variant(p, owner) or owner
            p = p.parent
        return owner

    def _arm_variant(self, arm: Node, owner: str | None) -> str | None:
        first = _first(arm.child_by_field_name("pattern"))
        if first is not None and first.type in ("tuple_struct_pattern", "struct_pattern"):
            first = first.child_by_field_name("type")
        if first is None:
            return None
        if first.type in ("scoped_identifier", "scoped_type_identifier"):
            path = _squash(self.text_of(first))
            return owner + path[4:] if path.startswith("Self::") and owner else path
        name = self.text_of(first)
        if first.type not in ("identifier", "type_identifier") or not name[:1].isupper():
            return None
        match = _ancestor(arm, "match_expression")
        scrutinee = match.child_by_field_name("value") if match is not None else None
        if owner is None or scrutinee is None:
            return None
        on = _squash(self.text_of(scrutinee)).lstrip("&*")
        if on == "self":
            return f"{owner}::{name}"
        field = _SELF_FIELD.fullmatch(on)
        if field is not None and match is not None:
            # ``match self.kind { InvalidName => .. }``: the variant of the
            # field's enum (termcolor's ParseColorErrorKind, num-bigint's)
            enum = self._field_enum(match, owner, field.group(1))
            return f"{enum}::{name}" if enum else None
        return None

    def _field_enum(self, match: Node, owner: str, field: str) -> str | None:
        """The enum a match on ``self.<field>`` is over: the one the enclosing
        function glob-imports (``use self::ParseColorErrorKind::*;``), else
        the field's type in the file's ``struct <owner>``."""
        fn = _ancestor(match, "function_item")
        if fn is not None:
            globs = _GLOB_USE.findall(self.src[fn.start_byte : match.start_byte])
            if len(globs) == 1:
                return str(globs[0].decode())
        m = re.search(
            rb"\bstruct\s+" + re.escape(owner.encode()) + rb"\b[^{;]*\{([^}]*)\}", self.src
        )
        if m is not None:
            t = re.search(
                rb"\b" + re.escape(field.encode()) + rb"\s*:\s*([A-Z]\w*)\s*[,}]", m.group(1) + b"}"
            )
            if t is not None:
                return t.group(1).decode()
        return None

    def _add(
        self,
        kind: str,
        start: Node,
        end: Node,
        tmpl: Template,
        exception_type: str | None = None,
        symbol_node: Node | None = None,
        context_node: Node | None = None,
        checked: Guard | None = None,
    ) -> None:
        self.sites.append(
            self.site(kind, start, end, tmpl, exception_type, symbol_node, context_node, checked)
        )

    def site(
        self,
        kind: str,
        start: Node,
        end: Node,
        tmpl: Template,
        exception_type: str | None = None,
        symbol_node: Node | None = None,
        context_node: Node | None = None,
        checked: Guard | None = None,
    ) -> ThrowSite:
        """The site of a throw from ``start`` to ``end`` (not yet added)."""
        symbol, guards, in_test = self._context(start if context_node is None else context_node)
        if checked is not None:
            guards.append(checked)  # innermost: the site's own condition
        if symbol_node is not None:
            name = _item_name(symbol_node, self)
            symbol = f"{symbol}::{name}" if symbol else name
        line = start.start_point.row + 1
        return ThrowSite(
            path=self.path,
            line=line,
            column=self.column(start),
            end_line=end.end_point.row + 1,
            language=LANGUAGE,
            kind=kind,
            template=tmpl,
            exception_type=exception_type,
            symbol=symbol,
            guards=tuple(guards),
            in_test=in_test,
            context_hash=context_hash(self.lines, line),
        )

    def write_template(self, macro: str, args: Node) -> Template | None:
        """What ``write!(f, ..)`` or ``writeln!(f, ..)`` (``args``) writes."""
        groups = _groups(args)
        tmpl = self._format(groups, 1) if len(groups) > 1 else Template.empty()
        if macro == "writeln":
            tmpl = Template.of(tmpl.syntax, *tmpl.parts, Text("\n"))
        return tmpl

    def variant(self, node: Node, owner: str | None) -> str | None:
        """``Type::Variant`` of the match arm ``node`` is in (``_variant``)."""
        return self._variant(node, owner)

    def impl_type(self, node: Node) -> str | None:
        """The type of the ``impl`` block ``node`` is in (what ``Self`` is)."""
        p = node.parent
        while p is not None and p.type != "impl_item":
            p = p.parent
        t = p.child_by_field_name("type") if p is not None else None
        return _type_name(t, self) if t is not None else None

    def string_expr(self, nodes: list[Node]) -> Template | None:
        return self._string_expr(nodes)

    def _context(self, node: Node) -> tuple[str | None, list[Guard], bool]:
        """(symbol, guards outermost first, in_test) for a node."""
        guards: list[Guard] = []  # innermost first while walking up
        names: list[str] = []
        in_test = self.test_path
        in_test |= self._attributes(_preceding(node), guards, leading=False)
        child = node
        p = node.parent
        while p is not None:
            t = p.type
            if t == "match_arm":
                self._arm_guard(p, child, guards)
                in_test |= self._attributes(p.named_children, guards, leading=True)
            elif t == "if_expression":
                cond = p.child_by_field_name("condition")
                if cond is not None and child != cond:
                    kind = "else" if child.type == "else_clause" else "if"
                    guards.append(
                        Guard(kind, _squash(self.text_of(cond)), cond.start_point.row + 1)
                    )
            elif t == "let_declaration" and child == p.child_by_field_name("alternative"):
                pat, value = p.child_by_field_name("pattern"), p.child_by_field_name("value")
                if pat is not None and value is not None:
                    let = f"let {self.text_of(pat)} = {self.text_of(value)}"
                    guards.append(Guard("else", _squash(let), p.start_point.row + 1))
            elif t in ("const_item", "static_item", "const_block"):
                # evaluated while compiling: a failure is a compile error
                what = "const" if t != "static_item" else "static"
                name_node = p.child_by_field_name("name")
                text = (
                    f"{what} {self.text_of(name_node)}" if name_node is not None else "const { .. }"
                )
                guards.append(Guard("const", text, p.start_point.row + 1))
            elif t in ("function_item", "mod_item", "trait_item", "macro_definition"):
                name = _item_name(p, self)
                names.append(name + "!" if t == "macro_definition" else name)
            elif t == "impl_item":
                names.append(self._impl_name(p))
            elif t == "token_tree" and self.src[p.start_byte] == 0x7B:  # "{"
                item = self._token_item(p, guards)
                if item is not None:
                    names.append(item[0])
                    in_test |= item[1]
            elif t == "source_file":
                file_guards, file_test = self._file_context(p)
                guards.extend(file_guards)
                in_test |= file_test
                break
            in_test |= self._attributes(_preceding(p), guards, leading=False)
            child = p
            p = p.parent
        guards.reverse()
        names.reverse()
        return ("::".join(names) or None), guards, in_test

    def _token_item(self, body: Node, guards: list[Guard]) -> tuple[str, bool] | None:
        """``fn name(...) -> T {`` or ``mod name {`` written as tokens (in a
        macro body): the item's name, and whether its ``#[...]`` tokens mark a
        test. Its ``#[cfg(...)]`` tokens are added to ``guards``."""
        prev = body.prev_sibling
        for _ in range(48):
            if prev is None or prev.type in (";", "=>", "}"):
                return None
            if prev.type == "token_tree" and self.src[prev.start_byte] == 0x7B:
                return None
            if prev.type in ("fn", "mod"):
                break
            prev = prev.prev_sibling
        else:
            return None
        name = prev.next_sibling
        if name is None or name.type != "identifier":
            return None
        in_test = False
        node = prev.prev_sibling
        while node is not None:
            if node.type == "token_tree" and self.src[node.start_byte] == 0x5B:  # "["
                hash_ = node.prev_sibling
                if hash_ is None or hash_.type != "#":
                    break
                attr = _squash(self.text_of(node)[1:-1])
                if attr.startswith("cfg(") and attr.endswith(")"):
                    inner = attr[4:-1].strip()
                    guards.append(Guard("cfg", inner, node.start_point.row + 1))
                    in_test |= bool(_TEST_WORD.search(inner)) and "not" not in inner
                in_test |= attr in ("test", "bench", "should_panic") or attr.endswith("::test")
                node = hash_.prev_sibling
            elif node.type in _ITEM_PREFIXES or (
                node.type == "token_tree" and self.src[node.start_byte] == 0x28  # pub(crate)
            ):
                node = node.prev_sibling
            else:
                break
        return self.text_of(name), in_test

    def _file_context(self, root: Node) -> tuple[list[Guard], bool]:
        if self._file_guards is None:
            guards: list[Guard] = []
            in_test = False
            for c in root.named_children:
                if c.type == "inner_attribute_item":
                    in_test |= self._attribute(c, guards)
                elif c.type not in _COMMENTS:
                    break
            guards.reverse()  # innermost first, like the rest of _context's list
            self._file_guards = (guards, in_test)
        return self._file_guards

    def _attributes(self, nodes: Sequence[Node], guards: list[Guard], leading: bool) -> bool:
        """Read attribute items (innermost first); True if one marks a test."""
        in_test = False
        items = list(nodes)
        if leading:  # a match arm's own attributes come first among its children
            items = []
            for c in nodes:
                if c.type != "attribute_item":
                    break
                items.append(c)
            items.reverse()
        for c in items:
            if c.type == "attribute_item":
                in_test |= self._attribute(c, guards)
        return in_test

    def _attribute(self, item: Node, guards: list[Guard]) -> bool:
        attr = _first(item)
        if attr is None or attr.type != "attribute":
            return False
        head = _first(attr)
        if head is None:
            return False
        name = self.text_of(head)
        if name == "cfg":
            args = attr.child_by_field_name("arguments")
            if args is None:
                return False
            inner = _squash(self.text_of(args)[1:-1])
            guards.append(Guard("cfg", inner, item.start_point.row + 1))
            return bool(_TEST_WORD.search(inner)) and "not" not in inner
        if name == "track_caller" or (
            name == "cfg_attr" and "track_caller" in self.text_of(attr)
        ):  # the panic is reported at the caller's line
            text = _squash(self.text_of(item))
            guards.append(Guard("track-caller", text, item.start_point.row + 1))
            return False
        return name in ("test", "bench", "should_panic") or name.endswith("::test")

    def _arm_guard(self, arm: Node, child: Node, guards: list[Guard]) -> None:
        pat = arm.child_by_field_name("pattern")
        if pat is None or child == pat:
            return
        line = pat.start_point.row + 1
        first = _first(pat)
        catch_all = pat.child_by_field_name("condition") is None and (
            (first is None and self.text_of(pat).strip() == "_")
            or (
                first is not None
                and first.type == "identifier"
                and self.text_of(first)[:1].islower()
            )
        )
        if not catch_all:
            guards.append(Guard("match-arm", _squash(self._code_of(pat)), line))
            return
        siblings: list[str] = []
        block = arm.parent
        for other in block.named_children if block is not None else ():
            if other.type == "match_arm" and other != arm:
                other_pat = other.child_by_field_name("pattern")
                if other_pat is not None:
                    siblings.append(_squash(self._code_of(other_pat)))
        guards.append(Guard("match-arm", "_", line, tuple(siblings)))

    def _code_of(self, node: Node) -> str:
        """A node's text without its comments (``[0x64, 0x86, ..] // COFF``):
        a guard shows code, whose every identifier is checked (``verify``)."""
        cuts: list[tuple[int, int]] = []
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type in ("line_comment", "block_comment"):
                cuts.append((n.start_byte, n.end_byte))
            elif n.child_count:
                stack.extend(n.children)
        if not cuts:
            return self.text_of(node)
        out, at = bytearray(), node.start_byte
        for lo, hi in sorted(cuts):
            out += self.src[at:lo]
            at = hi
        out += self.src[at : node.end_byte]
        return out.decode("utf-8", "replace")

    def _impl_name(self, impl: Node) -> str:
        type_node = impl.child_by_field_name("type")
        type_name = _type_name(type_node, self) if type_node is not None else "?"
        trait = impl.child_by_field_name("trait")
        if trait is None:
            return type_name
        return f"<{type_name} as {_squash(self.text_of(trait))}>"


def _errish(name: str, errors: set[str]) -> bool:
    """Whether a type is an error type: it implements ``Error``, or says so."""
    return name in errors or "Error" in name or name.endswith("Err")


def _last_expression(block: Node) -> Node | None:
    """The value a block ends with (``{ ...; match x { .. } }``)."""
    last = block.named_children[-1] if block.named_child_count else None
    if last is not None and last.type == "expression_statement":
        last = _first(last)
    return last


def _item_name(node: Node, f: _File) -> str:
    name = node.child_by_field_name("name")
    return f.text_of(name) if name is not None else "?"


def _first(node: Node | None) -> Node | None:
    """The first named child, or None (``named_child`` raises when there is none)."""
    if node is None or node.named_child_count == 0:
        return None
    return node.named_child(0)


#: ``struct Name { fields }`` (a struct's body without nested braces)
_STRUCT_BODY = re.compile(rb"\bstruct\s+([A-Z]\w*)[^{;(]*\{([^{}]*)\}")
#: ``field: Type`` in a struct's body
_FIELD_TYPE = re.compile(rb"\b[a-z_]\w*\s*:\s*([A-Z]\w*)\s*(?:,|$)")
#: ``self.kind``, ``self.kind()``: a field of the error a match is on
_SELF_FIELD = re.compile(r"self\s*\.\s*([a-z_]\w*)(?:\(\))?")
#: ``use self::ParseColorErrorKind::*;`` / ``use crate::BigIntErrorKind::*;``
#: ``impl From<&ast::Error> for Formatter``: a type made from an error to
#: print it (regex-syntax's report), whose Display is the error's text
_ERROR_VIEW = re.compile(
    rb"\bimpl\s*(?:<[^>{]{0,200}>)?\s*From\s*<[^>{]{0,200}Err[^>{]{0,200}>\s*for\s+([A-Z]\w*)"
)
_GLOB_USE = re.compile(rb"\buse\s+(?:[\w]+::)*([A-Z]\w*)::\*\s*;")


def _ancestor(node: Node, kind: str) -> Node | None:
    p = node.parent
    while p is not None and p.type != kind:
        p = p.parent
    return p


def _preceding(node: Node) -> list[Node]:
    """The attribute items (and comments) written just before ``node``,
    nearest first."""
    out: list[Node] = []
    prev = node.prev_named_sibling
    while prev is not None and (prev.type == "attribute_item" or prev.type in _COMMENTS):
        out.append(prev)
        prev = prev.prev_named_sibling
    return out


def _groups(tt: Node) -> list[list[Node]]:
    """The comma-separated arguments inside a token tree, as token lists."""
    groups: list[list[Node]] = [[]]
    for c in tt.children[1:-1]:
        if c.type == ",":
            groups.append([])
        elif c.type not in _COMMENTS:
            groups[-1].append(c)
    return [g for g in groups if g]


def _arguments(args: Node) -> list[list[Node]]:
    """The arguments of a parsed call, each as a one-node list."""
    return [[c] for c in args.named_children if c.type not in _COMMENTS]


def _strip_ref(nodes: list[Node]) -> list[Node]:
    """``&x`` -> ``x``, as a parsed expression or as tokens."""
    while len(nodes) == 1 and nodes[0].type == "reference_expression":
        value = nodes[0].child_by_field_name("value")
        if value is None:
            break
        nodes = [value]
    while len(nodes) > 1 and nodes[0].type == "&":
        nodes = nodes[1:]
    return nodes
