"""The model's answer: JSON of the page's shape, read tolerantly (pure).

A server without schema support may wrap the JSON in prose or a code fence,
or leave a trailing comma; ``parse`` finds the object and reads it. What is
not JSON of the page's shape raises ``BadAnswer`` with a reason short enough
to tell the model (in the one repair retry) and the page's ``llm_rejected``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")


class BadAnswer(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Fix(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    text: str = Field(min_length=1)
    before: str = Field(min_length=1)
    after: str = Field(min_length=1)


class PageProse(BaseModel):
    """What a model may write; a key it was not asked for is ignored."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    summary: str | None = None
    meaning: str | None = None
    trigger: str | None = None
    solutions: list[str] | None = None
    prevention: list[str] | None = None
    example_fix: Fix | None = None


def _object_text(text: str) -> str:
    """The JSON object in ``text``: the whole text, a fenced block, or the
    span from the first ``{`` to the last ``}``."""
    text = text.strip()
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1).strip()
    if not text.startswith("{"):
        lo, hi = text.find("{"), text.rfind("}")
        if lo < 0 or hi < lo:
            raise BadAnswer("the answer holds no JSON object")
        text = text[lo : hi + 1]
    return text


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return json.loads(_TRAILING_COMMA.sub(r"\1", text))
    except ValueError as exc:
        raise BadAnswer(f"the answer is not valid JSON ({exc.args[0].split(':')[0]})") from None


def parse(text: str, sections: tuple[str, ...]) -> PageProse:
    """The model's answer as ``PageProse``; ``sections`` are the keys asked for."""
    data = _loads(_object_text(text))
    if not isinstance(data, dict):
        raise BadAnswer("the answer is JSON but not an object")
    asked = {k: data[k] for k in sections if k in data}
    if not asked:
        keys = ", ".join(sorted(map(str, data))[:6]) or "none"
        raise BadAnswer(f"the answer has none of the keys asked for (it has: {keys})")
    for key in ("solutions", "prevention"):
        if isinstance(asked.get(key), str):
            asked[key] = [asked[key]]
    try:
        return PageProse.model_validate(asked)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BadAnswer(f"`{where}` is not of the page's shape: {first['msg']}") from None
