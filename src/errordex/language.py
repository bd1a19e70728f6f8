"""The one protocol between the core and a language: a ``Language`` value.

A language is a package (``errordex/languages/<name>/``, or a package of its
own such as ``errordex-kotlin``) that registers one ``Language`` through the
``errordex.languages`` entry point group (see ``hookspecs`` and ``plugins``).
Everything the core needs to know about the language is a field here; the
core asks it and never names a language.

The required fields read a file (grammar, extraction, the evidence scan);
the rest say how the language's runtime prints an error, what its tests and
manifests look like and how a page shows its code, with defaults that fit a
language that has no such thing.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from tree_sitter import Tree

    from errordex.analysis.evidence import FileEvidence, TestExpect
    from errordex.model import ClassDef, Extraction, Package, ThrowSite
    from errordex.paste.model import Found, ParsedError
    from errordex.template import Template


class Extractor(Protocol):
    def __call__(self, path: str, text: str, tree: Tree | None = None, /) -> Extraction: ...


class Scanner(Protocol):
    def __call__(self, path: str, text: str, tree: Tree | None = None, /) -> FileEvidence: ...


#: A paste parser: the lines of a paste in, the errors found (with their spans) out.
PasteFinder = Callable[[list[str]], "list[Found]"]
#: What every file's classes (``Extraction.classes``) tell the sites of
#: ``raise_kind``: the names (``classmsg.raised_class``) whose sites are
#: revised, and the revision, the site with its class's message, or None
#: when the site is no site (a Rust value of a type with no message).
ClassMessages = Callable[
    [Iterable["ClassDef"]],
    tuple[Container[str], Callable[["ThrowSite"], "ThrowSite | None"]],
]
#: A section of a page (``analysis.sections.section``), and a fact it cites.
Section = dict[str, Any]
Fact = dict[str, Any]
#: A manifest reader: (path, text) in, the package it declares (or None) and
#: the file's evidence out.
ManifestReader = Callable[[str, str], "tuple[Package | None, FileEvidence]"]


def _never(name: str) -> bool:
    return False


def _no_key(site: ThrowSite) -> str | None:
    return None


def _message_as_written(site: ThrowSite, exception: str | None) -> str:
    return site.template.display()


def _printed_as_is(site: ThrowSite, line: str) -> str:
    return line


def _no_code(code: str) -> bool:
    return False


def _no_identifiers(code: str) -> set[str]:
    return set()


def _not_the_runtimes(message: str, exception_type: str | None) -> bool:
    return False


def _no_version(path: str) -> str | None:
    return None


def _no_builtins(name: str) -> tuple[str, ...] | None:
    return None


def _no_types(message: str) -> tuple[str, ...]:
    return ()


def _nobodys_frame(path: str, function: str | None) -> bool:
    return False


def _as_written(message: Template, how: str) -> Template:
    return message


@dataclass(frozen=True, slots=True)
class Runtime:
    """How the language's runtime prints an error, and what a user sees."""

    #: its name in a sentence ("Python", in "the Python runtime")
    title: str = ""
    #: what a user calls one of its errors ("your panic")
    error_word: str = "error"
    #: whether it prints the innermost frame last (a Python traceback) or
    #: first (a Rust backtrace)
    innermost_last: bool = False
    #: the message a site shows at run time, placeholders left in
    #: (``exception``: the exception's name to print), and the lines a user
    #: sees in the terminal around that message
    message_line: Callable[[ThrowSite, str | None], str] = _message_as_written
    printed_form: Callable[[ThrowSite, str], str] = _printed_as_is
    #: the name it prints for a class defined in the repository, from its
    #: qualified name and file (Python's ``module.Qualname``); None when it
    #: prints the bare name
    printed_type: Callable[[str, str | None], str] | None = None
    #: what it prints for a site of a kind that has no message in the
    #: source (Rust's bare ``todo!()``: "not yet implemented")
    bare_messages: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: the group key of a site with no message of its own, when the
    #: runtime's text tells it apart (a bare ``panic!()``: "explicit panic")
    bare_key: Callable[[ThrowSite], str | None] = _no_key
    #: the kind of site that raises a class by name, whose message the
    #: class may give (``classmsg``), with a class hierarchy; None when the
    #: language has none
    raise_kind: str | None = None
    #: the kind of site that builds a value of an error type defined
    #: elsewhere (Rust's ``construct``), whose message ``class_messages``
    #: gives; unlike ``raise_kind``, no class hierarchy comes with it
    value_kind: str | None = None
    #: the kinds of site that define a message other sites throw (Rust's
    #: ``#[error]`` attribute, shown as "defined at" after the sites that
    #: build the value)
    defining_kinds: frozenset[str] = frozenset()
    #: how the sites of ``raise_kind`` and ``value_kind`` get their message from the classes
    #: defined in other files (``classmsg.class_messages`` for Python)
    class_messages: ClassMessages | None = None
    #: kinds of site that panic (a test expects one with ``#[should_panic]``)
    panic_kinds: frozenset[str] = frozenset()
    #: whether a pasted message has the form of one the interpreter raises
    #: itself (``'NoneType' object has no attribute 'x'``), which any raise
    #: that copies it would verify against
    interpreter_form: Callable[[str, str | None], bool] = _not_the_runtimes
    #: the runtime's own error types (``type_name``) whose message forms a
    #: message has, when a library's error carries that text (``raise
    #: BoxKeyError(str(err))`` in ``except AttributeError as err``)
    interpreter_types: Callable[[str], tuple[str, ...]] = _no_types
    #: for a runtime whose library fails at the caller's line (Rust's
    #: ``#[track_caller]``: ``unwrap()``, an index): whether a message (and
    #: kind) is such a failure; None when the runtime has none
    library_panic: Callable[[str, str | None], bool] | None = None
    #: what fails at the caller's line then, with code in backticks
    #: ("an `unwrap()` ... on that line")
    library_failure: str = ""
    #: the version of the package a frame's path ran from, when the path says
    #: (``registry/bytes-1.0.0/src/bytes.rs``)
    ran_version: Callable[[str], str | None] = _no_version
    #: whether a printed frame (path, function) is the runtime's own, which
    #: only passes a call on and is never the user's (Rust's ``core::`` and
    #: ``std::`` frames, Python's standard library)
    runtime_frame: Callable[[str, str | None], bool] = _nobodys_frame
    #: the class chain of one of the runtime's own exception classes, the
    #: class first (Python's ``ValueError``: ValueError, Exception,
    #: BaseException); None for a name that is not one
    builtin_classes: Callable[[str], tuple[str, ...] | None] = _no_builtins
    #: names it prints for an error of many classes: node prints a class's
    #: ``name``, and one that sets none prints its base's (``Error``); a
    #: pasted error of such a name may be of any class, so the name alone
    #: rules none out
    shared_names: frozenset[str] = frozenset()
    #: the callable's name and the keyword of the runtime's own error for a
    #: keyword a call's signature does not take (Python's ``f() got an
    #: unexpected keyword argument 'x'``); None when the runtime has none
    unexpected_keyword: Callable[[str], tuple[str, str] | None] | None = None
    #: (line, parameter names, takes any keyword) of a function a file
    #: defines, by qualified name (``Field.__init__``)
    signature: Callable[[str, str], tuple[int, tuple[str, ...], bool] | None] | None = None
    #: a caller's text that a forwarder formats with its own arguments, and
    #: how (``Forwarder.formats``), its fields read as placeholders
    formatted: Callable[[Template, str], Template] = _as_written


