"""Presentation helpers for the HTML pages (pure: no I/O).

The context dicts are JSON; these turn parts of them into what a template
shows: a highlighted snippet, the analysis sections in page order, JSON-LD.
Nothing here invents text: a section that is absent in the JSON is absent on
the page.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Hashable, Iterable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from markupsafe import Markup, escape
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, TOMLLexer, find_lexer_class_by_name
from pygments.token import STANDARD_TYPES, _TokenType
from pygments.util import ClassNotFound

from errordex import plugins
from errordex.forge import file_url
from errordex.web.once import OnceCache


@cache
def _lexer(language: str) -> type[Lexer]:
    """The Pygments lexer of a language's code (``Language.lexer``), or of a
    Cargo.toml snippet ("toml"); plain text for any other."""
    lang = plugins.find(language)
    found: type[Lexer] = TOMLLexer if language == "toml" else TextLexer
    if lang is not None:
        with suppress(ClassNotFound):
            found = find_lexer_class_by_name(lang.pages.lexer)
    return found


def _css_class(ttype: _TokenType) -> str:
    t: _TokenType | None = ttype
    while t is not None and t not in STANDARD_TYPES:
        t = t.parent
    return str(STANDARD_TYPES[t]) if t is not None else ""


def highlight_rows(code: str, language: str) -> list[str]:
    """``code`` as one HTML string per line; every token is escaped."""
    lexer = _lexer(language)(stripnl=False, ensurenl=False)
    rows: list[list[str]] = [[]]
    for ttype, value in lexer.get_tokens(code):
        cls = _css_class(ttype)
        for i, piece in enumerate(value.split("\n")):
            if i:
                rows.append([])
            if piece:
                text = str(escape(piece))
                rows[-1].append(f'<span class="{cls}">{text}</span>' if cls else text)
    return ["".join(r) for r in rows]


class FileRows:
    """Highlighted lines of whole files, kept in an LRU.

    Lexing a whole file once is cheaper than lexing a snippet per site on
    every page (the lexer dominates the render), and it colours a snippet that
    starts inside a docstring correctly. The key names the exact text, e.g.
    (repo, commit, path)."""

    def __init__(self, size: int = 256) -> None:
        self._rows: OnceCache[Hashable, list[str]] = OnceCache(size)

    def get(self, key: Hashable, language: str, load: Callable[[], str | None]) -> list[str] | None:
        """The file's rows; a file asked for by several threads at once is
        read and lexed by the first, the others wait for its rows."""

        def build() -> list[str] | None:
            text = load()
            # split like the snippets do (str.splitlines), so line numbers agree
            return None if text is None else highlight_rows("\n".join(text.splitlines()), language)

        return self._rows.get(key, build)


def highlight(
    snippet: Mapping[str, Any] | None, language: str, file_rows: list[str] | None = None
) -> Markup:
    """A snippet (``{"start", "lines", "mark"}``) as HTML lines with numbers; the
    marked lines carry ``class="mark"``. ``file_rows``, the highlighted lines
    of the whole file, are used when given (see ``FileRows``)."""
    if not snippet or not snippet.get("lines"):
        return Markup("")
    start = int(snippet["start"])
    lines = snippet["lines"]
    lo, hi = snippet.get("mark") or (0, -1)
    if file_rows is not None and len(file_rows) >= start - 1 + len(lines):
        rows = file_rows[start - 1 : start - 1 + len(lines)]
    else:
        rows = highlight_rows("\n".join(lines), language)[: len(lines)]
    out = []
    for n, row in enumerate(rows, start=start):
        mark = ' class="mark"' if lo <= n <= hi else ""
        out.append(
            f'<span{mark}><span class="ln" aria-hidden="true">{n}</span>'
            f'<span class="code">{row}</span></span>'
        )
    return Markup("".join(out))


@dataclass(frozen=True)
class Via:
    """Where a forwarded message is raised: the helper the throw site calls
    (``ThrowSite.via``, "path:line symbol"), linked like the sites."""

    path: str
    line: int | None
    symbol: str | None
    url: str | None

    @property
    def label(self) -> str:
        return f"{self.path}:{self.line}" if self.line is not None else self.path


_VIA = re.compile(r"(?P<path>.+?)(?::(?P<line>\d+))?(?: (?P<symbol>\S+))?")


def via(site: Mapping[str, Any], ctx: Mapping[str, Any]) -> Via | None:
    """The ``via`` of a site of an error's JSON, parsed and linked; None without one."""
    raw = site.get("via")
    m = _VIA.fullmatch(raw.strip()) if isinstance(raw, str) else None
    if m is None:
        return None
    line = int(m["line"]) if m["line"] else None
    url = file_url(ctx.get("repo_url"), ctx.get("forge_ref"), m["path"], line)
    return Via(m["path"], line, m["symbol"], url)


