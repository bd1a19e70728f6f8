"""Every section a model writes is checked before it is shown (pure).

A section passes only when each of these holds; the first that does not is
the reason it is rejected (``llm_rejected``), and the page keeps the static
text:

- ``verify``'s checks: every path and ``path:line`` is a line of a stored
  file; every name in a code span or code block exists in the snapshot's
  code, or is a keyword or builtin, or (in a block) is defined by the block
  itself; every crate and feature named is declared; code blocks parse;
- every version it writes is a package's version at this commit;
- every ``line N`` it cites is a line the facts name;
- every exception class it names is one the facts name (the entry's type,
  its class chain, what catches it), and a panic is not said to return an
  error (nor an error to panic);
- a feature is not said to be on by default when the Cargo.toml says it is
  not, nor the other way round;
- a function the facts prove private is not presented as public API, and
  example code does not call one;
- no claim that something is deprecated (no fact errordex proves says so),
  no shell command, no link, nothing that repeats the repository's comments
  or reads as an instruction: the repository's text is data, and a
  repository may be hostile.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from errordex import plugins
from errordex.analysis.verify import Report, Verifier
from errordex.llm.answer import Fix, PageProse
from errordex.llm.prompt import LIST_SECTIONS, TEXT_SECTIONS, Prompt
from errordex.model import Package

_SPAN = re.compile(r"`([^`\n]+)`")
_PATH_LINE = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.(?:rs|py|toml|go|js|ts|pyi|cfg|md))(?::(\d+))?\b"
)
_LINE_WORD = re.compile(r"\blines? (\d+)\b", re.I)
_VERSION = re.compile(r"(?<![\w.])v?(\d+\.(?:\d+|x)(?:\.(?:\d+|x))*(?:-[\w.]+)?)(?![\w])", re.I)
_EXCEPTION = re.compile(r"\b([A-Z][A-Za-z0-9_]*(?:Error|Exception|Warning|Interrupt|Exit))\b")
_URL = re.compile(r"\b(?:https?|ftp|file)://\S+|\bwww\.\S+", re.I)
_DEPRECATED = re.compile(r"\bdeprecat|\bobsolete\b|\bno longer (?:supported|maintained)\b", re.I)
_SHELL = re.compile(
    r"\brm\s+-[a-z]*[rf]|\bsudo\b|\bcurl\b|\bwget\b|\bchmod\b|\bchown\b|\bmkfs\b|\bdd\s+if="
    r"|\|\s*(?:ba|z)?sh\b|\bformat\s+c:|:\(\)\s*\{|\bshutdown\b|\breboot\b",
    re.I,
)
_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget)\b[^.]{0,40}\b(?:instructions?|rules|prompt|above)\b"
    r"|\bsystem prompt\b|\bas an ai\b|\blanguage model\b|\byou are (?:now|a)\b",
    re.I,
)
_PUBLIC_WORDS = re.compile(
    r"\b(?:public|API|exported)\b|\b(?:you|users?) (?:can |should |may |must )?(?:call|use)\b"
    r"|^\s*(?:Call|Use)\b",
)
_PRIVATE_WORDS = re.compile(r"\b(?:private|internal|on its way|inside|helper)\b", re.I)
_DEFAULT_NOT = re.compile(
    r"\bnot\b[^.]{0,30}\bdefault\b|\bdefault\b[^.]{0,12}\b(?:off|false)\b|\bnon-default\b", re.I
)
_RETURNS_ERROR = re.compile(r"\breturns? (?:an? )?(?:`?Err`?|error value|`?Result`?)\b")
_PANICS = re.compile(r"\bpanics?\b|\bpanicked\b", re.I)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")
_WORD = re.compile(r"[a-z0-9_]+")
#: this many words in a row copied from a comment of the quoted code is an echo
ECHO_WORDS = 6
#: the words of the prompt itself: an answer that repeats them wrote no page
_PROMPT_ECHO = re.compile(
    r"current page|fact sheet|every statement is checked|rewrite it|better english|"
    r"quoted data|the json object|one to three sentences",
    re.I,
)
#: the end of a sentence cut short (SmolLM2: "Calling `__getattr__(name=…)` when name == ")
_UNFINISHED = re.compile(
    r"(?:==|!=|<=|>=|[=(,:]|\b(?:and|or|when|if|the|a|an|to|of|with|for))\s*$", re.I
)
#: of a section's content words, at least this share must be the fact sheet's
#: (by their first five letters): a sentence on another subject is not this page's
GROUNDED_SHARE = 0.6
_CONTENT = re.compile(r"[A-Za-z][a-z]{3,}")
_STOP = frozenset(
    [
        "this",
        "that",
        "these",
        "those",
        "with",
        "when",
        "what",
        "where",
        "which",
        "while",
        "will",
        "would",
        "could",
        "should",
        "have",
        "been",
        "being",
        "from",
        "into",
        "your",
        "their",
        "there",
        "then",
        "than",
        "they",
        "them",
        "does",
        "done",
        "make",
        "makes",
        "made",
        "also",
        "only",
        "just",
        "more",
        "most",
        "some",
        "such",
        "very",
        "must",
        "need",
        "needs",
        "used",
        "using",
        "call",
        "calls",
        "called",
        "error",
        "errors",
        "because",
        "before",
        "after",
        "about",
        "other",
        "each",
        "every",
        "first",
        "again",
        "here",
        "like",
        "want",
        "know",
        "sure",
        "check",
        "checks",
    ]
)
MAX_CHARS = 900


@dataclass
class Grounds:
    """What one entry's prose is checked against: the snapshot (a
    ``Verifier`` over its files, names and packages, shared by every entry)
    and the entry's facts."""

    verifier: Verifier
    lines_of: Callable[[str], int | None]
    entry_id: str
    language: str
    data: dict[str, Any]
    prompt: Prompt
    packages: dict[str, Package] = field(default_factory=dict)

    def __post_init__(self) -> None:
        facts: dict[str, Any] = self.data.get("facts") or {}
        self.fact_lines: set[int] = set()
        for value in _walk(facts):
            if isinstance(value, dict) and isinstance(value.get("line"), int):
                self.fact_lines.add(value["line"])
        for s in self.data.get("sites") or []:
            self.fact_lines.update(range(s["line"] - 3, (s.get("end_line") or s["line"]) + 4))
            self.fact_lines.update(g["line"] for g in s.get("guards") or [])
        # the places the facts name: a `path:line` the prose cites must be one
        self.fact_places: set[str] = set()
        for value in _walk([facts, self.data.get("analysis") or {}]):
            if isinstance(value, dict) and isinstance(value.get("path"), str):
                if isinstance(value.get("line"), int):
                    self.fact_places.add(f"{value['path']}:{value['line']}")
            elif isinstance(value, str):
                self.fact_places.update(m.group(0) for m in _PATH_LINE.finditer(value))
        for s in self.data.get("sites") or []:
            self.fact_places.add(f"{s['path']}:{s['line']}")
            self.fact_places.update(f"{s['path']}:{g['line']}" for g in s.get("guards") or [])
        kinds = set(self.data.get("kinds") or [])
        lang = plugins.find(self.language)
        panics = lang.runtime.panic_kinds if lang is not None else frozenset()
        self.all_panic = bool(kinds) and bool(panics) and kinds <= panics
        self.no_panic = bool(panics) and not kinds & panics
        names: set[str] = set(self.data.get("exception_types") or [])
        for h in facts.get("hierarchy") or []:
            names.add(h.get("name", ""))
            names.update(h.get("mro") or [])
            names.update(h.get("bases") or [])
        for c in facts.get("catches") or []:
            names.add(str(c.get("exception", "")))
        for t in names.copy():
            names.add(t.rsplit(".", 1)[-1].rsplit("::", 1)[-1])
        self.exceptions = names
        self.private: set[str] = set()
        self.public: set[str] = set()
        for r in facts.get("reachability") or []:
            (self.public if r.get("public") else self.private).update(
                n for n in (r.get("function"), r.get("name")) if n
            )
            for chain in r.get("paths") or []:
                for h in chain:
                    if h.get("public"):
                        self.public.add(h["function"])
                        if h.get("exported"):
                            self.public.add(h["exported"]["name"])
        self.private -= self.public
        self.features = [f for f in facts.get("features") or [] if f.get("declared")]
        self.versions = {p.version for p in self.packages.values() if p.version}
        if self.data.get("version_label"):
            self.versions.add(str(self.data["version_label"]).lstrip("v"))
        # a deprecation warning's page may say "deprecated": its message says so
        said = " ".join(
            [str(self.data.get("message", "")), *(self.data.get("exception_types") or [])]
        )
        self.about_deprecation = bool(_DEPRECATED.search(said))
        self.comment_grams = _grams(_comments(self.prompt.quoted))
        sheet = "\n".join(m["content"] for m in self.prompt.messages if m["role"] == "user")
        self.sheet_names = set(_NAME.findall(_uncommented(sheet)))
        self.words = lang.pages.words if lang is not None else frozenset()
        self.sheet_stems = {w.lower()[:5] for w in _CONTENT.findall(sheet)}


