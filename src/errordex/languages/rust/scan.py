"""Evidence in one Rust file: fns, calls by name, doc sections, tests (pure).

Symbols are qualified like the extractor qualifies a site's symbol: the names
of enclosing ``mod``/``trait``/``fn`` items and impls (``Type`` or
``<Type as Trait>``) joined by ``::``.
"""

from __future__ import annotations

import itertools
import re
import sys
from dataclasses import replace

from tree_sitter import Node, Parser, Tree

from errordex import grammars
from errordex.analysis.evidence import (
    Call,
    DocLine,
    FileEvidence,
    FuncDef,
    Scrutinee,
    TestExpect,
    TraitDecl,
)
from errordex.analysis.validcall import split_args
from errordex.extract.common import decode_all, is_test_path
from errordex.languages.rust import shapes
from errordex.languages.rust.tables import table_tests

_IDENT_NODES = frozenset(
    {
        "identifier",
        "type_identifier",
        "field_identifier",
        "primitive_type",
        "shorthand_field_identifier",
    }
)
#: ``pub use a::b::{C, D as E};`` at the start of a line (not ``pub(crate) use``)
_PUB_USE = re.compile(r"^[ \t]*pub[ \t]+use[ \t]+([^;]+);", re.M)


def _top_level_items(inner: str) -> list[str]:
    """The non-empty items of a ``use`` tree's braces, split at the commas
    outside nested braces.

    >>> _top_level_items("a, b::{c, d}, ")
    ['a', 'b::{c, d}']
    """
    out: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(inner + ","):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            part = inner[start:i].strip()
            start = i + 1
            if part:
                out.append(part)
    return out


def _use_leaves(tree: str) -> list[tuple[str, str]]:
    """(name, name it is exported as) of a use tree's leaves.

    >>> _use_leaves("group_norm::{group_norm, GroupNorm as Norm, inner::{self, X}}")
    [('group_norm', 'group_norm'), ('GroupNorm', 'Norm'), ('X', 'X')]
    """
    tree = re.sub(r"\s+", " ", tree).strip()
    out: list[tuple[str, str]] = []
    brace = tree.find("{")
    if brace >= 0 and tree.endswith("}"):
        for part in _top_level_items(tree[brace + 1 : -1]):
            out += _use_leaves(part)
        return out
    name, _, alias = tree.partition(" as ")
    leaf = name.strip().rsplit("::", 1)[-1]
    shown = alias.strip() or leaf
    if leaf in ("*", "self", "super", "crate") or shown == "_" or not leaf.isidentifier():
        return []
    return [(leaf, shown)]


#: ``#[doc = include_str!("../docs/routing/route.md")]`` (axum's method docs)
_INCLUDE_DOC = re.compile(r"#\[\s*doc\s*=\s*include_str!\s*\(\s*\"([^\"]+)\"\s*\)\s*\]")


def _included(path: str, relative: str) -> str:
    """The repository path of a file ``include_str!`` names from ``path``.

    >>> _included("axum/src/routing/mod.rs", "../docs/routing/route.md")
    'axum/src/docs/routing/route.md'
    """
    parts = path.split("/")[:-1]
    for seg in relative.split("/"):
        if seg == "..":
            if not parts:
                return ""
            parts.pop()
        elif seg and seg != ".":
            parts.append(seg)
    return "/".join(parts)


#: a file's own ``mod`` items, at the start of a line (not one in an inline module)
_MOD = re.compile(r"^(pub(?:\([^)]*\))?[ \t]+)?mod[ \t]+([A-Za-z_]\w*)[ \t]*[;{]", re.M)
#: a top-level ``mod`` item under ``#[cfg(debug_assertions)]``, other attributes between
_DEBUG_MOD = re.compile(
    r"^#\[cfg\(\s*debug_assertions\s*\)\][ \t]*\n(?:[ \t]*#\[[^\n]*\][ \t]*\n)*"
    r"(?:pub(?:\([^)]*\))?[ \t]+)?mod[ \t]+([A-Za-z_]\w*)[ \t]*[;{]",
    re.M,
)
#: a file module declared one level inside an inline module
_INNER_MOD = re.compile(r"^[ \t]+(pub[ \t]+)?mod[ \t]+([A-Za-z_]\w*)[ \t]*;", re.M)
#: a brace, which opens or closes a block (``modules`` finds an inline module's end)
_BRACE = re.compile(r"[{}]")
#: (These three are searched in the text after a newline: a pattern that
#: opens with a character skips to it, where ``^`` in multi-line mode is
#: tried at every character: 2% of burn's index.)
#: a file's own ``pub`` types (not one in an inline module)
_PUB_TYPE = re.compile(r"\npub[ \t]+(?:struct|enum|union|trait|type)[ \t]+([A-Za-z_]\w*)")
_ANY_PUB_TYPE = re.compile(r"\n[ \t]*pub[ \t]+(?:struct|enum|union)[ \t]+([A-Za-z_]\w*)")
#: a struct, enum or union declared without ``pub`` or with ``pub(…)``, at any indent
_PRIVATE_TYPE = re.compile(
    r"\n[ \t]*(?:pub[ \t]*\([^)]*\)[ \t]*)?(?:struct|enum|union)[ \t]+([A-Za-z_]\w*)"
)
#: a file's own ``pub use`` items (an indented one is in an inline module)
_TOP_PUB_USE = re.compile(r"^pub[ \t]+use[ \t]+([^;]+);", re.M)


def use_items(tree: str, prefix: str = "") -> list[tuple[str, str, str]]:
    """(name shown, path it is taken from, name there; ``*`` for all) of a
    use tree.

    >>> use_items("api::{base::*, Graph as G, inner::{X}}")
    [('*', 'api::base', '*'), ('G', 'api', 'Graph'), ('X', 'api::inner', 'X')]
    >>> use_items("burn_tensor as tensor"), use_items("crate::a::B")
    ([('tensor', '', 'burn_tensor')], [('B', 'crate::a', 'B')])
    """
    tree = re.sub(r"\s+", " ", tree).strip().removeprefix("::")
    brace = tree.find("{")
    if brace >= 0 and tree.endswith("}"):
        head = tree[:brace].rstrip(": ")
        base = "::".join(p for p in (prefix, head) if p)
        out: list[tuple[str, str, str]] = []
        for part in _top_level_items(tree[brace + 1 : -1]):
            out += use_items(part, base)
        return out
    name, _, alias = tree.partition(" as ")
    path, _, leaf = name.strip().rpartition("::")
    path = "::".join(p for p in (prefix, path) if p)
    if leaf == "*":
        return [("*", path, "*")]
    shown = alias.strip() or leaf
    if leaf in ("self", "super", "crate") or shown == "_" or not leaf.isidentifier():
        return []
    return [(shown, path, leaf)]


