from __future__ import annotations

import multiprocessing
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from errordex.analysis.calltexts import CallText, CallTexts

#: (callee, path, caller, line, text), in the order a scan of files adds them
CALLS = [
    ("new", "src/a.rs", "a::run", 3, "let p = Parser::new(src);"),
    ("parse", "src/a.rs", "a::run", 4, 'p.parse("x").expect("bad")'),
    ("new", "src/a.rs", "a::other", 9, "Kind::new()"),
    ("new", "src/b.rs", "b::main", 1, "Parser::new(text)"),
    ("parse", "src/b.rs", "b::main", 2, "s.parse::<u32>()"),
    ("new", "src/c.rs", "c::f", 7, "Parser::new(&buf)"),
]

_SHARED: CallTexts | None = None


def _of(calls: list[tuple[str, str, str, int, str]], name: str) -> tuple[CallText, ...]:
    return tuple(
        (p, caller, line, text) for callee, p, caller, line, text in calls if callee == name
    )


def _filled(calls: list[tuple[str, str, str, int, str]], **kw: int) -> CallTexts:
    texts = CallTexts(**kw)
    for call in calls:
        texts.add(*call)
    return texts


@pytest.mark.parametrize("flush_calls", [1, 2, 4, 1000])
def test_calls_come_back_in_the_order_they_were_added(flush_calls: int) -> None:
    texts = _filled(CALLS, flush_calls=flush_calls)
    for flushed in (False, True):
        if flushed:
            texts.flush()
        assert texts.get("new") == _of(CALLS, "new")
        assert texts.get("parse") == _of(CALLS, "parse")
        assert texts.get("missing") == ()
        assert "new" in texts and "missing" not in texts and len(texts) == 2


def test_calls_added_after_a_read_are_read_too() -> None:
    texts = _filled(CALLS[:3], flush_calls=2)
    assert texts.get("new") == _of(CALLS[:3], "new")
    for call in CALLS[3:]:
        texts.add(*call)
    assert texts.get("new") == _of(CALLS, "new")
    texts.flush()
    assert texts.get("new") == _of(CALLS, "new")


def test_reads_past_the_cache_give_the_same_calls() -> None:
    texts = _filled(CALLS, flush_calls=2, cache_calls=1)
    for _ in range(3):
        assert texts.get("parse") == _of(CALLS, "parse")
        assert texts.get("new") == _of(CALLS, "new")


def test_unicode_and_lone_surrogates_round_trip() -> None:
    calls = [
        ("fmt", "src/ünï.rs", "m::größe", 1, 'write!(f, "→ {}", "日本語")'),
        ("fmt", "src/ünï.rs", "m::x", 2, "bad\udcff byte \ud800 and 🦀"),
        ("fmt", "src/z.rs", "", 0, ""),
    ]
    texts = _filled(calls, flush_calls=2)
    texts.flush()
    assert texts.get("fmt") == _of(calls, "fmt")


def test_call_text_file_has_no_name_to_leave_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    texts = _filled(CALLS * 1000, flush_calls=100)
    texts.flush()
    assert os.listdir(tmp_path) == []
    assert texts.get("parse") == _of(CALLS * 1000, "parse")
    texts.close()


def _read_in_child(name: str) -> tuple[CallText, ...]:
    assert _SHARED is not None
    return _SHARED.get(name)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
def test_processes_forked_after_a_flush_read_the_calls() -> None:
    global _SHARED
    many = [(f"f{i % 7}", f"src/m{i}.rs", "m::g", i, f"f{i % 7}({i})") for i in range(500)]
    texts = _filled(many, flush_calls=64)
    texts.flush()
    _SHARED = texts
    names = [f"f{i}" for i in range(7)] * 3
    try:
        with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
            got = list(pool.map(_read_in_child, names))
    finally:
        _SHARED = None
    assert got == [_of(many, n) for n in names]


@pytest.mark.parametrize("big_calls", [0, 1, 1000])
@pytest.mark.parametrize("cache_calls", [1, 16384])
def test_calls_containing_a_word_are_the_calls_whose_text_holds_it(
    monkeypatch: pytest.MonkeyPatch, big_calls: int, cache_calls: int
) -> None:
    # big_calls 0 and 1: every name of more calls is read from its joined texts
    monkeypatch.setattr("errordex.analysis.calltexts.BIG_CALLS", big_calls)
    calls = [*CALLS, ("new", "src/d.rs", "d::g", 2, "Kind::new(Parser::new(x))")]
    texts = _filled(calls[:-1], flush_calls=2, cache_calls=cache_calls)
    texts.add(*calls[-1])  # one not written yet
    for word in ("Parser", "Kind", "::new(", "src", "nowhere", "", "Parser::new(&buf)"):
        want = tuple(c for c in _of(calls, "new") if word in c[3])
        assert texts.containing("new", word) == want, word
        assert texts.containing("missing", word) == ()
    texts.get("parse")  # another name read between
    assert texts.containing("new", "Parser") == tuple(
        c for c in _of(calls, "new") if "Parser" in c[3]
    )


def test_a_text_over_lines_is_found_as_get_finds_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("errordex.analysis.calltexts.BIG_CALLS", 0)
    calls = [("f", "a.rs", "m", 1, "f(1,\n2)"), ("f", "a.rs", "m", 3, "f(2)")]
    texts = _filled(calls, flush_calls=1)
    texts.flush()
    assert texts.containing("f", "2") == _of(calls, "f")
    assert texts.containing("f", "1,\n2") == _of(calls, "f")[:1]
