"""Presentation helpers for the HTML pages (pure: no I/O).

The context dicts are JSON; these turn parts of them into what a template
shows: a highlighted snippet, the analysis sections in page order, JSON-LD.
Nothing here invents text: a section that is absent in the JSON is absent on
the page.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup, escape
from pygments.lexer import Lexer
from pygments.lexers import PythonLexer, RustLexer, TextLexer
from pygments.token import STANDARD_TYPES, _TokenType

from errordex.forge import file_url

_LEXERS: dict[str, type[Lexer]] = {"python": PythonLexer, "rust": RustLexer}


def _css_class(ttype: _TokenType) -> str:
    t: _TokenType | None = ttype
    while t is not None and t not in STANDARD_TYPES:
        t = t.parent
    return str(STANDARD_TYPES[t]) if t is not None else ""


def highlight(snippet: Mapping[str, Any] | None, language: str) -> Markup:
    """A snippet (``{"start", "lines", "mark"}``) as HTML lines with numbers; the
    marked lines carry ``class="mark"``. Every piece of source text is escaped."""
    if not snippet or not snippet.get("lines"):
        return Markup("")
    start = int(snippet["start"])
    lo, hi = snippet.get("mark") or (0, -1)
    lexer = _LEXERS.get(language, TextLexer)(stripnl=False, ensurenl=False)
    code = "\n".join(snippet["lines"])
    rows: list[list[str]] = [[]]
    for ttype, value in lexer.get_tokens(code):
        cls = _css_class(ttype)
        for i, piece in enumerate(value.split("\n")):
            if i:
                rows.append([])
            if piece:
                text = str(escape(piece))
                rows[-1].append(f'<span class="{cls}">{text}</span>' if cls else text)
    out = []
    for n, row in enumerate(rows[: len(snippet["lines"])], start=start):
        mark = ' class="mark"' if lo <= n <= hi else ""
        out.append(
            f'<span{mark}><span class="ln" aria-hidden="true">{n}</span>'
            f'<span class="code">{"".join(row)}</span></span>'
        )
    return Markup("\n".join(out))


def json_ld(data: Any) -> Markup:
    """JSON for a ``<script type="application/ld+json">`` block: ``<``, ``>``, ``&``
    are written as \\u escapes, so no message can close the element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return Markup(text)


# -- analysis sections ---------------------------------------------------------


@dataclass(frozen=True)
class Evidence:
    label: str
    url: str | None = None


@dataclass(frozen=True)
class Item:
    """One paragraph, solution, pattern...: any field may be empty."""

    text: str = ""
    title: str = ""
    code: str = ""
    before: str = ""
    after: str = ""
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True)
class Section:
    key: str
    heading: str
    items: tuple[Item, ...]
    numbered: bool = False
    parts: tuple[tuple[str, tuple[Item, ...]], ...] = field(default=())


#: (heading, keys the analysis may use for it)
_SECTIONS: tuple[tuple[str, str, tuple[str, ...], bool], ...] = (
    ("meaning", "What it means", ("meaning", "what_it_means"), False),
    ("solutions", "Solutions", ("solutions",), True),
    ("example_fix", "Example fix", ("example_fix", "example", "fix"), False),
    ("defensive", "Defensive patterns", ("defensive_patterns", "defensive", "patterns"), False),
    ("prevention", "Prevention", ("prevention",), False),
)
_WHEN_KEYS = ("when", "when_it_happens")
_WHEN_PARTS = (
    ("trigger", "Trigger"),
    ("situations", "Common situations"),
    ("common_situations", "Common situations"),
    ("tests", "Tests that reproduce it"),
)


