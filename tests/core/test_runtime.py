"""How messages look when the program prints them."""

from __future__ import annotations

import pytest

from errordex.languages.python.runtime import python_module, qualified_exception


@pytest.mark.parametrize(
    ("path", "module"),
    [
        ("Lib/json/decoder.py", "json.decoder"),
        ("click/exceptions.py", "click.exceptions"),
        ("src/flask/__init__.py", "flask"),
        ("packages/foo/src/foo/errors.py", "foo.errors"),
        ("lib/pkg/x.py", "pkg.x"),
        ("pkg/lib/x.py", "pkg.lib.x"),  # a subpackage named lib is a package
        ("tests/test-x.py", None),
        ("build.rs", None),
    ],
)
def test_python_module_of_a_repository_path(path: str, module: str | None) -> None:
    assert python_module(path) == module


def test_qualified_exception_is_what_a_traceback_prints() -> None:
    assert qualified_exception("JSONDecodeError", "Lib/json/decoder.py") == (
        "json.decoder.JSONDecodeError"
    )
    assert qualified_exception("Outer.Inner", "pkg/m.py") == "pkg.m.Outer.Inner"
    assert qualified_exception("Outer.Inner", None) == "Inner"
