"""The Go extractor over real packages nobody here wrote (Debian's
golang-*-dev sources, under /usr/share/gocode/src).

Two checks per package: every site with literal text has that text in the
source at its line; and a plain grep for the literal forms
(``errors.New("…")``, ``fmt.Errorf("…")``, ``panic("…")``) finds nothing the
extractor missed (recall of at least 99%, over all packages and each one).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from errordex.languages.go import extract as go
from errordex.languages.go.fmt import unquote
from errordex.model import Extraction

GOCODE = Path("/usr/share/gocode/src")
#: import path -> Debian package (the Makefile's DEB_TEST_PACKAGES installs them)
PACKAGES = {
    "github.com/pkg/errors": "golang-github-pkg-errors-dev",
    "github.com/spf13/pflag": "golang-github-spf13-pflag-dev",
    "gopkg.in/yaml.v3": "golang-gopkg-yaml.v3-dev",
    "github.com/google/uuid": "golang-github-google-uuid-dev",
}
#: the literal forms, at the start of a call (not in a comment)
GREP = re.compile(r'(?<![\w.])(?:errors\.New|fmt\.Errorf|panic)\((?:"|`)')
STRING = re.compile(r'"((?:\\.|[^"\\])*)"|`([^`]*)`', re.DOTALL)
MIN_RECALL = 0.99


def package_files(ipath: str) -> list[tuple[str, str]]:
    root = GOCODE / ipath
    if not root.is_dir():
        pytest.skip(f"{root} is not installed (make test installs {PACKAGES[ipath]})")
    return [
        (str(f.relative_to(root)), f.read_text(encoding="utf-8", errors="replace"))
        for f in sorted(root.rglob("*.go"))
    ]


def grep_lines(text: str) -> set[int]:
    """Lines (1-based) where grep finds a literal form, comment lines aside."""
    return {
        i
        for i, line in enumerate(text.splitlines(), 1)
        if GREP.search(line) and not line.lstrip().startswith("//")
    }


def recall(
    files: list[tuple[str, str]], extract: Callable[[str, str], Extraction] = go.extract
) -> tuple[int, int, list[str]]:
    """(grep hits, hits the extractor found, the misses as path:line)."""
    hits = found = 0
    missed: list[str] = []
    for path, text in files:
        sites = extract(path, text).sites
        covered = {ln for s in sites for ln in range(s.line, s.end_line + 1)}
        for line in sorted(grep_lines(text)):
            hits += 1
            if line in covered:
                found += 1
            else:
                missed.append(f"{path}:{line}")
    return hits, found, missed


def test_go_recall_against_grep_is_at_least_99_percent() -> None:
    total = found = 0
    missed: list[str] = []
    for ipath in PACKAGES:
        h, f, m = recall(package_files(ipath))
        assert h > 0, f"grep found no literal form in {ipath}"
        assert f / h >= MIN_RECALL, f"{ipath}: {f}/{h} found; missed {m[:10]}"
        total, found, missed = total + h, found + f, missed + [f"{ipath}/{x}" for x in m]
    assert total >= 90  # the four packages hold about a hundred
    assert found / total >= MIN_RECALL, f"{found}/{total}; missed {missed[:10]}"


def test_go_recall_measure_fails_when_sites_are_missed() -> None:
    """The measure can fail: an extractor that drops the sites of one kind
    (fault injection) falls below 99% on the same real files."""

    def without_panics(path: str, text: str) -> Extraction:
        got = go.extract(path, text)
        return Extraction(sites=tuple(s for s in got.sites if s.kind != "panic"))

    files = package_files("gopkg.in/yaml.v3")
    hits, found, missed = recall(files, without_panics)
    assert found / hits < MIN_RECALL
    assert any(m.endswith(".go:" + m.rsplit(":", 1)[1]) for m in missed)
    assert recall(files)[1] / hits >= MIN_RECALL


@pytest.mark.parametrize("ipath", sorted(PACKAGES))
def test_go_sites_carry_the_literal_text_of_their_lines(ipath: str) -> None:
    for path, text in package_files(ipath):
        lines = text.splitlines()
        for s in go.extract(path, text).sites:
            if s.kind == "return" or s.template.dynamic:
                continue
            source = "\n".join(lines[s.line - 1 : s.end_line])
            literals = "".join(unquote(m.group(0)) or "" for m in STRING.finditer(source)).replace(
                "%%", "%"
            )
            for chunk in s.template.chunks():
                # a wrap (`errors.Wrap(err, "msg")`) prints "msg: " before the wrapped error
                own = chunk.replace("%%", "%").removesuffix(": ")
                assert own in literals, f"{path}:{s.line} {chunk!r}"


def test_go_sentinels_and_error_types_give_their_returns_a_message() -> None:
    """uuid's ``invalidLengthError`` (its ``Error()`` message) is returned at
    two places; pkg/errors' and pflag's sentinels are returned where defined."""
    files = package_files("github.com/google/uuid")
    defs = [c for path, text in files for c in go.extract(path, text).classes]
    _, revise = go.class_messages(defs)
    returns = [
        revised
        for path, text in files
        for s in go.extract(path, text).sites
        if s.kind == "return" and (revised := revise(s)) is not None and not s.in_test
    ]
    got = sorted((s.path, s.line, s.template.display()) for s in returns)
    assert ("uuid.go", 92, "invalid UUID length: %d") in got
    assert ("uuid.go", 136, "invalid UUID length: %d") in got