_C1 = re.compile("[\x7f-\x9f]")


def json_ld(data: Any) -> Markup:
    """JSON for a ``<script type="application/ld+json">`` block: ``<``, ``>``, ``&``
    are written as \\u escapes, so no message can close the element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    # DEL and the C1 controls as \u escapes too (json.dumps leaves them raw):
    # the page shows no raw control character, and the JSON still decodes to the data
    return Markup(_C1.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


# -- analysis sections ---------------------------------------------------------
#
# The analysis JSON (errordex.analysis.write) holds sections as
# ``{"text", "evidence": ["path:line"], ...}`` dicts or lists of them; a
# section may add ``items`` (bullets), ``code``/``language``, ``before``/
# ``after`` blocks, ``strategy``/``title``. Anything absent is left out.


@dataclass(frozen=True)
class Evidence:
    label: str
    url: str | None = None


@dataclass(frozen=True)
class Code:
    code: str
    language: str = ""


@dataclass(frozen=True)
class Item:
    """One paragraph, solution, pattern...: any field may be empty."""

    text: str = ""
    title: str = ""
    bullets: tuple[str, ...] = ()
    code: Code | None = None
    before: Code | None = None
    after: Code | None = None
    evidence: tuple[Evidence, ...] = ()
    #: the model that wrote it, when its prose is a model's (checked)
    by_model: str = ""


@dataclass(frozen=True)
class Section:
    key: str
    heading: str
    items: tuple[Item, ...]
    numbered: bool = False
    parts: tuple[tuple[str, tuple[Item, ...]], ...] = field(default=())


#: (key, heading, keys the analysis may use for it, numbered)
_SECTIONS: tuple[tuple[str, str, tuple[str, ...], bool], ...] = (
    ("meaning", "What it means", ("meaning",), False),
    ("solutions", "Solutions", ("solutions",), True),
    ("example_fix", "Example fix", ("example_fix",), False),
    ("defensive", "Defensive patterns", ("defensive_patterns",), False),
    ("prevention", "Prevention", ("prevention",), False),
)
#: parts of "When it happens": (label, keys in the analysis)
_WHEN_PARTS = (
    ("Trigger", ("trigger",)),
    ("Common situations", ("situations",)),
    ("Tests that reproduce it", ("reproductions",)),
)


def _evidence(raw: Any, ctx: Mapping[str, Any]) -> tuple[Evidence, ...]:
    if isinstance(raw, str | dict):
        raw = [raw]
    if not isinstance(raw, list):
        return ()
    out = []
    repo_url = ctx.get("repo_url")
    ref = ctx.get("forge_ref")  # None for a source with no forge (pkg:, a local dir)
    for ev in raw:
        path: str | None = None
        line: int | None = None
        if isinstance(ev, str):
            head, _, num = ev.rpartition(":")
            if not (head and num.isdigit()):
                out.append(Evidence(ev))
                continue
            path, line = head, int(num)
        elif isinstance(ev, dict) and isinstance(ev.get("path"), str):
            path = ev["path"]
            line = ev["line"] if isinstance(ev.get("line"), int) else None
        if path is not None:
            label = f"{path}:{line}" if line else path
            out.append(Evidence(label, file_url(repo_url, ref, path, line)))
    return tuple(dict.fromkeys(out))


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _code(value: Any, language: str = "") -> Code | None:
    if isinstance(value, dict):
        return _code(value.get("code"), _text(value.get("language")) or language)
    text = value.strip("\n") if isinstance(value, str) else ""
    return Code(text, language) if text.strip() else None


def _item(r: Any, ctx: Mapping[str, Any]) -> Item | None:
    if isinstance(r, str):
        return Item(text=r.strip()) if r.strip() else None
    if not isinstance(r, dict):
        return None
    text = _text(r.get("text"))
    bullets = tuple(b.strip() for b in r.get("items") or () if isinstance(b, str) and b.strip())
    if len(bullets) > 1:
        text = ""  # the text is the bullets joined
    else:
        bullets = ()
    title = _text(r.get("title"))
    if title and _text(r.get("strategy")):
        title = f"{title} ({_text(r['strategy'])})"
    lang = _text(r.get("language"))
    item = Item(
        text=text,
        title=title,
        bullets=bullets,
        code=_code(r.get("code"), lang),
        before=_code(r.get("before"), lang),
        after=_code(r.get("after"), lang),
        evidence=_evidence(r.get("evidence"), ctx),
        by_model=_by_model(r.get("provenance")),
    )
    if item.text or item.title or item.bullets or item.code or item.before or item.after:
        return item
    return None


def _by_model(prov: Any) -> str:
    if isinstance(prov, dict) and prov.get("kind") == "llm":
        return str(prov.get("model") or "a model")
    return ""


def _items(raw: Any, ctx: Mapping[str, Any]) -> tuple[Item, ...]:
    if not isinstance(raw, list):
        raw = [raw]
    return tuple(i for i in (_item(r, ctx) for r in raw) if i is not None)


def sections(ctx: Mapping[str, Any]) -> list[Section]:
    """The analysis sections present in an error's JSON, in page order (the
    Source section sits between "What it means" and "Solutions")."""
    analysis = ctx.get("analysis")
    if not isinstance(analysis, dict):
        return []
    out = []
    for key, heading, keys, numbered in _SECTIONS:
        items = _items(next((analysis[k] for k in keys if analysis.get(k)), None), ctx)
        if items:
            out.append(Section(key, heading, items, numbered))
    parts = []
    for label, keys in _WHEN_PARTS:
        items = _items(next((analysis[k] for k in keys if analysis.get(k)), None), ctx)
        if items:
            parts.append((label, items))
    if parts:
        out.append(Section("when", "When it happens", (), parts=tuple(parts)))
    return out


def summary(ctx: Mapping[str, Any]) -> Item | None:
    """The short answer to "What causes ...?", with its evidence."""
    analysis = ctx.get("analysis")
    if not isinstance(analysis, dict):
        return None
    return _item(analysis.get("summary"), ctx)


_TICKS = re.compile(r"`([^`\n]+)`")


def prose(text: str) -> Markup:
    """Escaped text, with `backticked` spans as <code>."""
    return Markup(_TICKS.sub(r"<code>\1</code>", str(escape(text))))


def plain(text: str) -> str:
    """Text without the backticks (for meta tags and JSON-LD)."""
    return _TICKS.sub(r"\1", text)


def highlight_code(code: Code) -> Markup:
    """A code block, highlighted (no line numbers)."""
    lexer = _lexer(code.language)(stripnl=False, ensurenl=False)
    out = []
    for ttype, value in lexer.get_tokens(code.code):
        cls = _css_class(ttype)
        text = str(escape(value))
        out.append(f'<span class="{cls}">{text}</span>' if cls else text)
    return Markup("".join(out))


def provenance_label(ctx: Mapping[str, Any]) -> str:
    analysis = ctx.get("analysis")
    prov = analysis.get("provenance") if isinstance(analysis, dict) else None
    if isinstance(prov, dict) and prov.get("kind") == "llm":
        return "AI-assisted analysis"
    return "Static analysis"


def model_note(ctx: Mapping[str, Any]) -> str | None:
    """The page's word on the sections a model wrote and errordex checked."""
    from errordex.llm.prose import note

    analysis = ctx.get("analysis")
    return note(analysis if isinstance(analysis, dict) else None)


