"""Python extractor: ``raise``/``assert`` sites and exception classes.

One tree-sitter query finds the raise and assert statements and the class
definitions; everything else (symbol, guards, the variable a message comes
from) is read by walking up from those nodes, so the cost stays close to
the parse itself. Message expressions are read by ``msg``.

    >>> ex = extract("m.py", 'def f(x):\\n    if not x:\\n        raise ValueError(f"bad {x!r}")\\n')
    >>> site = ex.sites[0]
    >>> site.exception_type, site.symbol, site.template.display(), site.guards[0].text
    ('ValueError', 'f', 'bad {x!r}', 'not x')
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

import tree_sitter as ts

from errordex import classmsg, grammars
from errordex.extract.common import context_hash, is_test_path
from errordex.forward import COLLECT, substitute
from errordex.languages.python import (
    attrtexts,
    built,
    collected,
    constants,
    fields,
    formats,
    formatted,
    held,
    keptclass,
    keyed,
    msg,
    printed,
    returned,
    wrapped,
    yielded,
)
from errordex.languages.python import forward as fwd
from errordex.languages.python.file import Where
from errordex.languages.python.tables import reads_variable
from errordex.model import (
    CallArg,
    ClassDef,
    Extraction,
    Forwarder,
    Guard,
    MessageCall,
    ThrowSite,
)
from errordex.template import Hole, Template

LANGUAGE = "python"
EXTENSIONS = (".py",)

_SCOPES = ("function_definition", "class_definition", "lambda")
#: class attributes that hold the class's own message (Django REST
#: framework's ``default_detail`` is the same idea).
_MESSAGE_ATTRS = ("message", "msg", "default_message", "default_detail", "msg_template")
#: builtins whose constructor returns another class, by what they print as:
#: a BaseExceptionGroup of Exceptions is an ExceptionGroup (anyio's TaskGroup
#: raises BaseExceptionGroup("unhandled errors in a TaskGroup", ...), and the
#: user reads "ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)")
_BUILDS_AS = {
    "BaseExceptionGroup": "ExceptionGroup",
    "exceptiongroup.BaseExceptionGroup": "ExceptionGroup",
}
#: builtin names of another builtin class, by the name it prints: IOError is
#: OSError (python-dotenv's raise IOError("File not found") prints
#: "OSError: File not found"), and so are the modules' old ``error`` names
_PRINTED_AS = {
    **{
        name: obj.__name__
        for name, obj in vars(builtins).items()
        if isinstance(obj, type) and issubclass(obj, BaseException) and obj.__name__ != name
    },
    "socket.error": "OSError",
    "select.error": "OSError",
    "os.error": "OSError",
}
_AS_NAME = re.compile(r"\bas\s+([A-Za-z_]\w*)\s*$")
_WS = re.compile(r"\s+")
#: test_x, and unittest's testX
_TEST_FUNCTION = re.compile(r"test(?:_|[A-Z0-9]|$)")


def parse(text: str) -> ts.Tree:
    """Parse source text (shared with the evidence scan, so a file is parsed once)."""
    return grammars.parser("python").parse(text.encode("utf-8", "surrogatepass"))


def extract(path: str, text: str, tree: ts.Tree | None = None) -> Extraction:
    """Find every raise/assert site and every class in one Python file
    (``tree``: ``parse(text)``, when the caller parsed it already)."""
    if tree is None:
        tree = parse(text)
    caught = grammars.captures("python", tree)
    raises = caught.get("raise", [])
    asserts = caught.get("assert", [])
    class_nodes = sorted(caught.get("class", []), key=lambda n: n.start_byte)
    f = _File(path, text, tree.root_node, caught)
    # Forwarding (``self.fail(msg)``) is read outside test code only: a
    # call in a test is not where a library's message lives.
    forwarding = fwd.Forwarding.of(f, caught) if not f.test_path else None
    # Errors printed, not raised (``printed``): a library's, not its tests'.
    shown = (
        []
        if f.test_path
        else printed.find(f, caught.get("forward.callee", []), caught.get("forward.method", []))
    )
    if forwarding is not None:
        f.forwarders.extend(
            printed.warning_forwarders(
                f, caught.get("forward.callee", []), caught.get("forward.method", [])
            )
        )
    # texts a module holds for others to raise (``constants``)
    held_texts = tuple(f.constant_calls()) if not f.test_path else ()
    if not (raises or asserts or class_nodes or forwarding or shown or held_texts):
        return Extraction()
    classes: list[ClassDef] = []
    for node in class_nodes:
        cd = f.class_def(node)
        classes.append(cd)
        f.classes.setdefault(cd.name, cd)
    sites: list[ThrowSite] = []
    for node, cd in zip(class_nodes, classes, strict=True):
        if cd.text_attrs:
            sites.extend(f.attribute_sites(node, cd))
    f.tables = keyed.Tables.of(f.src, class_nodes, f.resolve) if class_nodes else None
    for node in raises:
        sites.extend(f.raise_sites(node))
    for node in asserts:
        sites.append(f.assert_site(node))
    sites.extend(f.message_sites)
    sites.extend(shown)
    if f.tables is not None and not f.test_path:
        sites.extend(f.stored_sites(caught.get("forward.method", [])))
    if f.wrappers:
        sites.extend(wrapped.wrapped_sites(sites, f.wrappers))
    if f.table_raises:
        sites.extend(_picked_from_table(sites, f.table_raises))
    sites.sort(key=lambda s: (s.line, s.column, s.kind, s.via or ""))
    if forwarding is None:
        return Extraction(sites=tuple(sites), classes=tuple(classes), calls=held_texts)
    made = yielded.yielded(
        f.src, caught.get("forward.callee", []), caught.get("forward.method", [])
    )
    found = (f.yield_call(n) for n in made)
    calls = forwarding.calls(f) + tuple(c for c in found if c is not None) + held_texts
    # pytest's ``fail: _Fail = _Fail()`` is called as ``fail("...")``
    called = fwd.instance_forwarders(f.root, f.forwarders)
    f.forwarders.extend(called)
    return Extraction(
        sites=tuple(sites),
        classes=tuple(classes),
        forwarders=tuple(sorted(f.forwarders, key=lambda fw: (fw.line, fw.qualname))),
        calls=tuple(sorted(calls, key=lambda c: (c.line, c.column))),
        # a class that raises what it was built with is called as a function
        functions=tuple(
            sorted({*forwarding.qualnames(), *f.class_forwarders, *(c.qualname for c in called)})
        ),
    )


@dataclass(frozen=True)
class _ClassMessage:
    """What a class's body says about its message (see ``ClassDef``)."""

    message: Template | None = None
    builds: bool = False
    params: tuple[str, ...] = ()
    attrs: tuple[tuple[str, str], ...] = ()
    passed: str | None = None
    handed: tuple[Template | None, ...] = ()
    handed_kw: tuple[tuple[str, Template | None], ...] = ()


