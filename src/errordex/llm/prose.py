"""Checked prose in the store, and laid over a page's static analysis.

A record is what one model wrote for one prompt (``prompt.Prompt.hash``),
once checked: the sections that passed, as the page shows them, and why the
others did not. It is kept by (prompt hash, model), so re-indexing a commit
where an entry's facts did not change finds it again (the same facts give
the same prompt), and changed facts do not (their prompt differs).

Reading a page costs nothing more when no prose was written for its entry:
only then is the entry's prompt built, to see whether its hash still matches.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from errordex.llm import prompt as prompts
from errordex.store.sql import Sql, dialect

Record = dict[str, Any]


def _has_table(conn: Sql) -> bool:
    """Whether the store has the table: an SQLite file opened read-only
    from before m006 has not. A PostgreSQL store is migrated whenever it is
    opened, so it has it, and a page asks the server nothing (this was
    asked once per entry a paste shows: a round trip each)."""
    if dialect(conn) == "postgresql":
        return True
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'llm_prose'").fetchone()
    return row is not None and row[0] is not None


def records_of(conn: Sql, repo: str, entry_id: str) -> list[Record]:
    """Every record written for an entry, the latest first."""
    if not _has_table(conn):
        return []
    rows = conn.execute(
        "SELECT data FROM llm_prose WHERE repo = ? AND entry_id = ?"
        " ORDER BY written_at DESC, model",
        (repo, entry_id),
    ).fetchall()
    return [json.loads(r[0]) for r in rows]


def prose_entries(conn: Sql, repo: str) -> set[str]:
    """The ids of a repository's entries that have any record."""
    if not _has_table(conn):
        return set()
    rows = conn.execute("SELECT DISTINCT entry_id FROM llm_prose WHERE repo = ?", (repo,))
    return {r[0] for r in rows}


def record_for(conn: Sql, prompt_hash: str, model: str) -> Record | None:
    if not _has_table(conn):
        return None
    row = conn.execute(
        "SELECT data FROM llm_prose WHERE prompt_hash = ? AND model = ?", (prompt_hash, model)
    ).fetchone()
    return json.loads(row[0]) if row else None


def save(conn: Sql, repo: str, entry_id: str, record: Record) -> None:
    """Keep a record, in place of any earlier one of its prompt and model (one
    statement, its own transaction on either store)."""
    row = (
        record["prompt_hash"],
        record["model"],
        repo,
        entry_id,
        json.dumps(record, ensure_ascii=False),
        record.get("written_at") or now(),
    )
    sql = (
        "INSERT INTO llm_prose VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (prompt_hash, model)"
        " DO UPDATE SET repo = excluded.repo, entry_id = excluded.entry_id,"
        " data = excluded.data, written_at = excluded.written_at"
    )
    if isinstance(conn, sqlite3.Connection):
        with conn:
            conn.execute(sql, row)
    else:
        conn.execute(sql, row)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def find(
    conn: Sql,
    data: dict[str, Any],
    file_lines: Callable[[str], Sequence[str] | None],
    records: list[Record] | None = None,
) -> Record | None:
    """The latest record written from this entry's current prompt (any
    model), or None. ``data`` is the entry's JSON with its static analysis;
    ``records``, the entry's records (``records_of``) when already read."""
    if records is None:
        records = records_of(conn, data["repo"], data["id"])
    if not records:
        return None
    built = prompts.build(data, file_lines)
    if built is None:
        return None
    return next((r for r in records if r.get("prompt_hash") == built.hash), None)


def _marked(static: Any, reason: str) -> Any:
    """The static section (or each item of it), saying why the model's was not used."""
    prov = {"kind": "static", "llm_rejected": reason}
    if isinstance(static, list):
        return [{**s, "provenance": prov} if isinstance(s, dict) else s for s in static]
    if isinstance(static, dict):
        return {**static, "provenance": prov}
    return static


def overlay(analysis: dict[str, Any], record: Record) -> dict[str, Any]:
    """``analysis`` with the record's checked sections in place of the static
    ones, and each rejected section marked with its reason. The page's
    ``provenance`` says whether any section is the model's."""
    out = dict(analysis)
    accepted: dict[str, Any] = record.get("accepted") or {}
    rejected: dict[str, str] = record.get("rejected") or {}
    used = []
    for key, section in accepted.items():
        if out.get(key):
            out[key] = section
            used.append(key)
    for key, reason in rejected.items():
        if out.get(key):
            out[key] = _marked(out[key], reason)
    about = {"model": record.get("model"), "prompt_hash": record.get("prompt_hash")}
    if used:
        out["provenance"] = {
            "kind": "llm",
            **about,
            "checked": True,
            "sections": sorted(used),
            "rejected": dict(sorted(rejected.items())),
        }
    else:
        first = next(iter(rejected.values()), "no section passed the checks")
        out["provenance"] = {"kind": "static", "llm_rejected": first, **about}
    return out


def note(analysis: dict[str, Any] | None) -> str | None:
    """What a page says of a model's part in it, or None when it has none.

    >>> note({"provenance": {"kind": "llm", "model": "m", "sections": ["summary"],
    ...                      "rejected": {"meaning": "x"}}})
    'Written by a model (m) from the facts errordex proved, and checked against the commit before it was shown: summary. 1 section failed a check and shows the static text.'
    """
    prov = (analysis or {}).get("provenance")
    if not isinstance(prov, dict) or prov.get("kind") != "llm":
        return None
    names = ", ".join(str(s).replace("_", " ") for s in prov.get("sections") or [])
    text = (
        f"Written by a model ({prov.get('model')}) from the facts errordex proved, and checked"
        f" against the commit before it was shown: {names}."
    )
    n = len(prov.get("rejected") or {})
    if n:
        text += f" {n} section{'s' if n > 1 else ''} failed a check and show{'s' if n == 1 else ''} the static text."
    return text
