"""What a page's sections are made of: a section with its evidence, and
example code that is kept only if it parses (pure)."""

from __future__ import annotations

import re
import tomllib
from typing import Any

from errordex import plugins

Fact = dict[str, Any]

#: guard kinds whose site runs when the text is false: an ``else`` (its
#: ``if``'s condition), an ``assert``, a fall-through past early returns
FIRES_WHEN_FALSE = ("else", "assert", "fall-through")
#: guard kinds a page states as the site's condition
CONDITION_KINDS = ("if", "elif", "isinstance", "except", *FIRES_WHEN_FALSE)

#: a check of how the code was built, not of the call: a debug build
#: (`cfg!(debug_assertions)`, `__debug__`) or a type checker's pass
#: (`TYPE_CHECKING`); a feature or a platform is a cause and stays
BUILD_CHECK = re.compile(
    r"^\s*(?:not\s+|!)?(?:cfg!\(\s*(?:debug_assertions|test)\s*\)|__debug__\b|"
    r"(?:typing\.)?TYPE_CHECKING\b)\s*$"
)


def ev(*facts: Fact) -> list[str]:
    return list(dict.fromkeys(f"{f['path']}:{f['line']}" for f in facts if "path" in f))


def parses(code: str, language: str) -> bool:
    """Whether ``code`` parses as ``language`` (a registered language's
    name, or "toml"); code of another language never does."""
    lang = plugins.find(language)
    if lang is not None:
        return lang.pages.parses(code)
    if language == "toml":
        try:
            tomllib.loads(code)
        except tomllib.TOMLDecodeError:
            return False
        return True
    return False


def code_block(code: str, language: str) -> dict[str, str] | None:
    return {"language": language, "code": code} if code.strip() and parses(code, language) else None


def section(text: str, evidence: list[str], **more: Any) -> dict[str, Any]:
    return {"text": text, "provenance": "static", "evidence": evidence, **more}


def test_named(t: Fact) -> str:
    """A reproducing test as a sentence names it: ```TestX.test_y``` or,
    for a documented example (a ``doctest``), where the docs show it."""
    if t.get("kind") == "doctest":
        return f"the documented example at {t['path']}:{t['line']}"
    return f"`{t['test']}`"