@dataclass
class _File:
    path: str
    text: str
    root: ts.Node
    caught: grammars.Captures
    classes: dict[str, ClassDef] = field(default_factory=dict)
    message_sites: list[ThrowSite] = field(default_factory=list)
    forwarders: list[Forwarder] = field(default_factory=list)
    tables: keyed.Tables | None = None
    #: the classes that are forwarders (``held``)
    class_forwarders: set[str] = field(default_factory=set)
    #: raises that wrap what they caught (``wrapped``)
    wrappers: list[wrapped.Wrapper] = field(default_factory=list)
    #: raises of a class picked from a table that pass it no message (line, symbol)
    table_raises: list[tuple[int, str | None]] = field(default_factory=list)
    _lines: list[str] | None = None
    _src: bytes | None = None
    _functions: dict[str, list[ts.Node]] | None = None
    _aliases: dict[str, str] | None = None
    #: attributes that keep an exception class (``keptclass``), worked out once
    kept: dict[str, tuple[str, ...]] | None = None
    _class_nodes: dict[str, ts.Node] | None = None
    _test_path: bool | None = None
    _plural: bool | None = None
    #: assignments by the id of their scope node (None until first needed)
    _scopes: dict[int, dict[str, list[ts.Node]]] | None = None
    _params: dict[int, frozenset[str]] = field(default_factory=dict)
    #: ``resolve`` of a node, by its id
    _resolved: dict[int, ts.Node | None] = field(default_factory=dict)
    _imports: tuple[dict[str, str], dict[str, str]] | None = None
    #: the assignments of the methods ``attrtexts`` has read
    method_assignments: attrtexts.Assignments = field(default_factory=dict)

    # -- sites ---------------------------------------------------------------

    def raise_sites(self, node: ts.Node) -> list[ThrowSite]:
        """The sites of one raise: none for a re-raise, one per message it
        can show (``keyed``: one per class that gives its key a text)."""
        kids = [c for c in msg.named(node) if c != node.child_by_field_name("cause")]
        if not kids:
            return []  # bare `raise`: a re-raise
        exc = _unwrap_traceback(kids[0])
        where = self.where(node)
        if exc.type == "identifier":
            name = msg.text_of(exc)
            if name in where.bound:
                if exc is not kids[0] and not self.test_path:
                    # ``raise exc.with_traceback(None)``: the traceback ends here
                    self.forwarders.extend(collected.reraised(self.path, node, kids[0], where))
                return []  # `raise e` inside `except ... as e`
            if not self.test_path:
                # ``err = copy.copy(e)`` in an ``except``, ``raise err`` after it
                scope = _scope_of(exc)
                assigns = self._assignments(scope).get(name, []) if scope is not None else []
                self.forwarders.extend(
                    collected.raised_later(self.path, node, exc, assigns, self.where)
                )
            value = self.resolve(exc)
            # an exception a call gave (``yielded``): its type and text are
            # the call's to tell, so the raise is of an instance
            point = yielded.reraise_point(self.path, node, exc, value, where.symbol)
            if point is not None and not self.test_path:
                self.forwarders.append(point)
                self.class_forwarders.add(point.qualname)
            narrowed = _narrowed_class(node, name)
            if narrowed is not None:
                # ``if isinstance(factor, DimensionalityError): raise factor``
                holder = classmsg.class_message(narrowed, self.local_classes, ())
                template = holder.template if holder is not None else Template.runtime(name)
                return [self.site(node, "raise", narrowed, template, where)]
            if value is not None and value.type == "call" and point is None:
                exc = value  # err = ValueError("..."); raise err
        if exc.type == "attribute" and (made_here := built.attribute_constructions(exc)):
            # ``self.nm = NoMatch(...)`` then ``raise self.nm``: each construction
            return self.attribute_raised_sites(node, made_here, where)
        if exc.type == "call" and self.tables is not None:
            variants = self.keyed_sites(node, exc, where)
            if variants:
                return variants
        if exc.type == "call" and (helper := built.callee_name(exc)) is not None:
            made = built.factory(self.functions, helper, self.resolve)
            if made is not None:
                return [self.factory_site(node, exc, made, where)]
        if exc.type == "call" and not self.test_path:
            texts = formatted.messages(node, exc, self.class_nodes, self.resolve)
            fn = exc.child_by_field_name("function")
            if texts and fn is not None and fn.type in ("identifier", "attribute"):
                # ``raise E(self._format_error(value))`` of the class's texts
                return [self.site(node, "raise", msg.expr_text(fn), t, where) for t in texts]
        args: tuple[CallArg, ...] = ()
        built_here: list[ThrowSite] = []
        if exc.type == "call":
            fn = exc.child_by_field_name("function")
            exc_type = msg.expr_text(fn) if fn is not None else None
            if fn is not None and fn.type == "identifier" and exc_type is not None:
                # ``raise exc(msg)`` of a parameter ``exc=TemplateSyntaxError``
                exc_type = fwd.class_parameter(node, exc_type) or exc_type
            elif fn is not None and (attr := attrtexts.self_attribute(fn)) is not None:
                # ``raise self._undefined_exception(...)`` of ``exc=UndefinedError``
                exc_type = (
                    attrtexts.attribute_class(node, attr, self.class_nodes, self.method_assignments)
                    or exc_type
                )
            if fn is not None and fn.type in ("subscript", "call"):
                # ``raise self.mapping[code](...)``: a class picked at run time
                exc_type = None
                if fn.type == "subscript" and _passes_no_message(exc):
                    self.table_raises.append((node.start_point.row + 1, where.symbol))
            made_by = built.class_constructor(fn) if fn is not None else None
            if fn is not None and _method_builds_it(fn, exc):
                # ``raise self.retry(countdown=5)`` (Celery): a method returns
                # the exception; its type and text are the method's, not a class's
                exc_type, template = None, Template.runtime(msg.expr_text(exc))
            elif made_by is not None:
                # ``raise ValidationError.from_exception_data(title, errors)``:
                # the class method builds the message, not from its first argument
                exc_type, template = made_by, Template.runtime(msg.expr_text(exc))
            else:
                template, args = self.call_message(exc, exc_type)
                other = self.other_form(exc, template)
                if other is not None:
                    # ``raise E(msg)`` of a message picked on two branches: both
                    return [
                        self.site(node, "raise", exc_type, t, where, classmsg.site_args(t, args))
                        for t in (template, other)
                    ]
        elif exc.type in ("identifier", "attribute") and _looks_like_class(exc):
            exc_type = msg.expr_text(exc)
            holder = classmsg.class_message(exc_type, self.local_classes, ())
            template = holder.template if holder is not None else Template.empty()
        else:  # an exception instance held in a variable, or an expression
            exc_type = None
            template = Template.runtime(msg.expr_text(exc))
        if exc_type is not None and not self.test_path:
            found = fwd.forwarder(self.path, node, exc_type, template)
            if found is None:  # a message the object was built with (``held``)
                found = held.attribute_forwarder(self.path, node, exc_type, template)
                if found is not None:
                    self.class_forwarders.add(found.qualname)
            if found is None and (joined := self.constant_of(template)) is not None:
                # ``raise SchemaError(errors.SCHEMA_ERROR_MISSING)`` (``constants``)
                line = node.start_point.row + 1
                name, how = joined
                found = constants.forwarder(self.path, line, name, exc_type, where.symbol, how)
                self.class_forwarders.add(found.qualname)
            if found is not None:
                self.forwarders.append(found)
            else:
                line = node.start_point.row + 1
                found = collected.collector(self.path, line, exc_type, template, where.symbol)
                if found is not None:
                    self.forwarders.append(found)
                if found is not None or template.display().startswith(("{[", "{(")):
                    built_here = self.appended_sites(node, exc_type, template, where)
        site = self.site(
            node, "raise", exc_type, template, where, classmsg.site_args(template, args)
        )
        if exc_type is not None and not self.test_path and where.guards:
            # ``except ValueError as err: raise TomlDecodeError(str(err), ...)``
            wraps = wrapped.wrapper(site, where.guards, exc_type in self.classes)
            if wraps is not None:
                self.wrappers.append(wraps)
            elif exc.type == "call" and (given := exc.child_by_field_name("arguments")):
                # ``except Invalid as e: raise MultipleInvalid([e])``
                self.forwarders.extend(collected.rewrapped(self.path, node, exc_type, given, where))
        sites = self.returned_sites(site, exc, node) + built_here
        if exc_type is not None:
            # ``raise tokens.error(...)``: each class the file builds it with
            others = self.held_classes(exc_type)[1:]
            sites += [replace(site, exception_type=c) for c in others]
        return sites

    def held_classes(self, exc_type: str) -> tuple[str, ...]:
        """The classes a raise of ``<instance>.<attribute>`` prints, its
        constructor's default first (``keptclass``)."""
        if not keptclass.shaped(exc_type):
            return ()
        if self.kept is None:
            self.kept = keptclass.kept_classes(self.root)
        return keptclass.held_classes(exc_type, self.kept)

    def constant_of(self, template: Template) -> tuple[str, str | None] | None:
        """The joined name of a message that is a constant of an imported
        module, and how the raise formats it (``constants.reference``)."""
        only = template.parts[0] if len(template.parts) == 1 else None
        if not isinstance(only, Hole) or not only.expr[:1].isalpha() or only.expr.islower():
            return None
        if self._imports is None:
            self._imports = constants.imports(self.root)
        return constants.reference(template, *self._imports)

    def constant_calls(self) -> list[MessageCall]:
        """Each module-level constant that holds a sentence, as a call of
        its joined name with its text (``constants.definitions``)."""
        out: list[MessageCall] = []
        for assign, name, text in constants.definitions(self.path, self.root, self.resolve):
            site = self.site(assign, "raise", None, Template.empty(), self.where(assign))
            out.append(
                MessageCall(
                    callee=name,
                    receiver=None,
                    args=((0, text),),
                    path=self.path,
                    line=site.line,
                    column=site.column,
                    end_line=site.end_line,
                    symbol=name.rsplit(":", 1)[-1],
                    owner=None,
                    guards=(),
                    in_test=False,
                    context_hash=site.context_hash,
                )
            )
        return out

    def appended_sites(
        self, node: ts.Node, exc_type: str, template: Template, where: Where
    ) -> list[ThrowSite]:
        """``errors.append(er.Invalid('extra keys not allowed', path))`` ...
        ``raise er.MultipleInvalid(errors)`` (voluptuous): a site at each
        error built and collected in the function (``collected.appended``),
        of the class raised, with the raise as its ``via``."""
        holder = template.parts[0]
        if not isinstance(holder, Hole):
            return []
        out: list[ThrowSite] = []
        via = f"{self.path}:{node.start_point.row + 1} {where.symbol or '<module>'}"
        for call in collected.appended(node, holder.expr):
            fn = call.child_by_field_name("function")
            made_type = msg.expr_text(fn) if fn is not None else None
            text, args = self.call_message(call, made_type)
            other = self.other_form(call, text)
            for t in (text,) if other is None else (text, other):
                if t.dynamic and not t.chunks():
                    continue
                site = self.site(
                    call, "raise", made_type, t, self.where(call), classmsg.site_args(t, args)
                )
                out.append(replace(site, exception_type=exc_type, via=via))
        return out

    def attribute_raised_sites(
        self, node: ts.Node, made: list[ts.Node], where: Where
    ) -> list[ThrowSite]:
        """``raise self.nm`` of ``self.nm = NoMatch(...)`` in the same method
        (``built.attribute_constructions``): a site per distinct text."""
        sites: list[ThrowSite] = []
        for call in made:
            fn = call.child_by_field_name("function")
            made_type = msg.expr_text(fn) if fn is not None else None
            template, args = self.call_message(call, made_type)
            if all(s.template != template for s in sites):
                site_args = classmsg.site_args(template, args)
                sites.append(self.site(node, "raise", made_type, template, where, site_args))
        return sites

    def returned_sites(self, site: ThrowSite, exc: ts.Node, site_node: ts.Node) -> list[ThrowSite]:
        """``raise ValueError(_parse_error(s, pos))``: a site per text the
        helper of this file returns (``returned``), and ``raise
        E(self.message)``: a site per text the classes give the attribute
        (``attrtexts``), in place of the hole it left; the raise's own site
        too when a value is unread."""
        if exc.type != "call" or self.test_path or not site.template.holes:
            return [site]
        first = returned.first_argument(exc)
        if first is None or first.type not in ("call", "identifier", "attribute"):
            return [site]
        exprs = {msg.expr_text(first)}
        if first.type == "identifier" and (value := self.resolve(first)) is not None:
            exprs.add(msg.expr_text(value))
        hole = next((h.expr for h in site.template.holes if h.expr in exprs), None)
        if hole is None:
            return [site]
        attr = attrtexts.self_attribute(first)
        if attr is not None:
            # ``raise E(self.message)`` of a text a class of the file gives it
            texts, unread = attrtexts.messages(
                site_node, attr, self.class_nodes, self.branches, self.method_assignments
            )
        else:
            texts, unread = returned.messages(first, self.functions, self.resolve)
        out = [
            replace(
                site,
                template=substitute(site.template, hole, t) or t,
                args=tuple(
                    replace(a, expr="", value=t) if a.expr in exprs else a for a in site.args
                ),
            )
            for t in texts
        ]
        return [*out, site] if unread or not out else out

    def keyed_sites(self, node: ts.Node, call: ts.Node, where: Where) -> list[ThrowSite]:
        """``raise self.make_error("invalid")``: a site per class's text for
        the key (``keyed``), raised as the class the helper makes."""
        assert self.tables is not None
        helper_key = keyed.key_of(call)
        if helper_key is None:
            return []
        helper, key = helper_key
        variants = self.tables.variants(node, key)
        if not variants:
            return []
        exc_type = keyed.helper_raises(self.functions, helper)
        return [self.site(node, "raise", exc_type, text, where) for _, text in variants]

    def stored_sites(self, methods: list[ts.Node]) -> list[ThrowSite]:
        """Messages added to an error collection, raised later as one error
        (``collected``): marshmallow's ``Schema._deserialize`` adds
        ``[self.error_messages["unknown"]]`` to its ``ErrorStore``, and
        ``Schema._do_load`` raises what was collected as a ``ValidationError``.
        A site per class's text for the key, of the class the file's
        collector raises (none when the file has no collector, or several)."""
        assert self.tables is not None
        kinds = {
            fw.name.removeprefix(COLLECT) for fw in self.forwarders if fw.name.startswith(COLLECT)
        }
        if len(kinds) != 1:
            return []
        [exc_type] = kinds
        out: list[ThrowSite] = []
        for name in methods:
            up_one = name.parent
            call = up_one.parent if up_one is not None else None
            if msg.text_of(name) != keyed.STORE or call is None or call.type != "call":
                continue
            where = self.where(call)
            for item in keyed.stored(call):
                key = keyed.subscript_key(item)
                if key is not None:
                    texts = [t for _, t in self.tables.variants(call, key)]
                else:
                    text = msg.read_static(item, self.resolve)
                    texts = [text] if text is not None and text.chunks() else []
                out.extend(self.site(call, "raise", exc_type, t, where) for t in texts)
        return out

    def factory_site(
        self, node: ts.Node, call: ts.Node, made: built.Factory, where: Where
    ) -> ThrowSite:
        """``raise self._invalid_metadata(f"...")``: the exception the helper
        builds, with the raise's argument for the helper's parameter that the
        construction shows (``built``)."""
        template, args = self.call_message(made.construction, made.exception_type)
        fw = fwd.forwarder(self.path, made.returned, made.exception_type, template)
        given = _argument(call, fw.param_name, fw.param_index) if fw is not None else None
        if fw is not None and given is not None:
            value = msg.read(given, self.resolve)
            template = substitute(template, fw.param_name, value) or template
            args = tuple(
                replace(a, expr="", value=value) if a.expr == fw.param_name else a for a in args
            )
        return self.site(
            node,
            "raise",
            made.exception_type,
            template,
            where,
            classmsg.site_args(template, args),
        )

    def attribute_sites(self, node: ts.Node, cd: ClassDef) -> list[ThrowSite]:
        """A class whose base builds its message from attributes the class
        sets (werkzeug's ``Forbidden``: ``description = "..."``, shown by
        ``HTTPException.__str__``) has that message, raised or not (werkzeug
        raises it from a table of classes, ``abort(403)``): one site at the
        attribute, with the message as the class shows it."""
        if cd.builds_message or cd.message is not None:
            return []
        found = classmsg.class_message(cd.name, self.local_classes, ())
        if found is None or found.held:
            return []
        shown = found.template.display()
        texts = dict(cd.text_attrs)
        body = node.child_by_field_name("body")
        for stmt in msg.named(body) if body is not None else []:
            assign = stmt.named_children[0] if stmt.named_child_count else None
            left = assign.child_by_field_name("left") if assign is not None else None
            text = texts.get(msg.text_of(left)) if left is not None else None
            if (
                stmt.type == "expression_statement"
                and left is not None
                and text is not None
                and not text.holes
                and text.literal_text() in shown
            ):
                where = replace(self.where(stmt), symbol=f"{cd.qualname}.{msg.text_of(left)}")
                return [self.site(stmt, "exception-message", cd.name, found.template, where)]
        return []

    def yield_call(self, call: ts.Node) -> MessageCall | None:
        """``yield ValidationError(f"...")``: a message call to the re-raise
        points of the repository (``yielded``), of that class."""
        fn = call.child_by_field_name("function")
        exc_type = msg.expr_text(fn) if fn is not None else None
        template, _ = self.call_message(call, exc_type)
        if template.dynamic or not template.chunks():
            return None
        other = self.other_form(call, template)
        where = self.where(call)
        site = self.site(call, "raise", exc_type, template, where)
        owner = where.symbol.split(".", 1)[0] if where.symbol and "." in where.symbol else None
        return MessageCall(
            callee=yielded.RAISE,
            receiver=None,
            args=((0, template),) if other is None else ((0, template), (0, other)),
            path=self.path,
            line=site.line,
            column=site.column,
            end_line=site.end_line,
            symbol=where.symbol,
            owner=owner,
            guards=where.guards,
            in_test=where.in_test,
            context_hash=site.context_hash,
            exception_type=exc_type,
        )

    def assert_site(self, node: ts.Node) -> ThrowSite:
        kids = msg.named(node)
        template = msg.read(kids[1], self.resolve) if len(kids) > 1 else Template.empty()
        where = self.where(node)
        if kids:  # the condition it checks: the site fires when it is false
            checked = Guard("assert", msg.expr_text(kids[0]), node.start_point.row + 1)
            where = replace(where, guards=(*where.guards, checked))
        return self.site(node, "assert", "AssertionError", template, where)

    def call_message(
        self, call: ts.Node, exc_type: str | None
    ) -> tuple[Template, tuple[CallArg, ...]]:
        """The message of ``X(...)``, and its arguments (for a class defined
        in another file, ``classmsg`` reads the message from them later)."""
        args_node = call.child_by_field_name("arguments")
        if args_node is None or args_node.type != "argument_list":
            return Template.runtime(msg.expr_text(call)), ()
        positional: list[tuple[ts.Node, CallArg]] = []
        keyword: dict[str, CallArg] = {}
        args: list[CallArg] = []
        for a in msg.named(args_node):
            if a.type == "keyword_argument":
                name, value = a.child_by_field_name("name"), a.child_by_field_name("value")
                if name is not None and value is not None:
                    keyword[msg.text_of(name)] = arg = self.call_arg(msg.text_of(name), value)
                    args.append(arg)
            elif a.type == "dictionary_splat":
                args.append(CallArg("**", msg.expr_text(a)))
            elif a.type == "list_splat":
                positional.append((a, CallArg("*", msg.expr_text(a))))
                args.append(positional[-1][1])
            else:
                positional.append((a, self.call_arg(None, a)))
                args.append(positional[-1][1])
        found = (
            classmsg.class_message(exc_type, self.local_classes, tuple(args)) if exc_type else None
        )
        if found is not None and not found.held:
            # __str__ or __init__ builds the message, or takes it from a parameter
            return found.template, tuple(args)
        # A leading number is a code, not the message: SystemExit(2),
        # OSError(errno.ENOENT, "..."), HTTPException(404, "...").
        while positional and positional[0][0].type == "integer":
            positional = positional[1:]
        # A leading None is a part the class leaves out, not the message:
        # ruamel.yaml's ``ScannerError(None, None, "mapping values are not
        # allowed here", mark)`` prints its problem when it has no context.
        # The message is then the first text written after it (pytest's
        # ``FixtureLookupError(None, self, msg)`` has none: it stays as it is).
        if positional and positional[0][0].type == "none":
            written = next(
                (i for i, (_, a) in enumerate(positional) if formats.is_sentence(a.value)), None
            )
            if written is not None and all(n.type == "none" for n, _ in positional[:written]):
                positional = positional[written:]
        if positional and formats.message_index([a.value for _, a in positional]):
            # a code first, then the message (``formats``)
            rest = [msg.expr_text(n) for n, _ in positional[2:]] + [f"{k}=" for k in keyword]
            return formats.context_format(_message(positional[1][1]), rest), tuple(args)
        if positional:
            first = _message(positional[0][1])
            if len(positional) > 1 and exc_type and not _builtin(exc_type):
                # ``raise MatchError("key {0!r} didn't match any of {1!r}", k, keys)``:
                # the class formats its text with the arguments after it
                first = fields.formatted_later(first)
            return first, tuple(args)
        for key in ("message", "msg", "detail"):
            if key in keyword:
                return _message(keyword[key]), tuple(args)
        return (found.template if found is not None else Template.empty()), tuple(args)

    def other_form(self, call: ts.Node, template: Template) -> Template | None:
        """The second form of a call's message (its first argument), when
        it picks one of two (``msg.read_forms``) and the first is
        ``template``: ``E(a if c else b)``, ``E(f"{x} {word}")`` of a
        ``word`` chosen that way, or a name assigned on two branches."""
        args = call.child_by_field_name("arguments")
        first = (
            next(
                (a for a in msg.named(args) if a.type != "keyword_argument"),
                None,
            )
            if args is not None and args.type == "argument_list"
            else None
        )
        if first is None or first.type in ("integer", "attribute"):
            return None
        branches = self.branches
        if not msg.chooses(first, branches):
            return None  # most messages: not read a second time
        forms = msg.read_forms(first, branches, plural=False)
        if len(forms) != 2 or forms[0] != template or not forms[1].chunks():
            return None
        return forms[1]

    def call_arg(self, name: str | None, node: ts.Node) -> CallArg:
        """One argument of a raise's call, read once. The source of one that
        reads as text is left out: sites travel between processes, and the
        text is what is shown."""
        if node.type == "integer":
            expr = msg.expr_text(node)
            return CallArg(name, expr, Template.literal(expr) if expr.isdecimal() else None)
        value = msg.read_static(node, self.resolve)
        if value is not None and not value.dynamic:
            return CallArg(name, "", value)
        return CallArg(name, msg.expr_text(node), value)

    def local_classes(self, name: str) -> list[ClassDef]:
        """The class of a name defined in this file (``classmsg.Lookup``)."""
        found = self.classes.get(name)
        return [found] if found is not None else []

    def site(
        self,
        node: ts.Node,
        kind: str,
        exc_type: str | None,
        template: Template,
        where: Where,
        args: tuple[CallArg, ...] = (),
    ) -> ThrowSite:
        line = node.start_point.row + 1
        if exc_type is not None:
            exc_type = self.aliases.get(exc_type, exc_type)
            exc_type = next(iter(self.held_classes(exc_type)), exc_type)
            if exc_type in _BUILDS_AS and exc_type not in self.classes:
                exc_type = _BUILDS_AS[exc_type]
            elif exc_type in _PRINTED_AS and exc_type not in self.classes:
                exc_type = _PRINTED_AS[exc_type]
        return ThrowSite(
            path=self.path,
            line=line,
            column=self.column(node),
            end_line=node.end_point.row + 1,
            language=LANGUAGE,
            kind=kind,
            template=template,
            exception_type=exc_type,
            symbol=where.symbol,
            guards=where.guards,
            in_test=where.in_test,
            context_hash=context_hash(self.lines, line),
            args=args,
        )

    @property
    def aliases(self) -> dict[str, str]:
        """Classes imported under another name, by that name: requests raises
        ``RequestsJSONDecodeError``, which prints as ``JSONDecodeError``."""
        if self._aliases is None:
            self._aliases = {}
            for node in self.caught.get("alias", ()):
                name, alias = node.child_by_field_name("name"), node.child_by_field_name("alias")
                if name is None or alias is None:
                    continue
                real = msg.text_of(name).rsplit(".", 1)[-1]
                if real[:1].isupper() and real != msg.text_of(alias):
                    self._aliases[msg.text_of(alias)] = real
            for left, right in _module_class_aliases(self.root):
                # toml's ``try: FNFError = FileNotFoundError`` raises a
                # FileNotFoundError; the first binding is the one that runs
                self._aliases.setdefault(left, right)
        return self._aliases

    @property
    def class_nodes(self) -> dict[str, ts.Node]:
        """The file's class definitions by name (the first of a name)."""
        if self._class_nodes is None:
            self._class_nodes = {}
            for node in self.caught.get("class", ()):
                name = node.child_by_field_name("name")
                if name is not None:
                    self._class_nodes.setdefault(msg.text_of(name), node)
        return self._class_nodes

    @property
    def functions(self) -> dict[str, list[ts.Node]]:
        """Function definitions by name."""
        if self._functions is None:
            self._functions = {}
            for node in self.caught.get("function", ()):
                name = node.child_by_field_name("name")
                if name is not None:
                    self._functions.setdefault(msg.text_of(name), []).append(node)
        return self._functions

    @property
    def src(self) -> bytes:
        """The text as parsed."""
        if self._src is None:
            self._src = self.text.encode("utf-8", "surrogatepass")
        return self._src

    @property
    def plural(self) -> bool:
        """Whether a message may pick a plural form (``msg.read_forms``):
        two reads of each message otherwise, for the one form."""
        if self._plural is None:
            self._plural = msg.names_plural(self.src)
        return self._plural

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.split("\n")  # tree-sitter counts rows by \n only
        return self._lines

    def column(self, node: ts.Node) -> int:
        row, col = node.start_point
        line = self.lines[row] if row < len(self.lines) else ""
        if line.isascii():
            return col + 1
        return len(line.encode("utf-8", "surrogatepass")[:col].decode("utf-8", "replace")) + 1

    @property
    def test_path(self) -> bool:
        if self._test_path is None:
            self._test_path = is_test_path(self.path)
        return self._test_path

    # -- where a statement sits ---------------------------------------------

    def where(self, node: ts.Node) -> Where:
        names: list[str] = []
        guards: list[Guard] = []  # innermost first, reversed at the end
        bound: set[str] = set()
        in_test = False
        in_function = False
        child, parent = node, node.parent
        while parent is not None:
            ptype = parent.type
            if ptype in ("function_definition", "class_definition"):
                name_node = parent.child_by_field_name("name")
                name = msg.text_of(name_node) if name_node is not None else "?"
                names.append(name)
                if ptype == "function_definition":
                    in_test = in_test or _TEST_FUNCTION.match(name) is not None
                    in_function = True
                else:
                    in_test = in_test or _is_test_class(parent, name)
            elif not in_function and child.type == "block":
                self._guard(child, parent, guards, bound)
            if (
                not in_function
                and not guards
                and ptype == "block"
                and parent.parent is not None
                and parent.parent.type == "function_definition"
            ):
                fell = _fall_through(child)
                if fell is not None:
                    guards.append(fell)
            child, parent = parent, parent.parent
        if self._test_path is None:
            self._test_path = is_test_path(self.path)
        return Where(
            symbol=".".join(reversed(names)) or None,
            guards=tuple(reversed(guards)),
            in_test=in_test or self._test_path,
            bound=frozenset(bound),
        )

    def _guard(self, block: ts.Node, parent: ts.Node, out: list[Guard], bound: set[str]) -> None:
        """Append the guard that ``parent`` puts on its child ``block``."""
        ptype = parent.type
        line = parent.start_point.row + 1
        if ptype == "if_statement" and block == parent.child_by_field_name("consequence"):
            cond = parent.child_by_field_name("condition")
            if cond is not None:
                _isinstance_guard(cond, line, out)
                out.append(Guard("if", msg.expr_text(cond), line, values=self.local_values(cond)))
        elif ptype == "elif_clause":
            cond = parent.child_by_field_name("condition")
            if cond is not None:
                _isinstance_guard(cond, line, out)
                out.append(
                    Guard(
                        "elif",
                        msg.expr_text(cond),
                        line,
                        _earlier_conditions(parent),
                        self.local_values(cond),
                    )
                )
        elif ptype == "else_clause" and parent.parent is not None:
            owner = parent.parent
            cond = owner.child_by_field_name("condition")
            if owner.type == "if_statement" and cond is not None:
                out.append(
                    Guard(
                        "else",
                        msg.expr_text(cond),
                        line,
                        _earlier_conditions(parent)[1:],
                        self.local_values(cond),
                    )
                )
        elif ptype in ("except_clause", "except_group_clause"):
            text = _between_keyword_and_colon(parent)
            as_name = _AS_NAME.search(text)
            if as_name:
                bound.add(as_name.group(1))
            looked_up = self.keyed_lookup(parent, text)
            if looked_up is not None:
                out.append(looked_up)  # inside the `except`: the guard nearest the raise
            out.append(Guard("except", text, line))
        elif ptype == "case_clause":
            text = _between_keyword_and_colon(parent)
            siblings: tuple[str, ...] = ()
            if text == "_" and parent.parent is not None:
                siblings = tuple(
                    _between_keyword_and_colon(c)
                    for c in parent.parent.named_children
                    if c.type == "case_clause" and c != parent
                )
            out.append(Guard("match-arm", text, line, siblings))

    # -- names --------------------------------------------------------------

    def local_values(self, expr: ts.Node, depth: int = 2) -> tuple[tuple[str, str], ...]:
        """The value of each local ``expr`` reads that its function assigns
        once, before it, on every path (not a parameter): what a check on
        ``total`` means in what the caller gave (``total = sum(weights)``),
        and, ``depth`` deep, the locals those values read."""
        scope = _scope_of(expr)
        if scope is None or scope.type != "function_definition":
            return ()
        params = self._parameters(scope)
        out: dict[str, str] = {}
        for ident in _read_names(expr):
            name = msg.text_of(ident)
            if name in out:
                continue
            if name in params:
                rebound = self._rebound(scope, name, ident)
                if rebound is not None:
                    out[name] = rebound
                continue
            assigns = self._assignments(scope).get(name, [])
            if not assigns:
                # `obj not in _UNKNOWN_VALUES`: a module's table of the valid values
                table = self.table_value(ident)
                if table is not None:
                    out[name] = table
                continue
            if len(assigns) != 1 or assigns[0].type != "assignment":
                continue
            (a,) = assigns
            right = a.child_by_field_name("right")
            if right is None or a.end_byte > ident.start_byte or not _dominates(a, ident):
                continue
            text = msg.expr_text(right)
            if len(text) > _MAX_VALUE:
                continue
            out[name] = text
            if depth > 1:
                for inner, value in self.local_values(right, depth - 1):
                    out.setdefault(inner, value)
        return tuple(out.items())

    def _rebound(self, scope: ts.Node, name: str, ident: ts.Node) -> str | None:
        """What a parameter holds at ``ident`` when the function binds it
        again once before, on every path: werkzeug's ``_hash_internal``
        checks ``method`` after ``method, *args = method.split(":")``, the
        part before the first colon (``method.split(":")[0]``), and
        ``dump_cookie`` checks ``samesite`` after ``samesite =
        samesite.title()``. None when it is not bound again, or not so."""
        binds: list[tuple[ts.Node, int | None]] = [
            (a, None) for a in self._assignments(scope).get(name, [])
        ]
        for a in self.caught.get("unpack", []):
            if scope.start_byte < a.start_byte < scope.end_byte and _scope_of(a) == scope:
                left = a.child_by_field_name("left")
                names = [msg.text_of(n).lstrip("*") for n in msg.named(left)] if left else []
                if name in names:
                    binds.append((a, _position(a, name)))
        before = [(a, i) for a, i in binds if a.start_byte < ident.start_byte]
        if len(before) != 1:
            return None
        (a, at), right = before[0], before[0][0].child_by_field_name("right")
        if a.type != "assignment" or right is None or not _dominates(a, ident):
            return None
        text = msg.expr_text(right)
        if at is None:
            return text if len(text) <= _MAX_VALUE else None
        if right.type not in ("call", "attribute", "identifier", "subscript"):
            return None
        return f"{text}[{at}]" if at >= 0 and len(text) <= _MAX_VALUE else None

    def keyed_lookup(self, clause: ts.Node, caught: str) -> Guard | None:
        """The lookup an ``except KeyError`` clause turns into its own error,
        as the membership its raise needs false: xarray's ``try: store_open
        = WRITEABLE_STORES[engine]`` / ``except KeyError: raise ValueError(…)``
        raises when ``engine in WRITEABLE_STORES`` is false, and
        ``WRITEABLE_STORES`` holds the keys written in its dict. Only the one
        subscript of the ``try`` body, of a dict written once with literal
        keys and not filled later (marshmallow's ``_registry[name] = …``)."""
        names = {n.strip() for n in _AS_NAME.sub("", caught).strip("() ").split(",")}
        if not names & {"KeyError", "LookupError"}:
            return None
        owner = clause.parent
        body = owner.child_by_field_name("body") if owner is not None else None
        if body is None:
            return None
        found: list[ts.Node] = []
        stack = list(body.named_children)
        while stack:
            n = stack.pop()
            if n.type in _SCOPES:
                continue
            if n.type == "subscript":
                found.append(n)
            stack.extend(n.named_children)
        if len(found) != 1:
            return None
        (sub,) = found
        table, key = sub.child_by_field_name("value"), sub.child_by_field_name("subscript")
        if table is None or key is None or table.type != "identifier":
            return None
        if key.type not in ("identifier", "attribute"):
            return None
        name = msg.text_of(table)
        value = self.resolve(table)
        if value is None or value.type != "dictionary" or _filled(name).search(self.text):
            return None
        keys = self.table_value_of(value)
        if keys is None:
            return None
        return Guard(
            "assert",
            f"{msg.expr_text(key)} in {name}",
            sub.start_point.row + 1,
            values=((name, keys),),
        )

    def table_value(self, ident: ts.Node) -> str | None:
        """The values of a module's constant table that ``ident`` is checked
        against (``x in NAME`` / ``x not in NAME``), as a literal: a set,
        tuple, list or ``frozenset({…})`` as written, a dict's keys as a set
        (what ``in`` compares with); None for anything else, or a long one."""
        parent = ident.parent
        if (
            parent is None
            or parent.type != "comparison_operator"
            or parent.named_children[-1] != ident
            or not any(c.type in ("in", "not in") for c in parent.children)
        ):
            return None
        value = self.resolve(ident)
        if value is not None and value.type == "call":
            fn = value.child_by_field_name("function")
            args = value.child_by_field_name("arguments")
            inner = msg.named(args) if args is not None else []
            if (
                fn is None
                or msg.text_of(fn) not in ("frozenset", "set", "tuple")
                or len(inner) != 1
            ):
                return None
            value = inner[0]
        return self.table_value_of(value) if value is not None else None

    def table_value_of(self, value: ts.Node) -> str | None:
        """``table_value`` of the value the table is written as."""
        if value.type not in ("set", "tuple", "list", "dictionary"):
            return None
        if not msg.named(value):
            return None  # `{}` filled later: not the values it ends up with
        if value.type == "dictionary":
            keys = [p.child_by_field_name("key") for p in msg.named(value)]
            if not keys or any(
                k is None or k.type not in ("string", "identifier", "integer") for k in keys
            ):
                return None
            text = "{" + ", ".join(msg.expr_text(k) for k in keys if k is not None) + "}"
        else:
            text = msg.expr_text(value)
        return text if len(text) <= _MAX_TABLE else None

    def resolve(self, ident: ts.Node) -> ts.Node | None:
        """The value of the nearest assignment to ``ident`` before it.

        Looks in the enclosing function; a name the function never binds
        is the function around it's, if that binds it once before (a
        closure), and falls back to a module-level constant assigned
        exactly once. A
        parameter reassigned only on some paths (``if hint is None: hint =
        "..."``) is not resolved: the argument may be the message.
        Worked out once per node (a message's names are asked again by each
        reading of it: ``chooses``, ``read_forms``, ``other_form``).
        """
        memo = self._resolved
        if ident.id not in memo:
            memo[ident.id] = self._resolve(ident)
        return memo[ident.id]

    def _resolve(self, ident: ts.Node) -> ts.Node | None:
        name = msg.text_of(ident)
        scope = _scope_of(ident) or self.root
        assigns = self._assignments(scope).get(name, [])
        # not the assignment the name is read in (``msg = msg + "..."``)
        before = [a for a in assigns if a.end_byte <= ident.start_byte]
        is_param = scope != self.root and name in self._parameters(scope)
        if before:
            last = before[-1]
            if last.type != "assignment" or (is_param and not _dominates(last, ident)):
                return None
            return last.child_by_field_name("right")
        if scope == self.root or assigns or is_param:
            return None
        outer = _scope_of(scope)
        while outer is not None and outer.type == "class_definition":
            outer = _scope_of(outer)  # a class body is no closure's scope
        if outer is not None:
            # a closure reads its enclosing function's name (sortedcontainers'
            # ``message = (...).format(...)``; ``def method(self): raise
            # AttributeError(message)``): its one assignment before the inner
            # function, never a parameter's value
            held = self._assignments(outer).get(name, [])
            if held or name in self._parameters(outer):
                once = len(held) == 1 and held[0].type == "assignment"
                if (
                    once
                    and held[0].end_byte <= scope.start_byte
                    and name not in self._parameters(outer)
                ):
                    return held[0].child_by_field_name("right")
                return None
        module = self._assignments(self.root).get(name, [])
        if len(module) == 1 and module[0].type == "assignment":
            return module[0].child_by_field_name("right")
        return None

    def resolve_earlier(self, ident: ts.Node) -> ts.Node | None:
        """The value of the assignment before the nearest one, when the
        nearest runs only on some paths to ``ident`` (an ``elif`` branch):
        the name may hold either (``msg.Branches``).

        An empty text before the branch is one of them: a part of a longer
        message that is left out when the branch does not run (sqlglot's
        ``similar = ... or ""``; ``if similar: similar = f" Did you mean
        {similar}?"``; ``f"Unknown {kind} '{word}'.{similar}"``). Where the
        name is the whole message (requests' ``http_error_msg = ""``), that
        form has no text and gives no site (``other_form``)."""
        scope = _scope_of(ident)
        if scope is None:
            return None
        assigns = self._assignments(scope).get(msg.text_of(ident), [])
        before = [a for a in assigns if a.end_byte <= ident.start_byte]
        if len(before) < 2 or any(a.type != "assignment" for a in before[-2:]):
            return None
        if _dominates(before[-1], ident):
            return None
        value = before[-2].child_by_field_name("right")
        return value if value is not None and _text_or_default(value) else None

    def settled(self, ident: ts.Node) -> ts.Node | None:
        """``resolve`` for a name one value of which is the text: None for a
        name assigned on two branches, which holds either (rfc3986's ``verb =
        "was"``; ``if len(names) > 1: verb = "were"``; ``f"{components} {verb}
        required but missing"``), so that it stays a placeholder."""
        if ident.type == "identifier" and self.resolve_earlier(ident) is not None:
            return None
        return self.resolve(ident)

    def _settled_in(self, text: ts.Node) -> msg.Resolver:
        """``settled`` for the names inside ``text``; ``text`` itself, a name,
        is read as ``resolve`` reads it (urllib3's ``message`` set on two
        branches and handed whole: its nearest text)."""
        return lambda n: self.resolve(n) if n == text else self.settled(n)

    @property
    def branches(self) -> msg.Branches:
        """``resolve`` that also reads a name's value on another branch."""
        return msg.Branches(self.resolve, self.resolve_earlier)

    def _assignments(self, scope: ts.Node) -> dict[str, list[ts.Node]]:
        scopes = self._scopes
        if scopes is None:
            scopes = self._scopes = self._all_assignments()
        return scopes.get(scope.id, {})

    def _all_assignments(self) -> dict[int, dict[str, list[ts.Node]]]:
        """Assignments to a name by the scope they bind in, from the one walk
        of the file (a walk per scope would cost a walk each)."""
        out: dict[int, dict[str, list[ts.Node]]] = {}
        # module constants: top-level statements only
        table: dict[str, list[ts.Node]] = {}
        for stmt in self.root.named_children:
            first = stmt.named_child(0) if stmt.named_child_count else None
            if stmt.type == "expression_statement" and first is not None:
                left = first.child_by_field_name("left")
                if (
                    first.type in ("assignment", "augmented_assignment")
                    and left is not None
                    and left.type == "identifier"
                ):
                    table.setdefault(msg.text_of(left), []).append(first)
        out[self.root.id] = table
        # The innermost scope of each assignment, from byte ranges: scopes and
        # assignments in document order, a stack of the scopes still open.
        caught = self.caught
        assigns = caught.get("assign", []) + caught.get("augment", [])
        scopes = caught.get("function", []) + caught.get("class", []) + caught.get("lambda", [])
        events = sorted(
            [(n.start_byte, 0, i, n) for i, n in enumerate(assigns)]
            + [(n.start_byte, -1, i, n) for i, n in enumerate(scopes)]
        )
        open_scopes: list[tuple[int, int]] = []  # (end byte, id)
        for start, is_scope, _, n in events:
            while open_scopes and open_scopes[-1][0] <= start:
                open_scopes.pop()
            if is_scope:
                open_scopes.append((n.end_byte, n.id))
                continue
            left = n.child_by_field_name("left")
            if open_scopes and left is not None:
                table = out.setdefault(open_scopes[-1][1], {})
                table.setdefault(msg.text_of(left), []).append(n)
        return out

    def _parameters(self, fn: ts.Node) -> frozenset[str]:
        got = self._params.get(fn.id)
        if got is None:
            got = self._params[fn.id] = frozenset(_parameter_list(fn))
        return got

    # -- classes ------------------------------------------------------------

    def class_def(self, node: ts.Node) -> ClassDef:
        name_node = node.child_by_field_name("name")
        name = msg.text_of(name_node) if name_node is not None else "?"
        outer = self.where(node).symbol
        supers = node.child_by_field_name("superclasses")
        bases = tuple(
            msg.expr_text(b)
            for b in (msg.named(supers) if supers is not None else [])
            if b.type not in ("keyword_argument", "list_splat", "dictionary_splat")
        )
        body = node.child_by_field_name("body")
        read = self._class_message(node, name, body) if body is not None else _ClassMessage()
        return ClassDef(
            name=name,
            qualname=f"{outer}.{name}" if outer else name,
            path=self.path,
            line=node.start_point.row + 1,
            bases=bases,
            message=read.message,
            builds_message=read.builds,
            message_params=read.params,
            param_attrs=read.attrs,
            message_param=read.passed,
            super_args=read.handed,
            super_kwargs=read.handed_kw,
            text_attrs=self._text_attrs(body) if body is not None else (),
        )

    def _text_attrs(self, body: ts.Node) -> tuple[tuple[str, Template], ...]:
        """Class attributes set to a sentence (``description = "..."``), that
        a message a base builds may show (``ClassDef.text_attrs``)."""
        return tuple(
            (name, text)
            for _, name, text in msg.sentences_assigned(
                msg.named(body),
                self.resolve,
                lambda name: name not in _MESSAGE_ATTRS and not name.startswith("__"),
            )
        )

    def _class_message(self, node: ts.Node, name: str, body: ts.Node) -> _ClassMessage:
        attr: Template | None = None
        text: Template | None = None
        init: Template | None = None
        has_str = False
        returned: ts.Node | None = None  # what __str__ returns
        init_fn: ts.Node | None = None
        handed: list[ts.Node] = []  # what __init__ hands to super().__init__
        for stmt in msg.named(body):
            if stmt.type == "decorated_definition":
                stmt = stmt.child_by_field_name("definition") or stmt
            if stmt.type == "expression_statement" and stmt.named_child_count:
                assign = stmt.named_children[0]
                left = assign.child_by_field_name("left")
                right = assign.child_by_field_name("right")
                if assign.type != "assignment" or left is None or right is None:
                    continue
                target = msg.text_of(left)
                if target in _MESSAGE_ATTRS and attr is None:
                    attr = _usable(msg.read_static(right, self.resolve))
                elif target == "default_error_messages" and right.type == "dictionary":
                    self._message_dict(node, name, right)
            elif stmt.type == "function_definition":
                fn_name = stmt.child_by_field_name("name")
                fn_body = stmt.child_by_field_name("body")
                if fn_name is None or fn_body is None:
                    continue
                if msg.text_of(fn_name) == "__str__":
                    has_str = True
                    returned = _first_return(fn_body)
                    # ``return self.formatted_message()``: what that method returns
                    returned = _own_method_return(body, returned) or returned
                    text = _usable(msg.read_static(returned, self.resolve)) if returned else None
                    if returned is not None and returned.type == "boolean_operator":
                        # ``self.message or "..."``: the text a caller gives, or its default
                        text = None
                elif msg.text_of(fn_name) == "__init__":
                    init_fn = stmt
                    handed = _super_init_args(fn_body)
                    first = handed[0] if handed else None
                    if first is not None and first.type == "attribute":
                        first = self._kept_text(stmt, first) or first
                    init = (
                        _usable(msg.read_static(first, self._settled_in(first))) if first else None
                    )
                    if init is not None and len(handed) > 1:
                        # ``super().__init__("expected type {0.__name__} ...", a, b)``
                        init = fields.formatted_later(init)
                    if first is not None and first.type == "boolean_operator":
                        init = None  # ``hint or "unknown error"``: ``_handed_param``'s
                    if init is None and first is not None and len(handed) == 1:
                        init = _joined_to_param(first, stmt, self._settled_in(first))
        if attr is not None:
            return _ClassMessage(attr)
        if init_fn is None:
            # a __str__ that cannot be read still builds the message
            return _ClassMessage(text, builds=has_str)
        params = _parameter_list(init_fn)[1:]
        init_body = init_fn.child_by_field_name("body")
        attrs = _self_aliases(init_body) if init_body is not None else ()
        if text is not None or init is not None:
            return _ClassMessage(text or init, True, params, attrs)
        # No text of its own: a parameter may be the message, returned by
        # __str__ as the attribute it was kept in, or (without a __str__)
        # handed to the base: ``super().__init__(message, ctx)``.
        if has_str:
            held = msg.expr_text(returned) if returned is not None else ""
            kept = self._kept_text(init_fn, returned, anywhere=True) if returned else None
            kept_text = _usable(msg.read_static(kept, self.resolve)) if kept is not None else None
            if kept_text is not None:
                # ``self.message = f"..."`` in __init__, ``return self.message`` in __str__
                return _ClassMessage(kept_text, True, params, attrs)
            passed = dict(attrs).get(held) if held.startswith("self.") else None
            if passed is None or passed not in params:
                return _ClassMessage(None, True, params, attrs)
            return _ClassMessage(self._default(init_fn, passed), False, params, attrs, passed)
        passed, default = self._handed_param(init_fn, handed[0] if handed else None, params)
        if passed is None or passed not in params:
            return _ClassMessage()
        rest = tuple(self._handed_value(n) for n in handed[1:])
        fn_body = init_fn.child_by_field_name("body")
        kw = tuple(
            (k, self._handed_value(v))
            for k, v in (_super_init_kwargs(fn_body) if fn_body is not None else [])
        )
        return _ClassMessage(
            default, False, params, attrs, passed, (Template.runtime(passed), *rest), kw
        )

    def _kept_text(
        self, init_fn: ts.Node, handed: ts.Node, anywhere: bool = False
    ) -> ts.Node | None:
        """What ``__init__`` set ``self.X`` to before it handed ``self.X`` to
        its base: simpleeval's ``self.message = f"'{name}' is not defined
        for expression '{expression}'"`` then ``super(...).__init__(self.message)``;
        with ``anywhere``, in all of ``__init__`` (a ``__str__`` that returns
        ``self.X`` reads it after). None unless one plain assignment at the
        top of ``__init__`` sets it (before the call)."""
        name = msg.text_of(handed)
        body = init_fn.child_by_field_name("body")
        if not name.startswith("self.") or body is None:
            return None
        values = []
        for stmt in msg.named(body):
            if not anywhere and stmt.start_byte >= handed.start_byte:
                break
            assign = stmt.named_children[0] if stmt.named_child_count else None
            if stmt.type != "expression_statement" or assign is None or assign.type != "assignment":
                continue
            left = assign.child_by_field_name("left")
            if left is not None and msg.text_of(left) == name:
                values.append(assign.child_by_field_name("right"))
        return values[0] if len(values) == 1 else None

    def _handed_param(
        self, init_fn: ts.Node, handed: ts.Node | None, params: tuple[str, ...]
    ) -> tuple[str | None, Template | None]:
        """The parameter ``super().__init__`` gets as the message, and the
        text put in when it is not given: ``message`` and ``"unknown"`` in
        ``super().__init__(message or "unknown")``."""
        if handed is not None and handed.type == "boolean_operator":
            op = handed.child_by_field_name("operator")
            left, right = handed.child_by_field_name("left"), handed.child_by_field_name("right")
            if op is not None and op.type == "or" and left is not None and right is not None:
                default = _usable(msg.read_static(right, self.resolve))
                return (msg.text_of(left), default) if left.type == "identifier" else (None, None)
        if handed is None or handed.type != "identifier" or msg.text_of(handed) not in params:
            return None, None
        name = msg.text_of(handed)
        return name, self._default(init_fn, name)

    def _handed_value(self, node: ts.Node) -> Template | None:
        """An argument ``__init__`` hands to its base, as ``ClassDef.super_args``
        holds it: a parameter (or any name) as the hole of that name, a splat
        as its hole, a message read from it, or None when it cannot be read."""
        if node.type in ("identifier", "list_splat"):
            name = msg.expr_text(node)
            value = self.resolve(node) if node.type == "identifier" else None
            if value is None:
                return Template.runtime(name)
        return msg.read_static(node, self.resolve)

    def _default(self, init_fn: ts.Node, param: str) -> Template | None:
        """The text ``__init__`` gives a parameter that was not passed:
        ``def __init__(self, message="Invalid file")``, or
        ``if hint is None: hint = _("unknown error")``."""
        params = init_fn.child_by_field_name("parameters")
        for p in msg.named(params) if params is not None else []:
            name, value = p.child_by_field_name("name"), p.child_by_field_name("value")
            if name is not None and value is not None and msg.text_of(name) == param:
                found = _usable(msg.read_static(value, self.resolve))
                if found is not None:
                    return found
        for assign in self._assignments(init_fn).get(param, ()):
            right = assign.child_by_field_name("right")
            if assign.type == "assignment" and right is not None:
                found = _usable(msg.read_static(right, self.resolve))
                if found is not None:
                    return found
        return None

    def _message_dict(self, cls: ts.Node, name: str, mapping: ts.Node) -> None:
        """One site per entry of a Django-style ``default_error_messages``."""
        where = self.where(cls)
        for pair in msg.named(mapping):
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            if pair.type != "pair" or key is None or value is None:
                continue
            key_text = msg.string_value(key)
            label = repr(key_text) if key_text is not None else msg.expr_text(key)
            entry = Where(
                symbol=f"{name}.default_error_messages[{label}]",
                guards=where.guards,
                in_test=where.in_test,
                bound=where.bound,
            )
            template = keyed.placeholders(msg.read(value, self.resolve))
            self.message_sites.append(self.site(pair, "exception-message", name, template, entry))


