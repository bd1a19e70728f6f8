"""Evidence in one Python file: defs, calls by name, docstring Raises lines,
tests expecting errors, and ``except`` clauses (pure)."""

from __future__ import annotations

import ast
import re
import sys
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace

from tree_sitter import Node, Parser, Tree

from errordex import grammars
from errordex.analysis.evidence import Call, Catch, DocLine, FileEvidence, FuncDef, TestExpect
from errordex.extract.common import decode_all, is_test_path
from errordex.languages.python import doctests, tables
from errordex.languages.python.mentions import mentions

_RAISES_HEAD = re.compile(r"^\s*Raises\s*:?\s*$")
#: a name in a doctest's code
_WORD = re.compile(r"[A-Za-z_]\w*")
_SPHINX = re.compile(r"^\s*:raises?\s+([\w.]+)\s*:(.*)$")
_SECTION = re.compile(r"^\s*[A-Z][A-Za-z ]+:\s*$|^\s*-{3,}\s*$")
_MAX_BODY_LINES = 25
#: the captures of scan.scm walked in document order ("id" is read apart)
_READ = ("string", "class", "function", "call", "with", "assert", "except")
_STRING, _CLASS, _FUNCTION, _CALL, _WITH, _ASSERT, _EXCEPT = range(len(_READ))
#: callee names of the calls ``expectation`` can read (``pytest.raises``,
#: ``self.assertRaises``): a test's other calls are not looked at
_EXPECTING = frozenset({"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp"})


def _parser() -> Parser:
    return grammars.parser("python")


def parses(code: str) -> bool:
    return not _parser().parse(code.encode()).root_node.has_error


#: the longest call kept as written (``Call.text``); httpx's
#: ``encode_request(content=…, data=…, files=…, json=…, boundary=…)`` in
#: ``Request.__init__`` is 380 characters over 12 lines
_MAX_CALL_TEXT = 480
#: a test's call is kept as written when it is on one line and this short
_MAX_TEST_CALL_TEXT = 120


def identifiers(code: str) -> set[str]:
    root = _parser().parse(code.encode()).root_node
    out: set[str] = set()
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "identifier" and n.text is not None:
            out.add(n.text.decode("utf-8", "replace"))
        stack.extend(n.children)
    return out


def bindings(code: str) -> set[str]:
    """The names a Python snippet defines itself: what it assigns, its
    functions, classes and parameters, ``as`` names. A plain import binds
    nothing here: the module it names must exist.

    >>> sorted(bindings("def f(a, *b):\n    c = a\nimport os as o"))
    ['a', 'b', 'c', 'f', 'o']
    """
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return set()
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.alias) and node.asname:
            out.add(node.asname)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
    return out


def _summary_line(doc: str) -> tuple[str, int] | None:
    """A docstring's first non-empty line without its quotes, and its offset
    in lines (``\"\"\"\nReturn x.`` -> ("Return x.", 1)); None for an empty one.
    Its first sentence, over the lines it wraps onto; one longer than we read
    says so.

    >>> _summary_line("'Return the text and more.'")
    ('Return the text and more.', 0)
    >>> _summary_line("'A sentence that goes on" + "\\nand on" * 9 + "'")[0][-8:]
    'and on …'
    """
    body = re.sub(r'^[rRbBuU]{0,2}("""|\'\'\'|"|\')', "", doc)
    lines = body.splitlines()
    for i, line in enumerate(lines):
        text = line.strip().rstrip("\"'").strip()
        if text and _SECTION_HEAD.match(text):
            return None  # "Parameters\n----------": no summary before the sections
        if text:
            # the first paragraph: a sentence may wrap onto the next lines
            # (h11's `send_with_data_passthrough` takes five)
            whole = len(lines) - (i + 1) <= _PARAGRAPH_LINES  # the docstring ends in reach
            for more in lines[i + 1 : i + 1 + _PARAGRAPH_LINES]:
                more = more.strip().rstrip("\"'").strip()
                if not more or text.endswith("."):
                    whole = True
                    break
                text += " " + more
            # its first sentence: click's style() goes on "…returns the new
            # string.  By default the styling is self contained…"
            end = _SENTENCE_END.search(text)
            first = text[: end.start() + 1] if end else text
            if not end and not whole and not first.endswith((".", ":", "?", "!")):
                first += " …"  # a sentence longer than we read: not cut without saying so
            if len(first.split()) < _FEW_WORDS and not first.endswith((".", ":")):
                # a title, no sentence (werkzeug's "*409* `Conflict`"): the next
                # paragraph's first sentence says what it is for
                after = _summary_line("\n".join(lines[i + 1 :]).lstrip("\n"))
                if after is not None and len(after[0].split()) >= _FEW_WORDS:
                    return f"{first}: {after[0]}", i
            return first, i
    return None


#: how many more lines a docstring's first sentence is read over
_PARAGRAPH_LINES = 7
#: fewer words than this are a docstring's title, not a sentence
_FEW_WORDS = 4

#: the longest value of a ``self.attr = value`` a method's facts keep
_MAX_SET_VALUE = 60

#: a numpydoc or Google section's heading, where a docstring has no summary line
_SECTION_HEAD = re.compile(
    r"(Parameters|Returns?|Yields?|Raises|Examples?|Notes?|See Also|Args|Arguments|"
    r"Attributes|Other Parameters|Warnings?)\s*:?$"
)

