import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from errordex.analysis import facts_json
from errordex.errors import NotFound, StoreError
from errordex.group import group
from errordex.model import Repo, Snapshot, ThrowSite
from errordex.store import open_store
from errordex.store.sqlite import SqliteStore
from errordex.store.writer import SnapshotData, analysis_blob
from errordex.template import Template
from tests.store.conftest import AnyStore


def data(commit: str, messages: list[str], slug: str = "o/r") -> SnapshotData:
    sites = [
        ThrowSite(
            path="m.py",
            line=i + 1,
            column=1,
            end_line=i + 1,
            language="python",
            kind="raise",
            template=Template.literal(m),
            exception_type="ValueError",
        )
        for i, m in enumerate(messages)
    ]
    snap = Snapshot(
        repo=Repo(slug), commit=commit, commit_date=None, indexed_at="t", tool_version="0"
    )
    return SnapshotData(
        snapshot=snap,
        forge_ref=None,
        entries=group(slug, sites),
        packages=[],
        classes=[],
        skips=[],
        files={"m.py": "\n".join(messages)},
    )


def test_fresh_database_has_the_expected_schema(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "db.sqlite")
    tables = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {
        "repos",
        "snapshots",
        "entries",
        "sites",
        "files",
        "packages",
        "classes",
        "skips",
        "entry_history",
        "entries_fts",
        "snapshot_ident_names",
        "_migrations",
    } <= tables
    cols = [r[1] for r in store.conn.execute("PRAGMA table_info(sites)")]
    assert cols == ["snapshot_id", "entry_id", "seq", "path", "line", "data"]


def test_reindexing_the_same_commit_is_idempotent(new_store: AnyStore) -> None:
    store = new_store
    store.save(data("a" * 40, ["one", "two"]))
    store.save(data("a" * 40, ["one", "two"]))
    assert store.count_entries() == 2
    assert store.conn.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 1
    if isinstance(store, SqliteStore):
        assert store.conn.execute("SELECT count(*) FROM entries_fts").fetchone()[0] == 2


def test_new_commit_keeps_ids_and_becomes_current(new_store: AnyStore) -> None:
    store = new_store
    store.save(data("a" * 40, ["one", "two"]))
    first = {e.id for e in store.entries()}
    store.save(data("b" * 40, ["one", "three"]))
    now = {e.id: e for e in store.entries()}
    assert len(first & set(now)) == 1
    kept = now[(first & set(now)).pop()]
    assert kept.first_seen == "a" * 40 and kept.last_seen == "b" * 40
    assert store.current("o/r").commit == "b" * 40


def test_failed_save_leaves_previous_snapshot_intact(new_store: AnyStore) -> None:
    store = new_store
    store.save(data("a" * 40, ["one"]))
    broken = data("a" * 40, ["two"])
    broken.files["bad"] = None  # type: ignore[assignment]
    with pytest.raises(AttributeError):
        store.save(broken)
    assert [e.message for e in store.entries()] == ["one"]


def test_a_snapshot_is_stored_only_while_it_is_current(new_store: AnyStore) -> None:
    store = new_store
    assert not store.has_snapshot("o/r", "a" * 40)
    store.save(data("a" * 40, ["one"]))
    assert store.has_snapshot("o/r", "a" * 40)
    assert not store.has_snapshot("o/other", "a" * 40)
    store.save(data("b" * 40, ["one"]))
    assert store.has_snapshot("o/r", "b" * 40)
    assert not store.has_snapshot("o/r", "a" * 40)


def test_unknown_entry_is_not_found(new_store: AnyStore) -> None:
    store = new_store
    with pytest.raises(NotFound):
        store.entry("0" * 16)


def test_a_file_that_is_not_a_database_is_a_store_error(tmp_path: Path) -> None:
    p = tmp_path / "junk.db"
    p.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="is not an SQLite database"):
        SqliteStore(p)
    assert p.read_bytes() == b"this is not sqlite" * 100


def test_a_postgres_url_with_no_server_behind_it_is_a_store_error() -> None:
    with pytest.raises(StoreError, match=r"cannot connect to the database postgresql://nobody@127"):
        open_store("postgresql://nobody@127.0.0.1:1/x")


def test_text_filter_escapes_like_wildcards(new_store: AnyStore) -> None:
    store = new_store
    store.save(data("a" * 40, ["100% done", "100 done"]))
    assert [e.message for e in store.entries(text="100%")] == ["100% done"]
    assert [e.message for e in store.entries(text="0_d")] == []


def test_analyses_are_kept_compressed_and_older_text_ones_still_read(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "db.sqlite")
    base = data("a" * 40, ["one", "two"])
    first, second = (e.id for e in base.entries)
    analysis = {"facts": {"when": [{"text": "caf\u00e9 \udcff"}]}, "analysis": {"summary": "s"}}
    sid = store.save(replace(base, analyses={first: analysis}))
    (stored,) = store.conn.execute("SELECT data FROM analyses WHERE entry_id = ?", (first,))
    assert isinstance(stored[0], bytes)
    # a lone surrogate is stored as U+FFFD, as in every other text column
    assert store.analysis(sid, first) == {
        "facts": {"when": [{"text": "caf\u00e9 \ufffd"}]},
        "analysis": {"summary": "s"},
    }
    # a snapshot written before analyses were compressed holds JSON text
    store.conn.execute(
        "INSERT INTO analyses VALUES (?, ?, ?)", (sid, second, '{"facts": {}, "analysis": {}}')
    )
    assert store.analysis(sid, second) == {"facts": {}, "analysis": {}}
    assert dict(store.analyses(sid)) == {
        first: store.analysis(sid, first),
        second: {"facts": {}, "analysis": {}},
    }


def test_identifiers_are_rows_and_an_older_snapshots_json_list_still_reads(
    new_store: AnyStore,
) -> None:
    store = new_store
    sid = store.save(replace(data("a" * 40, ["one"]), idents={"b", "a", "é"}))
    assert store.idents(sid) == {"a", "b", "é"}
    rows = store.conn.execute("SELECT name FROM snapshot_ident_names WHERE snapshot_id = ?", (sid,))
    assert [r[0] for r in rows] == ["a", "b", "é"]
    # a snapshot written before the names were rows
    store.conn.execute("DELETE FROM snapshot_ident_names")
    store.conn.execute("INSERT INTO snapshot_idents VALUES (?, ?)", (sid, '["x", "y"]'))
    assert store.idents(sid) == {"x", "y"}


def test_an_analysis_blob_from_its_facts_json_is_the_same_bytes_surrogate_or_not() -> None:
    for text in ("plain", "caf\u00e9 \u2014", "caf\u00e9 \udcff"):
        facts: dict[str, list[dict[str, Any]]] = {"when": [{"text": text}]}
        analysis = {"facts": facts, "analysis": {"summary": text}}
        blob = analysis_blob(analysis, facts_json(facts))
        assert blob == analysis_blob(analysis)
        assert "\udcff" not in zlib.decompress(blob).decode("utf-8")