def _argument(call: ts.Node, name: str, index: int | None) -> ts.Node | None:
    """The argument of a call for the parameter ``name`` at ``index``
    (keyword, or positional when it has a place); None when not given."""
    args = call.child_by_field_name("arguments")
    position = 0
    for a in msg.named(args) if args is not None else []:
        if a.type == "keyword_argument":
            key = a.child_by_field_name("name")
            if key is not None and msg.text_of(key) == name:
                return a.child_by_field_name("value")
        elif a.type in ("list_splat", "dictionary_splat"):
            return None
        else:
            if position == index:
                return a
            position += 1
    return None


#: classes of a file one raise from a table may pick, at most
MAX_TABLE_CLASSES = 64


def _passes_no_message(call: ts.Node) -> bool:
    """``X(*args, **kwargs)`` or ``X()``: the class's own message, not one given."""
    args = call.child_by_field_name("arguments")
    given = msg.named(args) if args is not None else []
    return all(a.type in ("list_splat", "dictionary_splat") for a in given)


def _picked_from_table(
    sites: list[ThrowSite], raises: list[tuple[int, str | None]]
) -> list[ThrowSite]:
    """A class whose message is its attributes' (``attribute_sites``), raised
    from a table of classes of its file that passes no message: werkzeug's
    ``abort(404)`` runs ``raise self.mapping[code](*args, **kwargs)`` in
    ``Aborter.__call__``, where the traceback ends; the text is ``NotFound``'s
    ``description``. A site per (class, such raise), that raise as its ``via``."""
    shown = [s for s in sites if s.kind == "exception-message" and s.via is None]
    if not shown or len(shown) > MAX_TABLE_CLASSES:
        return []
    return [
        replace(s, via=f"{s.path}:{line} {symbol or '<module>'}")
        for line, symbol in raises
        for s in shown
    ]