_DOC_HEADER = re.compile(r"^\s*#+\s*(Panics|Errors)\b")
_ANY_HEADER = re.compile(r"^\s*#+\s*\S")
_TEXT_CALLS = ("to_string", 'format!("{}"', 'format!("{e}"', 'format!("{err}"', "message")
_MAX_BODY_LINES = 30
_MAX_CALL_TEXT = 120
_WS = re.compile(r"\s+")
#: a trait in a bound, by its last name: ``T: ?Sized + ser::Serialize``
_BOUND = re.compile(r"[:+]\s*\??\s*(?:for\s*<[^>]*>\s*)?(?:\w+::)*([A-Z]\w*)")
#: the captures of scan.scm walked in document order ("id" is read apart)
_READ = ("scope", "call", "macro", "tt", "match", "let")
_SCOPE = _READ.index("scope")
#: the node type of each capture of ``_READ`` (a scope is of several)
_KINDS = (
    "",
    "call_expression",
    "macro_invocation",
    "token_tree",
    "match_expression",
    "let_declaration",
)
#: a ``let`` value longer than this is not read (a block, a long chain)
_MAX_LET = 120
_NAME_PAREN = re.compile(rb"[\w\x80-\xff][\s\x80-\xff]*\(")


def _parser() -> Parser:
    return grammars.parser("rust")


def parses(code: str) -> bool:
    """Whether ``code`` (items, or statements of a fn body) parses as Rust."""
    for candidate in (code, "fn __errordex() {\n" + code + "\n}"):
        root = _parser().parse(candidate.encode()).root_node
        if not root.has_error:
            return True
    return False


def identifiers(code: str) -> set[str]:
    """Identifier tokens of a Rust snippet (strings and comments excluded)."""
    root = _parser().parse(("fn __errordex() {\n" + code + "\n}").encode()).root_node
    out: set[str] = set()
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type in _IDENT_NODES and n.text is not None:
            out.add(n.text.decode("utf-8", "replace"))
        stack.extend(n.children)
    out.discard("__errordex")
    return out


def unquote(lit: str) -> str | None:
    """The value of a Rust string literal (plain escapes only)."""
    m = re.fullmatch(r'(?s)r(#*)"(.*)"\1', lit)
    if m:
        return m.group(2)
    if not (lit.startswith('"') and lit.endswith('"')):
        return None
    body = lit[1:-1]
    body = re.sub(r"\\\n\s*", "", body)
    simple = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "0": "\0", "r": "\r"}
    return re.sub(r"\\(.)", lambda m: simple.get(m.group(1), m.group(0)), body)


