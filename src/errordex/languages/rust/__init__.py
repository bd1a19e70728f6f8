"""Rust: everything errordex knows about it, Cargo.toml included, registered
as one ``Language`` (the ``errordex.languages`` entry point ``rust`` names
this module)."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

import tree_sitter_rust

from errordex.hookspecs import hookimpl
from errordex.language import Language, Pages, Paste, Project, Runtime
from errordex.languages.rust import cargo, construct, extract, fixes, paste, runtime, scan, words

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
        "construct",
    ),
    runtime=Runtime(
        title="Rust",
        error_word="panic",
        innermost_last=False,
        message_line=runtime.message_line,
        printed_form=runtime.printed_form,
        bare_messages=MappingProxyType(runtime.BARE),
        bare_key=runtime.bare_key,
        panic_kinds=frozenset(
            {"panic", "unimplemented", "todo", "unreachable", "assert", "expect"}
        ),
        library_panic=runtime.rust_runtime_panic,
        library_failure="an `unwrap()`, `expect()`, index or arithmetic check on that line",
        ran_version=runtime.ran_version,
        runtime_frame=runtime.runtime_frame,
        value_kind=construct.KIND,
        defining_kinds=construct.DEFINING,
        class_messages=construct.class_messages,
    ),
    paste=Paste(finders=(paste.find,), fallbacks=(paste.find_main_error, paste.find_debug)),
    project=Project(
        test_dirs=("tests", "benches", "examples"),
        is_test_file=runtime.is_test_file,
        manifests=("Cargo.toml",),
        read_manifest=cargo.read_manifest,
    ),
    pages=Pages(
        lexer="rust",
        parses=scan.parses,
        identifiers=scan.identifiers,
        bindings=scan.bindings,
        words=words.RUST_WORDS,
        what=fixes.what,
        example_fix=fixes.example_fix,
        defences=fixes.defences,
        notes=fixes.notes,
        reads_callers=True,
        # Rust has no keyword arguments: `split_to(at)`, not `split_to(at=…)`
        call_arguments=", ".join,
        either=" || ",
        both=" && ",
        called_by_users=words.STD_TRAITS,
    ),
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(RUST)