def _unwrap_traceback(exc: ts.Node) -> ts.Node:
    """``X("m").with_traceback(tb)`` raises ``X("m")``."""
    while exc.type == "call":
        fn = exc.child_by_field_name("function")
        if fn is None or fn.type != "attribute":
            break
        attr, obj = fn.child_by_field_name("attribute"), fn.child_by_field_name("object")
        if attr is None or obj is None or msg.text_of(attr) != "with_traceback":
            break
        exc = obj
    return exc


def _method_builds_it(fn: ts.Node, call: ts.Node) -> bool:
    """Whether ``raise obj.method(...)`` raises what a method returns: the
    callee is an attribute named as a function (``self.retry``, not
    ``errors.Bad``), and no positional argument is a message for it."""
    if fn.type != "attribute" or _looks_like_class(fn):
        return False
    args = call.child_by_field_name("arguments")
    return args is None or all(a.type == "keyword_argument" for a in msg.named(args))


def _narrowed_class(raise_node: ts.Node, name: str) -> str | None:
    """The class an enclosing ``if isinstance(NAME, Class):`` (or ``elif``)
    checks the raised name is, when the raise is in its block: a value a
    call returned as an error (pint's ``factor = self._get_conversion_factor(
    src, dst)``; ``if isinstance(factor, DimensionalityError): raise factor``).
    None outside such a test, for a tuple of classes, or for ``Exception``."""
    child, parent = raise_node, raise_node.parent
    while parent is not None and parent.type not in ("function_definition", "lambda", "module"):
        if child.type == "else_clause":
            return None  # the test said it is not
        if parent.type in ("if_statement", "elif_clause") and child.type == "block":
            cond = parent.child_by_field_name("condition")
            fn = (
                cond.child_by_field_name("function")
                if cond is not None and cond.type == "call"
                else None
            )
            args = (
                cond.child_by_field_name("arguments")
                if cond is not None and cond.type == "call"
                else None
            )
            given = msg.named(args) if args is not None else []
            if (
                fn is not None
                and msg.text_of(fn) == "isinstance"
                and len(given) == 2
                and msg.text_of(given[0]) == name
                and given[1].type in ("identifier", "attribute")
                and _looks_like_class(given[1])
                and msg.text_of(given[1]) not in ("Exception", "BaseException")
            ):
                return msg.text_of(given[1])  # not a catch-all: any error passes it
            return None  # the nearest test is another
        child, parent = parent, parent.parent
    return None