class _Scan:
    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.src = text.encode("utf-8", "surrogatepass")
        self.lines = text.splitlines()
        self.test_path = is_test_path(path)
        self.functions: list[FuncDef] = []
        self.calls: list[Call] = []
        self.tests: list[TestExpect] = []
        self.idents: set[str] = set()
        self.scrutinees: list[Scrutinee] = []
        self.traits: list[str] = []
        self.trait_decls: list[TraitDecl] = []
        #: fn symbol -> its ``let`` bindings (``binding``); -1: a ``mut`` one
        self.lets: dict[str, list[tuple[str, str, int, int]]] = {}
        #: types the file declares other than ``pub`` (``pub(crate) struct``):
        #: their inherent methods are no API, ``pub fn`` or not
        lined = "\n" + text if "struct" in text or "enum" in text else ""
        self.private_types = (
            frozenset(_PRIVATE_TYPE.findall(lined)) - frozenset(_ANY_PUB_TYPE.findall(lined))
            if lined
            else frozenset()
        )

    def t(self, n: Node) -> str:
        return self.src[n.start_byte : n.end_byte].decode("utf-8", "replace")

    def run(self, tree: Tree | None = None) -> FileEvidence:
        tree = tree or _parser().parse(self.src)
        caught = grammars.captures("rust", tree)
        self.walk(caught, [], in_test=self.test_path, trait_ctx=False)
        if b"for " in self.src and b'("' in self.src and b"assert" in self.src:
            rows, made = table_tests(
                sorted(
                    (n for n in caught.get("scope", ()) if n.type == "function_item"),
                    key=lambda n: n.start_byte,
                ),
                sorted(caught.get("for", ()), key=lambda n: n.start_byte),
                self.t,
                self.path,
                self.symbol_of,
                lambda call: _callee(call.child_by_field_name("function"), self) or "",
                unquote,
            )
            self.tests += rows
            self.calls += [
                Call(sys.intern(c), sys.intern(fn), line, text) for c, fn, line, text in made
            ]
        self.idents.update(shapes.declared(caught, self.src))
        if self.lets:
            self.functions = [self.with_lets(f) for f in self.functions]
        return FileEvidence(
            path=self.path,
            language="rust",
            n_lines=len(self.lines),
            functions=tuple(self.functions),
            calls=tuple(self.calls),
            tests=tuple(self.tests),
            idents=frozenset(self.idents),
            scrutinees=tuple(self.scrutinees),
            exports=self.root_reexports(),
            modules=self.modules(),
            debug_modules=self.debug_modules(),
            traits=tuple(self.traits),
            trait_decls=tuple(self.trait_decls),
            types=self.pub_types(),
            uses=self.uses(),
            class_docs=self.type_docs(tree.root_node) if b"///" in self.src else (),
        )

    def symbol_of(self, fn: Node) -> str:
        """A function's symbol as the walk names it in test code: the
        modules around it and its name (``tests::test_parse_null``)."""
        parts: list[str] = []
        n: Node | None = fn
        while n is not None:
            if n.type in ("function_item", "mod_item"):
                name = n.child_by_field_name("name")
                parts.append(self.t(name) if name is not None else "?")
            n = n.parent
        return "::".join(reversed(parts))

    def modules(self) -> tuple[tuple[str, bool], ...]:
        """The file's own ``mod`` items: (name, declared ``pub``)."""
        if b"mod " not in self.src:
            return ()
        text = self.src.decode("utf-8", "replace")
        out = [(m.group(2), (m.group(1) or "").strip() == "pub") for m in _MOD.finditer(text)]
        # an inline module's own file modules (image's `pub mod codecs { pub mod bmp; }`),
        # named with the inline module's name before them
        for m in _MOD.finditer(text):
            if not m.group(0).endswith("{"):
                continue
            # its body ends at the brace that closes it (braces only are
            # read: a body is most of a file, `mod tests { … }`)
            depth, i = 0, len(text)
            for brace in _BRACE.finditer(text, m.end() - 1):
                depth += 1 if brace.group() == "{" else -1
                if depth == 0:
                    i = brace.start()
                    break
            for inner in _INNER_MOD.finditer(text, m.end(), i):
                out.append((f"{m.group(2)}::{inner.group(2)}", bool(inner.group(1))))
        return tuple(out)

    def debug_modules(self) -> tuple[tuple[str, int], ...]:
        """The file's ``mod`` items under ``#[cfg(debug_assertions)]`` (clap's
        ``mod debug_asserts;``): (name, the attribute's line)."""
        if b"debug_assertions" not in self.src:
            return ()
        text = self.src.decode("utf-8", "replace")
        return tuple(
            (m.group(1), text.count("\n", 0, m.start()) + 1) for m in _DEBUG_MOD.finditer(text)
        )

    def pub_types(self) -> tuple[str, ...]:
        """The ``pub`` types the file declares at its top level (a user can
        name only those, where its module is public)."""
        if b"pub " not in self.src:
            return ()
        return tuple(_PUB_TYPE.findall("\n" + self.src.decode("utf-8", "replace")))

    def uses(self) -> tuple[tuple[str, str, str, int], ...]:
        """The file's own ``pub use`` items (``use_items``), with their line."""
        if b"pub use" not in self.src:
            return ()
        text = self.src.decode("utf-8", "replace")
        return tuple(
            (*u, text.count("\n", 0, m.start()) + 1)
            for m in _TOP_PUB_USE.finditer(text)
            for u in use_items(m.group(1))
        )

    def type_docs(self, root: Node) -> tuple[tuple[str, DocLine], ...]:
        """The first paragraph of the doc comment of each struct and enum,
        and of each enum variant (``Error::NonFinite``), by name: what an
        error type's page quotes for what it means."""
        out: list[tuple[str, DocLine]] = []
        stack = [root]
        while stack:
            n = stack.pop()
            if n.type in ("source_file", "declaration_list"):
                stack.extend(n.named_children)
            elif n.type == "mod_item":
                body = n.child_by_field_name("body")
                if body is not None:
                    stack.append(body)
            elif n.type in ("struct_item", "enum_item"):
                name = n.child_by_field_name("name")
                if name is None:
                    continue
                owner = self.t(name)
                said = _paragraph(self.attributes_and_docs(n)[1])
                if said is not None:
                    out.append((owner, said))
                body = n.child_by_field_name("body")
                if n.type == "enum_item" and body is not None:
                    for v in body.named_children:
                        vname = v.child_by_field_name("name") if v.type == "enum_variant" else None
                        got = _paragraph(self.attributes_and_docs(v)[1]) if vname else None
                        if vname is not None and got is not None:
                            out.append((f"{owner}::{self.t(vname)}", got))
        return tuple(out)

    def root_reexports(self) -> tuple[tuple[str, str, str, int], ...]:
        """A crate root's ``pub use`` items, by name: (the name it exports,
        "" (the module is not resolved), the name there, the line), so
        ``pub use group_norm::{group_norm, GroupNorm};`` in candle-nn's
        lib.rs makes ``GroupNorm`` ``candle_nn::GroupNorm``."""
        if not self.path.endswith("src/lib.rs") or b"pub use" not in self.src:
            return ()
        text = self.src.decode("utf-8", "replace")
        out: list[tuple[str, str, str, int]] = []
        for m in _PUB_USE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            for name, shown in _use_leaves(m.group(1)):
                out.append((shown, "", name, line))
        return tuple(out)

    def walk(
        self, caught: grammars.Captures, names: list[str], in_test: bool, trait_ctx: bool
    ) -> None:
        src = self.src
        self.idents.update(
            decode_all({src[n.start_byte : n.end_byte] for n in caught.get("id", ())})
        )
        # The other captures in document order (a parent before the nodes it
        # holds), read as a walk would: scopes are popped when a node starts
        # past their end. Nothing looked for is inside a string or comment.
        # (start, -end, capture number, number in its capture, node): the
        # capture number sorts ties as the captures' concatenation did, and
        # names the node's type (but a scope's) without asking the node.
        events = sorted(
            [
                (n.start_byte, -n.end_byte, k, i, n)
                for k, name in enumerate(_READ)
                for i, n in enumerate(caught.get(name, ()))
            ]
        )
        # (end byte, names, in a test, in a trait, enclosing fn symbol)
        scopes: list[tuple[int, list[str], bool, bool, str]] = [
            (sys.maxsize, names, in_test, trait_ctx, "")
        ]
        # A token tree with no "name (" in it holds none either: the token
        # trees inside it are not searched again.
        quiet_end = -1
        for start, neg_end, k, _, n in events:
            while start >= scopes[-1][0]:
                scopes.pop()
            _, names, in_test, trait_ctx, fn = scopes[-1]
            kind = n.type if k == _SCOPE else _KINDS[k]
            if kind == "token_tree":
                if start >= quiet_end:
                    if _NAME_PAREN.search(src, start + 1, -neg_end) is None:
                        quiet_end = -neg_end
                    else:
                        self.token_calls(n, fn, in_test)
            elif kind == "call_expression":
                callee = _callee(n.child_by_field_name("function"), self)
                if callee:
                    text = self.call_text(n)
                    self.calls.append(
                        Call(sys.intern(callee), sys.intern(fn), _call_line(n, callee), text)
                    )
                    if fn and not in_test:
                        for ref, line in _passed_functions(n, self):
                            self.calls.append(Call(sys.intern(ref), sys.intern(fn), line, ""))
                    if in_test and callee.startswith("assert"):
                        self.helper_assert(n, fn)
            elif kind == "macro_invocation":
                self.macro(n, fn, in_test)
            elif kind == "match_expression":
                self.scrutinee(n)
            elif kind == "let_declaration":
                if fn:
                    self.binding(n, fn)
            elif kind == "mod_item" or kind == "trait_item":
                name = n.child_by_field_name("name")
                if kind == "trait_item" and name is not None:
                    self.traits.append(self.t(name))
                    if not in_test:
                        self.trait_decls.append(self.trait_decl(n, self.t(name)))
                attrs = self.attributes(n)
                scopes.append(
                    (
                        -neg_end,
                        [*names, self.t(name) if name else "?"],
                        in_test or any(_is_test_attr(a) for a in attrs),
                        kind == "trait_item",
                        fn,
                    )
                )
            elif kind == "impl_item":
                scopes.append(
                    (
                        -neg_end,
                        [*names, self.impl_name(n)],
                        in_test or any(_is_test_attr(a) for a in self.attributes(n)),
                        n.child_by_field_name("trait") is not None,
                        fn,
                    )
                )
            elif kind == "function_item":
                child_names, child_test, child_fn = self.function(
                    n, names, in_test, trait_ctx, nested=bool(fn)
                )
                scopes.append((-neg_end, child_names, child_test, False, child_fn))

    def with_lets(self, f: FuncDef) -> FuncDef:
        """``f`` with its bindings; a ``mut`` one holds its value until the
        line before the first later line that assigns it or calls a method
        on it (``total_weight.checked_add_assign(w)``)."""
        lets = self.lets.get(f.symbol)
        if not lets:
            return f
        out: list[tuple[str, str, int, int]] = []
        for name, value, line, until in lets:
            if until < 0:
                change = re.compile(
                    rf"(?<![\w.])(?:&mut\s+)?{re.escape(name)}\s*(?:[-+*/|&^]?=(?!=)|\.\s*\w+\s*\()"
                )
                until = line
                for i in range(line, min(f.end_line, len(self.lines))):
                    if change.search(self.lines[i]):
                        break
                    until = i + 1
            out.append((name, value, line, until))
        return replace(f, lets=tuple(out))

    def call_text(self, n: Node) -> str:
        """A call as written, for example code and lifting: on one line, or
        over several with its whitespace collapsed (image's
        ``box_blur_horizontal_pass::<T::Subpixel, A, 1>(src, …, width, radius)``)."""
        size = n.end_byte - n.start_byte
        if n.start_point.row == n.end_point.row:
            return self.t(n) if size <= _MAX_CALL_TEXT else ""
        if size > 3 * _MAX_CALL_TEXT or b"//" in self.src[n.start_byte : n.end_byte]:
            return ""
        text = _WS.sub(" ", self.t(n))
        text = re.sub(r"([(\[]) ", r"\1", text)
        text = re.sub(r",? ([)\]])", r"\1", text)
        return text if len(text) <= _MAX_CALL_TEXT else ""

    def binding(self, n: Node, fn: str) -> None:
        """``let x = v;``, ``let (w, h) = v;`` in ``fn``: what each name
        holds (``v``, ``v.0``, ``v.1``), for a check on it to read in the
        function's parameters."""
        pat = n.child_by_field_name("pattern")
        value = n.child_by_field_name("value")
        if pat is None or value is None or n.child_by_field_name("alternative") is not None:
            return
        # what rules a value out survives the spaces' reshaping below: a
        # closure or a block (most long values) is not read at all
        raw = self.src[value.start_byte : value.end_byte]
        if b"{" in raw or b"|" in raw or b"//" in raw:
            return
        text = _WS.sub(" ", self.t(value)).strip()
        if len(text) > _MAX_LET or "{" in text or "|" in text or "//" in text:
            return
        names: list[tuple[str, str, bool]] = []
        if pat.type == "identifier":
            names.append((self.t(pat), text, False))
        elif pat.type == "mut_pattern" and pat.named_child_count == 1:
            inner = pat.named_children[0]
            if inner.type == "identifier":
                names.append((self.t(inner), text, True))
        elif pat.type == "tuple_pattern":
            whole = text if re.fullmatch(r"[\w.:]+(\(.*\))?", text) else f"({text})"
            for i, part in enumerate(pat.named_children):
                if part.type == "identifier":
                    names.append((self.t(part), f"{whole}.{i}", False))
        line = n.start_point.row + 1
        for name, held, mutable in names:
            self.lets.setdefault(fn, []).append((name, held, line, -1 if mutable else 0))

    def scrutinee(self, n: Node) -> None:
        value = n.child_by_field_name("value")
        body = n.child_by_field_name("body")
        if value is None or body is None or value.start_point.row != value.end_point.row:
            return
        for arm in body.named_children:
            pat = arm.child_by_field_name("pattern") if arm.type == "match_arm" else None
            text = self.t(pat).strip() if pat is not None else ""
            if text == "_" or (text.isidentifier() and text[:1].islower()):
                self.scrutinees.append(
                    Scrutinee(arm.start_point.row + 1, self.t(value), n.start_point.row + 1)
                )

    def attributes(self, n: Node) -> list[str]:
        out: list[str] = []
        p = n.prev_sibling
        while p is not None and p.type in ("attribute_item", "line_comment", "block_comment"):
            if p.type == "attribute_item":
                out.append(self.t(p))
            p = p.prev_sibling
        return out

    def attributes_and_docs(self, n: Node) -> tuple[list[str], list[tuple[str, int]]]:
        """``attributes(n)``, and the ``///`` lines above ``n`` in order with
        their line numbers, from one walk of the siblings before it (two
        walks read each sibling's text before)."""
        attrs: list[str] = []
        docs: list[tuple[str, int]] = []
        p = n.prev_sibling
        while p is not None:
            kind = p.type
            if kind == "attribute_item":
                attrs.append(self.t(p))
            elif kind == "line_comment":
                txt = self.t(p)
                if txt.startswith("///"):
                    docs.append((txt[3:].rstrip("\n"), p.start_point.row + 1))
            elif kind != "block_comment":
                break
            p = p.prev_sibling
        docs.reverse()
        return attrs, docs

    def function(
        self, n: Node, names: list[str], in_test: bool, trait_ctx: bool, nested: bool = False
    ) -> tuple[list[str], bool, str]:
        """A ``fn`` item; ``nested``: inside another function's body (an
        item there, even a trait impl's method, is no path a user can type)."""
        name_node = n.child_by_field_name("name")
        name = self.t(name_node) if name_node else "?"
        attrs, doc_lines = self.attributes_and_docs(n)
        if trait_ctx and not doc_lines:
            # `impl IndexMut<&str> for Value` documents the method on the impl
            # (rustdoc shows it there): its `# Panics` is the method's
            up_one = n.parent
            block = up_one.parent if up_one is not None else None
            if block is not None and block.type == "impl_item":
                doc_lines = self.attributes_and_docs(block)[1]
        is_test = any(_is_test_attr(a) for a in attrs)
        vis = next((c for c in n.children if c.type == "visibility_modifier"), None)
        # `#[doc(hidden)]` and `__private_*` functions are pub for macros, not API.
        hidden = name.startswith("__") or any("doc(hidden)" in a.replace(" ", "") for a in attrs)
        # `impl NdArrayMathOps { pub fn mean_dim }` of a `pub(crate) struct NdArrayMathOps`
        private_type = not trait_ctx and bool(names) and names[-1] in self.private_types
        public = (
            ((vis is not None and self.t(vis) == "pub") or trait_ctx)
            and not hidden
            and not nested
            and not private_type
        )
        symbol = "::".join([*names, name])
        docs: list[DocLine] = []
        # A public function's first doc line says what it does (the rest of
        # its docs is read for its # Panics and # Errors sections only).
        first = next(((t.strip(), ln) for t, ln in doc_lines if t.strip()), None)
        if first is not None:  # the first paragraph: a sentence may wrap onto the next lines
            at = next(i for i, (t, _) in enumerate(doc_lines) if t.strip())
            text = first[0]
            for t, _ in doc_lines[at + 1 : at + 4]:
                if not t.strip() or text.endswith(".") or _ANY_HEADER.match(t):
                    break
                text += " " + t.strip()
            first = (text, first[1])
        if public and first is not None and not _ANY_HEADER.match(first[0]):
            docs.append(DocLine("Summary", first[0], first[1]))
        docs += _sections(doc_lines, skip=first[1] if first is not None else 0)
        included = tuple(
            _included(self.path, m.group(1)) for a in attrs for m in _INCLUDE_DOC.finditer(a)
        )
        self.functions.append(
            FuncDef(
                name=name,
                symbol=symbol,
                path=self.path,
                line=n.start_point.row + 1,
                end_line=n.end_point.row + 1,
                public=public and not in_test and not is_test,
                in_test=in_test or is_test,
                docs=tuple(docs),
                params=self.params(n),
                doc_files=tuple(p for p in included if p),
                returns=self.return_type(n),
                bounds=self.bounds(n) if not nested and not in_test else (),
            )
        )
        for a in attrs:
            if a.startswith("#[should_panic"):
                # `#[should_panic(expected = "…")]`, or `#[should_panic = "…"]` (the same)
                m = re.search(
                    r'(?:expected\s*|should_panic\s*)=\s*("(?:[^"\\]|\\.)*"|r#*".*?"#*)', a, re.S
                )
                self.add_test(n, symbol, "should_panic", unquote(m.group(1)) if m else None)
        return [*names, name], in_test or is_test, symbol

    def trait_decl(self, n: Node, name: str) -> TraitDecl:
        """A ``trait`` item: its supertraits, its methods, which of them
        ``#[doc(hidden)]`` keeps out of the API, and whether a user can name
        it where it is declared (``pub``, in ``pub`` inline modules only)."""
        vis = next((c for c in n.children if c.type == "visibility_modifier"), None)
        named = vis is not None and self.t(vis) == "pub"
        up = n.parent
        while named and up is not None:
            if up.type == "mod_item":
                v = next((c for c in up.children if c.type == "visibility_modifier"), None)
                named = v is not None and self.t(v) == "pub"
            up = up.parent
        bounds = n.child_by_field_name("bounds")
        supertraits = (
            tuple(dict.fromkeys(_BOUND.findall(":" + self.t(bounds)))) if bounds is not None else ()
        )
        methods: list[str] = []
        hidden: list[str] = []
        body = n.child_by_field_name("body")
        for item in body.named_children if body is not None else ():
            if item.type not in ("function_item", "function_signature_item"):
                continue
            fn_name = item.child_by_field_name("name")
            if fn_name is None:
                continue
            methods.append(self.t(fn_name))
            if any("doc(hidden)" in a.replace(" ", "") for a in self.attributes(item)):
                hidden.append(self.t(fn_name))
        return TraitDecl(
            name, n.start_point.row + 1, supertraits, tuple(methods), tuple(hidden), named
        )

    def bounds(self, fn: Node) -> tuple[str, ...]:
        """The traits bounding a function's type parameters, by last name,
        in its ``<…>`` and its ``where`` clause, and in its impl's
        (``Deserialize`` of ``T: de::Deserialize<'a>``, ``Index`` of
        ``impl<I> ops::IndexMut<I> for Value where I: Index``; ``Sized`` of
        ``?Sized`` too)."""
        parts = [c for c in fn.children if c.type in ("type_parameters", "where_clause")]
        block = fn.parent
        impl = block.parent if block is not None else None
        if impl is not None and impl.type == "impl_item":
            parts += [c for c in impl.children if c.type in ("type_parameters", "where_clause")]
        text = " ".join(self.t(c) for c in parts)
        if ":" not in text:
            return ()
        return tuple(dict.fromkeys(sys.intern(m) for m in _BOUND.findall(text)))

    def return_type(self, fn: Node) -> str:
        node = fn.child_by_field_name("return_type")
        return sys.intern(_WS.sub(" ", self.t(node))[:120]) if node is not None else ""

    def params(self, fn: Node) -> tuple[str, ...]:
        node = fn.child_by_field_name("parameters")
        out: list[str] = []
        for p in node.named_children if node is not None else ():
            if p.type == "self_parameter":
                out.append("self")
            elif p.type == "parameter":
                pat = p.child_by_field_name("pattern")
                out.append(self.t(pat) if pat is not None and pat.type == "identifier" else "")
        return tuple(out)

    def add_test(self, fn: Node, symbol: str, kind: str, pattern: str | None) -> None:
        body = fn.child_by_field_name("body")
        if body is None:
            return
        inner = [c for c in body.named_children if c.type not in ("line_comment", "block_comment")]
        calls: list[str] = []
        stack = list(inner)
        while stack:
            c = stack.pop()
            if c.type == "call_expression":
                callee = _callee(c.child_by_field_name("function"), self)
                if callee:
                    calls.append(callee)
            elif c.type == "token_tree":
                calls.extend(_token_callees(c, self))
            stack.extend(c.children)
        text, line = self.block_text(inner)
        self.tests.append(
            TestExpect(
                test=symbol,
                path=self.path,
                line=fn.start_point.row + 1,
                kind=kind,
                exception=None,
                pattern=pattern,
                is_regex=False,
                body=text,
                body_line=line,
                calls=tuple(dict.fromkeys(calls)),
            )
        )

    def block_text(self, nodes: list[Node]) -> tuple[str, int]:
        if not nodes:
            return "", 0
        lo = nodes[0].start_point.row
        hi = min(nodes[-1].end_point.row, lo + _MAX_BODY_LINES - 1)
        if nodes[-1].end_point.row > hi:
            return "", 0  # too long to show whole; a cut body would not parse
        chunk = self.lines[lo : hi + 1]
        indent = min((len(s) - len(s.lstrip()) for s in chunk if s.strip()), default=0)
        return "\n".join(s[indent:] for s in chunk), lo + 1

    def macro(self, n: Node, fn: str, in_test: bool) -> None:
        name_node = n.child_by_field_name("macro")
        name = self.t(name_node) if name_node else ""
        self.idents.add(name)
        if in_test and name in ("assert", "assert_matches"):
            self.error_result(n, fn, name)
        if (
            in_test
            and name == "assert_eq"
            and re.search(rb"Err|unwrap_err\(", self.src[n.start_byte : n.end_byte])
        ):
            self.error_equal(n, fn)
        if not in_test or name not in ("assert_eq", "assert", "assert_ne"):
            return
        text = self.t(n)
        if name == "assert_ne" or not any(k in text for k in (*_TEXT_CALLS, "contains")):
            return
        tt = next((c for c in n.children if c.type == "token_tree"), None)
        lits = (
            [c for c in tt.children if c.type in ("string_literal", "raw_string_literal")]
            if tt
            else []
        )
        if len(lits) != 1:
            return
        value = unquote(self.t(lits[0]))
        if not value or len(value) < 4:
            return
        stmt = n.parent if n.parent is not None and n.parent.type == "expression_statement" else n
        calls = list(_token_callees(tt, self)) if tt else []
        self.text_expect(fn, n.start_point.row + 1, value, [stmt], calls)

    def error_result(self, n: Node, fn: str, name: str) -> None:
        """``assert!(Method::from_bytes(b"").is_err())``,
        ``assert!(matches!(r, Err(Error::Empty)))``,
        ``assert_matches!(res, Err(_))``: a test that a call returns an
        error (of that variant, when it names one)."""
        tt = next((c for c in n.children if c.type == "token_tree"), None)
        if tt is None:
            return
        text = _WS.sub(" ", self.t(tt))
        variant = None
        if name == "assert_matches" or text.startswith("(matches!"):
            m = _ERR_PATTERN.search(text)
            if m is None:
                return
            variant = m.group(1) or m.group(2)
        elif not _IS_ERR.search(text) or text.startswith("(!"):
            return
        stmt = n.parent if n.parent is not None and n.parent.type == "expression_statement" else n
        nodes = [stmt]
        # the call whose result is checked: the outermost one (`from_vec` of
        # `Tensor::from_vec(values.to_vec(), …).is_err()`, not `to_vec`)
        calls = [c for c in _outer_call(text) if c not in _NOT_CALLS]
        prev = stmt.prev_named_sibling
        # `let res = v.try_push(0); assert_matches!(res, Err(_));`: the call is the let's
        bound = self.let_before(prev)
        if not calls and bound is not None and re.search(rf"\b{re.escape(bound[0])}\b", text):
            assert prev is not None
            nodes.insert(0, prev)
            calls = [c for c in _outer_call(bound[1]) if c not in _NOT_CALLS]
        self.add_error_result(fn, n, nodes, calls, _variant_name(variant) if variant else None)

    def let_before(self, prev: Node | None) -> tuple[str, str] | None:
        """(pattern, value as one line) of a ``let`` statement, else None."""
        if prev is None or prev.type != "let_declaration":
            return None
        pat = prev.child_by_field_name("pattern")
        value = prev.child_by_field_name("value")
        if pat is None or value is None:
            return None
        return self.t(pat), _WS.sub(" ", self.t(value))

    def error_equal(self, n: Node, fn: str) -> None:
        """``assert_eq!(ron::from_str::<f64>("1.0e1.0"), Err(SpannedError {
        code: Error::ExpectedFloat, .. }))``, ``assert_eq!(err, Err(Error::Empty))``:
        a test that a call returns the error variant the ``Err(…)`` names
        first (a ``let`` before it may make the call)."""
        tt = next((c for c in n.children if c.type == "token_tree"), None)
        if tt is None:
            return
        args = split_args(_WS.sub(" ", self.t(tt))[1:-1])
        if len(args) < 2:
            return
        stmt = n.parent if n.parent is not None and n.parent.type == "expression_statement" else n
        prev = stmt.prev_named_sibling
        # `let err = f(x).unwrap_err(); assert_eq!(err, Error::Empty)`: the let's value
        bound = self.let_before(prev) or ("", "")
        err = next((a for a in args[:2] if a.startswith("Err(")), None)
        if (
            err is None
            and bound[0] in args[:2]
            and bound[1].endswith((".unwrap_err()", ".err().unwrap()"))
        ):
            err = args[1] if args[0] == bound[0] else args[0]
        taken = [a for a in args[:2] if a.endswith((".unwrap_err()", ".err().unwrap()"))]
        if err is None and len(taken) == 1:
            # `assert_eq!(ron::from_str::<T>(s).unwrap_err(), Error { code: ErrorCode::X, .. })`
            err = args[1] if args[0] == taken[0] else args[0]
        variant = _VARIANT.search(err) if err is not None else None
        if err is None or variant is None:
            return
        other = args[1] if err == args[0] else args[0]
        nodes = [stmt]
        calls = [c for c in _outer_call(other) if c not in _NOT_CALLS]
        if not calls and bound[0] and bound[0] == other.strip():
            assert prev is not None
            nodes.insert(0, prev)
            calls = [c for c in _outer_call(bound[1]) if c not in _NOT_CALLS]
        self.add_error_result(fn, n, nodes, calls, _variant_name(variant.group(1)))

    def add_error_result(
        self, fn: str, n: Node, nodes: list[Node], calls: list[str], exception: str | None
    ) -> None:
        """A test that the outermost of ``calls`` (made in ``nodes``, the
        check ``n`` and a ``let`` before it) returns the error ``exception``."""
        if not calls:
            return
        body, body_line = self.block_text(nodes)
        self.tests.append(
            TestExpect(
                test=fn,
                path=self.path,
                line=n.start_point.row + 1,
                kind="error-result",
                exception=exception,
                pattern=None,
                is_regex=False,
                body=body,
                body_line=body_line,
                calls=tuple(dict.fromkeys(calls)),
            )
        )

    def helper_assert(self, call: Node, fn: str) -> None:
        """``assert_to_string(err, "msg")``: a test helper asserting on error text."""
        args = call.child_by_field_name("arguments")
        if args is None:
            return
        lits = [
            c for c in args.named_children if c.type in ("string_literal", "raw_string_literal")
        ]
        if len(lits) != 1:
            return
        value = unquote(self.t(lits[0]))
        if not value or len(value) < 8:
            return
        stmt = (
            call.parent
            if call.parent is not None and call.parent.type == "expression_statement"
            else call
        )
        nodes = [stmt]
        first = args.named_children[0] if args.named_children else None
        prev = stmt.prev_named_sibling
        if (
            first is not None
            and first.type == "identifier"
            and prev is not None
            and prev.type == "let_declaration"
            and self.t(first) in self.t(prev).split("=")[0]
        ):
            nodes.insert(0, prev)
        calls: list[str] = []
        for node in nodes:
            stack = [node]
            while stack:
                c = stack.pop()
                if c.type == "call_expression":
                    name = _callee(c.child_by_field_name("function"), self)
                    if name and not name.startswith("assert"):
                        calls.append(name)
                stack.extend(c.children)
        self.text_expect(fn, call.start_point.row + 1, value, nodes, calls)

    def text_expect(
        self, fn: str, line: int, value: str, nodes: list[Node], calls: list[str]
    ) -> None:
        """A test asserting on the error text ``value``; ``nodes`` trigger it."""
        body, body_line = self.block_text(nodes)
        self.tests.append(
            TestExpect(
                test=fn,
                path=self.path,
                line=line,
                kind="assert-text",
                exception=None,
                pattern=value,
                is_regex=False,
                body=body,
                body_line=body_line,
                calls=tuple(dict.fromkeys(calls)),
            )
        )

    def token_calls(self, tt: Node, fn: str, in_test: bool = False) -> None:
        # a test's call inside `assert_eq!(escape::unescape("&#48;"), Ok(…))`
        # may be one the library takes: its text, for an example fix's "after"
        texts = {(n, ln): t for n, ln, t in _token_call_texts(tt, self)} if in_test else {}
        for name, line in _token_calls(tt, self):
            text = texts.pop((name, line), "")
            self.calls.append(Call(sys.intern(name), sys.intern(fn), line, text))
        for (name, line), text in texts.items():  # with a turbofish: `from_str::<f64>(…)`
            self.calls.append(Call(sys.intern(name), sys.intern(fn), line, text))

    def impl_name(self, impl: Node) -> str:
        ty = impl.child_by_field_name("type")
        name = _type_name(self.t(ty)) if ty is not None else "?"
        trait = impl.child_by_field_name("trait")
        if trait is None:
            return name
        return f"<{name} as {_WS.sub(' ', self.t(trait)).strip()}>"


