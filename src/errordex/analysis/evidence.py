"""What one file proves, read by ``scan`` in the extraction worker (pure values).

A FileEvidence keeps only what the analysis needs (no source text), so the
main process can hold one per file of a large repository.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from errordex.picklable import by_fields


@by_fields
@dataclass(frozen=True, slots=True)
class DocLine:
    """A line of a "Raises:" / ":raises X:" docstring part or a Rust ``# Panics`` /
    ``# Errors`` doc section."""

    #: "Raises", "Panics", "Errors"; "Comment": a doc comment's line (Go);
    #: "Mentions": a Rust doc paragraph outside those sections that names an error;
    #: "Docstring": a Python docstring's paragraph outside Raises that says it
    #: raises a named exception
    section: str
    text: str
    line: int


@by_fields
@dataclass(frozen=True, slots=True)
class FuncDef:
    """A function or method definition. ``symbol`` is qualified the way the
    extractors qualify a site's symbol (Rust ``<T as Tr>::f``, Python ``C.f``)."""

    name: str
    symbol: str
    path: str
    line: int
    end_line: int
    public: bool
    in_test: bool = False
    docs: tuple[DocLine, ...] = ()
    #: parameter names in order (Rust: ``self`` first for a method)
    params: tuple[str, ...] = ()
    #: the function's own plain bindings, ``let name = value;`` (Rust), as
    #: (name, value as written, line of the let, last line it holds until:
    #: 0 for a binding never changed, else the line before its first change)
    lets: tuple[tuple[str, str, int, int], ...] = ()
    #: the files its docs are read from (Rust ``#[doc = include_str!("…md")]``)
    doc_files: tuple[str, ...] = ()
    #: its return type as written (Rust ``Result<Bytes, InvalidUri>``), "" when none
    returns: str = ""
    #: the attributes of its object it sets, ``self.closed = True``, as
    #: (attribute, value as written, line): the state another method checks
    sets: tuple[tuple[str, str, int], ...] = ()
    #: the traits bounding its type parameters, by last name (Rust
    #: ``from_str<'a, T>(…) where T: de::Deserialize<'a>``: ``Deserialize``):
    #: a call of it runs that trait's impl for the type the user names
    bounds: tuple[str, ...] = ()
    #: the default of each parameter that has one, as written (Python
    #: ``align="left"``: ("align", '"left"')); a ``*args``/``**kw`` one is
    #: given "*"/"**" (a positional argument past it binds no name of its
    #: own), and a bare ``*`` is ("*", the first keyword-only parameter)
    defaults: tuple[tuple[str, str], ...] = ()
    #: the parameters its body assigns again, each with the first line it
    #: does (Python ``precision = precision.lower()``): a check after that
    #: line does not read the argument
    rebinds: tuple[tuple[str, int], ...] = ()


@by_fields
@dataclass(frozen=True, slots=True)
class Call:
    """A call ``callee(...)`` (by name) made inside ``caller`` ("" at module level)."""

    callee: str
    caller: str
    line: int
    #: the call as written, when it fits on its line (Rust; for example code)
    text: str = ""


@by_fields
@dataclass(frozen=True, slots=True)
class TestExpect:
    """A test that expects an error: ``pytest.raises``, ``assertRaises[Regex]``,
    ``#[should_panic(expected=...)]``, or an assertion on the error text."""

    test: str  # the test function's symbol
    path: str
    line: int  # the expectation itself
    kind: str  # pytest.raises | assertRaises | assertRaisesRegex | should_panic | assert-text | doctest
    exception: str | None
    pattern: str | None
    is_regex: bool
    body: str  # the statements that trigger it (with-block, fn body), bounded
    body_line: int
    calls: tuple[str, ...] = ()
    #: a row of a table test: the literal values ``body`` reads in place of
    #: the loop variables, as written (``line`` is the row's)
    inputs: tuple[str, ...] = ()
    #: a documented example (``doctest``): the same call made without an
    #: error in the same session, and its line (attrs' ``C(41)`` beside ``C(42)``)
    fixed: str = ""
    fixed_line: int = 0


@by_fields
@dataclass(frozen=True, slots=True)
class Catch:
    """An ``except X`` clause (Python)."""

    exception: str
    path: str
    line: int
    symbol: str
    text: str


@by_fields
@dataclass(frozen=True, slots=True)
class Scrutinee:
    """The value a ``match`` with a catch-all ``_`` arm looks at (Rust):
    ``line`` is the line of the ``_`` arm, ``text`` the matched expression."""

    line: int
    text: str
    match_line: int = 0