#: the end of a sentence: a full stop (or ! ?) before a space and a capital
_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z`])")


#: an assertion that a text is absent: `not in`, `!=`, `assert not ...`
_NEGATIVE = re.compile(r"\bnot\s+in\b|!=|^\s*assert\s+not\b")


def _private_module(path: str) -> bool:
    parts = path.split("/")
    name = parts[-1].removesuffix(".py")
    return any(p.startswith("_") for p in parts[:-1]) or (
        name.startswith("_") and name not in ("__init__", "__main__")
    )


def public_name(name: str) -> bool:
    """Whether a name is public by Python's convention (a dunder is).

    >>> public_name("send"), public_name("__init__"), public_name("_send_single_request")
    (True, True, False)
    """
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


class _Scan:
    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.src = text.encode("utf-8", "surrogatepass")
        self.lines = text.splitlines()
        self.test_path = is_test_path(path)
        self.private_module = _private_module(path)
        self.functions: list[FuncDef] = []
        self.calls: list[Call] = []
        self.tests: list[TestExpect] = []
        self.catches: list[Catch] = []
        self.class_docs: list[tuple[str, DocLine]] = []
        self.idents: set[str] = set()
        #: the module's ``__all__`` (``dunder_all``), read by ``run``
        self.exported: frozenset[str] | None = None
        #: asserts read as the text a ``pytest.raises`` block before them expects
        self.consumed: set[int] = set()
        #: the names of the functions defined so far (a name inside one is local)
        self.function_names: set[str] = set()
        #: the statements that bind names (``_BINDING``), in document order,
        #: and their start bytes (``run`` fills them)
        self.bindings: list[Node] = []
        self.binding_starts: list[int] = []

    def dunder_all(self, caught: grammars.Captures) -> frozenset[str] | None:
        """The names in the module's ``__all__``, when it is a literal list or
        tuple of strings (added to with ``+=`` literals too); None when there
        is none, or it cannot be read (``__all__.extend(...)``, ``+= a.__all__``)."""
        if b"__all__" not in self.src:
            return None  # no assignment can name it (28k assignments in the stdlib)
        found: set[str] = set()
        seen = False
        for node in (*caught.get("assign", ()), *caught.get("augment", ())):
            if self.t(node.child_by_field_name("left")) != "__all__":
                continue
            scope = node.parent
            while scope is not None and scope.type not in (
                "function_definition",
                "class_definition",
            ):
                scope = scope.parent
            if scope is not None:
                continue  # a class's or function's own __all__
            seen = True
            try:
                value = ast.literal_eval(self.t(node.child_by_field_name("right")))
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                return None
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
                return None
            found.update(value)
        if not seen or b"__all__." in self.src:
            return None
        return frozenset(found)

    def exports(self, names: list[str], name: str) -> bool:
        """Whether a function defined at ``names`` is the module's API by its
        ``__all__``: a module-level function not listed is a helper
        (json.decoder's ``JSONObject``). A class is not judged so: the API
        may hand out its instances (``aifc.open`` returns an ``Aifc_write``)."""
        return bool(names) or self.exported is None or name in self.exported

    def t(self, n: Node | None) -> str:
        if n is None:
            return ""
        return self.src[n.start_byte : n.end_byte].decode("utf-8", "replace")

    def run(self, tree: Tree | None = None) -> FileEvidence:
        tree = tree or _parser().parse(self.src)
        caught = grammars.captures("python", tree)
        self.exported = self.dunder_all(caught)
        self.bindings = sorted(caught.get("binding", ()), key=lambda b: b.start_byte)
        self.binding_starts = [b.start_byte for b in self.bindings]
        # The captures in document order (a parent before the nodes it holds),
        # read as a walk would: scopes are popped when a node starts past their end.
        read = {kind: caught.get(kind, []) for kind in _READ}
        if not tree.root_node.has_error:
            # Only a string with an f-string hole holds code (or identifiers);
            # the others need not be walked. (An error may put code anywhere.)
            holders = {h.parent for h in caught.get("interpolation", ())}
            read["string"] = [s for s in holders if s is not None and s.type == "string"]
        events = sorted(
            [
                (n.start_byte, -n.end_byte, k, i, n)
                for k, kind in enumerate(_READ)
                for i, n in enumerate(read[kind])
            ]
        )
        top = sys.maxsize
        # (end byte, qualified names, enclosing fn symbol, public scope, in a test fn)
        scopes: list[tuple[int, list[str], str, bool, bool]] = [
            (top, [], "", not self.private_module, self.test_path)
        ]
        strings: list[tuple[int, int]] = []  # outermost string literals: no code inside
        string_end = -1
        # The loop below runs for every call of the file (the stdlib's 84k): its
        # lookups are hoisted, and a node's fields are read once.
        src, calls, intern = self.src, self.calls, sys.intern
        renamed = self.own_aliases(tree)
        for start, neg_end, k, _, n in events:
            # inside a string only an f-string hole's calls count (`f"{_interpret_color(fg)}"`
            # in click's style is its call of the helper that raises)
            if start < string_end and k != _CALL:
                continue
            while start >= scopes[-1][0]:
                scopes.pop()
            if k == _STRING:
                string_end = -neg_end
                strings.append((start, string_end))
                continue
            _, names, fn, public, in_test = scopes[-1]
            if k == _CALL:
                # ``_callee``, inline
                name_node = n.child_by_field_name("function")
                if name_node is None:
                    continue
                kind = name_node.type
                if kind == "attribute":
                    name_node = name_node.child_by_field_name("attribute")
                    if name_node is None:
                        continue
                elif kind != "identifier":
                    continue
                callee = src[name_node.start_byte : name_node.end_byte].decode("utf-8", "replace")
                if callee:
                    # as written, for lifting a helper's check to its caller's
                    # arguments (``lift``): a library's own call on one line
                    row = n.start_point.row
                    # a test's call on one line, for an example fix (``validcall``)
                    most = _MAX_TEST_CALL_TEXT if in_test else _MAX_CALL_TEXT
                    text = (
                        src[start:-neg_end].decode("utf-8", "replace")
                        if fn
                        and -neg_end - start <= most
                        and not (in_test and row != n.end_point.row)
                        else ""
                    )
                    if text and row != n.end_point.row:
                        # a call over several lines, as one (a comment would end it)
                        text = "" if "#" in text else " ".join(text.split())
                    if kind == "identifier" and callee in renamed and not in_test:
                        # ``from ._parser import parse_requirement as _parse_requirement``:
                        # the call is of the function its module defines
                        callee, text = (
                            renamed[callee],
                            text and renamed[callee] + text[len(callee) :],
                        )
                    calls.append(Call(intern(callee), intern(fn), row + 1, text))
                    if fn and not in_test:
                        for ref, line in _passed_functions(n, src):
                            calls.append(Call(intern(ref), intern(fn), line, ""))
                    if in_test and callee in _EXPECTING:
                        self.test_call(n, callee, fn)
            elif k == _FUNCTION:
                scopes.append((-neg_end, *self.function(n, names, public, in_test)))
            elif k == _CLASS:
                name = self.t(n.child_by_field_name("name"))
                self.idents.add(name)
                if not in_test:
                    said = self.docstring(n, summary=True)
                    if said and said[0].section == "Summary":
                        self.class_docs.append((".".join([*names, name]), said[0]))
                scopes.append(
                    (
                        -neg_end,
                        [*names, name],
                        fn,
                        public and public_name(name),
                        in_test or name.startswith("Test"),
                    )
                )
            elif k == _WITH:
                if in_test:
                    self.test_with(n, fn)
            elif k == _ASSERT:
                if in_test:
                    self.assert_text(n, fn)
            elif k == _EXCEPT:
                self.except_clause(n, fn)
        self.identifiers(caught.get("id", []), strings)
        self.attribute_sets(caught.get("self_assign", []))
        # a docstring's `>>>` session that prints a traceback is a test too
        examples = doctests.examples(self.path, self.text) if not self.test_path else ()
        for example in examples:
            # its code is the repository's, as a page that quotes it shows it
            self.idents.update(_WORD.findall(example.body))
        return FileEvidence(
            path=self.path,
            language="python",
            n_lines=len(self.lines),
            functions=tuple(self.functions),
            calls=tuple(self.calls),
            tests=(*self.tests, *examples),
            catches=tuple(self.catches),
            idents=frozenset(self.idents),
            exports=self.reexports(tree),
            class_docs=tuple(self.class_docs),
            instances=self.instances(tree),
            registered=self.registered(tree),
            looked_up=self.looked_up(),
        )

    def looked_up(self) -> tuple[tuple[str, int, str], ...]:
        """The calls ``x.m(…)`` on a name the calling function bound to an
        item looked up, on a line of its own before the call
        (``convertor = param_convertors[key]``, then ``convertor.to_string(value)``):
        (caller, line, callee)."""
        if "]" not in self.text:
            return ()
        bound: dict[str, list[int]] = defaultdict(list)
        line, at = 1, 0
        for b in _BOUND_TO_ITEM.finditer(self.text):
            line += self.text.count("\n", at, b.start())  # counted on from the last
            at = b.start()
            bound[b.group(1)].append(line)
        if not bound:
            return ()
        spans = {f.symbol: (f.line, f.end_line) for f in self.functions}
        out: list[tuple[str, int, str]] = []
        for c in self.calls:
            on = _ON_NAME.match(c.text) if c.text else None
            span = spans.get(c.caller)
            if on is None or span is None or on.group(2) != c.callee:
                continue
            if any(span[0] < n < c.line for n in bound.get(on.group(1), ())):
                out.append((c.caller, c.line, c.callee))
        return tuple(out)

    def registered(self, tree: Tree) -> tuple[tuple[str, str], ...]:
        """The classes a module-level dict, list or tuple holds, or holds
        instances of, as (the class's last name, the table's name):
        werkzeug's ``DEFAULT_CONVERTERS = {"any": AnyConverter, …}``,
        falcon's ``BUILTIN = (("int", IntConverter), …)``, a table of
        ``{"float": FloatConvertor(), …}``. A class, by convention, is a
        capitalised name that is not all capitals."""
        out: list[tuple[str, str]] = []
        for n in tree.root_node.named_children:
            if n.type != "expression_statement" or n.named_child_count != 1:
                continue
            a = n.named_children[0]
            left = a.child_by_field_name("left") if a.type == "assignment" else None
            right = a.child_by_field_name("right") if a.type == "assignment" else None
            if left is None or right is None or left.type != "identifier":
                continue
            if right.type not in ("dictionary", "list", "tuple", "set"):
                continue
            table = self.t(left)
            stack = list(right.named_children)
            while stack:
                v = stack.pop()
                if v.type == "pair":
                    v = v.child_by_field_name("value") or v
                if v.type in ("tuple", "list"):
                    stack.extend(v.named_children)
                    continue
                if v.type == "call":
                    v = v.child_by_field_name("function") or v
                name = _callee(v, self) if v.type in ("identifier", "attribute") else None
                if name and name[:1].isupper() and not name.isupper():
                    out.append((name, table))
        return tuple(dict.fromkeys(out))

    def instances(self, tree: Tree) -> tuple[tuple[str, str], ...]:
        """The module-level names bound to a class's instance, as (name, the
        class's last name): ``_default_decoder = JSONDecoder(...)`` in json,
        ``_sysrand = SystemRandom()`` in secrets. A module-level function
        that calls a method on one calls that class's method. A name bound
        twice is left out (its class is not known)."""
        found: dict[str, str | None] = {}
        for n in tree.root_node.named_children:
            if n.type != "expression_statement" or n.named_child_count != 1:
                continue
            a = n.named_children[0]
            if a.type != "assignment":
                continue
            left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
            if left is None or left.type != "identifier":
                continue
            name = self.t(left)
            found[name] = None if name in found else _instance_of(right, self)
        return tuple((name, cls) for name, cls in found.items() if cls is not None)

    def import_froms(
        self, tree: Tree, having: bytes = b""
    ) -> Iterator[tuple[Node, ast.ImportFrom]]:
        """The module's ``from … import …`` statements (``_module_level_imports``),
        parsed; only those whose text has ``having``, when given."""
        for n in _module_level_imports(tree.root_node):
            if having and having not in self.src[n.start_byte : n.end_byte]:
                continue
            try:
                stmt = ast.parse(self.t(n)).body[0]
            except (SyntaxError, IndexError, ValueError):
                continue
            if isinstance(stmt, ast.ImportFrom):
                yield n, stmt

    def own_aliases(self, tree: Tree) -> dict[str, str]:
        """The names this module imports from its own package under another
        name (packaging's ``from ._parser import parse_requirement as
        _parse_requirement``), each with the name its module defines: a call
        of the alias is a call of that function, not of another one of the
        alias's name (``_parser._parse_requirement``)."""
        out: dict[str, str] = {}
        top = self.path.split("/", 1)[0]
        for _, stmt in self.import_froms(tree, b" as "):
            module = (stmt.module or "").split(".")
            if stmt.level == 0 and module[0] not in (top, "src", "lib"):
                continue  # another package's name: nothing of it is indexed here
            for alias in stmt.names:
                if alias.asname and alias.asname != alias.name and alias.name != "*":
                    out[alias.asname] = alias.name
        return out

    def reexports(self, tree: Tree) -> tuple[tuple[str, str, str, int], ...]:
        """What a package's ``__init__.py`` re-exports from its modules:
        (the name it exports, the module's path without ``.py``, the name
        there, the line of the import), from top-level ``from .termui import style`` (as listed in
        its ``__all__``, when it has one), also in a top-level ``if`` or
        ``try`` (anyio's ``if TYPE_CHECKING or not install_lazy_importer():``,
        a ``try:`` that falls back to a pure-Python module)."""
        if not self.path.endswith("__init__.py") or self.test_path:
            return ()
        here = self.path.rsplit("/", 1)[0] if "/" in self.path else ""
        dirs = here.split("/") if here else []
        root = dirs[:1] if dirs[:1] in (["src"], ["lib"]) else []
        top = dirs[len(root)] if len(dirs) > len(root) else ""
        out: list[tuple[str, str, str, int]] = []
        for n, stmt in self.import_froms(tree):
            parts = stmt.module.split(".") if stmt.module else []
            if stmt.level >= 1:
                base = here.split("/") if here else []
                base = base[: len(base) - (stmt.level - 1)] if stmt.level > 1 else base
            elif parts and parts[0] == top:
                base = root  # `from xarray.core.dataset import Dataset` in xarray/
            else:
                continue  # another package's name
            module = "/".join([*base, *parts])
            for alias in stmt.names:
                shown = alias.asname or alias.name
                if alias.name == "*":
                    # `from ._models import *`: what the package's `__all__`
                    # lists is exported from it, where that module defines it
                    # (a name it does not define is never looked up there)
                    stars = sorted(self.exported or ()) if self.exported is not None else ["*"]
                    out += [
                        (name, module, name, n.start_point.row + 1)
                        for name in stars
                        if name == "*" or not name.startswith("_")
                    ]
                    continue
                if shown.startswith("_"):
                    continue
                if self.exported is not None and shown not in self.exported:
                    continue
                out.append((shown, module, alias.name, n.start_point.row + 1))
        return tuple(out)

    def identifiers(self, nodes: list[Node], strings: list[tuple[int, int]]) -> None:
        """Identifier tokens outside string literals (f-string holes are inside)."""
        # The source with every string blanked: an identifier in a string
        # reads as spaces, any other as itself.
        src = self.src
        if strings:
            parts: list[bytes] = []
            pos = 0
            for a, b in strings:
                parts += (src[pos:a], b" " * (b - a))
                pos = b
            parts.append(src[pos:])
            src = b"".join(parts)
        found = {src[n.start_byte : n.end_byte] for n in nodes}
        if b"" in found:  # a MISSING identifier (a syntax error): is it in a string?
            found.discard(b"")
            starts = [a for a, _ in strings]
            for n in nodes:
                at = n.start_byte
                i = bisect_right(starts, at) - 1
                if n.end_byte == at and (i < 0 or at >= strings[i][1]):
                    found.add(b"")
                    break
        self.idents.update(decode_all([x for x in found if x.strip(b" ") or not x]))

    def params(self, n: Node) -> list[str]:
        """The parameter names of a ``def``, in order (``*args``/``**kw`` by their name)."""
        out: list[str] = []
        ps = n.child_by_field_name("parameters")
        for p in ps.named_children if ps is not None else ():
            if p.type == "identifier":
                out.append(self.t(p))
                continue
            got = p.child_by_field_name("name")
            if got is None:  # *args, **kw, and a typed one without a name field
                got = next((c for c in p.named_children if c.type == "identifier"), None)
            if got is not None and got.type == "identifier":
                out.append(self.t(got))
        return out

    def defaults(self, n: Node) -> list[tuple[str, str]]:
        """The defaults of a ``def``'s parameters, as written, and ``*args``/
        ``**kw`` as "*"/"**" (``FuncDef.defaults``); a bare ``*`` is
        ("*", the first keyword-only parameter)."""
        out: list[tuple[str, str]] = []
        ps = n.child_by_field_name("parameters")
        bare_star = False
        for p in ps.named_children if ps is not None else ():
            if p.type == "keyword_separator":
                bare_star = True  # `*,`: the next parameter is keyword-only
                continue
            if bare_star:
                got = p if p.type == "identifier" else p.child_by_field_name("name")
                if got is not None and got.type == "identifier":
                    out.append(("*", self.t(got)))
                bare_star = False
            if p.type in ("list_splat_pattern", "dictionary_splat_pattern"):
                got = next((c for c in p.named_children if c.type == "identifier"), None)
                if got is not None:
                    out.append((self.t(got), "*" if p.type == "list_splat_pattern" else "**"))
            elif p.type in ("default_parameter", "typed_default_parameter"):
                name, value = p.child_by_field_name("name"), p.child_by_field_name("value")
                if name is not None and value is not None and name.type == "identifier":
                    out.append((self.t(name), " ".join(self.t(value).split())))
        return out

    def function(
        self, n: Node, names: list[str], public: bool, in_test: bool
    ) -> tuple[list[str], str, bool, bool]:
        name = self.t(n.child_by_field_name("name"))
        symbol = ".".join([*names, name])
        is_test = in_test or name.startswith("test")
        self.function_names.add(name)
        if _overload_stub(n):
            # a signature for type checkers, never run: the definition after
            # it is the function (its docstring, its calls; xarray's `merge`)
            return [*names, name], symbol, False, is_test
        self.functions.append(
            FuncDef(
                name=name,
                symbol=symbol,
                path=self.path,
                line=n.start_point.row + 1,
                end_line=n.end_point.row + 1,
                public=public and public_name(name) and not is_test and self.exports(names, name),
                in_test=is_test,
                # a private module's public names may be re-exported (httpx's
                # `_client.py`): their summary is read as the API's too; a
                # private function's says what the code that throws is for
                docs=tuple(
                    self.docstring(
                        n,
                        summary=not is_test and not any(p in self.function_names for p in names),
                    )
                ),
                params=tuple(self.params(n)),
                defaults=tuple(self.defaults(n)),
                rebinds=self.rebinds(n, set(self.params(n))),
            )
        )
        # Names inside a function are locals: not public API.
        return [*names, name], symbol, False, is_test

    def rebinds(self, fn: Node, params: set[str]) -> tuple[tuple[str, int], ...]:
        """``_rebinds`` of the binding statements in ``fn``'s body: those
        whose bytes lie within it (a node within another's bytes is inside
        it), found by bisection rather than by a walk of the body."""
        body = fn.child_by_field_name("body")
        if body is None or not params:
            return ()
        lo, hi = body.start_byte, body.end_byte
        i = bisect_left(self.binding_starts, lo)
        inside: list[Node] = []
        for c in self.bindings[i:]:
            if c.start_byte >= hi:
                break
            if c.end_byte <= hi:
                inside.append(c)
        return _rebinds(inside, params)

    def attribute_sets(self, nodes: list[Node]) -> None:
        """Give each method the ``self.attr = value`` assignments in its own
        body (``FuncDef.sets``), in place of the method as first read."""
        found: dict[int, list[tuple[str, str, int]]] = {}
        for n in nodes:
            left = n.child_by_field_name("left")
            obj = left.child_by_field_name("object") if left is not None else None
            right = n.child_by_field_name("right")
            if left is None or obj is None or right is None or self.t(obj) != "self":
                continue
            scope = n.parent
            while scope is not None and scope.type not in ("function_definition", "lambda"):
                scope = scope.parent
            if scope is None or scope.type != "function_definition":
                continue
            value = " ".join(self.t(right).split())
            if len(value) > _MAX_SET_VALUE:
                continue
            attr = self.t(left.child_by_field_name("attribute"))
            found.setdefault(scope.start_point.row + 1, []).append(
                (attr, value, n.start_point.row + 1)
            )
        if found:
            self.functions = [
                replace(f, sets=tuple(sorted(found[f.line], key=lambda x: x[2])))
                if f.line in found
                else f
                for f in self.functions
            ]

    def docstring(self, fn: Node, summary: bool = False) -> list[DocLine]:
        """The Raises lines of a function's docstring; with ``summary``, its
        first line too (what a public function does), and the paragraphs
        elsewhere that say it raises a named exception ("Docstring")."""
        body = fn.child_by_field_name("body")
        first = body.named_child(0) if body is not None and body.named_child_count else None
        if first is None or first.type != "expression_statement":
            return []
        s = first.named_child(0) if first.named_child_count else None
        if s is None or s.type != "string":
            return []
        text = self.t(s)
        start = s.start_point.row + 1
        out: list[DocLine] = []
        if summary:
            got = _summary_line(text)
            if got is not None:
                out.append(DocLine("Summary", got[0], start + got[1]))
            # where it documents an error with the argument that leads to it
            out += mentions(text, start)
        if ":raise" not in text and "Raises" not in text:
            # Neither pattern can match a line: most docstrings end here
            # (14k functions in the stdlib, each line read by two regexes).
            return out
        lines = text.splitlines()
        in_raises = False
        indent = -1
        for i, raw in enumerate(lines):
            m = _SPHINX.match(raw)
            if m:
                said = [m.group(2).strip()]
                # ``:raises InvalidVersion:`` with its text on the lines under it
                # (packaging), indented deeper than the field
                depth = len(raw) - len(raw.lstrip())
                for more in lines[i + 1 : i + 8]:
                    text = more.strip().strip("\"'")
                    if not text or len(more) - len(more.lstrip()) <= depth:
                        break
                    said.append(text)
                told = " ".join(w for w in said if w)
                out.append(DocLine("Raises", f"{m.group(1)}: {told}".rstrip(": "), start + i))
                continue
            if _RAISES_HEAD.match(raw.strip("\"' ")):
                in_raises, indent = True, len(raw) - len(raw.lstrip())
                continue
            if not in_raises:
                continue
            stripped = raw.strip().strip("\"'")
            if not stripped:
                if out and out[-1].section == "Raises":
                    in_raises = False
                continue
            if set(stripped) <= {"-"}:
                continue
            if _SECTION.match(raw) and len(raw) - len(raw.lstrip()) <= indent:
                in_raises = False
                continue
            out.append(DocLine("Raises", stripped, start + i))
        return out

    def body_of(self, nodes: list[Node]) -> tuple[str, int]:
        if not nodes:
            return "", 0
        lo, hi = nodes[0].start_point.row, nodes[-1].end_point.row
        if hi - lo >= _MAX_BODY_LINES:
            return "", 0
        chunk = self.lines[lo : hi + 1]
        indent = min((len(s) - len(s.lstrip()) for s in chunk if s.strip()), default=0)
        return "\n".join(s[indent:] for s in chunk), lo + 1

    def calls_in(self, nodes: list[Node]) -> tuple[str, ...]:
        out: list[str] = []
        stack = list(nodes)
        while stack:
            c = stack.pop()
            if c.type == "call":
                name = _callee(c.child_by_field_name("function"), self)
                if name:
                    out.append(name)
            stack.extend(c.children)
        return tuple(dict.fromkeys(out))

    def expectation(self, call: Node) -> tuple[str, str | None, str | None, bool] | None:
        """(kind, exception, pattern, is_regex) of ``pytest.raises(...)`` /
        ``self.assertRaises[Regex](...)``, else None."""
        fn = self.t(call.child_by_field_name("function"))
        args = call.child_by_field_name("arguments")
        pos = [a for a in args.named_children if a.type != "keyword_argument"] if args else []
        kw = {
            self.t(a.child_by_field_name("name")): a.child_by_field_name("value")
            for a in (args.named_children if args else [])
            if a.type == "keyword_argument"
        }
        exc = self.t(pos[0]) if pos else None
        if fn in ("pytest.raises", "raises"):
            pat = _string_value(self.t(kw["match"])) if "match" in kw else None
            return "pytest.raises", exc, pat, True
        last = fn.rsplit(".", 1)[-1]
        if last in ("assertRaises", "assertRaisesRegex", "assertRaisesRegexp"):
            pat = None
            if last != "assertRaises":
                pat_node = pos[1] if len(pos) > 1 else kw.get("expected_regex")
                pat = _string_value(self.t(pat_node)) if pat_node is not None else None
            return (
                ("assertRaises" if last == "assertRaises" else "assertRaisesRegex"),
                exc,
                pat,
                True,
            )
        return None

    def test_with(self, n: Node, fn: str) -> None:
        clause = next((c for c in n.children if c.type == "with_clause"), None)
        for item in clause.named_children if clause else []:
            value = item.named_children[0] if item.named_children else None
            if value is not None and value.type == "as_pattern":
                value = value.named_children[0] if value.named_children else None
            if value is None or value.type != "call":
                continue
            got = self.expectation(value)
            if got is None:
                continue
            body = n.child_by_field_name("body")
            stmts = list(body.named_children) if body is not None else []
            text, line = self.body_of(stmts)
            kind, exc, pat, is_re = got
            if pat is None:
                said = self.text_after(n, item)
                if said is not None:
                    pat, is_re = said, False
            calls = self.calls_in(stmts)
            # A table test: one expectation per row, with the row's input in the body.
            rows = tables.rows(self.src, self.lines, n, value, stmts, _MAX_BODY_LINES)
            for r in rows:
                self.tests.append(
                    TestExpect(
                        fn,
                        self.path,
                        r.line,
                        kind,
                        exc,
                        r.pattern,
                        r.is_regex,
                        r.body,
                        line,
                        calls,
                        r.inputs,
                    )
                )
            if rows:
                continue
            self.tests.append(
                TestExpect(
                    fn,
                    self.path,
                    n.start_point.row + 1,
                    kind,
                    exc,
                    pat,
                    is_re,
                    text,
                    line,
                    calls,
                )
            )

    def text_after(self, with_stmt: Node, item: Node) -> str | None:
        """The message the statement after ``with pytest.raises(X) as exc:``
        pins, when it is ``assert str(exc.value) == "…"`` (or ``in``):
        the expected text of that block (the assertion is not a test of its own)."""
        value = item.named_children[0] if item.named_children else None
        alias = (
            value.named_children[-1] if value is not None and value.type == "as_pattern" else None
        )
        after = with_stmt.next_named_sibling
        if alias is None or after is None or after.type != "assert_statement":
            return None
        text = self.t(after)
        name = self.t(alias).strip()
        if not re.search(rf"\b{re.escape(name)}\.(value|exception)\b", text):
            return None
        if _NEGATIVE.search(text):
            return None
        strings = [c for c in _walk(after) if c.type == "string"]
        got = _string_value(self.t(strings[0])) if len(strings) == 1 else None
        if not got or len(got) < 4:
            return None
        self.consumed.add(after.start_byte)
        return got

    def test_call(self, call: Node, callee: str, fn: str) -> None:
        # The callable form: pytest.raises(X, f, *args) / self.assertRaises(X, f, ...).
        parent = call.parent
        if parent is not None and parent.type in ("with_item", "as_pattern"):
            return
        got = self.expectation(call)
        if got is None:
            return
        kind, exc, pat, is_re = got
        args = call.child_by_field_name("arguments")
        pos = [a for a in args.named_children if a.type != "keyword_argument"] if args else []
        target = (
            pos[2 if kind == "assertRaisesRegex" else 1]
            if len(pos) > (2 if kind == "assertRaisesRegex" else 1)
            else None
        )
        if target is None:
            return
        stmt = parent if parent is not None and parent.type == "expression_statement" else call
        text, line = self.body_of([stmt])
        name = _callee(target, self)
        self.tests.append(
            TestExpect(
                fn,
                self.path,
                call.start_point.row + 1,
                kind,
                exc,
                pat,
                is_re,
                text,
                line,
                (name,) if name else (),
            )
        )

    def assert_text(self, n: Node, fn: str) -> None:
        if n.start_byte in self.consumed:
            return  # the expected text of the `pytest.raises` block before it
        text = self.t(n)
        if "str(" not in text and ".args" not in text and "message" not in text:
            return
        if _NEGATIVE.search(text):
            return  # `assert "X" not in str(err)`: the test is that the text does NOT appear
        caught = _caught_names(n)
        if not any(re.search(rf"\b{re.escape(name)}\b", text) for name in caught):
            return  # `assert str(Style(bold=False)) == "not bold"`: no error's text
        strings = [c for c in _walk(n) if c.type == "string"]
        if len(strings) != 1:
            return
        value = _string_value(self.t(strings[0]))
        if not value or len(value) < 4:
            return
        body, line = self.body_of([n])
        self.tests.append(
            TestExpect(
                fn,
                self.path,
                n.start_point.row + 1,
                "assert-text",
                None,
                value,
                False,
                body,
                line,
                (),
            )
        )

    def except_clause(self, n: Node, fn: str) -> None:
        head = next((c for c in n.named_children if c.type != "block"), None)
        if head is not None and head.type == "as_pattern":
            head = head.named_children[0] if head.named_children else None
        if head is None:
            return
        names = (
            head.named_children if head.type in ("tuple", "parenthesized_expression") else [head]
        )
        line_text = (
            self.lines[n.start_point.row].strip() if n.start_point.row < len(self.lines) else ""
        )
        for x in names:
            if x.type in ("identifier", "attribute"):
                self.catches.append(
                    Catch(self.t(x), self.path, n.start_point.row + 1, fn, line_text)
                )


def _passed_functions(call: Node, src: bytes) -> list[tuple[str, int]]:
    """The methods and private functions a call is handed as values, which
    it runs (xarray's ``self._implementation(self._weighted_quantile, …)``):
    ``self.m`` / ``cls.m``, and ``_f`` (a name written as a private function
    is), positional or by keyword. (name, line)"""
    args = call.child_by_field_name("arguments")
    if args is None or args.type != "argument_list":
        return []
    if _MAY_PASS.search(src, args.start_byte, args.end_byte) is None:
        return []  # no argument can be one (the stdlib: 72% of its calls)
    out: list[tuple[str, int]] = []
    for a in args.named_children:
        if a.type == "keyword_argument":
            a = a.child_by_field_name("value") or a
        name: Node | None = None
        if a.type == "attribute":
            obj = a.child_by_field_name("object")
            if obj is not None and obj.type == "identifier" and obj.text in (b"self", b"cls"):
                name = a.child_by_field_name("attribute")
        elif a.type == "identifier" and _PRIVATE_FUNCTION.match(a.text or b""):
            name = a
        if name is not None:
            out.append(
                (
                    src[name.start_byte : name.end_byte].decode("utf-8", "replace"),
                    a.start_point.row + 1,
                )
            )
    return out


#: a private function's name (not a constant's: ``_MISSING``)
_PRIVATE_FUNCTION = re.compile(rb"_+[a-z]\w*$")
#: in the text of every argument list that hands a function (``self``,
#: ``cls`` or a leading underscore), and of few others
_MAY_PASS = re.compile(rb"self|cls|_")


def _overload_stub(fn: Node) -> bool:
    """Whether a ``def`` is decorated ``@overload`` (or ``@typing.overload``)."""
    holder = fn.parent
    if holder is None or holder.type != "decorated_definition":
        return False
    for d in holder.named_children:
        if d.type == "decorator" and d.named_children:
            text = d.named_children[0].text or b""
            if text == b"overload" or text.endswith(b".overload"):
                return True
    return False


def _caught_names(n: Node) -> set[str]:
    """The names an error is bound to in the function around ``n``:
    ``except X as e``, ``with pytest.raises(X) as info`` (``info.value``),
    ``with self.assertRaises(X) as cm`` (``cm.exception``)."""
    fn = n.parent
    while fn is not None and fn.type != "function_definition":
        fn = fn.parent
    out: set[str] = set()
    for c in _walk(fn) if fn is not None else ():
        if c.type == "except_clause":
            alias = next((x for x in c.named_children if x.type == "as_pattern"), None)
            target = (
                alias.named_children[-1] if alias is not None and alias.named_children else None
            )
            if target is not None and target.text is not None:
                out.add(target.text.decode("utf-8", "replace").strip())
            elif alias is None:
                # `except X as e` may parse as the clause's identifier after `as`
                words = (c.text or b"").decode("utf-8", "replace").split(":", 1)[0].split()
                if len(words) >= 4 and words[-2] == "as":
                    out.add(words[-1])
        elif c.type == "with_item":
            value = c.named_children[0] if c.named_children else None
            if value is not None and value.type == "as_pattern" and value.named_children:
                call = value.named_children[0]
                head = (call.text or b"").decode("utf-8", "replace")
                if re.search(r"\b(?:raises|assertRaises\w*)\s*\(", head):
                    out.add((value.named_children[-1].text or b"").decode("utf-8", "replace"))
    return {x.strip() for x in out if x.strip().isidentifier()}


#: the nodes that bind the names on their left (or in their ``left``/``name`` field)
_BINDING = {
    "assignment": "left",
    "augmented_assignment": "left",
    "for_statement": "left",
    "named_expression": "name",
}


def _rebinds(bindings: list[Node], params: set[str]) -> tuple[tuple[str, int], ...]:
    """The parameters that ``bindings`` (the binding statements of a
    ``def``'s body) assign again, with the first line each is
    (``FuncDef.rebinds``)."""
    out: dict[str, int] = {}
    for c in bindings:
        field = _BINDING.get(c.type)
        target = c.child_by_field_name(field) if field else None
        if target is None:
            continue
        for t in _walk(target):
            if t.type == "identifier" and t.parent is not None and t.parent.type != "attribute":
                name = (t.text or b"").decode("utf-8", "replace")
                if name in params:
                    line = c.start_point.row + 1
                    out[name] = min(out.get(name, line), line)
    return tuple(sorted(out.items()))


def _walk(n: Node) -> list[Node]:
    out, stack = [], [n]
    while stack:
        c = stack.pop()
        out.append(c)
        stack.extend(c.children)
    return out


def _string_value(src: str) -> str | None:
    """The value of a plain Python string literal (no f-strings, no concatenation)."""
    try:
        node = ast.parse(src.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


#: a name bound to an item looked up, on a line of its own: ``convertor = convertors[key]``
_BOUND_TO_ITEM = re.compile(
    r"^[ \t]+([A-Za-z_]\w*)[ \t]*=[ \t]*[\w.]+\[(?![ \t]*-?\d)[^\[\]:\n]+\][ \t]*$", re.M
)
#: a call of a method on a plain name: ``convertor.to_string(value)``
_ON_NAME = re.compile(r"([A-Za-z_]\w*)\.([A-Za-z_]\w*)\s*\(")


def _callee(fn: Node | None, s: _Scan) -> str | None:
    if fn is None:
        return None
    if fn.type == "identifier":
        return s.t(fn)
    if fn.type == "attribute":
        return s.t(fn.child_by_field_name("attribute")) or None
    return None


def _instance_of(value: Node | None, s: _Scan) -> str | None:
    """``JSONDecoder`` of ``JSONDecoder(object_hook=None)`` or of
    ``decoder.JSONDecoder()``: a call of a capitalised name, by convention
    a class (``Path(...)``, not ``open(...)``)."""
    if value is None or value.type != "call":
        return None
    fn = value.child_by_field_name("function")
    name = _callee(fn, s)
    return name if name and name[:1].isupper() and not name.isupper() else None


def scan(path: str, text: str, tree: Tree | None = None) -> FileEvidence:
    """``tree``: the file's parse, when the extractor made it already."""
    return _Scan(path, text).run(tree)


#: the blocks of module-level code a package's ``__init__`` imports in
_MODULE_BLOCKS = frozenset(
    {
        "if_statement",
        "try_statement",
        "block",
        "elif_clause",
        "else_clause",
        "except_clause",
        "finally_clause",
    }
)


def _module_level_imports(node: Node) -> Iterator[Node]:
    """The ``from … import …`` statements a module runs when it is imported:
    at its top level, or in a top-level ``if``/``try`` (never in a ``def``
    or ``class``), in source order."""
    for n in node.named_children:
        if n.type == "import_from_statement":
            yield n
        elif n.type in _MODULE_BLOCKS:
            yield from _module_level_imports(n)