def _paragraph(doc_lines: list[tuple[str, int]]) -> DocLine | None:
    """A doc comment's first paragraph, and its second when the first is a
    title (rand's ``/// Error: empty slice`` then what returns it)."""
    paras: list[tuple[str, int]] = []
    cur: list[tuple[str, int]] = []
    for t, line in [*doc_lines, ("", 0)]:
        t = t.strip()
        if t and not _ANY_HEADER.match(t) and not t.startswith("```"):
            cur.append((t, line))
        elif cur:
            paras.append((" ".join(x for x, _ in cur), cur[0][1]))
            cur = []
            if len(paras) == 2 or t.startswith(("#", "```")):
                break
    if not paras:
        return None
    text, line = paras[0]
    if len(paras) > 1 and not text.rstrip().endswith((".", "!", "?")):
        text = f"{text.rstrip(':')}: {paras[1][0]}"
    return DocLine("Summary", text, line)


#: an item of a doc list: ``- [`Error::X`] when …``, ``* …``, ``1. …``
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
#: a paragraph outside the sections that says what error is returned
#: (rand's "Returns error [`Empty`] if the slice is empty.")
_MENTIONS_ERROR = re.compile(
    r"\b(?:[Rr]eturns?|[Ee]rrors?|[Ff]ails?)\b.*`[^`]+`|`[^`]+`.*\b[Rr]eturned\b"
)
#: a paragraph outside a ``# Panics`` section that says when the function
#: panics (indexmap's "***Panics*** if `index` is out of bounds.", "Panics if
#: `n` is zero.", "This function will panic if …")
_PANICS_INLINE = re.compile(
    r"^(?:\*{1,3}Panics\*{1,3}|(?:(?:This|The) (?:function|method|call) )?(?:will )?panics?)"
    r"\s+(?:if|when|unless|on)\b",
    re.I,
)
#: a line that opens a list of errors without a header (``Error cases:``)
_ERRORS_LEAD = re.compile(r"^\s*(?:Error cases|Errors|Returns an error)\b[^.]*:\s*$", re.I)


