"""One query walk per file, shared by the extractor and the evidence scan."""

from __future__ import annotations

import argparse
import inspect
from pathlib import Path

import pytest
import tree_sitter as ts

from errordex import grammars, plugins
from errordex.analysis import scan
from errordex.languages.python import extract as python

CASES = Path(__file__).parent / "rust" / "cases"
#: code with every construct the walk queries look for
SAMPLES = {
    "python": [Path(argparse.__file__), Path(inspect.__file__)],
    "rust": sorted(CASES.glob("*.rs")),
}


def _spans(nodes: list[ts.Node]) -> set[tuple[int, int, str]]:
    return {(n.start_byte, n.end_byte, n.type) for n in nodes}


@pytest.mark.parametrize("language", sorted(SAMPLES))
def test_walk_gives_each_query_its_own_captures(language: str) -> None:
    """A capture name shared by two .scm files of a walk must mean the same
    nodes in each, or one reader would see the other's captures."""
    seen: set[str] = set()
    lang = plugins.get(language)
    for path in SAMPLES[language]:
        tree = grammars.parser(language).parse(path.read_bytes())
        walked = grammars.captures(language, tree)
        for filename in lang.queries:
            own = ts.QueryCursor(grammars.query(language, lang.package, filename)).captures(
                tree.root_node
            )
            if own:
                seen.add(filename)
            for name, nodes in own.items():
                assert _spans(walked[name]) == _spans(nodes), (path.name, filename, name)
    assert seen == set(lang.queries)


def test_extract_and_scan_of_a_tree_walk_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    walks: list[ts.Node] = []

    class Counting:
        def __init__(self, query: ts.Query) -> None:
            self.cursor = ts.QueryCursor(query)

        def captures(self, node: ts.Node) -> grammars.Captures:
            walks.append(node)
            return self.cursor.captures(node)

    monkeypatch.setattr(grammars, "QueryCursor", Counting)
    text = Path(argparse.__file__).read_text(encoding="utf-8")
    tree = python.parse(text)
    extraction = python.extract("argparse.py", text, tree)
    evidence = scan("argparse.py", text, "python", tree)
    assert extraction.sites and evidence.functions
    assert len(walks) == 1
    # another tree of the same text is walked again: captures belong to a tree
    python.extract("argparse.py", text, python.parse(text))
    assert len(walks) == 2
