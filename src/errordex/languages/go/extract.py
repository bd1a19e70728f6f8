"""Throw sites in one Go file (pure).

Kinds:

- ``errors.New``: ``errors.New("msg")``; ``github.com/pkg/errors``'s
  ``Errorf``, ``Wrap[f]`` and ``WithMessage[f]`` are ``errors.Errorf``,
  ``errors.Wrap`` and ``errors.WithMessage`` (a wrapping one prints
  ``msg: <the wrapped error>``);
- ``fmt.Errorf``: ``fmt.Errorf("bad %q: %w", name, err)``, the verbs as holes;
- ``panic``: ``panic("msg")``, ``panic(fmt.Sprintf(...))``, ``panic(err)``;
- ``log.Fatal`` / ``log.Panic``: ``log.Fatal[f|ln]`` and ``log.Panic[f|ln]``;
- ``sentinel``: ``var ErrX = errors.New("msg")`` at package level, which
  defines a message; each ``return ..., ErrX`` in the package is a site of
  it (kind ``return``);
- ``error-method``: what ``func (e *T) Error() string`` returns, which
  defines the message of the type ``T``; each ``return ..., &T{...}`` in
  the package is a site of it (kind ``return``).

``return`` sites leave the file with no message; ``class_messages`` gives
each the message of the sentinel or type of that name in the same
directory (Go's package), or drops it. A ``//go:build`` line is a ``cfg``
guard of every site in the file. A helper of the file that hands its
parameter to ``fmt.Errorf``/``errors.New``/``panic`` (pflag's
``f.failf(format, a...)``) makes each of its calls with a literal a site
(``via`` the helper).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass, replace

from tree_sitter import Node, Tree

from errordex import grammars
from errordex.extract.common import context_hash, is_test_path
from errordex.languages.go.fmt import go_fmt, printed, unquote
from errordex.model import ClassDef, Extraction, Guard, ThrowSite
from errordex.template import Hole, Part, Template, Text

LANGUAGE = "go"
#: the kind of a ``return`` of a sentinel or an error type's value
RETURN = "return"
#: kinds that define a message other sites return
DEFINING = frozenset({"sentinel", "error-method"})
KINDS = (
    "errors.New",
    "fmt.Errorf",
    "errors.Errorf",
    "errors.Wrap",
    "errors.WithMessage",
    "panic",
    "log.Fatal",
    "log.Panic",
    *sorted(DEFINING),
    RETURN,
)

_ERRORS_PATHS = frozenset({"errors", "github.com/pkg/errors", "golang.org/x/xerrors"})
_STRING_NODES = frozenset({"interpreted_string_literal", "raw_string_literal"})
#: a sentinel's name: ``ErrNotFound``, ``errInvalid``, ``ErrX``
_SENTINEL = re.compile(r"^[Ee]rr[A-Z0-9_]\w*$")
_BUILD = re.compile(r"^//go:build (.+)$")
_PLUS_BUILD = re.compile(r"^// \+build (.+)$")
_LOG = {
    "Fatal": ("log.Fatal", "print"),
    "Fatalf": ("log.Fatal", "printf"),
    "Fatalln": ("log.Fatal", "println"),
    "Panic": ("log.Panic", "print"),
    "Panicf": ("log.Panic", "printf"),
    "Panicln": ("log.Panic", "println"),
}
#: ``github.com/pkg/errors`` functions that wrap an error: (message args at, wraps)
_PKG_ERRORS = {
    "New": ("literal", False, "errors.New"),
    "Errorf": ("printf", False, "errors.Errorf"),
    "Wrap": ("literal", True, "errors.Wrap"),
    "Wrapf": ("printf", True, "errors.Wrap"),
    "WithMessage": ("literal", True, "errors.WithMessage"),
    "WithMessagef": ("printf", True, "errors.WithMessage"),
}


def parse(text: str) -> Tree:
    return grammars.parser(LANGUAGE).parse(text.encode("utf-8", "surrogatepass"))


def extract(path: str, text: str, tree: Tree | None = None) -> Extraction:
    if tree is None:
        tree = parse(text)
    return _File(path, text).run(tree)


def build_constraint(lines: list[str]) -> tuple[str, int] | None:
    """The file's build constraint and its line: ``//go:build``, else the
    old ``// +build`` lines (each line ANDed, spaces ORed), before ``package``.

    >>> build_constraint(["// +build linux darwin", "", "package x"])
    ('linux || darwin', 1)
    """
    plus: list[tuple[str, int]] = []
    for i, ln in enumerate(lines[:60]):
        s = ln.strip()
        if s.startswith("package "):
            break
        m = _BUILD.match(s)
        if m:
            return m.group(1).strip(), i + 1
        pm = _PLUS_BUILD.match(s)
        if pm:
            ors = [" && ".join(o.split(",")) for o in pm.group(1).split()]
            plus.append((" || ".join(ors), i + 1))
    if not plus:
        return None
    if len(plus) == 1:
        return plus[0]
    return " && ".join(f"({t})" for t, _ in plus), plus[0][1]


@dataclass(frozen=True, slots=True)
class _Forwarder:
    """A function of the file that throws the message its parameter gives."""

    name: str
    param: int
    kind: str
    printf: bool
    #: where it throws, as ``ThrowSite.via`` ("path:line symbol"), and the line it is declared on
    at: str
    decl_line: int


class _File:
    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.src = text.encode("utf-8", "surrogatepass")
        self.lines = text.splitlines()
        self.in_test = is_test_path(path)
        self.sites: list[ThrowSite] = []
        self.classes: list[ClassDef] = []
        self.imports: dict[str, str] = {}
        self.covered: set[int] = set()  # calls read as part of another site
        self.forwarders: dict[str, _Forwarder] = {}
        self.package = ""
        build = build_constraint(self.lines)
        self.build = (Guard("cfg", build[0], build[1]),) if build else ()

    # -- text ---------------------------------------------------------------
    def t(self, n: Node) -> str:
        return self.src[n.start_byte : n.end_byte].decode("utf-8", "replace")

    def column(self, n: Node) -> int:
        start = n.start_byte - n.start_point[1]
        return len(self.src[start : n.start_byte].decode("utf-8", "replace")) + 1

    # -- reading --------------------------------------------------------------
    def run(self, tree: Tree) -> Extraction:
        root = tree.root_node
        self.package = package_name(root, self.t)
        self._imports(root)
        caps = grammars.captures(LANGUAGE, tree)
        selected = [n.parent.parent for n in caps.get("call.pkg", ()) if n.parent]
        calls = sorted(
            (c for c in [*selected, *(n.parent for n in caps.get("call.fn", ()))] if c),
            key=lambda c: c.start_byte,
        )
        self._find_forwarders([c for c in selected if c is not None])
        self._sentinels(root)
        for name in caps.get("method.name", ()):
            self._error_method(name)
        for call in calls:
            if call.id not in self.covered:
                self._call(call)
        for ret in caps.get("return", ()):
            self._return(ret)
        self.sites.sort(key=lambda s: (s.line, s.column))
        return Extraction(sites=tuple(self.sites), classes=tuple(self.classes))

    def _imports(self, root: Node) -> None:
        for decl in root.named_children:
            if decl.type != "import_declaration":
                continue
            stack = list(decl.named_children)
            while stack:
                n = stack.pop()
                if n.type == "import_spec_list":
                    stack.extend(n.named_children)
                elif n.type == "import_spec":
                    p = n.child_by_field_name("path")
                    alias = n.child_by_field_name("name")
                    ipath = unquote(self.t(p)) if p is not None else None
                    if ipath is None:
                        continue
                    local = self.t(alias) if alias is not None else ipath.rsplit("/", 1)[-1]
                    if local.startswith("v") and local[1:].isdigit() and "/" in ipath:
                        local = ipath.rsplit("/", 2)[-2]  # .../yaml/v3 is `yaml`
                    self.imports[local.split(".")[0]] = ipath

    def package_of(self, local: str) -> str:
        """The import path a local package name stands for (itself when the
        file does not import it, as in a fragment)."""
        return self.imports.get(local, local)

    # -- messages -------------------------------------------------------------
    def args(self, call: Node) -> list[Node]:
        a = call.child_by_field_name("arguments")
        return [c for c in a.named_children if c.type != "comment"] if a is not None else []

    def callee(self, call: Node) -> tuple[str, str]:
        """(package or receiver as written, name) of a call; ("", name) for a bare one."""
        fn = call.child_by_field_name("function")
        if fn is None:
            return "", ""
        if fn.type == "identifier":
            return "", self.t(fn)
        if fn.type == "selector_expression":
            op, field = fn.child_by_field_name("operand"), fn.child_by_field_name("field")
            if op is not None and field is not None and op.type == "identifier":
                return self.t(op), self.t(field)
        return "", ""

    def message(self, n: Node) -> Template | None:
        """The text an expression evaluates to, as a template; None when
        nothing of it can be read."""
        if n.type in _STRING_NODES:
            value = unquote(self.t(n))
            return Template.literal(value) if value is not None else None
        if n.type == "parenthesized_expression" and n.named_children:
            return self.message(n.named_children[0])
        if n.type == "binary_expression" and self.t(n.child_by_field_name("operator") or n) == "+":
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if left is None or right is None:
                return None
            parts: list[Part] = []
            readable = False
            for side in (left, right):
                got = self.message(side)
                if got is None or got.dynamic:
                    src = self.t(side)
                    parts.append(Hole(src, "{" + src + "}"))
                else:
                    readable = readable or bool(got.chunks())
                    parts.extend(got.parts)
            return Template.of("concat", *parts) if readable else None
        if n.type == "call_expression":
            pkg, name = self.callee(n)
            args = self.args(n)
            ipath = self.package_of(pkg) if pkg else ""
            if ipath == "fmt" and name in ("Sprintf", "Errorf") and args:
                return self.printf(args)
            if ipath == "fmt" and name in ("Sprint", "Sprintln") and args:
                return self.print(args, name == "Sprintln")
            if ipath in _ERRORS_PATHS and name == "New" and len(args) == 1:
                return self.message(args[0])
        return None

    def printf(self, args: list[Node]) -> Template | None:
        fmt = self.message(args[0])
        if fmt is None or fmt.dynamic or fmt.syntax not in ("literal", "none"):
            return None
        return go_fmt(fmt.display(), [self.t(a) for a in args[1:]])

    def print(self, args: list[Node], spaced: bool) -> Template:
        got = [self.message(a) for a in args]
        return printed(
            [g if g is not None and not g.dynamic and g.syntax == "literal" else None for g in got],
            [self.t(a) for a in args],
            spaced,
        )

    def dynamic(self, n: Node | None) -> Template:
        return Template.runtime(self.t(n), "go-fmt") if n is not None else Template.empty()

    # -- sites ------------------------------------------------------------------
    def site(
        self,
        kind: str,
        node: Node,
        tmpl: Template,
        exception_type: str | None = None,
        via: str | None = None,
    ) -> ThrowSite:
        symbol, guards = self.context(node)
        line = node.start_point.row + 1
        return ThrowSite(
            path=self.path,
            line=line,
            column=self.column(node),
            end_line=node.end_point.row + 1,
            language=LANGUAGE,
            kind=kind,
            template=tmpl,
            exception_type=exception_type,
            symbol=symbol,
            guards=self.build + tuple(guards),
            in_test=self.in_test,
            context_hash=context_hash(self.lines, line),
            via=via,
        )

    def context(self, node: Node) -> tuple[str | None, list[Guard]]:
        """The enclosing function's symbol and the conditions around ``node``
        (outermost first)."""
        guards: list[Guard] = []
        symbol: str | None = None
        child, n = node, node.parent
        while n is not None:
            if n.type in ("function_declaration", "method_declaration"):
                symbol = func_symbol(n, self.t, self.package)
                break
            if n.type == "if_statement":
                cond = n.child_by_field_name("condition")
                if cond is not None:
                    text = " ".join(self.t(cond).split())
                    line = cond.start_point.row + 1
                    alt = n.child_by_field_name("alternative")
                    if alt is not None and alt.id == child.id:
                        guards.append(Guard("else", text, line))
                    elif child.id != cond.id:
                        guards.append(Guard("if", text, line))
            elif n.type in ("expression_case", "type_case", "default_case"):
                got = self.case_guard(n, child)
                if got is not None:
                    guards.append(got)
            child, n = n, n.parent
        guards.reverse()
        return symbol, guards

    def case_guard(self, case: Node, child: Node) -> Guard | None:
        """A ``case`` as the condition it tests: ``tag == v`` (or ``v`` in a
        switch with no tag); ``default`` runs when every case is false, an
        ``else`` of them all (``len(s) == 36 || len(s) == 32``)."""
        sw = case.parent
        if sw is None or sw.type != "expression_switch_statement":
            return None
        tag = sw.child_by_field_name("value")
        tag_text = " ".join(self.t(tag).split()) if tag is not None else ""

        def tests(c: Node) -> list[str]:
            value = c.child_by_field_name("value")
            if value is None:
                return []
            vals = [" ".join(self.t(v).split()) for v in value.named_children]
            return [f"{tag_text} == {v}" if tag_text else v for v in vals]

        line = case.start_point.row + 1
        if case.type == "default_case":
            others = [t for c in sw.named_children if c.type == "expression_case" for t in tests(c)]
            return Guard("else", " || ".join(others), line) if others else None
        value = case.child_by_field_name("value")
        if value is not None and child.id == value.id:
            return None
        mine = tests(case)
        if not mine:
            return None
        return Guard("if", " || ".join(mine), line)

    def _call(self, call: Node) -> None:
        pkg, name = self.callee(call)
        args = self.args(call)
        ipath = self.package_of(pkg) if pkg else ""
        if not pkg and name == "panic" and len(args) == 1:
            self._cover(args[0])
            tmpl = self.message(args[0]) or self.dynamic(args[0])
            self.sites.append(self.site("panic", call, tmpl))
        elif ipath in _ERRORS_PATHS and name in _PKG_ERRORS and args:
            form, wraps, kind = _PKG_ERRORS[name]
            if name != "New" and ipath == "errors":
                return  # the standard errors package has only New
            margs = args[1:] if wraps else args
            if not margs or (name == "New" and self._forwarding(call, margs[0])):
                return
            tmpl = (
                self.message(margs[0]) if form == "literal" else self.printf(margs)
            ) or self.dynamic(margs[0])
            if wraps:
                tmpl = Template.of(
                    tmpl.syntax if tmpl.syntax != "literal" else "go-fmt",
                    *tmpl.parts,
                    Text(": "),
                    Hole(self.t(args[0]), "%v"),
                    dynamic=tmpl.dynamic,
                )
            self.sites.append(self.site(kind, call, tmpl))
        elif ipath == "fmt" and name == "Errorf" and args:
            if self._forwarding(call, args[0]):
                return
            tmpl = self.printf(args) or self.dynamic(args[0])
            self.sites.append(self.site("fmt.Errorf", call, tmpl))
        elif ipath == "log" and name in _LOG and args:
            kind, form = _LOG[name]
            if form == "printf":
                tmpl = self.printf(args) or self.dynamic(args[0])
            else:
                tmpl = self.print(args, form == "println")
            self.sites.append(self.site(kind, call, tmpl))
        elif name in self.forwarders:
            self._forwarded(call, self.forwarders[name], args)

    def _cover(self, n: Node) -> None:
        """The calls inside a panic's argument are part of its message, not sites."""
        stack = [n]
        while stack:
            x = stack.pop()
            if x.type == "call_expression":
                self.covered.add(x.id)
            stack.extend(x.named_children)

    def _forwarding(self, call: Node, first: Node) -> bool:
        """Whether this call throws a helper's parameter (its callers are the sites)."""
        if first.type != "identifier":
            return False
        fn = _enclosing_func(call)
        return fn is not None and any(
            f.decl_line == fn.start_point.row + 1 for f in self.forwarders.values()
        )

    def _forwarded(self, call: Node, fwd: _Forwarder, args: list[Node]) -> None:
        if fwd.param >= len(args) or args[fwd.param].type not in _STRING_NODES:
            return
        margs = args[fwd.param :]
        tmpl = self.printf(margs) if fwd.printf else self.message(margs[0])
        if tmpl is None:
            return
        self.sites.append(self.site(fwd.kind, call, tmpl, via=fwd.at))

    def _find_forwarders(self, calls: list[Node]) -> None:
        """The funcs of the file that hand a parameter to ``fmt.Errorf`` or
        ``errors.New`` as the message (pflag's ``failf(format, a...)``)."""
        for n in calls:
            args = self.args(n)
            if not args or args[0].type != "identifier":
                continue
            pkg, name = self.callee(n)
            ipath = self.package_of(pkg) if pkg else ""
            if ipath == "fmt" and name == "Errorf":
                kind = "fmt.Errorf"
            elif ipath in _ERRORS_PATHS and name == "New":
                kind = "errors.New"
            else:
                continue
            decl = _enclosing_func(n)
            name_node = decl.child_by_field_name("name") if decl is not None else None
            if decl is None or name_node is None:
                continue
            params = _param_names(decl, self.t)
            if self.t(args[0]) not in params:
                continue
            fwd = self.t(name_node)
            self.forwarders.setdefault(
                fwd,
                _Forwarder(
                    fwd,
                    params.index(self.t(args[0])),
                    kind,
                    kind == "fmt.Errorf",
                    f"{self.path}:{n.start_point.row + 1} {func_symbol(decl, self.t, self.package)}",
                    decl.start_point.row + 1,
                ),
            )

    def _sentinels(self, root: Node) -> None:
        for decl in root.named_children:
            if decl.type != "var_declaration":
                continue
            specs = [
                s
                for c in decl.named_children
                for s in ([c] if c.type == "var_spec" else c.named_children)
                if s.type == "var_spec"
            ]
            for spec in specs:
                names = [c for c in spec.children_by_field_name("name")]
                value = spec.child_by_field_name("value")
                if value is None:
                    continue
                for name, expr in zip(names, value.named_children, strict=False):
                    if expr.type != "call_expression":
                        continue
                    pkg, fn = self.callee(expr)
                    ipath = self.package_of(pkg) if pkg else ""
                    args = self.args(expr)
                    if not args or not (
                        (ipath in _ERRORS_PATHS and fn in ("New", "Errorf"))
                        or (ipath == "fmt" and fn == "Errorf")
                    ):
                        continue
                    tmpl = (
                        self.message(args[0]) if fn == "New" else self.printf(args)
                    ) or self.dynamic(args[0])
                    self._cover(expr)
                    sentinel = self.t(name)
                    self.sites.append(self.site("sentinel", expr, tmpl, sentinel))
                    self.classes.append(
                        ClassDef(
                            name=sentinel,
                            qualname=sentinel,
                            path=self.path,
                            line=name.start_point.row + 1,
                            bases=("error",),
                            message=tmpl,
                            builds_message=True,
                        )
                    )

    def _error_method(self, name: Node) -> None:
        decl = name.parent
        if decl is None or self.t(name) != "Error":
            return
        params = decl.child_by_field_name("parameters")
        result = decl.child_by_field_name("result")
        body = decl.child_by_field_name("body")
        if (
            params is None
            or params.named_children
            or result is None
            or self.t(result) != "string"
            or body is None
        ):
            return
        owner = receiver_type(decl, self.t)
        if not owner:
            return
        messages: list[Template] = []
        stack = [body]
        while stack:
            n = stack.pop()
            if n.type == "func_literal":
                continue
            stack.extend(n.named_children)
            if n.type != "return_statement" or not n.named_children:
                continue
            exprs = n.named_children[0]
            expr = exprs.named_children[0] if exprs.type == "expression_list" else exprs
            if expr is None:
                continue
            self._cover(expr)
            tmpl = self.message(expr)
            if tmpl is None or tmpl.dynamic or not tmpl.chunks():
                continue
            messages.append(tmpl)
            self.sites.append(self.site("error-method", n, tmpl, owner))
        distinct = {m.key() for m in messages}
        self.classes.append(
            ClassDef(
                name=owner,
                qualname=owner,
                path=self.path,
                line=decl.start_point.row + 1,
                bases=("error",),
                message=messages[0] if len(distinct) == 1 else None,
                builds_message=True,
            )
        )

    def _return(self, ret: Node) -> None:
        if not ret.named_children:
            return
        exprs = ret.named_children[0]
        values = exprs.named_children if exprs.type == "expression_list" else [exprs]
        if not values:
            return
        last = values[-1]
        if last.type == "unary_expression" and last.named_children:
            last = last.named_children[-1]
        name: str | None = None
        if last.type == "identifier" and _SENTINEL.match(self.t(last)):
            name = self.t(last)
        elif last.type == "composite_literal":
            typ = last.child_by_field_name("type")
            if typ is not None and typ.type == "type_identifier":
                name = self.t(typ)
        if name is None:
            return
        fn = _enclosing_func(ret)
        if fn is not None and fn.type == "method_declaration":
            fname = fn.child_by_field_name("name")
            if fname is not None and self.t(fname) == "Error":
                return
        self.sites.append(self.site(RETURN, ret, Template.empty(), name))