def _sections(doc_lines: list[tuple[str, int]], skip: int = 0) -> list[DocLine]:
    """The ``# Panics`` and ``# Errors`` sections of a doc comment, one
    DocLine per paragraph or list item (a sentence wrapped over lines is
    whole); and outside them, as "Mentions", the paragraphs that say an
    error is returned and name it in code (an ``Error cases:`` list too).
    ``skip``: the line of the summary paragraph, which is read apart.

    >>> [(d.section, d.text) for d in _sections([("Returns error [`Empty`] if empty.", 1),
    ...     ("", 2), ("# Panics", 3), ("If `n` is", 4), ("zero.", 5)])]
    [('Mentions', 'Returns error [`Empty`] if empty.'), ('Panics', 'If `n` is zero.')]
    >>> [(d.section, d.text) for d in _sections([("Swaps two entries.", 1), ("", 2),
    ...     ("***Panics*** if `a` or `b`", 3), ("are out of bounds.", 4)], skip=1)]
    [('Panics', '***Panics*** if `a` or `b` are out of bounds.')]
    """
    out: list[DocLine] = []
    section = ""
    listing = False
    para: list[tuple[str, int]] = []

    def flush() -> None:
        if para:
            text = _BULLET.sub("", " ".join(t for t, _ in para), count=1)
            name = section or ("Mentions" if listing else "")
            if name:
                out.append(DocLine(name, text, para[0][1]))
            elif _PANICS_INLINE.match(text):
                out.append(DocLine("Panics", text, para[0][1]))
            elif para[0][1] != skip and _MENTIONS_ERROR.search(text):
                out.append(DocLine("Mentions", text, para[0][1]))
            para.clear()

    fenced = False
    for txt, line in doc_lines:
        t = txt.strip()
        if t.startswith("```"):
            flush()
            fenced = not fenced
            continue
        if fenced:
            continue
        m = _DOC_HEADER.match(txt)
        if m or _ANY_HEADER.match(txt):
            flush()
            section = m.group(1) if m else ""
            listing = False
            continue
        if not t:
            flush()
            listing = False
            continue
        if _ERRORS_LEAD.match(t) and not section:
            flush()
            listing = True
            continue
        if _BULLET.match(t) or (t.startswith("[") and "]:" in t):
            flush()
            if t.startswith("[") and "]:" in t:
                continue  # a link's target, not prose
        para.append((t, line))
    flush()
    return out