def _walk(x: Any) -> Iterable[Any]:
    stack = [x]
    while stack:
        v = stack.pop()
        yield v
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def _comments(quoted: str) -> list[str]:
    """The comment text of quoted code lines (``// ...``, ``# ...``, ``/* ...``)."""
    out = []
    for line in quoted.splitlines():
        code = line.split("|", 1)[-1]
        m = re.search(r"(?://+|#|/\*+|\*)\s*(.*)$", code)
        if m and m.group(1).strip():
            out.append(m.group(1))
    return out


_CODE_LINE = re.compile(r"^(\s*\d+ \| )(.*)$")
_COMMENT = re.compile(r"\s*(?://|#(?!\[)|/\*).*$")


def _uncommented(sheet: str) -> str:
    """The fact sheet without the comments of its quoted code: a name only a
    comment says (``call scale_v2 instead``) is no name of the code."""
    out = []
    for line in sheet.splitlines():
        m = _CODE_LINE.match(line)
        out.append(m.group(1) + _COMMENT.sub("", _STRING.sub('""', m.group(2))) if m else line)
    return "\n".join(out)


def _grams(texts: Iterable[str]) -> set[tuple[str, ...]]:
    out: set[tuple[str, ...]] = set()
    for t in texts:
        words = _WORD.findall(t.lower())
        out.update(tuple(words[i : i + ECHO_WORDS]) for i in range(len(words) - ECHO_WORDS + 1))
    return out