def related(ctx: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Related entries, each once, in the order given, with the reason the
    analysis gives (``analysis.related``) when it has one."""
    analysis = ctx.get("analysis")
    reasons = {
        r["id"]: r.get("reason")
        for r in (analysis.get("related") or [] if isinstance(analysis, dict) else [])
        if isinstance(r, dict) and isinstance(r.get("id"), str)
    }
    seen: set[str] = {ctx.get("id", "")}
    out = []
    for r in ctx.get("related") or []:
        if isinstance(r, dict) and isinstance(r.get("id"), str) and r["id"] not in seen:
            seen.add(r["id"])
            out.append({**r, "reason": r.get("reason") or reasons.get(r["id"])})
    return out


#: A placeholder written without its name: ``{}``, ``{:?}``, ``%s``, ``%d``.
_POSITIONAL_SPEC = re.compile(r"\{(:[^{}]*)?\}|%[-#0 +]*\d*(\.\d+)?[a-zA-Z]")
_SIMPLE_NAME = re.compile(r"[A-Za-z_][\w.]{0,30}")


def hole_label(part: Mapping[str, Any]) -> str:
    """How a title shows a placeholder: ``‹lineno›`` for a ``%d`` filled from
    ``lineno``, since the name says more than the spec; else the spec."""
    spec, name = str(part.get("spec", "")), str(part.get("hole", ""))
    if _SIMPLE_NAME.fullmatch(name) and _POSITIONAL_SPEC.fullmatch(spec):
        return f"\u2039{name}\u203a"
    return spec


def title_parts(ctx: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """The template parts to show the title with its placeholders marked, when
    the title is exactly the template's text; else None (show the title as is).
    Each placeholder gets a ``label`` (see ``hole_label``)."""
    template = ctx.get("template")
    if not isinstance(template, dict) or template.get("dynamic"):
        return None
    parts = template.get("parts") or []
    if not any("hole" in p for p in parts):
        return None
    text = "".join(str(p.get("text", p.get("spec", ""))) for p in parts)
    if text != ctx.get("title"):
        return None
    return [{**p, "label": hole_label(p)} if "hole" in p else p for p in parts]


#: Trailing spaces and punctuation of a message's leading words.
_LEAD_END = re.compile(r"[\s:;,(\-\u2013\u2014=]+$")
#: Words a phrase does not end on ("Error decoding metadata for").
_DANGLING = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "for",
        "in",
        "at",
        "to",
        "from",
        "with",
        "by",
        "on",
        "as",
        "and",
        "or",
        "got",
        "is",
        "are",
        "was",
        "were",
        "than",
    ]
)


def _leading_phrase(lead: str) -> str:
    """ "Expecting value: line " -> "Expecting value"; "must be positive, got "
    -> "must be positive": a last clause of at most two words before the first
    placeholder is dropped."""
    for sep in (": ", ", "):
        head, found, tail = lead.rpartition(sep)
        if found and head.strip() and len(tail.split()) <= 2:
            lead = head
            break
    return _LEAD_END.sub("", lead.strip())


def question_subject(message: str, limit: int = 120) -> str:
    """The quoted part of "What causes "…" in owner/repo?"."""
    message = " ".join(message.split())
    return message if len(message) <= limit else message[: limit - 1].rstrip() + "…"


def question_subject_of(ctx: Mapping[str, Any], limit: int = 120) -> str:
    """The question's subject: the message's leading words when they are a
    phrase of their own ("Expecting value" for "Expecting value: line %d
    column %d (char %d)"), else the whole title."""
    parts = title_parts(ctx)
    if parts and "text" in parts[0]:
        phrase = _leading_phrase(str(parts[0]["text"]))
        words = phrase.split()
        if len(words) >= 2 and len(phrase) >= 8 and words[-1].lower() not in _DANGLING:
            return question_subject(phrase, limit)
    return question_subject(str(ctx.get("title", "")), limit)


def unique(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(v for v in values if v))
