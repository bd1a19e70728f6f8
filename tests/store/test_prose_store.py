"""The model's checked prose is kept in either store (``errordex.llm.prose``)."""

from __future__ import annotations

from typing import Any

from errordex.llm import prose
from errordex.store.base import Store


def _record(text: str, written_at: str) -> prose.Record:
    return {
        "prompt_hash": "abc123",
        "model": "smollm2",
        "written_at": written_at,
        "sections": {"summary": text},
    }


def test_prose_is_kept_by_prompt_and_model_and_replaced_in_place(new_store: Store) -> None:
    conn = new_store.conn
    assert prose.records_of(conn, "acme/lib", "e1") == []
    prose.save(conn, "acme/lib", "e1", _record("first", "2026-12-01T00:00:00+00:00"))
    prose.save(conn, "acme/lib", "e1", _record("second", "2026-12-02T00:00:00+00:00"))
    (kept,) = prose.records_of(conn, "acme/lib", "e1")
    assert kept["sections"] == {"summary": "second"}
    assert prose.record_for(conn, "abc123", "smollm2") == kept
    assert prose.record_for(conn, "abc123", "another-model") is None
    assert prose.prose_entries(conn, "acme/lib") == {"e1"}
    assert prose.prose_entries(conn, "other/repo") == set()


def test_reading_an_entrys_prose_is_one_statement(new_store: Store) -> None:
    conn = new_store.conn
    run: list[str] = []

    class Counted:
        dialect = getattr(conn, "dialect", "sqlite")

        def execute(self, sql: str, parameters: Any = (), /) -> Any:
            run.append(sql)
            return conn.execute(sql, parameters)

        def executemany(self, sql: str, parameters: Any, /) -> Any:
            return conn.executemany(sql, parameters)

    assert prose.records_of(Counted(), "acme/lib", "e1") == []
    # SQLite asks whether an old file has the table; a PostgreSQL store has it
    assert len(run) == (1 if Counted.dialect == "postgresql" else 2), run