def _type_name(text: str) -> str:
    return _WS.sub(" ", text.split("<", 1)[0]).strip()


def _is_test_attr(attr: str) -> bool:
    inner = attr[2:-1].strip()
    return (
        inner in ("test", "bench")
        or inner.endswith("::test")
        or (inner.startswith("cfg(") and bool(re.search(r"\btest\b", inner)) and "not" not in inner)
    )


def _callee(fn: Node | None, s: _Scan) -> str | None:
    if fn is None:
        return None
    if fn.type == "identifier":
        return s.t(fn)
    if fn.type == "scoped_identifier":
        name = fn.child_by_field_name("name")
        return s.t(name) if name else None
    if fn.type == "field_expression":
        field = fn.child_by_field_name("field")
        return s.t(field) if field else None
    if fn.type == "generic_function":
        return _callee(fn.child_by_field_name("function"), s)
    return None


def _token_calls(tt: Node, s: _Scan) -> list[tuple[str, int]]:
    """``name(`` inside a macro's token tree: a call the grammar leaves unparsed."""
    out: list[tuple[str, int]] = []
    # Only an identifier's last byte, then whitespace, can stand before such a
    # call's "(": a token tree without that text has no call (and most have none).
    if _NAME_PAREN.search(s.src, tt.start_byte + 1, tt.end_byte) is None:
        return out
    kids = tt.children
    for a, b in itertools.pairwise(kids):
        if (
            a.type == "identifier"
            and b.type == "token_tree"
            and s.src[b.start_byte : b.start_byte + 1] == b"("
        ):
            out.append((s.t(a), a.start_point.row + 1))
    return out


