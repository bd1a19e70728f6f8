"""The Python extractor over real code nobody here wrote.

PyPI packages installed in the venv (click, jinja2, pydantic, starlette)
and the running interpreter's stdlib (json, argparse). Two checks per
package: every site points at its raise/assert statement and its literal
text is in the source there; and a plain grep for the obvious
``raise Name("...")`` forms finds nothing the extractor missed (recall of at
least 99%).
"""

from __future__ import annotations

import importlib.util
import io
import re
import tokenize
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from errordex.languages.python import extract as python
from errordex.languages.python import printed
from errordex.model import Extraction, ThrowSite

pytestmark = pytest.mark.corpus

PACKAGES = ("click", "jinja2", "pydantic", "starlette", "json", "argparse")

#: A plain grep for the forms the extractor must never miss.
GREP = re.compile(r"""\braise\s+[A-Za-z_][\w.]*\(\s*(?:[rR]?[fF][rR]?)?["']""")
#: Where a literal message argument starts: right after ``raise Name(``,
#: after the comma of an assert, or first in a printed error's call.
LITERAL_ARG = {
    "raise": re.compile(r"""\braise\s+[\w.]+\(\s*[rRuUfF]{0,2}["']"""),
    "assert": re.compile(r""",\s*\(?\s*[rRuUfF]{0,2}["']"""),
    "call": re.compile(r"""\(\s*[rRuUfF]{0,2}["']"""),
}
#: The call a printed-error site points at: ``warnings.warn(``, ``sys.exit(``...
PRINTED_CALLEE = re.compile(r"[A-Za-z_][\w.]*\(")
#: How far above a site a local variable holding its message may be.
NEARBY = 80
#: The seam between two implicitly concatenated literals.
SEAM = re.compile(r"""["']\s+[rRuUfF]{0,2}["']""")
#: Words of a literal chunk: runs of letters and digits, which the source
#: writes as they are (punctuation may be escaped, or split between a
#: raise's argument and the message its exception class builds around it).
WORD = re.compile(r"\w+")


@cache
def package_files(name: str) -> tuple[tuple[str, str], ...]:
    """(path relative to site-packages or the stdlib, text) of every .py file."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        pytest.skip(f"{name} is not installed (make test installs the test extra)")
    origin = Path(spec.origin)
    root = origin.parent.parent if origin.name == "__init__.py" else origin.parent
    files = sorted(origin.parent.rglob("*.py")) if origin.name == "__init__.py" else [origin]
    return tuple(
        (str(f.relative_to(root)), f.read_text(encoding="utf-8", errors="replace")) for f in files
    )


@cache
def extracted(name: str) -> tuple[tuple[str, str, Extraction], ...]:
    return tuple((path, text, python.extract(path, text)) for path, text in package_files(name))


def site_problem(site: ThrowSite, text: str, lines: list[str], holders: set[str]) -> str | None:
    """Why a site does not match its source, or None when it does."""
    first = lines[site.line - 1]
    statement = "\n".join(lines[site.line - 1 : site.end_line])
    if site.kind in ("raise", "assert"):
        if not first[site.column - 1 :].startswith(site.kind):
            return f"line does not start a {site.kind} at column {site.column}: {first.strip()!r}"
    elif site.kind == "exception-message":
        # a table's entry (``"key": "text"``) or a class attribute (``description = "text"``)
        if not any(c in statement for c in ":=") or not any(q in statement for q in "'\""):
            return f"not a dict entry or class attribute: {first.strip()!r}"
    elif site.kind in printed.KINDS:
        callee = PRINTED_CALLEE.match(first[site.column - 1 :])
        if callee is None:
            return f"line does not start a call at column {site.column}: {first.strip()!r}"
    else:
        return f"unknown kind {site.kind}"
    pattern = LITERAL_ARG.get("call" if site.kind in printed.KINDS else site.kind)
    literal_arg = pattern is None or pattern.search(statement) is not None
    # An exception class of this file that holds or builds the message.
    literal_arg = literal_arg and site.exception_type not in holders
    # a class attribute's message is shown through its base's format
    literal_arg = literal_arg and site.kind != "exception-message"
    joined = SEAM.sub("", statement)
    # A chunk may come from a local variable assigned earlier in the function.
    nearby = "\n".join(lines[max(0, site.line - 1 - NEARBY) : site.end_line])
    for chunk in site.template.chunks():
        for word in WORD.findall(chunk):
            if word in statement or word in joined or word in nearby:
                continue
            # A message held by a local variable, a module constant or the
            # exception class: the text is elsewhere in the file.
            if not literal_arg and word in text:
                continue
            return f"{word!r} of {chunk!r} is not in the statement {statement.strip()[:200]!r}"
    return None


@pytest.mark.parametrize("name", PACKAGES)
def test_sites_point_at_their_statement_and_text(name: str) -> None:
    problems: list[str] = []
    count = 0
    for path, text, found in extracted(name):
        lines = text.split("\n")
        holders = {c.name for c in found.classes if c.message is not None}
        for site in found.sites:
            count += 1
            problem = site_problem(site, text, lines, holders)
            if problem:
                problems.append(f"{path}:{site.line}: {problem}")
    assert count > 0, f"no sites found in {name}"
    assert not problems, f"{len(problems)} of {count} sites are wrong:\n" + "\n".join(problems[:40])


def in_string(text: str) -> Callable[[int, int], bool]:
    """Whether (line, column) lies inside a string literal, by the stdlib
    tokenizer: a grep hit in a docstring or in generated code is not a raise."""
    spans: list[tuple[tuple[int, int], tuple[int, int]]] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.STRING:
                spans.append((tok.start, tok.end))
    except (tokenize.TokenError, SyntaxError):
        pass
    return lambda line, col: any(a <= (line, col) < b for a, b in spans)


@pytest.mark.parametrize("name", PACKAGES)
def test_grep_forms_are_found_recall_at_least_99_percent(name: str) -> None:
    hits = 0
    misses: list[str] = []
    for path, text, found in extracted(name):
        starts = {s.line for s in found.sites}
        inside = in_string(text)
        for number, line in enumerate(text.split("\n"), 1):
            hit = GREP.search(line)
            if hit and not inside(number, hit.start()):
                hits += 1
                if number not in starts:
                    misses.append(f"{path}:{number}: {line.strip()}")
    assert hits > 0, f"grep found nothing in {name}"
    assert len(misses) <= hits // 100, f"missed {len(misses)} of {hits} grep hits:\n" + "\n".join(
        misses[:40]
    )