def _looks_like_class(node: ts.Node) -> bool:
    """``raise ValueError``/``raise errors.Bad`` name a class; ``raise err``
    names an instance whose message we cannot see."""
    last = msg.text_of(node).rsplit(".", 1)[-1]
    return last[:1].isupper()


#: the longest value of a local a guard keeps (``Guard.values``)
_MAX_VALUE = 160
#: and of a module's table of valid values (``x not in _VALID``), listed whole
_MAX_TABLE = 400


def _position(assign: ts.Node, name: str) -> int:
    """Where ``name`` is in the names an assignment unpacks into (``method``
    of ``method, *args = …`` is 0); -1 when a starred name comes before it,
    or it is no plain name there."""
    left = assign.child_by_field_name("left")
    for i, part in enumerate(msg.named(left) if left is not None else []):
        if part.type == "identifier" and msg.text_of(part) == name:
            return i
        if part.type != "identifier":
            return -1
    return -1


@lru_cache(maxsize=256)
def _filled(name: str) -> re.Pattern[str]:
    """A write into the table ``name`` after it is built (``name[k] = v``,
    ``name.update(…)``): its keys are not all written in it."""
    n = re.escape(name)
    return re.compile(rf"\b{n}\s*\[[^\]\n]*\]\s*=(?!=)|\b{n}\.(?:update|setdefault)\(")


