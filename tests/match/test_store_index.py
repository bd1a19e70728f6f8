"""StoreIndex over the store's postings: the same answers as MemoryIndex, from SQLite."""

import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from errordex.match import index as index_module
from errordex.match.compile import hole_kind
from errordex.match.index import MemoryIndex
from errordex.model import ErrorEntry, Repo, Snapshot
from errordex.store.base import Store
from errordex.store.candidates import StoreIndex
from errordex.store.sqlite import SqliteStore
from errordex.store.writer import SnapshotData
from errordex.template import Hole, Template, Text

from .conftest import corpus, entry, fmt


def save(store: Store, entries: list[ErrorEntry], repo: str = "o/r", commit: str = "c") -> None:
    snap = Snapshot(Repo(repo), commit * 40, None, "t", "0")
    store.save(SnapshotData(snap, None, entries, [], [], [], {}))


@contextmanager
def spying(store: SqliteStore) -> Iterator[list[str]]:
    """The keys whose postings a StoreIndex reads, one by one or at once."""
    keys: list[str] = []
    one, many = store.match_postings, store.match_postings_many

    def read_one(key: str, cap: int, dead: Sequence[tuple[int, int]] = ()) -> Sequence[int]:
        keys.append(key)
        return one(key, cap, dead)

    def read_many(
        wants: Mapping[str, int], dead: Sequence[tuple[int, int]] = ()
    ) -> dict[str, Sequence[int]]:
        keys.extend(wants)
        return many(wants, dead)

    store.match_postings = read_one  # type: ignore[method-assign]
    store.match_postings_many = read_many  # type: ignore[method-assign]
    try:
        yield keys
    finally:
        del store.match_postings, store.match_postings_many


@pytest.fixture(scope="module")
def decoys(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SqliteStore]:
    """20,000 templates that share all their words but one, in 20 repos, and a few to find."""
    store = SqliteStore(tmp_path_factory.mktemp("decoys") / "db.sqlite")
    for r in range(20):
        save(
            store,
            [
                entry(
                    f"{r:04x}{i:012x}",
                    fmt(f"invalid value for field number z{r}x{i}: ", Hole("v", "{v}")),
                )
                for i in range(1000)
            ]
            + [entry(f"{r:04x}{'f' * 12}", fmt(f"the value w{r} is not allowed"))],
            repo=f"o/r{r}",
        )
    save(
        store,
        [
            entry("a" * 16, fmt(Hole("attr", "{attr}"), " is invalid.")),
            entry("b" * 16, Template.literal("chunked")),
            entry("c" * 16, fmt("Both: ", Hole("", "{}"))),
        ],
        repo="o/few",
    )
    yield store
    store.close()


def test_store_index_finds_the_template_among_decoys_sharing_its_words(
    decoys: SqliteStore,
) -> None:
    got = StoreIndex(decoys).candidates("invalid value for field number z7x123: 42", None, 5)
    assert got[0].entry_id == f"{7:04x}{123:012x}" and got[0].repo == "o/r7"


def test_store_index_reads_the_rarest_postings_only(decoys: SqliteStore) -> None:
    index = StoreIndex(decoys)
    with spying(decoys) as keys:
        got = index.candidates("invalid value for field number z3x999: 1", None, 5)
    assert got[0].entry_id == f"{3:04x}{999:012x}"
    # the rare word and its pairs; not the 20,000-long lists of "invalid" or "value"
    assert "z3x999" in keys
    assert "invalid" not in keys and "value" not in keys


def test_store_index_finds_a_template_of_common_words_by_word_pairs(decoys: SqliteStore) -> None:
    got = StoreIndex(decoys).candidates("/tmp/x is invalid.", None, 5)
    assert got[0].entry_id == "a" * 16


def test_store_index_finds_few_word_templates_by_first_or_last_chunk(decoys: SqliteStore) -> None:
    index = StoreIndex(decoys)
    assert index.candidates("chunked", None, 5)[0].entry_id == "b" * 16
    assert "c" * 16 in [c.entry_id for c in index.candidates("Both: config.toml", None, 5)]