@dataclass(frozen=True, slots=True)
class Paste:
    """How ``errordex explain`` reads what the runtime printed."""

    #: layouts that cannot be mistaken for another, and those read only when
    #: no strong layout was found
    finders: tuple[PasteFinder, ...] = ()
    fallbacks: tuple[PasteFinder, ...] = ()
    #: whether an error pasted in no layout a language claims (a lone
    #: ``Type: message`` line) is read as this language's (at most one
    #: does); then such a line split into its type and message, and such
    #: lines read as an error
    claims_plain: bool = False
    split_typed: Callable[[str], tuple[str | None, str]] | None = None
    typed_error: Callable[[list[str]], ParsedError] | None = None


@dataclass(frozen=True, slots=True)
class Project:
    """How a repository in the language lays out its tests and manifests."""

    #: directories whose files are test code, and a test file's name
    test_dirs: tuple[str, ...] = ()
    is_test_file: Callable[[str], bool] = _never
    #: manifest file names (Cargo.toml) and how to read one
    manifests: tuple[str, ...] = ()
    read_manifest: ManifestReader | None = None
    #: the examples in a prose doc (README, ``docs/``) that show an error
    #: raised (Python: a ``>>>`` session printing a traceback), as tests
    doc_examples: Callable[[str, str], tuple[TestExpect, ...]] | None = None


