"""The matcher's postings (errordex.store.postings) stay equal to the current snapshots."""

import json
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from errordex.explain import explain_text
from errordex.match.index import entry_keys
from errordex.match.keys import first_names
from errordex.store import migrations, postings
from errordex.store.candidates import StoreIndex
from errordex.store.sql import Sql, dialect
from errordex.store.sqlite import SqliteStore
from errordex.template import Template
from tests.store.conftest import AnyStore
from tests.store.test_sqlite import data

Posting = tuple[int, str]  # (snapshot id, entry id)


def expected(conn: Sql) -> dict[str, set[Posting]]:
    """The postings, computed from scratch from the current entries: each
    entry's keys, and a snapshot's first entry of each type name's key."""
    out: dict[str, set[Posting]] = {}
    seen: dict[int, set[str]] = {}
    for sid, eid, t, types in conn.execute(
        "SELECT e.snapshot_id, e.id, e.template, e.exception_types FROM entries e"
        " JOIN repos r ON r.current_snapshot = e.snapshot_id ORDER BY e.snapshot_id, e.rowid"
    ):
        firsts = first_names(json.loads(types), seen.setdefault(sid, set()))
        for k in entry_keys(Template.from_json(json.loads(t)), json.loads(types)) + firsts:
            out.setdefault(postings.clean(k), set()).add((sid, eid))
    return out


def stored(store: AnyStore) -> dict[str, set[Posting]]:
    """The live postings as a reader sees them, through ``match_postings``."""
    conn = store.conn
    status = store.match_status()
    assert status.ready
    doc = {
        d: (sid, eid)
        for d, sid, eid in conn.execute("SELECT doc, snapshot_id, entry_id FROM match_docs")
    }
    out: dict[str, set[Posting]] = {}
    for (term,) in conn.execute("SELECT DISTINCT term FROM match_postings"):
        ids = store.match_postings(term, 10**9, status.dead)
        assert len(ids) == len(set(ids))
        if ids:
            out[term] = {doc[d] for d in ids}
    return out


MESSAGES = [
    "index out of range",
    "value is invalid",
    "invalid value for index",
    "chunked",
    "index value",
]


