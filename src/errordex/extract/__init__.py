"""Extractors: source text in, throw sites out. Pure functions, no I/O.

Each language's extractor is its ``Language.extract`` (see
``errordex.language``), with ``Language.parse`` to parse a file once for
extraction and evidence; the languages are the registered ones
(``errordex.plugins``). Adding a language means adding a package, not a
line here.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Tree

from errordex import plugins
from errordex.language import Extractor

__all__ = ["Extractor", "Parse", "extractor_for", "extractors", "parser_for"]

Parse = Callable[[str], Tree]


def extractors() -> dict[str, tuple[str, Extractor]]:
    """Map a file extension to (language, extract function)."""
    return {
        ext: (lang.name, lang.extract)
        for lang in plugins.languages().values()
        for ext in lang.extensions
    }


def extractor_for(path: str) -> tuple[str, Extractor] | None:
    lang = plugins.for_path(path)
    return (lang.name, lang.extract) if lang is not None else None


def parser_for(path: str) -> tuple[str, Extractor, Parse] | None:
    """(language, extract, parse) for a path, to parse a file once and share the tree."""
    lang = plugins.for_path(path)
    return (lang.name, lang.extract, lang.parse) if lang is not None else None