def _enclosing_func(n: Node) -> Node | None:
    p = n.parent
    while p is not None and p.type not in ("function_declaration", "method_declaration"):
        p = p.parent
    return p


def _param_names(decl: Node, text: Callable[[Node], str]) -> list[str]:
    params = decl.child_by_field_name("parameters")
    out: list[str] = []
    for p in params.named_children if params is not None else ():
        if p.type in ("parameter_declaration", "variadic_parameter_declaration"):
            names = p.children_by_field_name("name")
            out.extend(text(n) for n in names) if names else out.append("_")
    return out


def receiver_type(decl: Node, text: Callable[[Node], str]) -> str:
    """The type a method is declared on, without ``*`` and type parameters."""
    recv = decl.child_by_field_name("receiver")
    if recv is None or not recv.named_children:
        return ""
    typ = recv.named_children[0].child_by_field_name("type")
    if typ is None:
        return ""
    return text(typ).lstrip("*").split("[", 1)[0].strip()


def package_name(root: Node, text: Callable[[Node], str]) -> str:
    """The name of the package a file declares (``package uuid``)."""
    for n in root.named_children:
        if n.type == "package_clause":
            ident = n.named_children[0] if n.named_children else None
            return text(ident) if ident is not None else ""
    return ""


def func_symbol(decl: Node, text: Callable[[Node], str], package: str = "") -> str:
    """``uuid.Parse``, or a method's ``uuid.UUID.Scan`` (``(*T).M`` without
    the ``(*)``): the name a user calls it by, qualified by its package."""
    name = decl.child_by_field_name("name")
    n = text(name) if name is not None else ""
    if decl.type == "method_declaration":
        owner = receiver_type(decl, text)
        n = f"{owner}.{n}" if owner else n
    return f"{package}.{n}" if package and n else n


class _Every:
    """Every name: a ``return`` of a name with no message is dropped, so each is revised."""

    def __contains__(self, name: object) -> bool:
        return True


def class_messages(
    classes: Iterable[ClassDef],
) -> tuple[Container[str], Callable[[ThrowSite], ThrowSite | None]]:
    """A ``return`` site takes the message of the sentinel or error type of
    its name in its own directory (its package), or is dropped."""
    by_dir: dict[tuple[str, str], ClassDef] = {}
    twice: set[tuple[str, str]] = set()
    for c in classes:
        if c.path.endswith(".go") and c.message is not None:
            key = (posixpath.dirname(c.path), c.name)
            if key in by_dir:
                twice.add(key)  # defined in files of two build tags: no one message
            by_dir[key] = c

    def apply(site: ThrowSite) -> ThrowSite | None:
        if site.language != LANGUAGE or site.kind != RETURN or not site.exception_type:
            return site
        key = (posixpath.dirname(site.path), site.exception_type)
        d = by_dir.get(key)
        if d is None or d.message is None or (key in twice and d.message.is_empty):
            return None
        return replace(site, template=d.message)

    return _Every(), apply
