"""The JavaScript/TypeScript extractor over real npm packages nobody here
wrote (express, yargs and zod, whose package ships its TypeScript sources).

A plain grep for the literal forms (``throw new X('…')``, ``throw X(`…`)``)
finds nothing the extractor missed: recall of at least 99% per package, over
a floor of hits so that an empty corpus cannot pass. And every site points
at a throw statement (or the ``new`` it throws) whose literal text it holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from errordex import plugins
from errordex.languages.javascript import msg
from errordex.model import Extraction
from tests.npm_corpus import package

pytestmark = pytest.mark.corpus

#: ``throw new X('…``, ``throw X(`…``: a literal message, on the throw's line
GREP = re.compile(r"""\bthrow\s+(?:new\s+)?[A-Z][\w.$]*\(\s*(['"`])((?:\\.|(?!\1)[^\\$])*)""")
SOURCES = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx")
#: (package, directory in it, least grep hits), one TypeScript source tree among them
CORPORA = (
    ("express", "lib", 15),
    ("yargs", "build", 15),
    ("zod", "v4", 100),
    ("zod", "src", 60),
)

Extract = Callable[[str, str], Extraction]


def files(root: Path) -> Iterator[tuple[str, str]]:
    for f in sorted(root.rglob("*")):
        inside = "node_modules" in f.relative_to(root).parts
        if f.is_file() and f.name.endswith(SOURCES) and not f.name.endswith(".d.ts") and not inside:
            yield str(f.relative_to(root)), f.read_text(encoding="utf-8", errors="replace")


def _extract(path: str, text: str) -> Extraction:
    lang = plugins.for_path(path)
    assert lang is not None, path
    return lang.extract(path, text)


def recall(root: Path, extract: Extract = _extract) -> tuple[int, int, list[str]]:
    """(grep hits, hits with a site on their line holding their text, the misses)."""
    hits = found = 0
    misses: list[str] = []
    for path, text in files(root):
        by_line: dict[int, list[str]] = {}
        for s in extract(path, text).sites:
            by_line.setdefault(s.line, []).append(s.template.display())
        for i, line in enumerate(text.splitlines(), 1):
            if line.lstrip().startswith(("//", "*", "/*")):
                continue
            left = list(by_line.get(i, ()))  # a minified line holds many throws
            for m in GREP.finditer(line):
                hits += 1
                head = msg.unescape(m.group(2)).split("${", 1)[0].strip()
                got = next((t for t in left if head in t), None)
                if got is not None:
                    left.remove(got)
                    found += 1
                else:
                    misses.append(f"{path}:{i}: {m.group(0)[:120]}")
    return hits, found, misses


@pytest.mark.parametrize(
    ("name", "under", "least"), CORPORA, ids=[f"{n}/{u}" for n, u, _ in CORPORA]
)
def test_literal_throws_are_found_in_real_npm_packages_recall_99(
    name: str, under: str, least: int
) -> None:
    hits, found, misses = recall(package(name) / under)
    assert hits >= least, f"only {hits} grep hits in {name}/{under}: is the package installed?"
    assert found / hits >= 0.99, f"recall {found}/{hits}; missed:\n" + "\n".join(misses[:20])


def test_recall_counts_a_site_the_extractor_drops_as_missed() -> None:
    """The measure can fail: an extractor that loses every other site is below 99%."""

    def lossy(path: str, text: str) -> Extraction:
        got = _extract(path, text)
        return Extraction(sites=got.sites[::2], classes=got.classes)

    hits, found, _ = recall(package("express") / "lib", lossy)
    assert hits >= 15 and found / hits < 0.99


KEYWORDS = {
    "throw": ("throw", "new "),
    "reject": ("Promise.reject",),
    "assert": ("assert",),
    "new-error": ("new ",),
}


@pytest.mark.parametrize(
    ("name", "under", "least"), CORPORA, ids=[f"{n}/{u}" for n, u, _ in CORPORA]
)
def test_every_site_is_at_its_throw_statement(name: str, under: str, least: int) -> None:
    n = 0
    for path, text in files(package(name) / under):
        lines = text.splitlines()
        for s in _extract(path, text).sites:
            n += 1
            here = "\n".join(lines[s.line - 1 : s.end_line])
            assert any(k in here for k in KEYWORDS[s.kind]), (
                f"{path}:{s.line} {s.kind}: {here[:80]}"
            )
            for chunk in s.template.chunks():
                # a message read from a const elsewhere in the file is not on the line
                assert chunk.strip() in text or "\\" in here, f"{path}:{s.line}: {chunk!r}"
    assert n >= least
