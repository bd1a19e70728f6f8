"""The tree-sitter grammars errordex reads, from the official per-language
wheels. Each language, parser and query is built once per process, on first
use (never at import time), and shared by the extractors and the analysis.

    >>> parser("python").parse(b"raise ValueError('x')").root_node.type
    'module'
"""

from __future__ import annotations

from functools import cache
from importlib import import_module, resources

from tree_sitter import Language, Parser, Query

_WHEELS = {"python": "tree_sitter_python", "rust": "tree_sitter_rust"}


@cache
def language(name: str) -> Language:
    return Language(import_module(_WHEELS[name]).language())


@cache
def parser(name: str) -> Parser:
    return Parser(language(name))


def query_source(package: str, filename: str) -> str:
    """The text of a ``.scm`` file that lives beside a module."""
    return resources.files(package).joinpath(filename).read_text(encoding="utf-8")


@cache
def query(name: str, package: str, filename: str) -> Query:
    """The query in ``package/filename`` for language ``name``."""
    return Query(language(name), query_source(package, filename))