def _read_names(expr: ts.Node) -> list[ts.Node]:
    """The identifiers ``expr`` reads as variables: not an attribute's name
    (``x.name``), a keyword's (``f(key=…)``), nor one bound inside it (a
    comprehension's or lambda's)."""
    out: list[ts.Node] = []
    stack = [expr]
    while stack:
        n = stack.pop()
        if n.type in (
            "lambda",
            "list_comprehension",
            "generator_expression",
            "set_comprehension",
            "dictionary_comprehension",
        ):
            continue
        if n.type == "identifier":
            if reads_variable(n):
                out.append(n)
            continue
        stack.extend(reversed(n.named_children))
    return out


def _scope_of(node: ts.Node) -> ts.Node | None:
    """The innermost function, lambda or class body around ``node`` (None
    at module level)."""
    parent = node.parent
    while parent is not None:
        if parent.type in _SCOPES:
            return parent
        parent = parent.parent
    return None


def _is_test_class(node: ts.Node, name: str) -> bool:
    """``class TestX(unittest.TestCase)`` or a bare pytest ``class TestX:``;
    not a helper such as ``class TestClient(httpx.Client)``."""
    if not name.startswith("Test"):
        return False
    supers = node.child_by_field_name("superclasses")
    bases = msg.named(supers) if supers is not None else []
    return not bases or any("TestCase" in msg.text_of(b) for b in bases)


