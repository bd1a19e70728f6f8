"""Message templates: an error message as literal text and placeholders.

A Template is what an extractor reads out of a throw site::

    >>> t = Template.of("rust-fmt", Text("index "), Hole("idx", "{idx}"), Text(" out of range"))
    >>> t.display()
    'index {idx} out of range'
    >>> t.key()
    'index {} out of range'

``display`` writes each placeholder as it is in the source (``{}``,
``{other:?}``, ``%s``, ``{expr}``). ``key`` is the normalized form used to group
sites and to compute entry ids: every placeholder is ``{}`` and runs of
whitespace are one space, so ``"bad %s" % x`` and ``f"bad {x}"`` share a key.

A template is **dynamic** when the message is built at run time from something
that cannot be read statically (a variable, a call). Its holes keep the source
expression, so a page can say "built at run time from ``msg``"; the
expression is never presented as the message itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from errordex.picklable import by_fields

Syntax = Literal[
    "rust-fmt",
    "py-percent",
    "py-format",
    "py-fstring",
    "go-fmt",
    "js-template",
    "concat",
    "literal",
    "none",
]

_WS = re.compile(r"\s+")


@by_fields
@dataclass(frozen=True)
class Text:
    """Literal text of a message."""

    text: str


@by_fields
@dataclass(frozen=True)
class Hole:
    """A placeholder: ``expr`` is the name or expression ("" when positional
    and unknown), ``spec`` is how the source writes it (``{}``, ``{:?}``,
    ``%s``, ``{expr!r}``, ``${x}``)."""

    expr: str
    spec: str


Part = Text | Hole


@by_fields
@dataclass(frozen=True)
class Template:
    syntax: str
    parts: tuple[Part, ...]
    dynamic: bool = False

    @classmethod
    def of(cls, syntax: str, *parts: Part, dynamic: bool | None = None) -> Template:
        merged = tuple(_merge(parts))
        if dynamic is None:
            dynamic = not any(isinstance(p, Text) and p.text.strip() for p in merged)
            dynamic = dynamic and any(isinstance(p, Hole) for p in merged)
        return cls(syntax=syntax, parts=merged, dynamic=dynamic)

    @classmethod
    def literal(cls, text: str) -> Template:
        return cls.of("literal", Text(text)) if text else cls.empty()

    @classmethod
    def empty(cls) -> Template:
        """No message at all (a bare ``raise KeyError``)."""
        return cls(syntax="none", parts=(), dynamic=False)

    @classmethod
    def runtime(cls, expr: str, syntax: str = "literal") -> Template:
        """A message built at run time from ``expr``."""
        return cls(syntax=syntax, parts=(Hole(expr, "{" + expr + "}"),), dynamic=True)

    # -- views -------------------------------------------------------------

    @property
    def is_empty(self) -> bool:
        return not self.parts

    @property
    def holes(self) -> tuple[Hole, ...]:
        return tuple(p for p in self.parts if isinstance(p, Hole))

    def literal_text(self) -> str:
        """All literal parts, joined by a space (for search indexing)."""
        return " ".join(
            p.text.strip() for p in self.parts if isinstance(p, Text) and p.text.strip()
        )

    def chunks(self) -> list[str]:
        """The literal runs between placeholders, stripped, non-empty."""
        return [p.text for p in self.parts if isinstance(p, Text) and p.text.strip()]

    def display(self) -> str:
        return "".join(p.text if isinstance(p, Text) else p.spec for p in self.parts)

    def key(self) -> str:
        out: list[str] = []
        for p in self.parts:
            if isinstance(p, Text):
                out.append(p.text)
            elif not out or not out[-1].endswith("{}"):
                out.append("{}")
        return _WS.sub(" ", "".join(out)).strip()

    # -- JSON --------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "syntax": self.syntax,
            "dynamic": self.dynamic,
            "parts": [
                {"text": p.text} if isinstance(p, Text) else {"hole": p.expr, "spec": p.spec}
                for p in self.parts
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Template:
        parts: list[Part] = []
        for p in data.get("parts", ()):
            if "text" in p:
                parts.append(Text(p["text"]))
            else:
                parts.append(Hole(p["hole"], p["spec"]))
        return cls(syntax=data["syntax"], parts=tuple(parts), dynamic=bool(data.get("dynamic")))


def _merge(parts: Iterable[Part]) -> Iterable[Part]:
    """Join adjacent Text parts and drop empty ones."""
    pending = ""
    for p in parts:
        if isinstance(p, Text):
            pending += p.text
            continue
        if pending:
            yield Text(pending)
            pending = ""
        yield p
    if pending:
        yield Text(pending)
