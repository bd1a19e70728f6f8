"""Append-only schema migrations for the SQLite store.

Each migration is a function ``mNNN_name(conn)`` registered with
``@migration``; it runs once, in order, and is recorded in ``_migrations``.
Never edit a migration that has shipped: add a new one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

Migration = Callable[[sqlite3.Connection], None]
MIGRATIONS: list[Migration] = []


def migration(fn: Migration) -> Migration:
    MIGRATIONS.append(fn)
    return fn


@migration
def m001_initial(conn: sqlite3.Connection) -> None:
    conn.executescript(
        """
        CREATE TABLE repos (
            id INTEGER PRIMARY KEY,
            slug TEXT NOT NULL UNIQUE,
            url TEXT,
            default_branch TEXT,
            current_snapshot INTEGER
        );
        CREATE TABLE snapshots (
            id INTEGER PRIMARY KEY,
            repo_id INTEGER NOT NULL REFERENCES repos(id),
            "commit" TEXT NOT NULL,
            commit_date TEXT,
            indexed_at TEXT NOT NULL,
            tool_version TEXT NOT NULL,
            version_label TEXT,
            forge_ref TEXT,
            stats TEXT NOT NULL,
            UNIQUE (repo_id, "commit")
        );
        CREATE TABLE entries (
            snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
            id TEXT NOT NULL,
            message TEXT NOT NULL,
            key TEXT NOT NULL,
            template TEXT NOT NULL,
            kinds TEXT NOT NULL,
            exception_types TEXT NOT NULL,
            dynamic INTEGER NOT NULL,
            n_sites INTEGER NOT NULL,
            n_test_sites INTEGER NOT NULL,
            UNIQUE (snapshot_id, id)
        );
        CREATE INDEX entries_by_id ON entries(id);
        CREATE TABLE sites (
            snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
            entry_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            path TEXT NOT NULL,
            line INTEGER NOT NULL,
            data TEXT NOT NULL
        );
        CREATE INDEX sites_by_entry ON sites(snapshot_id, entry_id, seq);
        CREATE INDEX sites_by_path ON sites(snapshot_id, path);
        CREATE TABLE files (
            snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
            path TEXT NOT NULL,
            text BLOB NOT NULL,
            PRIMARY KEY (snapshot_id, path)
        );
        CREATE TABLE packages (
            snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
            name TEXT NOT NULL,
            data TEXT NOT NULL
        );
        CREATE TABLE classes (
            snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
            name TEXT NOT NULL,
            data TEXT NOT NULL
        );
        CREATE INDEX classes_by_name ON classes(snapshot_id, name);
        CREATE TABLE skips (
            snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
            path TEXT NOT NULL,
            reason TEXT NOT NULL
        );
        CREATE TABLE entry_history (
            repo_id INTEGER NOT NULL REFERENCES repos(id),
            entry_id TEXT NOT NULL,
            first_seen TEXT NOT NULL,
            last_seen TEXT NOT NULL,
            PRIMARY KEY (repo_id, entry_id)
        );
        -- Search over the constant text of each message (rowid = entries.rowid).
        CREATE VIRTUAL TABLE entries_fts USING fts5(
            literal, exception_types, tokenize = 'unicode61'
        );
        """
    )


@migration
def m002_analysis(conn: sqlite3.Connection) -> None:
    conn.executescript(
        """
        CREATE TABLE analyses (
            snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
            entry_id TEXT NOT NULL,
            data TEXT NOT NULL,
            PRIMARY KEY (snapshot_id, entry_id)
        );
        -- Every identifier of the snapshot's code (a JSON list), for `errordex verify`.
        CREATE TABLE snapshot_idents (
            snapshot_id INTEGER PRIMARY KEY REFERENCES snapshots(id),
            data TEXT NOT NULL
        );
        """
    )


@migration
def m003_match_postings(conn: sqlite3.Connection) -> None:
    """The matcher's inverted index (``errordex.store.postings``), filled
    for the snapshots already current."""
    from errordex.store import postings

    if not conn.in_transaction:
        conn.execute("BEGIN")  # executescript would commit: one transaction, all or nothing
    for stmt in (
        # one row per segment and key: the doc ids (uint32 LE) of its entries with the key
        "CREATE TABLE match_postings (seg INTEGER NOT NULL, term TEXT NOT NULL,"
        " n INTEGER NOT NULL, docs BLOB NOT NULL, PRIMARY KEY (seg, term)) WITHOUT ROWID",
        "CREATE TABLE match_segments (seg INTEGER PRIMARY KEY, level INTEGER NOT NULL,"
        " entries INTEGER NOT NULL)",
        # docs lo..hi of a snapshot are in segment seg; dead: no longer current
        "CREATE TABLE match_snapshots (snapshot_id INTEGER NOT NULL, seg INTEGER NOT NULL,"
        " lo INTEGER NOT NULL, hi INTEGER NOT NULL, version INTEGER NOT NULL,"
        " indexed_at TEXT NOT NULL, dead INTEGER NOT NULL)",
        "CREATE TABLE match_docs (doc INTEGER PRIMARY KEY, snapshot_id INTEGER NOT NULL,"
        " entry_id TEXT NOT NULL, keys TEXT NOT NULL, types TEXT NOT NULL)",
    ):
        conn.execute(stmt)
    postings.sync(conn)


@migration
def m004_ident_names(conn: sqlite3.Connection) -> None:
    """A snapshot's identifiers one row each, written from the index's temp
    table without being held in memory (``snapshot_idents`` keeps a JSON
    list; snapshots written before this still read from it)."""
    conn.execute(
        "CREATE TABLE snapshot_ident_names (snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),"
        " name TEXT NOT NULL, PRIMARY KEY (snapshot_id, name)) WITHOUT ROWID"
    )


@migration
def m005_commit_kind(conn: sqlite3.Connection) -> None:
    """Whether a snapshot's ``commit`` is a git commit or a content hash (a
    plain directory, an installed package). Before this, only git commits
    had a commit date."""
    conn.execute(
        "ALTER TABLE snapshots ADD COLUMN commit_kind TEXT NOT NULL DEFAULT 'git'"
        " CHECK (commit_kind IN ('git', 'content'))"
    )
    conn.execute("UPDATE snapshots SET commit_kind = 'content' WHERE commit_date IS NULL")


@migration
def m006_llm_prose(conn: sqlite3.Connection) -> None:
    """Prose a model wrote and errordex checked (``errordex.llm.prose``), by
    the hash of the prompt it was written from and the model: an entry whose
    facts did not change finds it again after re-indexing."""
    conn.execute(
        "CREATE TABLE llm_prose (prompt_hash TEXT NOT NULL, model TEXT NOT NULL,"
        " repo TEXT NOT NULL, entry_id TEXT NOT NULL, data TEXT NOT NULL,"
        " written_at TEXT NOT NULL, PRIMARY KEY (prompt_hash, model))"
    )
    conn.execute("CREATE INDEX llm_prose_by_entry ON llm_prose(repo, entry_id)")


@migration
def m007_queue_tasks(conn: sqlite3.Connection) -> None:
    """The distributed queue's record of every task (``errordex.store.tasks``):
    what was asked, its state, and why it failed, shared by the workers and
    ``errordex queue status``. The broker only carries the messages."""
    conn.execute(
        "CREATE TABLE queue_tasks (task_id TEXT PRIMARY KEY, source TEXT NOT NULL, rev TEXT,"
        " job TEXT NOT NULL, state TEXT NOT NULL"
        " CHECK (state IN ('queued', 'running', 'done', 'skipped', 'failed')),"
        ' attempts INTEGER NOT NULL DEFAULT 0, lost INTEGER NOT NULL DEFAULT 0, reason TEXT, repo TEXT, "commit" TEXT,'
        " worker TEXT, enqueued_at TEXT NOT NULL, started_at TEXT, finished_at TEXT,"
        " seconds REAL, bytes INTEGER)"
    )
    conn.execute("CREATE INDEX queue_tasks_by_state ON queue_tasks(state)")


@migration
def m008_queue_parts(conn: sqlite3.Connection) -> None:
    """A big repository's task split into parts (``errordex.parts``): each
    part is a task of its own whose ``parent`` is the repository's, and its
    extraction waits in ``queue_staged``, seen by nobody, until the last part
    is done and one task (``merger``) merges them into the snapshot."""
    for column in ("parent TEXT", "part INTEGER", "parts INTEGER", "merger TEXT"):
        conn.execute(f"ALTER TABLE queue_tasks ADD COLUMN {column}")
    conn.execute("CREATE INDEX queue_tasks_by_parent ON queue_tasks(parent)")
    conn.execute(
        "CREATE TABLE queue_staged (task_id TEXT NOT NULL, seq INTEGER NOT NULL,"
        " data BLOB NOT NULL, PRIMARY KEY (task_id, seq))"
    )


def pending(conn: sqlite3.Connection) -> list[str]:
    """Names of the migrations not applied to the database yet, in order."""
    done: set[str] = set()
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = '_migrations'").fetchone():
        done = {row[0] for row in conn.execute("SELECT name FROM _migrations")}
    return [fn.__name__ for fn in MIGRATIONS if fn.__name__ not in done]


def apply(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
    done = {row[0] for row in conn.execute("SELECT name FROM _migrations")}
    for fn in MIGRATIONS:
        if fn.__name__ in done:
            continue
        with conn:
            fn(conn)
            conn.execute(
                "INSERT INTO _migrations VALUES (?, datetime('now'))",
                (fn.__name__,),
            )
