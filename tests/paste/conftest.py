"""Shared helpers for the paste-parser tests."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


def fixture(name: str) -> str:
    """The text of ``fixtures/<name>.txt``."""
    return (FIXTURES / f"{name}.txt").read_text(encoding="utf-8")
