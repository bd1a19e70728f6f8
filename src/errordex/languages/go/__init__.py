"""Go: everything errordex knows about it, registered as one ``Language``
(the ``errordex.languages`` entry point ``go`` names this module)."""

from __future__ import annotations

from collections.abc import Callable

import tree_sitter_go

from errordex.hookspecs import hookimpl
from errordex.language import Language, Pages, Paste, Project, Runtime
from errordex.languages.go import extract, fixes, gomod, paste, runtime, scan, words

GO = Language(
    name="go",
    extensions=(".go",),
    grammar=tree_sitter_go.language,
    package=__name__,
    queries=("extract.scm", "scan.scm"),
    parse=extract.parse,
    extract=extract.extract,
    scan=scan.scan,
    kinds=extract.KINDS,
    runtime=Runtime(
        title="Go",
        error_word="error",
        innermost_last=False,
        message_line=runtime.message_line,
        printed_form=runtime.printed_form,
        panic_kinds=runtime.PANICS,
        library_panic=runtime.go_runtime_panic,
        library_failure="an index, a slice, a nil pointer dereference, a nil map or a type"
        " assertion on that line",
        ran_version=runtime.ran_version,
        value_kind=extract.RETURN,
        defining_kinds=extract.DEFINING,
        class_messages=extract.class_messages,
    ),
    paste=Paste(finders=(paste.find_go,), fallbacks=(paste.find_go_log, paste.find_printed)),
    project=Project(
        test_dirs=("testdata",),
        is_test_file=runtime.is_test_file,
        manifests=("go.mod",),
        read_manifest=gomod.read_manifest,
    ),
    pages=Pages(
        statement_end="",
        lexer="go",
        parses=scan.parses,
        identifiers=scan.identifiers,
        words=words.GO_WORDS,
        what=fixes.what,
        notes=fixes.notes,
        example_fix=fixes.example_fix,
        defined_as=fixes.defined_as,
        # Go has no keyword arguments: `Parse(s)`
        call_arguments=", ".join,
        either=" || ",
        both=" && ",
    ),
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(GO)