def _evidence(raw: Any, ctx: Mapping[str, Any]) -> tuple[Evidence, ...]:
    if raw is None:
        return ()
    if isinstance(raw, str | dict):
        raw = [raw]
    out = []
    repo_url = ctx.get("repo_url")
    commit = ctx.get("commit")
    for ev in raw if isinstance(raw, list) else []:
        path: str | None = None
        line: int | None = None
        if isinstance(ev, str):
            path, _, num = ev.rpartition(":")
            if not (path and num.isdigit()):
                out.append(Evidence(ev))
                continue
            line = int(num)
        elif isinstance(ev, dict) and isinstance(ev.get("path"), str):
            path = ev["path"]
            line = ev.get("line") if isinstance(ev.get("line"), int) else None
        else:
            continue
        assert path is not None
        label = f"{path}:{line}" if line else path
        out.append(Evidence(label, file_url(repo_url, commit, path, line)))
    return tuple(out)


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _items(raw: Any, ctx: Mapping[str, Any]) -> tuple[Item, ...]:
    if raw is None or raw == "" or raw == []:
        return ()
    if isinstance(raw, str | dict):
        raw = [raw]
    if not isinstance(raw, list):
        return ()
    out = []
    for r in raw:
        if isinstance(r, str):
            if r.strip():
                out.append(Item(text=r.strip()))
        elif isinstance(r, dict):
            text = _text(r.get("text")) or _text(r.get("description")) or _text(r.get("summary"))
            title = _text(r.get("title")) or _text(r.get("strategy")) or _text(r.get("name"))
            if r.get("strategy") and r.get("title"):
                title = f"{_text(r['strategy'])}: {_text(r['title'])}"
            item = Item(
                text=text,
                title=title,
                code=_text(r.get("code")),
                before=_text(r.get("before")),
                after=_text(r.get("after")),
                evidence=_evidence(r.get("evidence", r.get("facts")), ctx),
            )
            if item.text or item.title or item.code or item.before or item.after:
                out.append(item)
            elif isinstance(r.get("path"), str):
                out.append(Item(evidence=_evidence(r, ctx)))
    return tuple(out)


def sections(ctx: Mapping[str, Any]) -> list[Section]:
    """The analysis sections present in an error's JSON, in page order (the
    Source section sits between "What it means" and "Solutions")."""
    analysis = ctx.get("analysis") or {}
    if not isinstance(analysis, dict):
        return []
    out = []
    for key, heading, keys, numbered in _SECTIONS:
        raw = next((analysis[k] for k in keys if analysis.get(k)), None)
        items = _items(raw, ctx)
        if items:
            out.append(Section(key, heading, items, numbered))
    when = next((analysis[k] for k in _WHEN_KEYS if analysis.get(k)), None)
    parts: list[tuple[str, tuple[Item, ...]]] = []
    if isinstance(when, dict):
        seen: set[str] = set()
        for key, label in _WHEN_PARTS:
            items = _items(when.get(key), ctx)
            if items and label not in seen:
                seen.add(label)
                parts.append((label, items))
    elif when:
        parts.append(("", _items(when, ctx)))
    facts = ctx.get("facts") or {}
    tests = _items(facts.get("tests"), ctx) if isinstance(facts, dict) else ()
    if tests and not any(label == "Tests that reproduce it" for label, _ in parts):
        parts.append(("Tests that reproduce it", tests))
    if parts:
        out.append(Section("when", "When it happens", (), parts=tuple(parts)))
    return out


def summary(ctx: Mapping[str, Any]) -> str:
    analysis = ctx.get("analysis")
    if isinstance(analysis, dict):
        for key in ("summary", "answer"):
            if _text(analysis.get(key)):
                return _text(analysis[key])
    return ""


def provenance_label(ctx: Mapping[str, Any]) -> str:
    analysis = ctx.get("analysis")
    prov = analysis.get("provenance") if isinstance(analysis, dict) else None
    if isinstance(prov, dict) and prov.get("kind") == "llm":
        return "AI-assisted analysis"
    return "Static analysis"


def related(ctx: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Related entries, each once, in the order given."""
    seen: set[str] = set()
    out = []
    for r in ctx.get("related") or []:
        if isinstance(r, dict) and isinstance(r.get("id"), str) and r["id"] not in seen:
            seen.add(r["id"])
            out.append(r)
    return out


def question_subject(message: str, limit: int = 120) -> str:
    """The quoted part of "What causes "…" in owner/repo?"."""
    message = " ".join(message.split())
    return message if len(message) <= limit else message[: limit - 1].rstrip() + "…"


def unique(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(v for v in values if v))