def _verify(g: Grounds, key: str, section: dict[str, Any]) -> str | None:
    """``verify``'s checks of one section; its first problem, or None."""
    v = g.verifier
    v.report = Report()
    v.check(g.entry_id, {key: section}, g.language)
    if v.report.problems:
        p = v.report.problems[0]
        return {
            "identifier": f"unknown identifier {p.detail}",
            "code": f"code {p.detail}",
            "path": f"no such file: {p.detail}",
            "line": f"no such line: {p.detail}",
        }.get(p.kind, p.detail)
    return None


def check_text(g: Grounds, text: str) -> str | None:
    """Why ``text`` (one section's prose) cannot be shown, or None."""
    if not text.strip():
        return "empty text"
    if len(text) > MAX_CHARS:
        return f"too long ({len(text)} characters)"
    if _INSTRUCTION.search(text):
        return "reads as an instruction, not as the page"
    if _PROMPT_ECHO.search(text):
        return "repeats the prompt's own words"
    if text.count("`") % 2:
        return "a code span is not closed (an odd number of `)"
    if _UNFINISHED.search(text):
        return "stops mid-sentence"
    shell = _SHELL.search(text)
    if shell:
        return f"suggests a shell command ({shell.group(0).strip()!r})"
    url = _URL.search(text)
    if url:
        return f"links to {url.group(0)[:60]!r}, which no fact names"
    if _DEPRECATED.search(text) and not g.about_deprecation:
        return "says something is deprecated; no fact says so"
    words = _WORD.findall(text.lower())
    for i in range(len(words) - ECHO_WORDS + 1):
        if tuple(words[i : i + ECHO_WORDS]) in g.comment_grams:
            return "repeats a comment of the repository's code"
    for m in _PATH_LINE.finditer(text):
        path, line = m.group(1), m.group(2)
        if "/" not in path and g.lines_of(path) is None:
            continue  # a dotted name (`self.rs`), not a path
        n = g.lines_of(path)
        if n is None:
            return f"no such file: {path}"
        if line is not None and not 1 <= int(line) <= n:
            return f"no such line: {path}:{line} ({n} lines)"
        if line is not None and f"{path}:{line}" not in g.fact_places:
            return f"cites {path}:{line}, which no fact names"
    for m in _LINE_WORD.finditer(text):
        if int(m.group(1)) not in g.fact_lines:
            return f"cites line {m.group(1)}, which no fact names"
    for m in _VERSION.finditer(_PATH_LINE.sub(" ", text)):
        version = m.group(1)
        if version not in g.versions and not any(v.startswith(version) for v in g.versions):
            known = ", ".join(sorted(g.versions)) or "none"
            return f"version {version!r} is no package's version at this commit ({known})"
    for m in _EXCEPTION.finditer(text):
        if m.group(1) not in g.exceptions:
            raised = ", ".join(sorted(g.data.get("exception_types") or [])) or "no exception class"
            return f"names `{m.group(1)}`; the site raises {raised}"
    for span in _SPAN.findall(text):
        if _PATH_LINE.fullmatch(span.strip()):
            continue
        why = _unsaid(g, set(_NAME.findall(_STRING.sub("", span))), f"`{span}`")
        if why:
            return why
    if g.all_panic and _RETURNS_ERROR.search(text):
        return "says it returns an error; the site panics"
    if g.no_panic and _PANICS.search(text):
        return "says it panics; the site returns an error"
    for sentence in _SENTENCE.split(text):
        why = _feature_claim(g, sentence) or _public_claim(g, sentence)
        if why:
            return why
    return _anchored(g, text)


