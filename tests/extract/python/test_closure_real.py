"""A closure's message is its enclosing function's text (issue 15), on
installed code: sortedcontainers 2.4.0's ``SortedDict`` builds
``message = ('SortedDict.{original}() is not implemented.' ...).format(...)``
in ``__make_raise_attributeerror`` and its inner ``method`` raises
``AttributeError(message)``. werkzeug's ``LocalProxy`` raises
``RuntimeError(unbound_message)``, a parameter of the function around it:
that stays the caller's (dynamic)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from errordex.languages.python import extract as python


def _source(module: str) -> str:
    pytest.importorskip(module.split(".")[0])
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).read_text(encoding="utf-8")


def _raises(path: str, module: str, inside: str, exc: str) -> list[str]:
    found = python.extract(path, _source(module))
    return [
        s.template.display()
        for s in found.sites
        if s.exception_type == exc and (s.symbol or "").endswith(inside)
    ]


def test_a_closure_raises_the_text_its_enclosing_function_builds() -> None:
    got = _raises(
        "sortedcontainers/sorteddict.py", "sortedcontainers.sorteddict", "method", "AttributeError"
    )
    assert got == [
        "SortedDict.{original}() is not implemented. Use SortedDict.{alternate}() instead."
    ]


def test_a_closure_of_a_parameter_stays_the_callers() -> None:
    got = _raises("werkzeug/local.py", "werkzeug.local", "_get_current_object", "RuntimeError")
    assert got and all(t == "{unbound_message}" for t in got)
