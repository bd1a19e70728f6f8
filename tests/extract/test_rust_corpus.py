"""The Rust extractor over real crates nobody here wrote (Debian's sources).

Two checks per crate: every site points at its throw statement and its
literal text is in the source there; and a plain grep for the obvious forms
finds nothing the extractor missed (recall of at least 99%).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from errordex.languages.rust import extract as rust
from errordex.model import ThrowSite

REGISTRY = Path("/usr/share/cargo/registry")
CRATES = ("regex", "semver", "anyhow", "clap", "thiserror")

#: What the source of a site's lines must contain, by kind.
KEYWORDS = {
    "panic": ("panic",),
    "unimplemented": ("unimplemented",),
    "todo": ("todo",),
    "unreachable": ("unreachable",),
    "assert": ("assert",),
    "expect": ("expect",),
    "error-attr": ("#[error",),
    "err-return": ("Err",),
    "bail": ("bail", "ensure"),
    "anyhow": ("anyhow", "format_err"),
    "display-impl": ("write", "pad", '"', ".fmt("),
}
GREP = re.compile(r'\b(?:panic|unimplemented|todo|unreachable|bail)!\("|\.expect\("|#\[error\("')
BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
STRING = re.compile(r'(?:b|c)?r(#*)"(.*?)"\1|"((?:\\.|[^"\\])*)"', re.DOTALL)
ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|\r?\n\s*|.)")
SIMPLE = {"n": "\n", "r": "\r", "t": "\t", "0": "\0"}


def crate_dir(name: str) -> Path:
    found = sorted(REGISTRY.glob(f"{name}-[0-9]*"))
    if not found:
        pytest.skip(f"{REGISTRY}/{name}-* is not installed (make test installs librust-{name}-dev)")
    return found[-1]


def crate_files(name: str) -> list[tuple[str, str]]:
    root = crate_dir(name)
    return [
        (str(f.relative_to(root)), f.read_text(encoding="utf-8", errors="replace"))
        for f in sorted(root.rglob("*.rs"))
    ]


def _unescape_one(m: re.Match[str]) -> str:
    s = m.group(1)
    if s[0] in SIMPLE:
        return SIMPLE[s[0]]
    if s[0] in "\r\n":
        return ""
    if s[0] == "x":
        return chr(int(s[1:], 16))
    if s[0] == "u":
        return chr(int(s[2:-1], 16))
    return s


def literal_text(source: str) -> str:
    """The values of the string literals in ``source``, joined, with the
    format string's doubled braces read as single ones."""
    values = []
    for m in STRING.finditer(source):
        if m.group(3) is not None:
            values.append(ESCAPE.sub(_unescape_one, m.group(3)))
        else:
            values.append(m.group(2))
    return "".join(values).replace("{{", "{").replace("}}", "}")


def site_problems(path: str, text: str, sites: tuple[ThrowSite, ...]) -> list[str]:
    lines = text.splitlines()
    problems = []
    for site in sites:
        where = f"{path}:{site.line}"
        if not 1 <= site.line <= site.end_line <= len(lines):
            problems.append(f"{where}: bad range {site.line}..{site.end_line}")
            continue
        source = "\n".join(lines[site.line - 1 : site.end_line])
        # a value built (``construct``) names its variant or type there
        words = KEYWORDS.get(site.kind) or ((site.exception_type or "?").rsplit("::", 1)[-1],)
        if not any(k in source for k in words):
            problems.append(f"{where}: no {words} in {source!r}")
        values = literal_text(source)
        for chunk in site.template.chunks():
            if chunk not in values and chunk not in source:
                problems.append(f"{where}: {chunk!r} not in the source")
    return problems


@pytest.mark.corpus
@pytest.mark.parametrize("crate", CRATES)
def test_rust_corpus_sites_match_their_source(crate: str) -> None:
    problems: list[str] = []
    total = 0
    for path, text in crate_files(crate):
        sites = rust.extract(path, text).sites
        total += len(sites)
        problems.extend(site_problems(path, text, sites))
    assert total > 0
    assert not problems, "\n".join(problems[:50])


def grep_misses(path: str, text: str, sites: tuple[ThrowSite, ...]) -> tuple[int, list[str]]:
    """(grep hits, the hits no site spans) for one file. Lines in comments
    are not code: doc examples and commented-out tests do not count."""
    hits = 0
    misses = []
    code_only = BLOCK_COMMENT.sub(lambda m: "\n" * m.group().count("\n"), text)
    for number, line in enumerate(code_only.splitlines(), 1):
        code = line.lstrip()
        if code.startswith(("//", "*")) or not GREP.search(line):
            continue
        hits += 1
        if not any(s.line <= number <= s.end_line for s in sites):
            misses.append(f"{path}:{number}: {code}")
    return hits, misses


@pytest.mark.corpus
@pytest.mark.parametrize("crate", CRATES)
def test_rust_corpus_recall_against_grep_is_at_least_99_percent(crate: str) -> None:
    hits = 0
    misses: list[str] = []
    for path, text in crate_files(crate):
        n, missed = grep_misses(path, text, rust.extract(path, text).sites)
        hits += n
        misses.extend(missed)
    assert hits > 0 or crate == "thiserror"
    assert len(misses) <= hits * 0.01, f"{len(misses)} of {hits} grep hits missed:\n" + "\n".join(
        misses
    )
