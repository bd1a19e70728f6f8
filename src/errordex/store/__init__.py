"""Storage: snapshots, entries and sites, per repository.

``open_store(url)`` picks the backend from the URL: a path or ``sqlite:///path``
selects the embedded SQLite store (the default, under the user's data
directory); ``postgresql://`` (or ``postgres://``) the shared PostgreSQL
store (``store/postgres/``, with the ``postgres`` extra). Both are a
``Store`` (``store/base.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir

from errordex.errors import StoreError
from errordex.store.base import Store, StoredSnapshot
from errordex.store.postgres.connect import is_postgres_url, shown
from errordex.store.sqlite import SqliteStore

__all__ = ["SqliteStore", "Store", "StoredSnapshot", "default_db_path", "open_store"]


def default_db_path() -> Path:
    return Path(user_data_dir("errordex")) / "errordex.db"


def open_store(url: str | None = None, *, write: bool = False) -> Store:
    """Open the store named by ``url``, ``$ERRORDEX_DB``, or the default path:
    read-only (it must exist: ``StoreMissing`` otherwise), or with ``write``
    to index into it (created when there is none)."""
    url = url or os.environ.get("ERRORDEX_DB") or str(default_db_path())
    if is_postgres_url(url):
        try:
            from errordex.store.postgres.store import PostgresStore
        except ImportError:
            raise StoreError(
                "a postgresql:// store needs psycopg: pip install 'errordex[postgres]'"
            ) from None
        return PostgresStore(url, write=write)
    if ("://" in url and not url.startswith("sqlite:")) or url.startswith("postgres"):
        raise StoreError(
            f"unsupported database URL: {shown(url)!r} (expected a path, sqlite:///path"
            " or postgresql://…)"
        )
    path = Path(url.removeprefix("sqlite:///").removeprefix("sqlite://"))
    return SqliteStore(path) if write else SqliteStore.reader(path)
