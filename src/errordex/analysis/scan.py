"""``scan``: the evidence one file gives, computed beside extraction (pure)."""

from __future__ import annotations

from tree_sitter import Tree

from errordex import plugins
from errordex.analysis.evidence import FileEvidence


def scan(path: str, text: str, language: str, tree: Tree | None = None) -> FileEvidence:
    """Evidence in one file of ``language`` (a registered language's name).
    Unknown languages give empty evidence. ``tree`` is the file's
    tree-sitter parse, if the caller has it (it is parsed otherwise)."""
    lang = plugins.find(language)
    if lang is not None:
        return lang.scan(path, text, tree)
    return FileEvidence(path=path, language=language, n_lines=len(text.splitlines()))
