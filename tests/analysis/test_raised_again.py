"""A raise that raises again an error made elsewhere (issue 15, pattern 4):
jsonschema's keyword functions yield ``ValidationError``s and ``validate``
raises the one ``best_match`` picks. Its page lists the errors it raises."""

from __future__ import annotations

from pathlib import Path

from errordex.views import entry_json
from tests.repo_files import index_files

#: the shape of jsonschema's _keywords.py and validators.py
_SCHEMA = {
    "schema/__init__.py": "from schema.validators import validate\n",
    "schema/exceptions.py": (
        "class ValidationError(Exception):\n"
        '    """An instance was invalid under a provided schema."""\n\n\n'
        "def best_match(errors):\n"
        "    return next(iter(errors), None)\n"
    ),
    "schema/keywords.py": (
        "from schema.exceptions import ValidationError\n\n\n"
        "def type_(instance, types):\n"
        "    if not isinstance(instance, types):\n"
        '        yield ValidationError(f"{instance!r} is not of type {types!r}")\n\n\n'
        "def minimum(instance, bound):\n"
        "    if instance < bound:\n"
        '        yield ValidationError(f"{instance!r} is less than the minimum of {bound!r}")\n'
    ),
    "schema/validators.py": (
        "from schema import exceptions, keywords\n\n\n"
        "def iter_errors(instance, schema):\n"
        '    yield from keywords.type_(instance, schema["type"])\n'
        '    yield from keywords.minimum(instance, schema["minimum"])\n\n\n'
        "def validate(instance, schema):\n"
        "    error = exceptions.best_match(iter_errors(instance, schema))\n"
        "    if error is not None:\n"
        "        raise error\n"
    ),
}


def test_a_reraise_lists_the_errors_it_raises_again(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _SCHEMA, "acme/schema")
    snap = store.snapshot(sid)
    pages = {e.message: entry_json(e, snap, store) for e in store.entries()}
    again = next(p for m, p in pages.items() if "not of type" not in m and "minimum" not in m)
    related = {r["message"]: r["reason"] for r in again["analysis"].get("related", [])}
    assert related == {
        "{instance!r} is not of type {types!r}": "made elsewhere, raised here by `validate`",
        "{instance!r} is less than the minimum of {bound!r}": (
            "made elsewhere, raised here by `validate`"
        ),
    }
    # "leave `best_match(…)` out": a call's result is nothing a caller passes
    said = " ".join(s["text"] for s in again["analysis"].get("solutions", []))
    assert "best_match" not in said or "out (or `None`)" not in said