def _anchored(g: Grounds, text: str) -> str | None:
    """A section must say something of this error: name something the
    facts name (in a code span: a function, type, parameter, crate or
    feature), and keep to their subject (most of its content words are the
    fact sheet's). Filler that would fit any error is refused."""
    named = [
        n
        for span in _SPAN.findall(text)
        for n in _NAME.findall(_STRING.sub("", span))
        if n in g.sheet_names and n not in g.words
    ]
    if not named:
        return "names nothing from the facts (no function, type, parameter or feature in `code`)"
    words = [w.lower() for w in _CONTENT.findall(_SPAN.sub(" ", text))]
    content = [w for w in words if w not in _STOP]
    if len(content) >= 4:
        known = sum(1 for w in content if w[:5] in g.sheet_stems)
        if known / len(content) < GROUNDED_SHARE:
            strange = next(w for w in content if w[:5] not in g.sheet_stems)
            return (
                f"off the facts' subject: {len(content) - known} of {len(content)} words are"
                f' not the fact sheet\'s ("{strange}")'
            )
    return None


def _unsaid(g: Grounds, names: set[str], where: str) -> str | None:
    """A name that is not in the fact sheet the page was written from (nor a
    keyword, builtin, crate or feature): the model made it up, even when the
    repository has something of that name elsewhere (burn has an ``eval``,
    but no ``model.eval(x)`` in the facts of a page about ``backward``)."""
    packages = {n for p in g.packages for n in (p, p.replace("-", "_"))}
    for name in sorted(names):
        if name in g.sheet_names or name in g.words or name in packages:
            continue
        if name.isupper() or len(name) == 1:
            continue  # a placeholder (`N`, `T`) or a constant-like word
        return f"`{name}` in {where} is not in the facts this page is written from"
    return None


