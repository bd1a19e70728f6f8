"""The tree-sitter grammars errordex reads: each registered language's
(``Language.grammar``, from its official wheel). Each language, parser and
query is built once per process, on first use (never at import time), and
shared by the extractors and the analysis.

The queries of a language (``Language.queries``) are read from one walk of
a file's tree: the extractor's and the evidence scan's. A capture name that
appears in more than one of them must name the same pattern in each
(captures are sets).
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

from errordex import plugins

Captures = dict[str, list[Node]]


@cache
def language(name: str) -> Language:
    return Language(plugins.get(name).grammar())


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


@cache
def _walk_query(name: str) -> Query:
    lang = plugins.get(name)
    return Query(language(name), "\n".join(query_source(lang.package, f) for f in lang.queries))


#: (tree, its captures) of the last walk
_last: tuple[Tree, Captures] | None = None


def captures(name: str, tree: Tree) -> Captures:
    """Every capture of language ``name``'s walk queries over ``tree``
    (capture name -> nodes, in no particular order).

    A query walk visits every node, at about a quarter of the parse's cost
    whatever it looks for, so the extractor and the scan of a file share
    one: the last tree's captures are kept (the tree with them, so it is
    the same tree). Callers must not change the lists.
    """
    global _last
    last = _last
    if last is not None and last[0] is tree:
        return last[1]
    got: Captures = QueryCursor(_walk_query(name)).captures(tree.root_node)
    _last = (tree, got)
    return got
