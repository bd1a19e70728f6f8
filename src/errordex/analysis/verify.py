"""Re-check a stored analysis against the snapshot it was written from (pure).

Three things must hold for every entry:

- each ``path``/``line`` (and each ``path:line`` in an ``evidence`` list)
  names a line of a file stored for that snapshot;
- each identifier in a code span (```x```) or a code block exists in the
  snapshot's code, or is a keyword/builtin of the language, or (in a code
  block) is a name the block defines itself (``let x``, ``def f(a)``);
- each feature a fact names is declared in that crate's Cargo.toml.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from errordex import plugins
from errordex.analysis.sections import parses
from errordex.model import Package

_SPAN = re.compile(r"`([^`\n]+)`")
# A string literal, with its prefix (``b'..'``, ``r".."``): a table row's input.
_STRING = re.compile(r'(?:(?<!\w)[rRbBuU]{1,2})?(?:"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\')')
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z_][A-Za-z0-9_]*)*")
_NUMBER = re.compile(r"\b\d[\w.]*")
# A “quotation” is the repo's own words (a doc line, a test's expected text),
# grounded by the line it cites; names inside it are not our claims.
_QUOTE = re.compile(r"“[^”]*”")
# A code span that names a file (`src/requests/compat.py`) is a path, not names.
_PATH = re.compile(r"^[\w.-]+(?:/[\w.-]+)*\.(?:py|rs|toml|go|js|ts)$")
_EVIDENCE = re.compile(r"^(.+):(\d+)$")

#: a manifest's file name, as a page says "add it to your `Cargo.toml`"
MANIFEST_NAMES = frozenset(
    {"Cargo.toml", "pyproject.toml", "setup.cfg", "setup.py", "package.json"}
)
TOML_WORDS = frozenset(
    ["dependencies", "version", "features", "default", "default_features", "path", "package"]
)


@dataclass(frozen=True)
class Problem:
    entry_id: str
    kind: str  # "line", "identifier", "feature", "code"
    detail: str


@dataclass
class Report:
    entries: int = 0
    lines: int = 0
    identifiers: int = 0
    features: int = 0
    #: analyses shown with sections a model wrote
    prose: int = 0
    problems: list[Problem] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "entries": self.entries,
            "checked": {
                "lines": self.lines,
                "identifiers": self.identifiers,
                "features": self.features,
            },
            "with_prose": self.prose,
            "ungrounded": len(self.problems),
            "problems": [
                {"entry": p.entry_id, "kind": p.kind, "detail": p.detail} for p in self.problems
            ],
        }


def _walk(x: Any) -> Iterable[tuple[str | None, Any, dict[str, Any] | None]]:
    """(key, value, parent dict) for every value nested in ``x``."""
    stack: list[tuple[str | None, Any, dict[str, Any] | None]] = [(None, x, None)]
    while stack:
        k, v, parent = stack.pop()
        yield k, v, parent
        if isinstance(v, dict):
            stack.extend((kk, vv, v) for kk, vv in v.items())
        elif isinstance(v, list):
            stack.extend((k, vv, parent) for vv in v)


#: a dotted name in a code span (``jinja2.lexer.TokenStreamIterator``)
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


class Verifier:
    def __init__(
        self,
        lines_of: Callable[[str], int | None],
        idents: set[str],
        packages: Iterable[Package],
    ) -> None:
        self.lines_of = lines_of
        self.packages = {p.name: p for p in packages}
        names = {n for p in self.packages.values() for n in (p.name, p.name.replace("-", "_"))}
        features = {f for p in self.packages.values() for f in p.features}
        self.known = idents | names | features
        self.report = Report()

    def check(self, entry_id: str, data: dict[str, Any], language: str) -> None:
        r = self.report
        r.entries += 1
        of = plugins.find(language)
        words = self.known | (of.pages.words if of is not None else frozenset()) | TOML_WORDS
        for key, value, parent in _walk(data):
            if isinstance(value, dict) and isinstance(value.get("path"), str) and "line" in value:
                self.line(entry_id, value["path"], value["line"])
            elif key == "evidence" and isinstance(value, str):
                m = _EVIDENCE.match(value)
                if m:
                    self.line(entry_id, m.group(1), int(m.group(2)))
            elif key == "code" and isinstance(value, str) and parent is not None:
                lang = str(parent.get("language", language))
                if not parses(value, lang):
                    r.problems.append(
                        Problem(entry_id, "code", f"does not parse as {lang}: {value[:60]!r}")
                    )
                own = _code_bindings(value, lang)
                self.tokens(entry_id, _code_idents(value, lang) - own, words, "code")
            elif (
                key == "text"
                and isinstance(value, str)
                and parent is not None
                and "provenance" in parent
            ):
                for span in _SPAN.findall(_QUOTE.sub("", value)):
                    if span in MANIFEST_NAMES:
                        continue  # "your `Cargo.toml`": the reader's file, by its name
                    # A dotted symbol can look like a file name (`instances._not_hashable.go`,
                    # a nested function `go`): without a "/", only a stored file is a path.
                    if _PATH.match(span) and ("/" in span or self.lines_of(span) is not None):
                        self.path(entry_id, span)
                        continue
                    if (
                        span in self.packages
                    ):  # a package its manifest names (Go's gopkg.in/yaml.v3)
                        self.report.identifiers += 1
                        continue
                    found = set(_TOKEN.findall(_NUMBER.sub(" ", _STRING.sub("", span))))
                    self.tokens(entry_id, found - self.module_path(span, of), words, f"`{span}`")
        for f in data.get("facts", {}).get("features", []):
            self.feature(entry_id, f["crate"], f["feature"], f["declared"])
            if not f["declared"]:
                continue
            self.feature(entry_id, f["top"]["crate"], f["top"]["feature"])
            for chain in f.get("chains", []):
                for link in chain:
                    self.feature(entry_id, link["crate"], link["feature"])

    def module_path(self, span: str, lang: Any) -> set[str]:
        """The leading names of a dotted span that are a module of the
        snapshot (``pkg.core`` of ``pkg.core.run(n=…)``, when a file of the
        snapshot defines ``pkg.core``): grounded by that file."""
        if lang is None:
            return set()
        # the call's name, or a dotted name inside it (`next(pkg.lexer.Stream)`)
        dotted = [span.split("(", 1)[0].strip(), *_DOTTED.findall(span)]
        for name in dotted:
            parts = name.split(".")
            for k in range(len(parts) - 1, 0, -1):
                files = lang.pages.module_files(".".join(parts[:k]))
                if any(self.lines_of(f) is not None for f in files):
                    return set(parts[:k])
        return set()

    def path(self, entry_id: str, path: str) -> None:
        """A file named in a code span must be a file of the snapshot."""
        self.report.lines += 1
        if self.lines_of(path) is None:
            self.report.problems.append(Problem(entry_id, "path", f"{path} is not stored"))

    def line(self, entry_id: str, path: str, line: Any) -> None:
        self.report.lines += 1
        n = self.lines_of(path)
        if n is None:
            self.report.problems.append(Problem(entry_id, "line", f"{path} is not stored"))
        elif not isinstance(line, int) or not 1 <= line <= n:
            self.report.problems.append(
                Problem(entry_id, "line", f"{path}:{line} is past the end ({n} lines)")
            )

    def tokens(
        self, entry_id: str, tokens: set[str], words: set[str] | frozenset[str], where: str
    ) -> None:
        for t in sorted(tokens):
            self.report.identifiers += 1
            # A hyphenated token is a crate or feature name, or words joined by `-`.
            if t not in words and not all(part in words for part in t.split("-")):
                self.report.problems.append(Problem(entry_id, "identifier", f"{t!r} in {where}"))

    def feature(self, entry_id: str, crate: str, feature: str, declared: bool = True) -> None:
        self.report.features += 1
        pkg = self.packages.get(crate)
        if pkg is not None and not declared and feature not in pkg.features:
            return  # the fact says, rightly, that the crate does not declare it
        if pkg is None or feature not in pkg.features:
            self.report.problems.append(
                Problem(entry_id, "feature", f"{crate} declares no feature {feature!r}")
            )


def _code_idents(code: str, language: str) -> set[str]:
    lang = plugins.find(language)
    if lang is not None:
        return lang.pages.identifiers(code)
    if language == "toml":
        keys = re.findall(r"^\s*([A-Za-z0-9_-]+)\s*=", code, re.M)
        keys += re.findall(r"([A-Za-z0-9_-]+)\s*=", code)
        return {k.replace("-", "_") for k in keys}
    return set()


def _code_bindings(code: str, language: str) -> set[str]:
    lang = plugins.find(language)
    return lang.pages.bindings(code) if lang is not None else set()
