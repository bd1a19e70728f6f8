"""JavaScript and TypeScript: everything errordex knows about them, registered
as three ``Language`` values that share their code and differ in grammar:
``javascript`` (.js .mjs .cjs .jsx), ``typescript`` (.ts .mts .cts) and
``tsx`` (.tsx), from the official tree-sitter-javascript and
tree-sitter-typescript wheels (the ``errordex.languages`` entry point
``javascript`` names this module)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import tree_sitter_javascript
import tree_sitter_typescript
from tree_sitter import Tree

from errordex.analysis.evidence import FileEvidence
from errordex.hookspecs import hookimpl
from errordex.language import Language, Pages, Paste, Project, Runtime
from errordex.languages.javascript import classes, extract, pages, paste, runtime, scan, words
from errordex.model import Extraction


def _parse_js(text: str) -> Tree:
    return extract.parse_as("javascript", text)


def _parse_ts(text: str) -> Tree:
    return extract.parse_as("typescript", text)


def _parse_tsx(text: str) -> Tree:
    return extract.parse_as("tsx", text)


def _extract_js(path: str, text: str, tree: Tree | None = None, /) -> Extraction:
    return extract.extract_as("javascript", path, text, tree)


def _extract_ts(path: str, text: str, tree: Tree | None = None, /) -> Extraction:
    return extract.extract_as("typescript", path, text, tree)


def _extract_tsx(path: str, text: str, tree: Tree | None = None, /) -> Extraction:
    return extract.extract_as("tsx", path, text, tree)


def _scan_js(path: str, text: str, tree: Tree | None = None, /) -> FileEvidence:
    return scan.scan_as("javascript", path, text, tree)


def _scan_ts(path: str, text: str, tree: Tree | None = None, /) -> FileEvidence:
    return scan.scan_as("typescript", path, text, tree)


def _scan_tsx(path: str, text: str, tree: Tree | None = None, /) -> FileEvidence:
    return scan.scan_as("tsx", path, text, tree)


JAVASCRIPT = Language(
    name="javascript",
    extensions=(".js", ".mjs", ".cjs", ".jsx"),
    grammar=tree_sitter_javascript.language,
    package=__name__,
    queries=("walk.scm",),
    parse=_parse_js,
    extract=_extract_js,
    scan=_scan_js,
    kinds=extract.KINDS,
    runtime=Runtime(
        title="JavaScript",
        innermost_last=False,
        message_line=runtime.message_line,
        printed_form=runtime.printed_form,
        raise_kind="throw",
        value_kind="new-error",
        class_messages=classes.class_messages,
        builtin_classes=runtime.builtin_classes,
        shared_names=runtime.SHARED_NAMES,
        interpreter_form=runtime.runtime_form,
    ),
    paste=Paste(finders=(paste.find,)),
    project=Project(
        test_dirs=("test", "tests", "__tests__", "__mocks__"),
        is_test_file=runtime.is_test_file,
    ),
    pages=Pages(
        throws_word="throws",
        lexer="javascript",
        parses=pages.parses_js,
        identifiers=pages.identifiers_js,
        words=words.JS_WORDS,
        what=pages.what,
        example_fix=pages.example_fix,
        defences=pages.defences,
        notes=pages.notes,
        catch_clause=pages.catch_clause,
        call_arguments=", ".join,
        type_required=pages.type_required,
    ),
)

TYPESCRIPT = replace(
    JAVASCRIPT,
    name="typescript",
    extensions=(".ts", ".mts", ".cts"),
    grammar=tree_sitter_typescript.language_typescript,
    queries=("walk.scm", "ts.scm"),
    parse=_parse_ts,
    extract=_extract_ts,
    scan=_scan_ts,
    paste=Paste(),  # node's output is read once, as JavaScript's
    project=Project(),  # JavaScript's test layout already holds for every language
    pages=replace(
        JAVASCRIPT.pages,
        lexer="typescript",
        parses=pages.parses_ts,
        identifiers=pages.identifiers_ts,
    ),
)

TSX = replace(
    TYPESCRIPT,
    name="tsx",
    extensions=(".tsx",),
    grammar=tree_sitter_typescript.language_tsx,
    parse=_parse_tsx,
    extract=_extract_tsx,
    scan=_scan_tsx,
    pages=replace(TYPESCRIPT.pages, parses=pages.parses_tsx, identifiers=pages.identifiers_tsx),
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(JAVASCRIPT)
    register(TYPESCRIPT)
    register(TSX)
