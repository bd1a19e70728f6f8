"""Messages that reach the user through a second raise (issue 15), on code
abridged from real libraries and really run: the exception line alone, as a
user pastes it from a log, is answered by the entry whose text it shows,
and that entry's site (or its ``via``) is the line the traceback ended at.

- configobj: ``self._handle_error("Duplicate section name", DuplicateError,
  ...)`` raises the class the caller passes (``Forwarder.class_param``);
- voluptuous: ``except Invalid as e: raise MultipleInvalid([e])`` raises a
  new error around the caught one (``collected.rewrapped``), whose text is
  a default the caller may override (``self.msg or 'value must be ...'``).
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from errordex.explain import explain_text
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore

FIXTURES = Path(__file__).parent / "fixtures" / "rewrapped"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("rewrapped") / "libs"
    shutil.copytree(FIXTURES, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(scope="module")
def store(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    s = SqliteStore(tmp_path_factory.mktemp("rewrapped-db") / "store.db")
    index(str(tree), s, name="probe/rewrapped", jobs=1)
    return s


def load(tree: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_rewrapped_{name}", tree / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def raised(fn: Callable[[], object]) -> tuple[str, str]:
    """The exception line as a log prints it (the qualified class), and the
    raise frame as ``file:line``."""
    try:
        fn()
    except Exception as e:  # the error under test
        frame = traceback.extract_tb(e.__traceback__)[-1]
        kind = type(e)
        line = f"{kind.__module__.removeprefix('_rewrapped_')}.{kind.__qualname__}: {e}"
        return line, f"{Path(frame.filename).name}:{frame.lineno}"
    raise AssertionError("did not raise")


def first_entry(store: SqliteStore, line: str) -> dict[str, Any]:
    part = explain_text(store, line)["parts"][-1]
    answer = part.get("answer")
    assert answer is not None and answer["kind"] == "entry", (line, part["matches"][:2])
    match: dict[str, Any] = part["matches"][0]
    return match


def reaches(match: dict[str, Any]) -> set[str]:
    """``file:line`` of an entry's sites and of their vias."""
    sites = match["sites"]
    return {f"{s['path']}:{s['line']}" for s in sites} | {
        s["via"].split(" ")[0] for s in sites if s.get("via")
    }


def test_a_class_passed_to_the_helper_is_the_class_raised(tree: Path, store: SqliteStore) -> None:
    lib = load(tree, "configlike")
    line, where = raised(lambda: lib.ConfigObj(["[a]", "[a]"]))
    assert line == "configlike.DuplicateError: Duplicate section name at line 2."
    match = first_entry(store, line)
    assert match["message"] == "Duplicate section name at line {1}."
    assert "DuplicateError" in match["exception_types"]
    assert where in reaches(match)


def test_another_call_passes_another_class(tree: Path, store: SqliteStore) -> None:
    lib = load(tree, "configlike")
    line, where = raised(lambda: lib.ConfigObj(["[[[a]]]"]))
    match = first_entry(store, line)
    assert match["message"] == "Section too nested at line {1}."
    assert match["exception_types"] == ["NestingError"]
    assert where in reaches(match)


@pytest.mark.parametrize(
    ("call", "template"),
    [
        (lambda lib: lib.Schema(lib.Range(max=5))(9), "value must be at most %s"),
        (lambda lib: lib.Schema(lib.Length(min=3))("ab"), "length of value must be at least %s"),
    ],
)
def test_a_caught_error_raised_inside_a_new_one_answers_by_its_text(
    tree: Path, store: SqliteStore, call: Callable[[Any], object], template: str
) -> None:
    lib = load(tree, "validatorlike")
    line, where = raised(lambda: call(lib))
    assert line.startswith("validatorlike.MultipleInvalid: ")
    match = first_entry(store, line)
    assert match["message"] == template
    assert "MultipleInvalid" in match["exception_types"]
    assert where in reaches(match)  # the re-raise in Schema.__call__ is a via


def test_the_callers_own_text_is_not_the_default(tree: Path, store: SqliteStore) -> None:
    lib = load(tree, "validatorlike")
    line, _ = raised(lambda: lib.Schema(lib.Range(max=5, msg="too big, sorry"))(9))
    part = explain_text(store, line)["parts"][-1]
    assert part.get("answer") is None or part["matches"][0]["message"] != (
        "value must be at most %s"
    )


@pytest.mark.parametrize(
    ("call", "line", "template"),
    [
        (
            lambda lib: lib.validate_mapping(["a"], {"a": 1, "b": 2}),
            "mappingerrors.MultipleInvalid: extra keys not allowed @ data['b']",
            "extra keys not allowed",
        ),
        (
            lambda lib: lib.validate_mapping([lib.Required("a")], {}),
            "mappingerrors.MultipleInvalid: required key not provided @ data['a']",
            "required key not provided",
        ),
        (
            lambda lib: lib.validate_sequence([], [1], ["x"]),
            "mappingerrors.MultipleInvalid: not a valid value @ data['x']",
            "not a valid value",
        ),
    ],
)
def test_an_error_built_and_collected_answers_at_the_raise_of_the_list(
    tree: Path,
    store: SqliteStore,
    monkeypatch: pytest.MonkeyPatch,
    call: Callable[[Any], object],
    line: str,
    template: str,
) -> None:
    """voluptuous: ``errors.append(Invalid('extra keys not allowed', path))``
    ... ``raise MultipleInvalid(errors)`` (``collected.appended``); the
    required key's text is a default the key's ``msg`` overrides, written as
    ``key.msg if ... and key.msg else '...'``."""
    monkeypatch.syspath_prepend(str(tree))  # its errors module, as voluptuous.error
    lib = load(tree, "mappinglike")
    got, where = raised(lambda: call(lib))
    assert got == line
    match = first_entry(store, line)
    assert match["message"] == template
    assert "MultipleInvalid" in match["exception_types"]
    assert where in reaches(match)
