"""A small repository written from a dict of files, indexed into a fresh store."""

from __future__ import annotations

from pathlib import Path

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore


def index_files(root: Path, files: dict[str, str], name: str) -> tuple[SqliteStore, int]:
    """Write ``files`` (path -> text) under ``root/repo``, index them as ``name``
    into ``root/db.sqlite``; the store and the snapshot id."""
    for path, text in files.items():
        (root / "repo" / path).parent.mkdir(parents=True, exist_ok=True)
        (root / "repo" / path).write_text(text, encoding="utf-8")
    store = SqliteStore(root / "db.sqlite")
    sid = index(str(root / "repo"), store, name=name, jobs=1).snapshot_id
    return store, sid
