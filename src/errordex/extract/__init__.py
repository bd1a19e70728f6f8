"""Extractors: source text in, throw sites out. Pure functions, no I/O.

Each language has one module here exposing::

    LANGUAGE: str                      # "rust"
    EXTENSIONS: tuple[str, ...]        # (".rs",)
    def extract(path: str, text: str) -> Extraction

and keeps its tree-sitter queries in ``.scm`` files beside it. Adding a
language means adding a module and listing it in ``_MODULES``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache

from errordex.model import Extraction

Extractor = Callable[[str, str], Extraction]

_MODULES = ("rust", "python")


@cache
def extractors() -> dict[str, tuple[str, Extractor]]:
    """Map a file extension to (language, extract function)."""
    table: dict[str, tuple[str, Extractor]] = {}
    for name in _MODULES:
        try:
            mod = importlib.import_module(f"{__name__}.{name}")
        except ImportError:  # a language whose extractor is not written yet
            continue
        for ext in mod.EXTENSIONS:
            table[ext] = (mod.LANGUAGE, mod.extract)
    return table


def extractor_for(path: str) -> tuple[str, Extractor] | None:
    dot = path.rfind(".")
    if dot < 0:
        return None
    return extractors().get(path[dot:])