@by_fields
@dataclass(frozen=True, slots=True)
class Manifest:
    """Lines of a Cargo.toml that facts point at."""

    crate: str | None
    feature_lines: dict[str, int] = field(default_factory=dict)
    #: dependency key -> (package name, line)
    deps: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: ``[package] repository = "..."`` and its line
    repository: tuple[str, int] | None = None
    #: ``[workspace.package] version``, in a workspace's root manifest
    workspace_version: str | None = None
    #: whether ``[package]`` takes its version from the workspace (``version.workspace = true``)
    inherits_version: bool = False


@by_fields
@dataclass(frozen=True, slots=True)
class TraitDecl:
    """A trait a file declares (Rust), as far as a user can call its methods:
    serde_yaml's ``pub trait Index: private::Sealed`` declares
    ``index_or_insert`` ``#[doc(hidden)]``; reqwest's ``IntoUrlSealed`` is
    ``pub`` in a module nobody outside can name."""

    name: str
    line: int
    #: the traits it requires, by last name (``Sealed`` of ``Index: private::Sealed``)
    supertraits: tuple[str, ...] = ()
    #: the methods it declares, with a body or without
    methods: tuple[str, ...] = ()
    #: those of its methods marked ``#[doc(hidden)]``
    hidden: tuple[str, ...] = ()
    #: declared ``pub`` (not ``pub(crate)``, not bare), and every inline
    #: ``mod`` around it in the file ``pub``
    named: bool = True


@by_fields
@dataclass(frozen=True, slots=True)
class FileEvidence:
    path: str
    language: str
    n_lines: int
    functions: tuple[FuncDef, ...] = ()
    calls: tuple[Call, ...] = ()
    tests: tuple[TestExpect, ...] = ()
    catches: tuple[Catch, ...] = ()
    idents: frozenset[str] = frozenset()
    manifest: Manifest | None = None
    scrutinees: tuple[Scrutinee, ...] = ()
    #: a package's re-exports: (name, module path without extension, name there, line)
    exports: tuple[tuple[str, str, str, int], ...] = ()
    #: a module file's own ``mod`` items (Rust): (name, declared ``pub``)
    modules: tuple[tuple[str, bool], ...] = ()
    #: its ``mod`` items compiled in debug builds only (Rust): (name, the
    #: line of their ``#[cfg(debug_assertions)]``)
    debug_modules: tuple[tuple[str, int], ...] = ()
    #: the traits it declares (Rust): a trait impl's method of another
    #: library's trait (serde's) is called by that library, not by a user
    traits: tuple[str, ...] = ()
    #: the ``pub`` structs, enums, unions and traits it declares at its top level (Rust)
    types: tuple[str, ...] = ()
    #: its own ``pub use`` items: (name shown, path taken from, name there or "*", line)
    uses: tuple[tuple[str, str, str, int], ...] = ()
    #: (a class's qualified name, its docstring's first line) (Python)
    class_docs: tuple[tuple[str, DocLine], ...] = ()
    #: a prose document's lines (README, ``docs/``): (line, text) (``prose``)
    prose: tuple[tuple[int, str], ...] = ()
    #: module-level instances, ``_default_decoder = JSONDecoder(...)`` (Python):
    #: (name, the class's last name); a call ``_default_decoder.decode(s)``
    #: is then known to be ``JSONDecoder.decode``
    instances: tuple[tuple[str, str], ...] = ()
    #: the traits it declares, with what a user can call of them (Rust)
    trait_decls: tuple[TraitDecl, ...] = ()
    #: classes a module-level table holds, or instances of them, as (class's
    #: last name, the table's name) (Python): werkzeug's ``DEFAULT_CONVERTERS
    #: = {"any": AnyConverter, …}``; a ``table[key].m(…)`` call runs their ``m``
    registered: tuple[tuple[str, str], ...] = ()
    #: calls ``x.m(…)`` on a name the function bound to an item looked up
    #: (``convertor = convertors[key]``), as (caller, line, callee) (Python):
    #: a table's class's ``m`` may run there, as for ``table[key].m(…)``
    looked_up: tuple[tuple[str, int, str], ...] = ()


def jsonable(value: Any) -> Any:
    """Dataclass-ish values to plain JSON (tuples to lists, sets sorted)."""
    if hasattr(value, "__dataclass_fields__"):
        return {k: jsonable(getattr(value, k)) for k in value.__dataclass_fields__}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(jsonable(v) for v in value)
    return value