def _feature_claim(g: Grounds, sentence: str) -> str | None:
    """A feature said to be default (or not) against its Cargo.toml."""
    if "default" not in sentence.lower():
        return None
    negated = bool(_DEFAULT_NOT.search(sentence))
    for f in g.features:
        states: dict[str, bool] = {f["crate"]: bool(f.get("default"))}
        top = f.get("top") or {}
        if top.get("feature") == f["feature"]:
            states[top["crate"]] = bool(top.get("default"))
        if not re.search(rf"(?<![\w-]){re.escape(f['feature'])}(?![\w-])", sentence):
            continue
        crates = [c for c in states if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", sentence)]
        said = [states[c] for c in crates] or list(states.values())
        if not negated and not any(said):
            return f"says `{f['feature']}` is a default feature; its Cargo.toml says it is not"
        if negated and all(said):
            return f"says `{f['feature']}` is not a default feature; its Cargo.toml says it is"
    return None


def _public_claim(g: Grounds, sentence: str) -> str | None:
    """A function the facts prove private, presented as what a user calls."""
    words = _SPAN.sub("", sentence)
    if not g.private or not _PUBLIC_WORDS.search(words) or _PRIVATE_WORDS.search(words):
        return None
    for span in _SPAN.findall(sentence):
        name = span.split("(", 1)[0].strip()
        if name in g.private or name.rsplit("::", 1)[-1].rsplit(".", 1)[-1] in g.private:
            return f"presents `{name}` as public API; it is private"
    return None


def _calls_private(g: Grounds, code: str, language: str) -> str | None:
    lang = plugins.find(language)
    if lang is None or not g.private:
        return None
    used = lang.pages.identifiers(code) - lang.pages.bindings(code)
    bare = {p.rsplit("::", 1)[-1].rsplit(".", 1)[-1] for p in g.private}
    hit = sorted((used & bare) - g.public)
    return f"example code calls private `{hit[0]}`" if hit else None


def _toml_claims(g: Grounds, code: str) -> str | None:
    """A Cargo.toml block: each crate a package of the snapshot, each
    version its version, each feature one the crate declares."""
    for m in re.finditer(r"^\s*([A-Za-z0-9_-]+)\s*=\s*(.*)$", code, re.M):
        name, rest = m.group(1), m.group(2)
        pkg = g.packages.get(name)
        if pkg is None:
            continue
        for v in re.findall(r'version\s*=\s*"([^"]*)"', rest) + re.findall(r'^"([^"]*)"', rest):
            if v != pkg.version:
                at = f"it is {pkg.version!r}" if pkg.version else "its version is not known"
                return f"version {v!r} of `{name}`; {at} at this commit"
        for feats in re.findall(r"features\s*=\s*\[([^\]]*)\]", rest):
            for feat in re.findall(r'"([^"]*)"', feats):
                if feat not in pkg.features:
                    return f"`{name}` declares no feature {feat!r}"
    return None


def check_code(g: Grounds, code: str, language: str) -> str | None:
    if not code.strip():
        return "empty code"
    why = check_text_in_code(g, code)
    if why:
        return why
    if language == "toml":
        why = _toml_claims(g, code)
        if why:
            return why
    why = _calls_private(g, code, language)
    lang = plugins.find(language)
    if why is None and lang is not None:
        why = _unsaid(g, lang.pages.identifiers(code) - lang.pages.bindings(code), "code")
    return why


def check_text_in_code(g: Grounds, code: str) -> str | None:
    """The prose checks that apply to code too: commands, links, instructions."""
    for pattern, what in (
        (_SHELL, "a shell command"),
        (_URL, "a link"),
        (_INSTRUCTION, "an instruction"),
    ):
        m = pattern.search(code)
        if m:
            return f"code holds {what} ({m.group(0).strip()[:40]!r})"
    if _DEPRECATED.search(code):
        return "code says something is deprecated; no fact says so"
    return None


@dataclass(frozen=True, slots=True)
class Checked:
    """The sections that passed (as the page shows them) and why the others did not."""

    accepted: dict[str, Any]
    rejected: dict[str, str]


def check(g: Grounds, prose: PageProse, provenance: dict[str, Any]) -> Checked:
    """Each section the model was asked for, checked; ``provenance`` is
    the ``{"kind": "llm", ...}`` a passing section carries."""
    analysis: dict[str, Any] = g.data.get("analysis") or {}
    accepted: dict[str, Any] = {}
    rejected: dict[str, str] = {}
    seen: dict[str, str] = {}
    for key in g.prompt.sections:
        value = getattr(prose, key)
        static = analysis.get(key)
        if value is None:
            rejected[key] = "the model did not write it"
            continue
        if key in TEXT_SECTIONS:
            section, why = _text_section(g, key, value, static, provenance)
        elif key in LIST_SECTIONS:
            section, why = _list_section(g, key, value, static, provenance)
        else:
            section, why = _fix_section(g, key, value, static, provenance)
        said = _said(section)
        if not why and said in seen:
            why = f"repeats the {seen[said]} word for word"
        if why:
            rejected[key] = why
        else:
            accepted[key] = section
            seen.setdefault(said, key)
    return Checked(accepted, rejected)


def _said(section: Any) -> str:
    """A section's prose, normalized, to tell one that repeats another."""
    items = section if isinstance(section, list) else [section]
    text = " ".join(str(i.get("text", "")) for i in items if isinstance(i, dict))
    return " ".join(_WORD.findall(text.lower()))


def _text_section(
    g: Grounds, key: str, text: str, static: Any, provenance: dict[str, Any]
) -> tuple[Any, str | None]:
    section = {"text": text, "provenance": provenance, "evidence": _evidence(static)}
    return section, check_text(g, text) or _verify(g, key, section)


def _list_section(
    g: Grounds, key: str, value: list[str], static: Any, provenance: dict[str, Any]
) -> tuple[Any, str | None]:
    """A numbered list (solutions: one section each) or a bulleted one
    (prevention: one section with ``items``), as the static page has it."""
    evidence = _evidence(static)
    items = [i.strip() for i in value if i.strip()]
    why: str | None = None if items else "an empty list"
    for text in items:
        item = {"text": text, "provenance": provenance, "evidence": evidence}
        why = why or check_text(g, text) or _verify(g, key, item)
    if isinstance(static, list):
        return [{"text": i, "provenance": provenance, "evidence": evidence} for i in items], why
    section = {"text": " ".join(items), "items": items, "provenance": provenance}
    return {**section, "evidence": evidence}, why


def _fix_section(
    g: Grounds, key: str, fix: Fix, static: Any, provenance: dict[str, Any]
) -> tuple[Any, str | None]:
    before = static.get("before") if isinstance(static, dict) else None
    lang = str((before or {}).get("language") or g.prompt.code_language)
    section = {
        "text": fix.text,
        "provenance": provenance,
        "evidence": _evidence(static),
        "before": {"language": lang, "code": fix.before},
        "after": {"language": lang, "code": fix.after},
    }
    why = (
        check_text(g, fix.text)
        or check_code(g, fix.before, lang)
        or check_code(g, fix.after, lang)
        or _verify(g, key, section)
    )
    return section, why


def _evidence(static: Any) -> list[str]:
    items = static if isinstance(static, list) else [static]
    out: list[str] = []
    for s in items:
        if isinstance(s, dict):
            out.extend(e for e in s.get("evidence", []) if e not in out)
    return out
