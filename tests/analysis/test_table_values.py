"""A check against a module's table of valid values (issue 16, solutions):
the page lists the values, whether or not the check is in the call's
arguments."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from errordex.views import entry_json
from tests.repo_files import index_files


def _page(store: SqliteStore, sid: int, message: str) -> dict[str, Any]:
    (entry,) = [e for e in store.entries() if e.message == message]
    return entry_json(entry, store.snapshot(sid), store)


def test_an_unlifted_check_against_a_table_lists_its_values(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # packaging/metadata.py: `if value not in _VALID_METADATA_VERSIONS:` in a
    # private validator, the list a module constant
    store = SqliteStore(tmp_path_factory.mktemp("packaging") / "db.sqlite")
    sid = index("pkg:packaging", store, jobs=1).snapshot_id
    page = _page(store, sid, "{value!r} is not a valid metadata version")
    (said,) = [s for s in page["analysis"]["solutions"] if "is one of" in s["text"]]
    assert said["text"].startswith('Give a `value` that is one of `"1.0"`, `"1.1"`, `"1.2"`')
    assert "checks it against `_VALID_METADATA_VERSIONS` at packaging/metadata.py:" in said["text"]


#: falcon's Response.set_cookie checks `same_site` against a module set
_COOKIES = {
    "cookies/__init__.py": (
        "_SAME_SITE = frozenset({'lax', 'strict', 'none'})\n\n\n"
        "def set_cookie(name, same_site=None):\n"
        "    if same_site is not None and same_site.lower() not in _SAME_SITE:\n"
        "        raise ValueError('same_site must be lax, strict or none')\n"
        "    return name\n\n\n"
        "def set_mode(mode):\n"
        "    if mode not in _MODES:\n"
        "        raise ValueError('unknown mode')\n"
        "    return mode\n\n\n"
        "_MODES = {}\n"
    ),
}


def test_a_lifted_check_against_a_table_names_the_values(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _COOKIES, "acme/cookies")
    page = _page(store, sid, "same_site must be lax, strict or none")
    text = " ".join(s["text"] for s in page["analysis"]["solutions"])
    assert "{'lax', 'strict', 'none'}" in page["analysis"]["summary"]["text"]
    assert "_SAME_SITE" not in page["analysis"]["summary"]["text"]
    assert "pass one of `'lax'`, `'strict'`, `'none'` as `same_site.lower()`" in text
    # an empty table, filled later, lists nothing
    page = _page(store, sid, "unknown mode")
    assert "{}" not in page["analysis"]["summary"]["text"]