@pytest.fixture(autouse=True)
def merge_by_twos(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(postings, "FANOUT", 2)


def test_postings_follow_new_commits_and_reindexing(new_store: AnyStore) -> None:
    store = new_store
    store.save(data("a" * 40, MESSAGES))
    store.save(data("a" * 40, MESSAGES[:3], slug="o/s"))
    assert stored(store) == expected(store.conn)
    store.save(data("b" * 40, [*MESSAGES[1:], "index gone"]))  # a new commit becomes current
    assert stored(store) == expected(store.conn)
    store.save(data("b" * 40, MESSAGES[:2]))  # the same commit again
    assert stored(store) == expected(store.conn)
    assert store.match_status().ready
    assert store.match_status().entries == 2 + 3


def test_many_snapshots_are_merged_into_few_segments(new_store: AnyStore) -> None:
    store = new_store
    for i in range(40):
        store.save(data("a" * 40, [f"index w{j} value" for j in range(i * 5, i * 5 + 5)], f"o/{i}"))
    store.save(data("b" * 40, ["index moved"], "o/3"))  # o/3's first snapshot is dead
    # 196 entries, merged by twos: a segment per level at most
    assert store.conn.execute("SELECT count(*) FROM match_segments").fetchone()[0] <= 8
    assert len(store.match_postings("index", 1000, store.match_status().dead)) == 196
    assert len(store.match_postings("index", 7)) == 7
    assert store.match_term_counts(["w7", "moved", "nope"]) == {"w7": 1, "moved": 1}
    assert stored(store) == expected(store.conn)


def test_a_store_from_before_m003_is_backfilled_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    store = SqliteStore(path)
    store.save(data("a" * 40, MESSAGES))
    for table in ("match_postings", "match_segments", "match_snapshots", "match_docs"):
        store.conn.execute(f"DROP TABLE {table}")
    store.conn.execute("DELETE FROM _migrations WHERE name = 'm003_match_postings'")
    assert not store.match_status().ready
    store.close()
    store = SqliteStore(path)
    assert store.match_status().ready
    assert stored(store) == expected(store.conn)


def test_a_snapshot_written_without_postings_is_not_trusted(
    new_store: AnyStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = new_store
    store.save(data("a" * 40, MESSAGES))
    # what an older errordex does: the same commit again (same snapshot id), no postings
    with monkeypatch.context() as m:
        m.setattr(postings, "sync", lambda conn, fresh=None: None)
        again = data("a" * 40, MESSAGES[1:])
        store.save(replace(again, snapshot=replace(again.snapshot, indexed_at="later")))
    assert not store.match_status().ready
    store.save(data("a" * 40, MESSAGES[:1], slug="o/s"))  # the next write catches up
    assert store.match_status().ready
    assert stored(store) == expected(store.conn)


def test_segments_of_other_key_rules_are_rebuilt(
    new_store: AnyStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = new_store
    store.save(data("a" * 40, MESSAGES))
    monkeypatch.setattr(postings, "KEYS_VERSION", postings.KEYS_VERSION + 1)
    assert not store.match_status().ready
    store.save(data("a" * 40, MESSAGES[:1], slug="o/s"))
    assert store.match_status().ready
    assert stored(store) == expected(store.conn)


def test_fresh_database_has_the_postings_tables(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "db.sqlite", isolation_level=None)
    migrations.apply(conn)
    cols = {
        t: [r[1] for r in conn.execute(f"PRAGMA table_info({t})")]
        for t in ("match_postings", "match_segments", "match_snapshots", "match_docs")
    }
    assert cols == {
        "match_postings": ["seg", "term", "n", "docs"],
        "match_segments": ["seg", "level", "entries"],
        "match_snapshots": ["snapshot_id", "seg", "lo", "hi", "version", "indexed_at", "dead"],
        "match_docs": ["doc", "snapshot_id", "entry_id", "keys", "types"],
    }


def test_entries_of_a_replaced_snapshot_are_skipped_until_merged_away(new_store: AnyStore) -> None:
    store = new_store
    store.save(data("a" * 40, ["old one", "old two"], slug="o/a"))
    store.save(data("a" * 40, ["keep one", "keep two", "keep three"], slug="o/b"))
    # merged by twos into one segment of 5; o/a's new commit leaves 2 of them dead
    store.save(data("b" * 40, ["new one"], slug="o/a"))
    assert store.match_status().dead
    assert stored(store) == expected(store.conn)
    assert "old" not in stored(store)
    assert store.match_term_counts(["old"]) == {"old": 2}  # counted until the merge


class Counted:
    """A store's connection that keeps the statements run through it."""

    def __init__(self, conn: Sql) -> None:
        self.conn = conn
        self.statements: list[str] = []
        self.dialect = dialect(conn)

    def execute(self, sql: str, parameters: Any = (), /) -> Any:
        self.statements.append(sql)
        return self.conn.execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> Any:
        return self.conn.executemany(sql, parameters)


def test_a_paste_reads_its_postings_in_one_statement(new_store: AnyStore) -> None:
    store = new_store
    store.save(data("a" * 40, [*MESSAGES, "no such index value: {}", "index"]))
    index = StoreIndex(store)
    message = "invalid value for index 3"
    before = [c.entry_id for c in index.candidates(message, "ValueError", 5)]
    conn = store.conn
    counted = store.conn = Counted(conn)  # type: ignore[assignment]
    try:
        got = [c.entry_id for c in index.candidates(message, "ValueError", 5)]
    finally:
        store.conn = conn
    assert got == before and got
    reads = [s for s in counted.statements if "FROM match_postings" in s and "sum(n)" not in s]
    # the words, the word pairs, the message's first and last chunks, the type: at once
    assert len(reads) == 1, reads


def test_postings_read_at_once_are_those_read_one_by_one(new_store: AnyStore) -> None:
    store = new_store
    for i in range(12):
        store.save(data("a" * 40, [f"index w{j} value" for j in range(i * 5, i * 5 + 5)], f"o/{i}"))
    store.save(data("b" * 40, ["index moved"], "o/3"))  # o/3's first snapshot is dead
    dead = store.match_status().dead
    assert dead
    wants = {"index": 7, "value": 1000, "w7": 3, "moved": 5, "nope": 4, "index value": 50}
    one_by_one = {k: list(store.match_postings(k, cap, dead)) for k, cap in wants.items()}
    at_once = {k: list(v) for k, v in store.match_postings_many(wants, dead).items()}
    assert at_once == one_by_one
    assert len(at_once["value"]) == 12 * 5 - 5 and at_once["nope"] == []


def test_an_explain_reads_its_matches_entries_at_once(new_store: AnyStore) -> None:
    store = new_store
    store.save(data("a" * 40, [f"invalid value for index {w}" for w in ("a", "b", "c", "d")]))
    conn = store.conn
    counted = store.conn = Counted(conn)  # type: ignore[assignment]
    try:
        out = explain_text(store, "ValueError: invalid value for index a")
    finally:
        store.conn = conn
    assert len(out["parts"][-1]["matches"]) == 4
    entry_reads = [s for s in counted.statements if s.startswith("SELECT e.snapshot_id, e.id,")]
    assert len(entry_reads) == 1, entry_reads  # one repository: one read of its four entries


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_repository_analysed_in_chunks_files_each_type_name_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    """The first entry of a type name gets the name's own key once per
    repository, not once per chunk of the analysis (which made the index
    differ between jobs 1 and 2, and from a rebuild of the postings)."""
    from errordex import pipeline

    src = tmp_path / "src"
    src.mkdir()
    (src / "m.py").write_text(
        "".join(
            f"def f{i}(x):\n    if x == {i}:\n        raise {kind}('case {i} is wrong')\n\n\n"
            for i, kind in enumerate(["KeyError", "ValueError", "KeyError", "TypeError"] * 3)
        )
    )
    monkeypatch.setattr(pipeline, "_CHUNK_ENTRIES", 2)
    monkeypatch.setattr(pipeline, "_CHUNKS_PER_JOB", 4)
    store = SqliteStore(tmp_path / "e.db")
    pipeline.index(str(src), store, name="o/chunks", jobs=jobs)
    firsts = [k for k in stored(store) if k.startswith("@^")]
    assert sorted(firsts) == ["@^keyerror", "@^typeerror", "@^valueerror"]
    assert all(len(stored(store)[k]) == 1 for k in firsts)
    assert stored(store) == expected(store.conn)