def _token_call_texts(tt: Node, s: _Scan) -> list[tuple[str, int, str]]:
    """(name, line, text) of each call by a path inside a macro's token tree
    written on one line (``escape::unescape("&#48;")``,
    ``ron::from_str::<f64>("1.0")``): the path's segments, a turbofish and
    the arguments' token tree, as the call expression's text would be."""
    out: list[tuple[str, int, str]] = []
    kids = tt.children
    for i, b in enumerate(kids):
        if i == 0 or b.type != "token_tree" or s.src[b.start_byte : b.start_byte + 1] != b"(":
            continue
        k = i - 1
        if kids[k].type == ">":  # a turbofish: back to its `::<`
            depth = 0
            while k >= 0:
                depth += {">": 1, "<": -1}.get(kids[k].type, 0)
                if depth == 0:
                    break
                k -= 1
            if k < 2 or kids[k - 1].type != "::":
                continue
            k -= 2
        a = kids[k]
        if a.type != "identifier" or s.src[a.start_byte : a.start_byte + 1].isupper():
            continue  # `Ok(…)`, a variant: no function
        j = k
        while j >= 2 and kids[j - 1].type == "::" and kids[j - 2].type == "identifier":
            j -= 2
        if j > 0 and kids[j - 1].type in (".", "::"):
            continue  # a method on a value (`x.unescape()`): not the call a user makes
        size = b.end_byte - kids[j].start_byte
        if size <= _MAX_CALL_TEXT and kids[j].start_point.row == b.end_point.row:
            text = s.src[kids[j].start_byte : b.end_byte].decode("utf-8", "replace")
            out.append((s.t(a), a.start_point.row + 1, text))
    return out


