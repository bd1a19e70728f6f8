"""The public API of errordex.paste, its doctests, and golden snapshots of every fixture."""

from __future__ import annotations

import dataclasses
import doctest
from typing import Any

import pytest

import errordex.paste
from errordex.languages.python import paste as python
from errordex.languages.rust import paste as rust
from errordex.paste import Frame, ParsedError, clean, other, parse, plain
from tests.golden import check_golden
from tests.paste.conftest import FIXTURES

GOLDEN = FIXTURES.parent / "golden"


def test_public_api_is_pinned() -> None:
    assert errordex.paste.__all__ == ["Frame", "ParsedError", "parse"]


def test_parsed_error_is_frozen() -> None:
    err = ParsedError("m", "m", None, None, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        err.message = "x"  # type: ignore[misc]
    assert (err.frames, err.values, err.relation) == ((), {}, None)


@pytest.mark.parametrize("module", [errordex.paste, clean, other, plain, python, rust])
def test_docstring_examples_hold(module: Any) -> None:
    result = doctest.testmod(module)
    assert result.failed == 0


def _snapshot(errors: list[ParsedError]) -> list[dict[str, Any]]:
    out = []
    for e in errors:
        d = dataclasses.asdict(e)
        d["frames"] = [[f.path, f.line, f.column, f.function] for f in e.frames]
        out.append(d)
    return out


FIXTURE_NAMES = sorted(p.stem for p in FIXTURES.glob("*.txt"))


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_matches_golden_snapshot(name: str) -> None:
    """Set ERRORDEX_UPDATE_GOLDEN=1 to rewrite the snapshots after a deliberate change."""
    got = _snapshot(parse((FIXTURES / f"{name}.txt").read_text(encoding="utf-8")))
    check_golden(GOLDEN / f"{name}.json", got)
    assert got, "every fixture holds at least one error"


def test_frame_is_a_plain_value() -> None:
    assert Frame("a.py", 1, None, "f") == Frame("a.py", 1, None, "f")
