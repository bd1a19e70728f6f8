"""Python: everything errordex knows about it, registered as one ``Language``
(the ``errordex.languages`` entry point ``python`` names this module)."""

from __future__ import annotations

from collections.abc import Callable

import tree_sitter_python

from errordex import classmsg
from errordex.hookspecs import hookimpl
from errordex.language import Language, Pages, Paste, Project, Runtime
from errordex.languages.python import (
    advice,
    clickpaste,
    doctests,
    evaluate,
    extract,
    fields,
    fixes,
    paste,
    printed,
    runtime,
    scan,
    signature,
    words,
)

PYTHON = Language(
    name="python",
    extensions=(".py",),
    grammar=tree_sitter_python.language,
    package=__name__,
    queries=("extract.scm", "forward.scm", "scan.scm"),
    parse=extract.parse,
    extract=extract.extract,
    scan=scan.scan,
    kinds=("raise", "assert", "exception-message", *printed.KINDS),
    runtime=Runtime(
        title="Python",
        innermost_last=True,
        message_line=runtime.message_line,
        printed_form=runtime.printed_form,
        printed_type=runtime.qualified_exception,
        raise_kind="raise",
        class_messages=classmsg.class_messages,
        interpreter_form=runtime.runtime_form,
        interpreter_types=runtime.interpreter_types,
        builtin_classes=runtime.builtin_classes,
        runtime_frame=runtime.runtime_frame,
        unexpected_keyword=signature.unexpected_keyword,
        signature=signature.parameters,
        formatted=fields.fields,
    ),
    paste=Paste(
        finders=(paste.find, clickpaste.find),
        claims_plain=True,
        split_typed=paste.split_exception_line,
        typed_error=paste.typed_error,
    ),
    project=Project(
        test_dirs=("tests", "test", "testing"),
        is_test_file=runtime.is_test_file,
        doc_examples=doctests.examples,
    ),
    pages=Pages(
        line_comment="#",
        statement_end="",
        throws_word="raises",
        lexer="python",
        parses=scan.parses,
        identifiers=scan.identifiers,
        bindings=scan.bindings,
        words=words.PY_WORDS,
        what=fixes.what,
        example_fix=fixes.example_fix,
        defences=fixes.defences,
        module_files=fixes.module_files,
        public_by_reexport=True,
        to_change=advice.to_change,
        holds_with=advice.holds_with,
        attribute_used=runtime.attribute_used,
        fires_on_call=evaluate.fires_on_call,
        name_is_public=scan.public_name,
        import_name=runtime.import_name,
    ),
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(PYTHON)