#: ``….is_err()`` as what an ``assert!`` checks
_IS_ERR = re.compile(r"\.\s*is_err\s*\(\s*\)\s*\)$")
#: the pattern of a ``matches!``/``assert_matches!``: ``Err(Path::Variant…)``,
#: ``Err(_)``, or a variant path alone (a value that is the error itself)
#: the first error variant an ``Err(…)`` names: ``Error::ExpectedFloat`` of
#: ``Err(SpannedError { code: Error::ExpectedFloat, .. })``
_VARIANT = re.compile(r"(?<![\w:])((?:[a-z_]\w*::)*[A-Z]\w*::[A-Z]\w*)\b(?!\s*::)")
_ERR_PATTERN = re.compile(
    r",\s*(?:Err\s*\(\s*(?:((?:\w+::)+[A-Z]\w*)|_|\.\.)[^|]*\)|((?:\w+::)+[A-Z]\w*)\b[^|]*)\)\s*\)?$"
)


#: the first call of an expression, by its last name
#: (a turbofish may name the unit type or a tuple: `from_str::<()>(…)`)
_FIRST_CALL = re.compile(
    r"(?<![\w:.])(?:[A-Za-z_]\w*(?:::|\.))*([A-Za-z_]\w*)\s*(?:::<(?:[^()]|\([^()]*\))*?>)?\("
)
#: names a checked expression's first call may have that call nothing of the library's
_NOT_CALLS = frozenset({"Err", "Ok", "Some", "is_err", "matches"})


def _outer_call(text: str) -> list[str]:
    """The last name of the first call in ``text`` (none or one)."""
    m = _FIRST_CALL.search(text)
    return [m.group(1)] if m else []


def _variant_name(path: str) -> str:
    """A variant as an entry names its type: ``Error::Empty`` of ``crate::error::Error::Empty``."""
    return "::".join(path.split("::")[-2:])


def _token_callees(tt: Node, s: _Scan) -> list[str]:
    out: list[str] = []
    stack = [tt]
    while stack:
        n = stack.pop()
        if n.type == "token_tree":
            out.extend(name for name, _ in _token_calls(n, s))
        stack.extend(n.children)
    return out


def scan(path: str, text: str, tree: Tree | None = None) -> FileEvidence:
    """``tree``: the file's parse, when the extractor made it already."""
    return _Scan(path, text).run(tree)


#: nodes whose ``pattern`` field binds names (``let``, ``if let``, ``for``, a
#: parameter, a match arm) and items whose ``name`` field does
_PATTERN_OWNERS = frozenset(
    {"let_declaration", "let_condition", "for_expression", "parameter", "match_pattern"}
)
_NAMED_ITEMS = frozenset(
    {
        "function_item",
        "struct_item",
        "enum_item",
        "trait_item",
        "type_item",
        "const_item",
        "static_item",
        "mod_item",
        "macro_definition",
    }
)


def _pattern_names(node: Node, out: set[str]) -> None:
    """The names a pattern binds: its identifiers, not the paths it matches
    (``Some`` of ``Some(x)``, the ``type`` of a struct pattern)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "identifier" and n.text is not None:
            out.add(n.text.decode("utf-8", "replace"))
            continue
        for i, child in enumerate(n.children):
            if n.field_name_for_child(i) == "type" or child.type in ("scoped_identifier",):
                continue
            stack.append(child)


def bindings(code: str) -> set[str]:
    """The names a Rust snippet defines itself: its ``let`` and pattern
    bindings, parameters (closures' too) and items. A ``use`` binds nothing
    here: the path it imports must exist."""
    root = _parser().parse(("fn __errordex() {\n" + code + "\n}").encode()).root_node
    out: set[str] = set()
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type in _PATTERN_OWNERS:
            pattern = n.child_by_field_name("pattern") if n.type != "match_pattern" else n
            if pattern is not None:
                _pattern_names(pattern, out)
        elif n.type == "closure_parameters":
            _pattern_names(n, out)
        elif n.type in _NAMED_ITEMS:
            name = n.child_by_field_name("name")
            if name is not None and name.text is not None:
                out.add(name.text.decode("utf-8", "replace"))
        stack.extend(n.children)
    out.discard("__errordex")
    return out


def _call_line(n: Node, callee: str) -> int:
    """A call's line; for ``.expect(..)`` / ``.unwrap()`` at the end of a
    chain over several lines, the line of the method, where the panic's site
    is (burn's ``self.handle\n.submit_blocking(..)\n.expect("Service call failed")``)."""
    if callee in ("expect", "unwrap"):
        func = n.child_by_field_name("function")
        field = func.child_by_field_name("field") if func is not None else None
        if field is not None:
            return field.start_point.row + 1
    return n.start_point.row + 1


def _passed_functions(call: Node, s: _Scan) -> list[tuple[str, int]]:
    """The functions a call is handed as values, which it runs: burn's
    ``TunableSet::new(create_key::<R>, …)`` and ``Self::f`` / ``module::f``
    (a bare name may be a variable: not read). (name, line)"""
    args = call.child_by_field_name("arguments")
    out: list[tuple[str, int]] = []
    for a in args.named_children if args is not None else ():
        if a.type == "generic_function":
            a = a.child_by_field_name("function") or a
        if a.type == "scoped_identifier":
            name = a.child_by_field_name("name")
            text = s.t(name) if name is not None else ""
            if text[:1].islower() or text[:1] == "_":
                out.append((text, a.start_point.row + 1))
        elif (
            a.type == "identifier" and a.parent is not None and a.parent.type == "generic_function"
        ):
            out.append((s.t(a), a.start_point.row + 1))
    return out
