"""Rust: everything errordex knows about it, Cargo.toml included, registered
as one ``Language`` (the ``errordex.languages`` entry point ``rust`` names
this module)."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

import tree_sitter_rust

from errordex.hookspecs import hookimpl
from errordex.language import Language
from errordex.languages.rust import cargo, extract, fixes, paste, runtime, scan, words

RUST = Language(
    name="rust",
    extensions=(".rs",),
    grammar=tree_sitter_rust.language,
    package=__name__,
    queries=("extract.scm", "scan.scm"),
    parse=extract.parse,
    extract=extract.extract,
    scan=scan.scan,
    kinds=(
        "panic",
        "unimplemented",
        "unreachable",
        "todo",
        "assert",
        "expect",
        "error-attr",
        "err-return",
        "bail",
        "anyhow",
        "display-impl",
    ),
    parses=scan.parses,
    title="Rust",
    error_word="panic",
    library_failure="an `unwrap()`, `expect()`, index or arithmetic check on that line",
    lexer="rust",
    innermost_last=False,
    test_dirs=("tests", "benches", "examples"),
    is_test_file=runtime.is_test_file,
    manifests=("Cargo.toml",),
    read_manifest=cargo.read_manifest,
    message_line=runtime.message_line,
    printed_form=runtime.printed_form,
    bare_messages=MappingProxyType(runtime.BARE),
    bare_key=runtime.bare_key,
    library_panic=runtime.rust_runtime_panic,
    ran_version=runtime.ran_version,
    panic_kinds=frozenset({"panic", "unimplemented", "todo", "unreachable", "assert", "expect"}),
    reads_callers=True,
    what=fixes.what,
    example_fix=fixes.example_fix,
    defences=fixes.defences,
    paste_finders=(paste.find,),
    paste_fallbacks=(paste.find_main_error,),
    words=words.RUST_WORDS,
    identifiers=scan.identifiers,
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(RUST)
