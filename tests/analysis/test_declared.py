"""Pages of an object a user declares and the library calls (issue 16):
click's `type=` and marshmallow's `validate=` lead with the declaration the
user wrote, not with a `__call__` nobody makes by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from errordex.views import entry_json
from tests.repo_files import index_files


def _store(spec: str, tmp: pytest.TempPathFactory) -> tuple[SqliteStore, int]:
    store = SqliteStore(tmp.mktemp(spec.replace(":", "-")) / "db.sqlite")
    return store, index(spec, store, jobs=1).snapshot_id


@pytest.fixture(scope="module")
def click_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[SqliteStore, int]:
    return _store("pkg:click", tmp_path_factory)


@pytest.fixture(scope="module")
def marshmallow_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[SqliteStore, int]:
    return _store("pkg:marshmallow", tmp_path_factory)


def _page(got: tuple[SqliteStore, int], message: str) -> dict[str, Any]:
    store, sid = got
    (entry,) = [e for e in store.entries() if e.message == message]
    return entry_json(entry, store.snapshot(sid), store)


def test_clicks_bad_integer_leads_with_the_type_the_user_declared(
    click_store: tuple[SqliteStore, int],
) -> None:
    # `@click.option("--n", type=int)` then `--n x`: the user wrote the
    # option's type=, never `click.ParamType(…)(…)`
    page = _page(click_store, "{value!r} is not a valid {number_type}.")
    summary = page["analysis"]["summary"]["text"]
    assert summary.startswith(
        "You declared `click.Option(type=…)`, and click calls that `ParamType`"
    )
    assert "ParamType(…)(…)" not in summary
    # and how the command prints it, not a traceback
    assert (
        "It is printed as “Error: Invalid value for {param_hint}: {value!r} is not a valid {number_type}”."
        in summary
    )
    solutions = [s["text"] for s in page["analysis"]["solutions"]]
    assert solutions[0].startswith(
        "The value given for what you declared with `click.Option(type=…)` did not pass its `ParamType`"
    )
    assert "declare another `type=…`" in solutions[0]
    assert any(e.startswith("click/core.py:") for e in page["analysis"]["summary"]["evidence"])
    # "When it happens" is in the same terms: click passes each value to the type
    trigger = page["analysis"]["trigger"]["text"]
    assert trigger.startswith(
        "A value given for `click.Option(type=…)`, passed by click to `_NumberParamTypeBase.convert`"
    )
    assert "(…)(…)" not in trigger


def test_a_declared_types_own_check_is_named_by_its_place_not_its_private_expression(
    click_store: tuple[SqliteStore, int],
) -> None:
    """`IntRange`'s check compares ``self.min``/``self.max`` through
    ``operator`` calls: "When it happens" names the check's line instead of
    printing that expression as "the arguments you pass"."""
    trigger = _page(click_store, "{value} is not in the range {range}.")["analysis"]["trigger"]
    assert trigger["text"].startswith("A value given for `click.Option(type=…)`, passed by click")
    assert trigger["text"].endswith("rejects it.")
    assert "self.min" not in trigger["text"] and "arguments you pass" not in trigger["text"]
    check = trigger["text"].split("the check at ")[1].split(" ")[0]
    assert check in trigger["evidence"]


def test_a_marshmallow_validator_leads_with_the_fields_validate(
    marshmallow_store: tuple[SqliteStore, int],
) -> None:
    # `fields.Integer(validate=validate.Range(min=1))`, then `schema.load(...)`
    page = _page(marshmallow_store, "Must be greater than or equal to {min}.")
    summary = page["analysis"]["summary"]["text"]
    assert summary.startswith(
        "You declared `marshmallow.fields.Field(validate=…)`, and marshmallow calls that `Range`"
    )
    # the lifted check in `Range(…)(value)`'s terms is no solution a user can act on
    assert not any("Range(…)(value)" in s["text"] for s in page["analysis"]["solutions"])


def test_only_the_kinds_a_user_picks_from_are_declared(
    click_store: tuple[SqliteStore, int],
) -> None:
    # every click ParamType's `convert` (Path, Choice, DateTime, …), which
    # ParamType.__call__ runs; a Context's or a Command's pages are called
    store, sid = click_store
    declared = [
        e.sites[0].symbol or ""
        for e in store.entries()
        if (store.analysis(sid, e.id) or {}).get("facts", {}).get("declared")
    ]
    assert len(declared) >= 10
    assert all(s.endswith(".convert") for s in declared)
    assert {"Path.convert", "Choice.convert", "DateTime.convert"} <= set(declared)


#: click's shape (pallets/click, src/click/core.py), cut down: `Command.__call__`
#: builds a `Context` and a parameter reads its default from it, where an
#: assert checks the context's `default_map`
_CONTEXT = {
    "clack/__init__.py": "from .core import Command, Context, Group\n",
    "clack/core.py": (
        "class Context:\n"
        "    def __init__(self, command):\n"
        "        self.command = command\n"
        "        self.default_map = None\n\n"
        "    def lookup_default(self, name):\n"
        "        assert self.default_map is not None\n"
        "        return self.default_map.get(name)\n\n\n"
        "class Parameter:\n"
        "    def consume_value(self, ctx):\n"
        "        return ctx.lookup_default(self.name)\n\n\n"
        "class Command:\n"
        "    def make_context(self):\n"
        "        ctx = Context(self)\n"
        "        Parameter().consume_value(ctx)\n"
        "        return ctx\n\n"
        "    def main(self):\n"
        "        return self.make_context()\n\n"
        "    def __call__(self):\n"
        "        return self.main()\n\n\n"
        "class Group(Command):\n    pass\n\n\n"
        "class Chain(Command):\n    pass\n\n\n"
        "class Collection(Command):\n    pass\n"
    ),
}


def test_a_call_that_reaches_another_objects_method_declares_nothing(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _CONTEXT, "pallets/clack")
    (entry,) = [e for e in store.entries() if e.sites[0].symbol == "Context.lookup_default"]
    page = entry_json(entry, store.snapshot(sid), store)
    assert "You declared" not in page["analysis"]["summary"]["text"]
