"""Example code built from real code, for any language (pure); each
language's own builders are its package's ``examples``."""

from __future__ import annotations

from errordex import plugins


def row_inputs(inputs: list[str] | None) -> str | None:
    """A table row's values as code spans (``'[42,]'``), or None when they do
    not read well as such (long, or holding a backtick)."""
    if not inputs or sum(map(len, inputs)) > 60 or any("`" in x for x in inputs):
        return None
    return ", ".join(f"`{x}`" for x in inputs)


def language_of(path: str, default: str) -> str:
    """The language of a file by its name (a test's body is in its own)."""
    lang = plugins.for_path(path)
    return lang.name if lang is not None else default
