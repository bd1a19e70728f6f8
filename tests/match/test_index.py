import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errordex.match.index import (
    MemoryIndex,
    fts_query,
    query_tokens,
    template_tokens,
    type_name,
)
from errordex.store.candidates import StoreIndex
from errordex.store.sqlite import SqliteStore
from errordex.template import Hole, Template

from .conftest import corpus, fmt

QUERIES = [
    ("Expecting value: line 1 column 1 (char 0)", "JSONDecodeError", "aaaaaaaaaaaaaaa1"),
    ("index out of bounds: the len is 3 but the index is 7", None, "aaaaaaaaaaaaaaa2"),
    ("Requires autodiff tensor.", None, "aaaaaaaaaaaaaaa3"),
    ("value index w1234 mismatch for Some(3)", None, f"{1234:016x}"),
]


def memory() -> MemoryIndex:
    return MemoryIndex.from_entries(corpus())


def test_type_name_compares_last_component() -> None:
    assert (
        type_name("json.decoder.JSONDecodeError")
        == type_name("JSONDecodeError")
        == "jsondecodeerror"
    )
    assert type_name(None) == ""


def test_template_tokens_skip_words_glued_to_placeholders() -> None:
    t = fmt("E", Hole("", "{}"), ": bad value", Hole("", "{}"), "x here")
    assert template_tokens(t) == ["bad", "here"]


def test_query_tokens_are_bounded() -> None:
    assert len(query_tokens("w" * 10 + " ".join(str(i) + "ab" for i in range(100_000)))) <= 200


@pytest.mark.parametrize(("message", "etype", "want"), QUERIES)
def test_memory_index_returns_the_right_entry_first(
    message: str, etype: str | None, want: str
) -> None:
    got = memory().candidates(message, etype, 5)
    assert got and got[0].entry_id == want


@pytest.mark.parametrize(("message", "etype", "want"), QUERIES)
def test_store_index_returns_the_right_entry(
    store: SqliteStore, message: str, etype: str | None, want: str
) -> None:
    got = StoreIndex(store).candidates(message, etype, 5)
    assert want in [c.entry_id for c in got[:5]]
    top = next(c for c in got if c.entry_id == want)
    assert top.repo == "o/r" and top.paths


def test_memory_index_finds_wordless_templates() -> None:
    got = memory().candidates("something: else", None, 10)
    assert "aaaaaaaaaaaaaaa4" in [c.entry_id for c in got]


def test_indexes_find_dynamic_templates_by_exception_type(store: SqliteStore) -> None:
    for source in (memory(), StoreIndex(store)):
        got = source.candidates("'foo'", "builtins.KeyError", 5)
        assert "aaaaaaaaaaaaaaa5" in [c.entry_id for c in got]


def test_store_index_paths_come_from_sites(store: SqliteStore) -> None:
    got = StoreIndex(store).candidates("Expecting value: line 1 column 1 (char 0)", None, 3)
    assert got[0].paths == ("Lib/json/decoder.py",)
    assert got[0].exception_types == ("json.decoder.JSONDecodeError",)
    assert got[0].template.holes[0].expr == "lineno"


def test_memory_index_scans_a_bounded_number_of_postings() -> None:
    # 30,000 templates share every word but one; the rare word still wins.
    idx = MemoryIndex()
    for i in range(30_000):
        idx.add(f"{i:016x}", "o/r", Template.literal(f"invalid value for field number z{i}"))
    got = idx.candidates("invalid value for field number z29999", None, 3)
    assert got[0].entry_id == f"{29999:016x}"
    assert idx.candidates("invalid value for field number", None, 3)


HOSTILE = [
    '"',
    '""',
    "a OR b AND NOT c",
    "NEAR(a b, 3)",
    "col : value",
    "^start*",
    "-x +y",
    "(unbalanced",
    "'single' \"double\"",
    "\x00null\x00",
    "emoji 🦀 ünïcödé",
    "{}[]()",
    "*",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_fts_query_from_hostile_text_runs(store: SqliteStore, text: str) -> None:
    store.conn.execute(
        "SELECT count(*) FROM entries_fts WHERE entries_fts MATCH ?", (fts_query([text]),)
    )
    StoreIndex(store).candidates(text, text, 5)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(max_size=12), max_size=6))