def _text_or_default(value: ts.Node) -> bool:
    """A string (empty too), ``found or ""``, or an expression that holds a
    string: a value a name holds as text before a branch may replace it. A
    call or a name is not read as one."""
    while value.type == "parenthesized_expression" and value.named_child_count == 1:
        value = value.named_children[0]
    if value.type in ("string", "concatenated_string"):
        return True
    right = value.child_by_field_name("right") if value.type == "boolean_operator" else None
    if right is not None and right.type == "string":
        return msg.string_value(right) is not None
    return msg.string_value(value) != ""  # a ``%`` or ``+`` of a string: text


def _dominates(assign: ts.Node, use: ts.Node) -> bool:
    """Whether the block holding ``assign`` also holds ``use``, so that the
    assignment runs on every path to it (loops aside)."""
    stmt = assign.parent
    block = stmt.parent if stmt is not None else None
    node = use.parent
    while block is not None and node is not None:
        if node == block:
            return True
        if node.type in _SCOPES:
            return False
        node = node.parent
    return False


def _isinstance_guard(cond: ts.Node, line: int, out: list[Guard]) -> None:
    call = cond
    if cond.type == "not_operator":
        arg = cond.child_by_field_name("argument")
        call = arg if arg is not None else cond
    fn = call.child_by_field_name("function") if call.type == "call" else None
    if fn is not None and msg.text_of(fn) == "isinstance":
        out.append(Guard("isinstance", msg.expr_text(cond), line))