def _no_modules(dotted: str) -> tuple[str, ...]:
    return ()


def _no_import_name(path: str, symbol: str) -> str | None:
    return None


def _always(name: str) -> bool:
    return True


def _a_variant(site: ThrowSite) -> str:
    return "error variant"


def _except_clause(catch: Fact) -> str:
    """``except KeyError``: how a page writes the clause a ``catches`` fact is."""
    return f"except {catch['exception']}"


def _no_type(condition: str, when_false: bool) -> str | None:
    return None


def _keyword_arguments(params: Sequence[str]) -> str:
    """``indexers=…``: how a page writes the arguments of a call that matter."""
    return ", ".join(f"{p}=…" for p in params)


def _cannot_say(condition: str, name: str, value: str) -> bool | None:
    return None


def _no_attribute(path: str, symbol: str, condition: str) -> str | None:
    return None


#: whether a site whose checks are (kind, text) runs for the one call of a
#: function (name, parameters, defaults, its class, the parameters it
#: assigns again) that a test's body makes
FiresOnCall = Callable[
    [
        Sequence[tuple[str, str]],
        str,
        str,
        Sequence[str],
        Sequence[tuple[str, str]],
        str | None,
        Sequence[str],
    ],
    bool | None,
]


@dataclass(frozen=True, slots=True)
class Pages:
    """What a page shows of the language's code, and checks of it."""

    #: the lexer name pages highlight its code with (Pygments)
    lexer: str = "text"
    #: whether example code parses (a page keeps only code that does), the
    #: identifiers in a piece of it, and the words ``verify`` accepts there
    #: beside the repository's own names (keywords, builtins)
    parses: Callable[[str], bool] = _no_code
    identifiers: Callable[[str], set[str]] = _no_identifiers
    words: frozenset[str] = frozenset()
    #: the names a piece of code defines itself (its assignments, functions,
    #: parameters): ``verify`` takes those as grounded by the code
    bindings: Callable[[str], set[str]] = _no_identifiers
    #: the page's writer asks these, for the lead site's language: what the
    #: site does ("raises `KeyError`"), an example fix in the language's
    #: code, and the defences a caller can write (given the repository's
    #: test that shows the failing call). Their argument is the writer, an
    #: ``analysis.fixes.Fixes`` (``Any`` here: the writer asks the
    #: languages, so this module cannot import it)
    what: Callable[[Any], str] | None = None
    example_fix: Callable[[Any], Section | None] | None = None
    defences: Callable[[Any, Fact | None], list[Section]] | None = None
    #: whether its example fixes read the real calls of the function that
    #: throws (the analysis's ``callers`` fact)
    reads_callers: bool = False
    #: the files that may define a module named by a dotted import path
    #: (``click.termui`` -> ``click/termui.py``, ``src/click/termui/__init__.py``…):
    #: ``verify`` takes a page's ``click.style`` as grounded by such a file
    module_files: Callable[[str], tuple[str, ...]] = _no_modules
    #: the arguments of a call as the language writes them, given the
    #: parameters that matter (``isel(indexers=…)``; Rust, positional: ``split_to(at)``)
    call_arguments: Callable[[Sequence[str]], str] = _keyword_arguments
    #: how its code writes "either condition holds" (a helper's check lifted
    #: from two calls of it on one line: ``width < 0 or height < 0``)
    either: str = " or "
    #: how its code starts a comment to the line's end, and ends a statement
    #: (an example fix's before/after lines)
    line_comment: str = "//"
    statement_end: str = ";"
    #: the verb for throwing an exception of a class ("raises", "throws"); ""
    #: for a language whose errors are values returned ("returns an error")
    throws_word: str = ""
    #: and "both conditions hold"
    both: str = " and "
    #: the traits whose methods a user calls on a type themselves (Rust's std
    #: traits: `Bytes::from(v)`): an impl of another library's trait is
    #: called by that library, on a value the repository built and handed it
    called_by_users: frozenset[str] = frozenset()
    #: what a defining site (``Runtime.defining_kinds``) defines, in a
    #: sentence ("The error variant `Error::Io` is defined at …"; Go's
    #: ``var ErrX = errors.New(…)`` is an "error value")
    defined_as: Callable[[ThrowSite], str] = _a_variant

    #: the handler a ``catches`` fact is, as the language writes it, for
    #: "calls it inside `try` … `except KeyError`" (JavaScript's ``catch``
    #: names no class: ``catch (err) { if (err instanceof X) … }``)
    catch_clause: Callable[[Fact], str] = _except_clause
    #: what the lead site's own form says about where and when it fails
    #: (Rust's ``#[track_caller]``, ``debug_assert!``, a ``const``): sentences
    #: for "what it means", each with its evidence (``path:line``)
    notes: Callable[[Any], list[tuple[str, list[str]]]] | None = None
    #: whether a definition a package re-exports is its API though the file
    #: it is in is not (Python: httpx/_client.py's ``Client.send`` is
    #: ``httpx.Client.send``), given that no part of its name is private
    #: (``name_is_public`` of each part)
    public_by_reexport: bool = False
    #: what a caller changes so that a check on their arguments passes, in
    #: plain words ("pass `name` as a `str`"), from the condition, whether
    #: the check raises when it is true, and the call's parameters it reads;
    #: None when it cannot say
    to_change: Callable[[str, bool, Sequence[str]], str | None] | None = None
    #: the name a user imports a public definition by when no package
    #: re-exports it, from its file and symbol (Python: its module's dotted
    #: path, ``attr.validators.matches_re``); None: as the symbol reads
    import_name: Callable[[str, str], str | None] = _no_import_name
    name_is_public: Callable[[str], bool] = _always
    #: the kind of value a check requires, when it is a type check
    #: (JavaScript's ``typeof handle !== 'function'``: "a function"), given
    #: the condition and whether the site fires when it is false
    type_required: Callable[[str, bool], str | None] = _no_type
    #: whether a condition holds once one of its names has a value
    #: (``self.closed`` of ``self.closed`` once ``self.closed = True``), given
    #: the condition, the name and the value as written; None when it cannot say
    holds_with: Callable[[str, str, str], bool | None] = _cannot_say
    #: the name a user wrote when the public call is a hook the language
    #: runs on an attribute it does not find (Python's module ``__getattr__``:
    #: ``click.BaseCommand`` for ``name == "BaseCommand"``), given the call's
    #: file, its symbol and the check lifted to its parameters; else None
    attribute_used: Callable[[str, str, str], str | None] = _no_attribute
    #: whether a raise runs for the call a test makes, from its checks
    #: (kind, text) worked out on the call's literal arguments and the
    #: function's defaults (rich's ``Align("foo", "middle")`` fails
    #: ``align not in (…)``); None when that cannot be worked out, or the
    #: language has no such evaluator
    fires_on_call: FiresOnCall | None = None


@dataclass(frozen=True, slots=True)
class Language:
    """What the core knows about one language: how to read its files, and
    (each with defaults that fit a language without such a thing) its
    runtime, its pastes, its projects and its pages.

    ``name`` is what a ``ThrowSite.language`` holds (lower case, stable: it
    is stored); ``package`` is the Python package its ``queries`` (``.scm``
    files, read with importlib.resources) live in.
    """

    name: str
    #: file name endings it reads (".py")
    extensions: tuple[str, ...]
    #: the tree-sitter grammar: a function returning the language capsule
    #: (``tree_sitter_python.language``)
    grammar: Callable[[], object]
    package: str
    #: the queries of one walk of a file's tree: the extractor's and the
    #: scan's (``grammars.captures``)
    queries: tuple[str, ...]
    parse: Callable[[str], Tree]
    extract: Extractor
    #: the evidence one file gives the analysis
    scan: Scanner
    #: the kinds of throw site its extractor gives
    kinds: tuple[str, ...]
    runtime: Runtime = Runtime()
    paste: Paste = Paste()
    project: Project = Project()
    pages: Pages = Pages()