def test_store_index_with_no_known_word_returns_nothing_and_reads_no_postings(
    decoys: SqliteStore,
) -> None:
    index = StoreIndex(decoys)
    with spying(decoys) as keys:
        got = index.candidates("qqqq zzzz 12345 unheard-of", None, 5)
    assert got == [] and keys == []


def _message(t: Template, rng: random.Random) -> str:
    values = {"int": "7", "float": "0.5", "hex": "ff", "path": "a/b.rs", "repr": "'x'"}
    return "".join(
        p.text if isinstance(p, Text) else values.get(hole_kind(p), "foo") for p in t.parts
    )


def test_store_index_ranks_like_memory_index(store: SqliteStore) -> None:
    entries = corpus()
    memory, stored = MemoryIndex.from_entries(entries), StoreIndex(store)
    rng = random.Random(3)
    for e in [*entries[:4], *rng.sample(entries, 150)]:
        message = _message(e.template, rng)
        etype = e.exception_types[0] if e.exception_types else None
        want = [c.entry_id for c in memory.candidates(message, etype, 5)]
        got = [c.entry_id for c in stored.candidates(message, etype, 5)]
        assert got[:1] == want[:1], message


def test_store_index_forgets_entries_of_an_earlier_commit(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "db.sqlite")
    save(store, [entry("1" * 16, fmt("obsolete frobnicator failure"))], commit="a")
    save(store, [entry("2" * 16, fmt("frobnicator failure, again"))], commit="b")
    got = StoreIndex(store).candidates("obsolete frobnicator failure", None, 5)
    assert [c.entry_id for c in got] == ["2" * 16]
    assert got[0].paths == ("src/lib.rs",)


def test_indexes_pick_among_many_templates_of_one_first_chunk_by_their_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 60 templates "line={}, w<i>={}" share their first chunk with the one to find, and
    # its words are too common to scan: only the first chunk finds it
    monkeypatch.setattr(index_module, "POSTINGS_BUDGET", 20)
    entries = [
        entry(
            f"{i:016x}",
            fmt("line=", Hole("a", "%r"), f", w{i}=", Hole("b", "%r"), syntax="py-percent"),
        )
        for i in range(60)
    ]
    entries += [entry(f"{i:016x}", fmt(f"tag line w{i} missing")) for i in range(100, 130)]
    entries.append(
        entry(
            "f" * 16, fmt("line=", Hole("a", "%r"), ", tag=", Hole("b", "%r"), syntax="py-percent")
        )
    )
    store = SqliteStore(tmp_path / "db.sqlite")
    save(store, entries)
    for index in (MemoryIndex.from_entries(entries), StoreIndex(store)):
        got = index.candidates("line=Some(3), tag='abc'", None, 10)
        assert got[0].entry_id == "f" * 16


def test_store_index_on_postgres_gives_sqlites_candidates(store: SqliteStore, pg_url: str) -> None:
    """The same postings, read from PostgreSQL: the same candidates, in the same order."""
    from errordex.store.postgres.store import PostgresStore

    pg = PostgresStore(pg_url)
    save(pg, corpus())
    entries = corpus()
    lite, shared = StoreIndex(store), StoreIndex(pg)
    rng = random.Random(5)
    for e in [*entries[:6], *rng.sample(entries, 120)]:
        message = _message(e.template, rng)
        etype = e.exception_types[0] if e.exception_types else None
        want = [(c.entry_id, c.score, c.sites) for c in lite.candidates(message, etype, 5)]
        got = [(c.entry_id, c.score, c.sites) for c in shared.candidates(message, etype, 5)]
        assert got == want, message
    for name in ("KeyError", "StopIteration", "ValueError"):
        want_named = [c.entry_id for c in lite.named(name, 20)]
        assert [c.entry_id for c in shared.named(name, 20)] == want_named
    assert [c.entry_id for c in shared.located("Lib/json/decoder.py", 10, 5)] == [
        c.entry_id for c in lite.located("Lib/json/decoder.py", 10, 5)
    ]
    pg.close()