def _fall_through(stmt: ts.Node) -> Guard | None:
    """For a statement of a function's body after ``if`` statements that
    return: the condition under which one of those returns is taken
    (click's ``_interpret_color`` returns for a known name, a palette index
    or an RGB triple, then raises). The statement runs when it is false:
    none of the earlier returns matched."""
    returning: list[str] = []
    first = 0
    prev = stmt.prev_named_sibling
    while prev is not None and prev.type in ("if_statement", "comment"):
        if prev.type == "if_statement":
            clauses = [prev, *(c for c in prev.named_children if c.type == "elif_clause")]
            conds = [w for w in (_returns_when(c) for c in clauses) if w is not None]
            if not conds:
                break
            returning[:0] = conds
            first = prev.start_point.row + 1
        prev = prev.prev_named_sibling
    if not returning:
        return None
    text = " or ".join(_grouped(c) for c in returning)
    return Guard("fall-through", text, first, tuple(returning))


def _returns_when(clause: ts.Node) -> str | None:
    """The condition under which an ``if``/``elif`` clause returns: its own,
    with that of an ``if`` that is all its body holds (``elif x: if y: return``)."""
    cond = clause.child_by_field_name("condition")
    body = clause.child_by_field_name("consequence")
    if cond is None or body is None:
        return None
    text = msg.expr_text(cond)
    stmts = [c for c in body.named_children if c.type != "comment"]
    if stmts and stmts[-1].type == "return_statement":
        return text
    if (
        len(stmts) == 1
        and stmts[0].type == "if_statement"
        and not [c for c in stmts[0].named_children if c.type in ("elif_clause", "else_clause")]
    ):
        inner = _returns_when(stmts[0])
        if inner is not None:
            return f"{_grouped(text)} and {_grouped(inner)}"
    return None


def _grouped(cond: str) -> str:
    """``cond`` as an operand of ``and``."""
    return f"({cond})" if " or " in cond else cond


def _earlier_conditions(clause: ts.Node) -> tuple[str, ...]:
    """Conditions of the ``if`` and the ``elif`` clauses before ``clause``."""
    owner = clause.parent
    if owner is None:
        return ()
    conds: list[str] = []
    first = owner.child_by_field_name("condition")
    if first is not None:
        conds.append(msg.expr_text(first))
    for c in owner.named_children:
        if c == clause:
            break
        cond = c.child_by_field_name("condition") if c.type == "elif_clause" else None
        if cond is not None:
            conds.append(msg.expr_text(cond))
    return tuple(conds)


def _between_keyword_and_colon(clause: ts.Node) -> str:
    """``except (A, B) as e:`` -> ``(A, B) as e``; ``case X() if y:`` -> ``X() if y``."""
    start: int | None = None
    for k in clause.children:
        if k.type in ("except", "case", "*"):
            start = k.end_byte
        elif k.type == ":" and start is not None:
            chunk = (clause.text or b"")[
                start - clause.start_byte : k.start_byte - clause.start_byte
            ]
            return _WS.sub(" ", chunk.decode("utf-8", "replace")).strip()
    return ""


def _own_method_return(class_body: ts.Node, value: ts.Node | None) -> ts.Node | None:
    """For ``self.name()`` (no arguments), the first return of the method
    ``name`` the class body defines (pyparsing's ``__str__`` returns
    ``self.formatted_message()``); None otherwise."""
    fn = (
        value.child_by_field_name("function")
        if value is not None and value.type == "call"
        else None
    )
    args = value.child_by_field_name("arguments") if value is not None else None
    if fn is None or fn.type != "attribute" or args is None or msg.named(args):
        return None
    obj, attr = fn.child_by_field_name("object"), fn.child_by_field_name("attribute")
    if obj is None or attr is None or msg.text_of(obj) != "self":
        return None
    for stmt in msg.named(class_body):
        if stmt.type == "decorated_definition":
            stmt = stmt.child_by_field_name("definition") or stmt
        name, body = stmt.child_by_field_name("name"), stmt.child_by_field_name("body")
        if (
            stmt.type == "function_definition"
            and name is not None
            and body is not None
            and msg.text_of(name) == msg.text_of(attr)
        ):
            return _first_return(body)
    return None


def _first_return(body: ts.Node) -> ts.Node | None:
    """The value of the first ``return`` in a function body."""
    stack = list(reversed(body.named_children))
    while stack:
        n = stack.pop()
        if n.type == "return_statement":
            kids = msg.named(n)
            return kids[0] if kids else None
        if n.type not in _SCOPES:
            stack.extend(reversed(n.named_children))
    return None


def _parameter_list(fn: ts.Node) -> tuple[str, ...]:
    params = fn.child_by_field_name("parameters")
    names: list[str] = []
    for p in msg.named(params) if params is not None else []:
        ident = p if p.type == "identifier" else p.child_by_field_name("name")
        if ident is None:
            ident = next((c for c in p.named_children if c.type == "identifier"), None)
        if ident is not None and p.type not in ("list_splat_pattern", "dictionary_splat_pattern"):
            names.append(msg.text_of(ident))
    return tuple(names)


def _self_aliases(body: ts.Node) -> tuple[tuple[str, str], ...]:
    """``self.message = message`` statements of an ``__init__``."""
    out: list[tuple[str, str]] = []
    for stmt in msg.named(body):
        assign = stmt.named_children[0] if stmt.named_child_count else None
        if stmt.type != "expression_statement" or assign is None or assign.type != "assignment":
            continue
        left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        if (
            left is not None
            and right is not None
            and right.type == "identifier"
            and left.type == "attribute"
            and msg.text_of(left).startswith("self.")
        ):
            out.append((msg.text_of(left), msg.text_of(right)))
    return tuple(out)


def _super_init_args(body: ts.Node) -> list[ts.Node]:
    """The positional arguments of ``super().__init__(msg, ...)`` or
    ``Base.__init__(self, msg, ...)`` in an ``__init__`` (after ``self``)."""
    for stmt in msg.named(body):
        call = stmt.named_children[0] if stmt.named_child_count else None
        if stmt.type != "expression_statement" or call is None or call.type != "call":
            continue
        fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        if fn is None or args is None or not msg.text_of(fn).endswith(".__init__"):
            continue
        positional = [
            a for a in msg.named(args) if a.type not in ("keyword_argument", "dictionary_splat")
        ]
        if msg.text_of(fn).startswith("super(") and positional:
            return positional
        if len(positional) > 1 and msg.text_of(positional[0]) == "self":
            return positional[1:]
    return []


def _super_init_kwargs(body: ts.Node) -> list[tuple[str, ts.Node]]:
    """The keyword arguments of the call ``_super_init_args`` reads:
    ``super().__init__(line, col, message=message)``."""
    for stmt in msg.named(body):
        call = stmt.named_children[0] if stmt.named_child_count else None
        if stmt.type != "expression_statement" or call is None or call.type != "call":
            continue
        fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        if fn is None or args is None or not msg.text_of(fn).endswith(".__init__"):
            continue
        out: list[tuple[str, ts.Node]] = []
        for a in msg.named(args):
            name, value = a.child_by_field_name("name"), a.child_by_field_name("value")
            if a.type == "keyword_argument" and name is not None and value is not None:
                out.append((msg.text_of(name), value))
        return out
    return []


def _builtin(exc_type: str) -> bool:
    """``ValueError``, ``builtins.OSError``: a class of the runtime's, which
    prints several arguments as a tuple, never formatting the first."""
    return isinstance(getattr(builtins, exc_type.rsplit(".", 1)[-1], None), type)


def _joined_to_param(handed: ts.Node, init_fn: ts.Node, resolve: msg.Resolver) -> Template | None:
    """``Base.__init__(self, message + _format_filepos(lineno, pos))``: the
    text a raise gives (an ``__init__`` parameter) with what is joined to it,
    as holes, so the site shows ``"No such tag" + {_format_filepos(...)}``
    rather than the raise's text alone (Mako's CompileException and
    SyntaxException). None unless a ``+`` joins a parameter to something."""
    joined = msg.concat_of_holes(handed, resolve)
    if joined is None or len(joined.parts) < 2:
        return None
    params = set(_parameter_list(init_fn)[1:])
    holes = [p.expr for p in joined.parts if isinstance(p, Hole)]
    return joined if any(h in params for h in holes) else None


def _usable(t: Template | None) -> Template | None:
    """A class message worth showing: it has literal text."""
    return t if t is not None and t.chunks() else None


def _module_class_aliases(root: ts.Node) -> list[tuple[str, str]]:
    """``A = B`` at module level (or in a top-level ``try``/``if`` block),
    ``B`` a class's name: a raise of ``A`` prints ``B``."""
    stmts: list[ts.Node] = []
    for stmt in root.named_children:
        if stmt.type in ("try_statement", "if_statement"):
            body = stmt.child_by_field_name("body") or stmt.child_by_field_name("consequence")
            stmts.extend(body.named_children if body is not None else ())
            for clause in stmt.named_children:
                if clause.type in ("except_clause", "else_clause"):
                    for block in clause.named_children:
                        if block.type == "block":
                            stmts.extend(block.named_children)
        else:
            stmts.append(stmt)
    out: list[tuple[str, str]] = []
    for stmt in stmts:
        first = stmt.named_children[0] if stmt.named_child_count else None
        if stmt.type != "expression_statement" or first is None or first.type != "assignment":
            continue
        left, right = first.child_by_field_name("left"), first.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier" or right.type != "identifier":
            continue
        a, b = msg.text_of(left), msg.text_of(right)
        if a != b and a[:1].isupper() and b[:1].isupper():
            out.append((a, b))
    return out


def _message(arg: CallArg) -> Template:
    """An argument read as the message itself."""
    return arg.value if arg.value is not None else Template.runtime(arg.expr)
