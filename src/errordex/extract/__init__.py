"""Extractors: source text in, throw sites out. Pure functions, no I/O.

Each language has one module here exposing::

    LANGUAGE: str                      # "rust"
    EXTENSIONS: tuple[str, ...]        # (".rs",)
    def parse(text: str) -> Tree
    def extract(path: str, text: str, tree: Tree | None = None) -> Extraction

(``tree`` is ``parse(text)`` when the caller has it already, so a file is
parsed once for extraction and evidence) and keeps its tree-sitter queries
in ``.scm`` files beside it. Adding a language means adding a module and
listing it in ``_MODULES``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Protocol

from tree_sitter import Tree

from errordex.model import Extraction


class Extractor(Protocol):
    def __call__(self, path: str, text: str, tree: Tree | None = None, /) -> Extraction: ...


Parse = Callable[[str], Tree]

_MODULES = ("errordex.languages.rust.extract", "errordex.languages.python.extract")


@cache
def extractors() -> dict[str, tuple[str, Extractor]]:
    """Map a file extension to (language, extract function)."""
    return {ext: (lang, ex) for ext, (lang, ex, _) in _table().items()}


@cache
def _table() -> dict[str, tuple[str, Extractor, Parse]]:
    table: dict[str, tuple[str, Extractor, Parse]] = {}
    for name in _MODULES:
        try:
            mod = importlib.import_module(name)
        except ImportError:  # a language whose extractor is not written yet
            continue
        for ext in mod.EXTENSIONS:
            table[ext] = (mod.LANGUAGE, mod.extract, mod.parse)
    return table


def extractor_for(path: str) -> tuple[str, Extractor] | None:
    dot = path.rfind(".")
    if dot < 0:
        return None
    return extractors().get(path[dot:])


def parser_for(path: str) -> tuple[str, Extractor, Parse] | None:
    """(language, extract, parse) for a path, to parse a file once and share the tree."""
    dot = path.rfind(".")
    if dot < 0:
        return None
    return _table().get(path[dot:])
