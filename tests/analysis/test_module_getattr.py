"""A module's `__getattr__` (PEP 562) serves old names with a warning: the
page leads with the name the user wrote, not with a call of `__getattr__`
nobody makes (issue 16)."""

from __future__ import annotations

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from errordex.views import entry_json


def test_a_deprecated_module_name_leads_with_the_name_used(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # click/__init__.py: `def __getattr__(name)`, `if name == "BaseCommand":` warns
    store = SqliteStore(tmp_path_factory.mktemp("click") / "db.sqlite")
    sid = index("pkg:click", store, jobs=1).snapshot_id
    (entry,) = [e for e in store.entries() if e.message.startswith("'BaseCommand' is deprecated")]
    page = entry_json(entry, store.snapshot(sid), store)
    analysis = page["analysis"]
    assert analysis["summary"]["text"].startswith(
        "You used “click.BaseCommand”: the module `click` does not define it, so its "
        "`__getattr__` runs (click/__init__.py:"
    )
    assert "__getattr__(name=…)" not in str(analysis)
    assert analysis["meaning"]["text"].startswith(
        "“BaseCommand” is no name the module `click` defines itself"
    )
    assert [s["text"] for s in analysis["solutions"]] == [
        "The message says what to do: “Use 'Command' instead”."
    ]
