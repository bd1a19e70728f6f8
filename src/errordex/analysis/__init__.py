"""Grounded analysis: facts the code proves, and page sections written from them.

    scan(path, text, language) -> FileEvidence      per file, in the extraction worker
    analyse(entries, evidence, packages, classes, repo) -> {entry id: Analysis}
    verify(...)                                      re-checks a stored analysis

Everything here is pure, text and values in and frozen values out, but for
the scratch files of one index run: the calls written on one line wait in an
unlinked temp file (``calltexts.CallTexts``) that the ``Index`` reads back.
"""

from __future__ import annotations

from errordex.analysis.analyse import analyse, facts_json, referenced_paths
from errordex.analysis.evidence import FileEvidence
from errordex.analysis.scan import scan
from errordex.analysis.write import Analysis

__all__ = ["Analysis", "FileEvidence", "analyse", "facts_json", "referenced_paths", "scan"]