def test_fts_query_never_raises_in_sqlite(tokens: list[str]) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x)")
    conn.execute("INSERT INTO t VALUES ('a b c')")
    conn.execute("SELECT * FROM t WHERE t MATCH ?", (fts_query(tokens),)).fetchall()


_SMALL: list[MemoryIndex] = []


def memory_small() -> MemoryIndex:
    if not _SMALL:
        _SMALL.append(MemoryIndex.from_entries(corpus()[:50]))
    return _SMALL[0]


@settings(max_examples=50, deadline=None)
@given(st.text(max_size=300), st.one_of(st.none(), st.text(max_size=30)))
def test_indexes_never_raise(store: SqliteStore, message: str, etype: str | None) -> None:
    StoreIndex(store).candidates(message, etype, 5)
    memory_small().candidates(message, etype, 5)


def test_empty_template_entries_are_indexed_by_type() -> None:
    got = memory().candidates("", "StopIteration", 5)
    assert [c.entry_id for c in got] == ["aaaaaaaaaaaaaaa6"]
    assert Template.empty().is_empty


def test_memory_index_finds_template_of_common_words_by_word_pairs() -> None:
    idx = MemoryIndex()
    for i in range(15_000):
        idx.add(f"{i:016x}", "o/r", Template.literal(f"invalid option w{i} for this command"))
        idx.add(f"{i + 15_000:016x}", "o/r", Template.literal(f"the value w{i} is not allowed"))
    idx.add("f" * 16, "o/r", fmt(Hole("attr", "{attr}"), " is invalid."))
    got = idx.candidates("/tmp/x is invalid.", None, 5)
    assert got[0].entry_id == "f" * 16


def test_store_index_falls_back_to_fts_within_its_budget(store: SqliteStore) -> None:
    queries: list[str] = []
    real = store.match_candidates
    index = StoreIndex(store)
    index._current().ready = False  # postings not in line with the snapshots

    def spy(
        query: str, limit: int = 50, dynamic_only: bool = False
    ) -> list[tuple[int, str, str, str, str]]:
        queries.append(query)
        return real(query, limit, dynamic_only)

    store.match_candidates = spy  # type: ignore[method-assign]
    try:
        index.candidates("tensor value shape device w77 mismatch for 1", None, 5)
    finally:
        del store.match_candidates
    counts = store.fts_term_counts(["tensor", "value", "shape", "device", "w77", "mismatch", "for"])
    words = [w.strip('"') for w in queries[0].split(" OR ")]
    assert "w77" in words
    assert sum(counts[w] for w in words) <= StoreIndex.BUDGET or len(words) == 2


def test_memory_index_finds_few_word_templates_by_first_or_last_chunk() -> None:
    idx = MemoryIndex()
    for i in range(20_000):
        idx.add(f"{i:016x}", "o/r", Template.literal(f"chunked both w{i} data"))
    idx.add("a" * 16, "o/r", Template.literal("chunked"))
    idx.add("b" * 16, "o/r", fmt("Both: ", Hole("", "{}")))
    idx.add("c" * 16, "o/r", fmt(Hole("", "{}"), " is chunked."))
    assert idx.candidates("chunked", None, 5)[0].entry_id == "a" * 16
    assert "b" * 16 in [c.entry_id for c in idx.candidates("Both: config.toml", None, 5)]
    assert "c" * 16 in [c.entry_id for c in idx.candidates("data w3 is chunked.", None, 5)]


def test_affix_candidates_do_not_crowd_out_word_matches() -> None:
    idx = MemoryIndex()
    for i in range(200):
        idx.add(f"{i:016x}", "o/r", fmt(Hole("msg", "{msg}"), f" w{i} ", Hole("a", "{a!r}"), "."))
    idx.add("f" * 16, "o/r", Template.literal("libasan normalized to nothing."))
    got = idx.candidates("libasan normalized to nothing.", None, 10)
    assert got[0].entry_id == "f" * 16
