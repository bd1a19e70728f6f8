"""Evidence in one Go file: funcs and methods, calls by name, tests that
check an error's text or identity (pure).

Symbols are as the extractor writes a site's: ``Parse``, a method ``T.M``.
A name is public when it is exported (upper case first).
"""

from __future__ import annotations

import bisect
import re
import textwrap
from collections import defaultdict

from tree_sitter import Node, Tree

from errordex import grammars
from errordex.analysis.evidence import Call, DocLine, FileEvidence, FuncDef, TestExpect
from errordex.extract.common import decode_all, is_test_path
from errordex.languages.go.extract import build_constraint, func_symbol, package_name
from errordex.languages.go.fmt import unquote

_IDENT_NODES = frozenset(
    {"identifier", "field_identifier", "type_identifier", "package_identifier"}
)
_STRING_NODES = frozenset({"interpreted_string_literal", "raw_string_literal"})
_MAX_BODY_LINES = 8
#: methods every error (or Stringer) has: a call by that name says nothing of which one
_INTERFACE_METHODS = frozenset({"Error", "String", "Unwrap"})
#: calls that check an error in a test (``expectation``)
_CHECKS = frozenset({"Contains", "HasPrefix", "HasSuffix", "Is"})
_TAG = re.compile(r"[\w.]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
#: a doc line that says when a func panics, or returns an error
_PANICS = re.compile(r"\bpanics?\b", re.I)
_ERRORS = re.compile(r"\b(?:returns?|reports?)\b.*\berror\b|\berror\b.*\bif\b", re.I)
_WRAP = "package errordex\n\nfunc errordex() {\n"


def parses(code: str) -> bool:
    """Whether ``code`` (a file, or the statements of a func body) parses as Go."""
    parser = grammars.parser("go")
    for candidate in (code, _WRAP + code + "\n}\n"):
        if not parser.parse(candidate.encode()).root_node.has_error:
            return True
    return False


def identifiers(code: str) -> set[str]:
    """Identifier tokens of a Go snippet (strings and comments excluded)."""
    root = grammars.parser("go").parse((_WRAP + code + "\n}\n").encode()).root_node
    out: set[str] = set()
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type in _IDENT_NODES and n.text is not None:
            out.add(n.text.decode("utf-8", "replace"))
        stack.extend(n.children)
    out.discard("errordex")
    return out


class _Scan:
    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.src = text.encode("utf-8", "surrogatepass")
        self.lines = text.splitlines()
        self.test_path = is_test_path(path)

    def t(self, n: Node) -> str:
        return self.src[n.start_byte : n.end_byte].decode("utf-8", "replace")

    def run(self, tree: Tree) -> FileEvidence:
        caps = grammars.captures("go", tree)
        funcs = sorted(caps.get("scan.func", ()), key=lambda n: n.start_byte)
        package = package_name(tree.root_node, self.t)
        functions: list[FuncDef] = []
        starts: list[int] = []
        spans: list[tuple[int, str, Node]] = []
        for d in funcs:
            symbol = func_symbol(d, self.t, package)
            name = symbol.rsplit(".", 1)[-1]
            functions.append(
                FuncDef(
                    name=name,
                    symbol=symbol,
                    path=self.path,
                    line=d.start_point.row + 1,
                    end_line=d.end_point.row + 1,
                    public=name[:1].isupper() and not self.test_path,
                    in_test=self.test_path,
                    params=tuple(self.params(d)),
                    docs=self.docs(d),
                )
            )
            starts.append(d.start_byte)
            spans.append((d.end_byte, symbol, d))

        def within(n: Node) -> tuple[str, Node] | None:
            """The func declaration around ``n`` (they do not nest)."""
            k = bisect.bisect_right(starts, n.start_byte) - 1
            if k < 0 or n.start_byte >= spans[k][0]:
                return None
            return spans[k][1], spans[k][2]

        calls: list[Call] = []
        called: dict[str, list[str]] = defaultdict(list)  # a test's callees
        checks: list[tuple[Node, str, Node]] = []
        for c in sorted(caps.get("scan.call", ()), key=lambda n: n.start_byte):
            callee = self.callee(c)
            if not callee:
                continue
            at = within(c)
            caller = at[0] if at else ""
            if self.test_path and at is not None:
                if callee not in called[caller]:
                    called[caller].append(callee)
                if callee in _CHECKS:
                    checks.append((c, *at))
            if callee in _INTERFACE_METHODS:
                continue
            line = c.start_point.row + 1
            text = self.t(c) if c.start_point.row == c.end_point.row else ""
            calls.append(Call(callee=callee, caller=caller, line=line, text=text[:120]))
        tests: list[TestExpect] = []
        if self.test_path:
            for cmp in caps.get("scan.cmp", ()):
                at = within(cmp)
                if at is not None:
                    checks.append((cmp, *at))
            for n, symbol, d in sorted(checks, key=lambda c: c[0].start_byte):
                name = symbol.rsplit(".", 1)[-1]
                if name.startswith("Test") and d.type == "function_declaration":
                    got = self.expectation(n, symbol, d, tuple(called[symbol]))
                    if got is not None:
                        tests.append(got)
        ids = {n.start_byte: n for n in caps.get("scan.id", ())}
        raw = {self.src[n.start_byte : n.end_byte] for n in ids.values()}
        build = build_constraint(self.lines)
        if build is not None:  # its tags are names a page shows (`//go:build windows`)
            raw |= {b"build", *(t.encode() for t in _TAG.findall(build[0]))}
        return FileEvidence(
            path=self.path,
            language="go",
            n_lines=len(self.lines),
            functions=tuple(functions),
            calls=tuple(calls),
            tests=tuple(tests),
            idents=frozenset(decode_all(raw)),
        )

    def docs(self, d: Node) -> tuple[DocLine, ...]:
        """The doc comment above a func: its first line (``Summary``), and
        each line that says when it returns an error or panics."""
        row = d.start_point.row - 1
        block: list[tuple[str, int]] = []
        while row >= 0 and self.lines[row].lstrip().startswith("//"):
            text = self.lines[row].lstrip()[2:].strip()
            if text.startswith("go:") or text.startswith("+build"):
                break
            block.append((text, row + 1))
            row -= 1
        block.reverse()
        # the comment as sentences, each with the line it starts on
        sentences: list[tuple[str, int]] = []
        current: list[str] = []
        start = 0
        for text, line in block:
            if not text:  # a blank comment line ends a paragraph
                if current:
                    sentences.append((" ".join(current), start))
                current = []
                continue
            for piece in _SENTENCE_END.split(text):
                if not current:
                    start = line
                current.append(piece)
                if piece.endswith((".", "!", "?")):
                    sentences.append((" ".join(current), start))
                    current = []
        if current:
            sentences.append((" ".join(current), start))
        out: list[DocLine] = []
        for k, (text, line) in enumerate(sentences):
            text = text.rstrip(".")
            # a contract line first: a fact is kept once per line
            if _PANICS.search(text) or _ERRORS.search(text):
                out.append(DocLine("Comment", text, line))
            if k == 0:
                out.append(DocLine("Summary", text, line))
        return tuple(out)

    def params(self, d: Node) -> list[str]:
        ps = d.child_by_field_name("parameters")
        out: list[str] = []
        for p in ps.named_children if ps is not None else ():
            out.extend(self.t(n) for n in p.children_by_field_name("name"))
        return out

    def callee(self, c: Node) -> str:
        fn = c.child_by_field_name("function")
        if fn is None:
            return ""
        if fn.type == "identifier":
            return self.t(fn)
        if fn.type == "selector_expression":
            field = fn.child_by_field_name("field")
            return self.t(field) if field is not None else ""
        return ""

    def expectation(
        self, n: Node, symbol: str, d: Node, calls: tuple[str, ...]
    ) -> TestExpect | None:
        """A test's check that expects an error: ``err.Error() != "msg"``,
        ``strings.Contains(err.Error(), "msg")``, ``errors.Is(err, ErrX)``;
        its body is the statements of the test before the one that checks."""
        body = d.child_by_field_name("body")
        if body is None:
            return None
        pattern: str | None = None
        exception: str | None = None
        kind = "assert-text"
        if n.type == "binary_expression":
            op = n.child_by_field_name("operator")
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if op is None or self.t(op) not in ("==", "!=") or left is None or right is None:
                return None
            for a, b in ((left, right), (right, left)):
                if b.type in _STRING_NODES and self.t(a).endswith(".Error()"):
                    pattern = unquote(self.t(b))
        else:
            fn = n.child_by_field_name("function")
            args = n.child_by_field_name("arguments")
            if fn is None or args is None or len(args.named_children) != 2:
                return None
            a, b = args.named_children
            name = self.t(fn)
            if name in ("strings.Contains", "strings.HasPrefix", "strings.HasSuffix"):
                if b.type in _STRING_NODES and self.t(a).endswith(".Error()"):
                    pattern = unquote(self.t(b))
            elif name.endswith("errors.Is") and b.type == "identifier":
                exception, kind = self.t(b), "errors.Is"
        if not pattern and not exception:
            return None
        line = n.start_point.row + 1
        before = [
            s for s in _statements(body) if s.end_byte <= n.start_byte and not _contains(s, n)
        ][-_MAX_BODY_LINES:]
        first = before[0].start_point.row + 1 if before else line
        text = "\n".join(
            _dedent("\n".join(self.lines[s.start_point.row : s.end_point.row + 1])) for s in before
        )
        return TestExpect(
            test=symbol,
            path=self.path,
            line=line,
            kind=kind,
            exception=exception,
            pattern=pattern or None,
            is_regex=False,
            body=text,
            body_line=first,
            calls=calls,
        )


def _statements(body: Node) -> list[Node]:
    """The statements of a block, in order."""
    out: list[Node] = []
    for c in body.named_children:
        out.extend(c.named_children if c.type == "statement_list" else [c])
    return [c for c in out if c.type != "comment"]


def _contains(a: Node, b: Node) -> bool:
    return a.start_byte <= b.start_byte and b.end_byte <= a.end_byte


def _dedent(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


def scan(path: str, text: str, tree: Tree | None = None) -> FileEvidence:
    if tree is None:
        tree = grammars.parser("go").parse(text.encode("utf-8", "surrogatepass"))
    return _Scan(path, text).run(tree)
