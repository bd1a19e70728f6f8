"""The model's checked prose is kept in either store (``errordex.llm.prose``)."""

from __future__ import annotations

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
