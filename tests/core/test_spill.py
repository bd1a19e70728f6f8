from __future__ import annotations

import multiprocessing
import os
import pickle
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from errordex.analysis import scan
from errordex.analysis.evidence import FileEvidence
from errordex.scratch.spill import Spill

RUST = 'pub fn parse(s: &str) -> u32 {\n    s.parse().expect("not a number")\n}\n'

_SHARED: Spill[FileEvidence] | None = None


def _read_in_child(key: str) -> FileEvidence | None:
    assert _SHARED is not None
    return _SHARED.get(key)


def test_spill_gives_back_equal_values_and_none_for_an_unknown_key() -> None:
    ev = scan("src/lib.rs", RUST, "rust")
    with Spill[FileEvidence]() as spill:
        spill.put("src/lib.rs", ev)
        spill.put("other.rs", FileEvidence(path="other.rs", language="rust", n_lines=1))
        assert spill.get("src/lib.rs") == ev
        assert spill.get("src/lib.rs") is not ev
        assert spill.get("missing.rs") is None
        assert len(spill) == 2 and "other.rs" in spill


def test_spill_key_written_again_reads_the_last_value() -> None:
    with Spill[str]() as spill:
        spill.put("k", "first")
        spill.put("k", "second")
        assert spill.get("k") == "second"


def test_spill_values_come_back_in_the_order_keys_were_first_written() -> None:
    with Spill[tuple[str, ...]]() as spill:
        spill.put("b.py", ("b",))
        spill.put_pickled("a.py", pickle.dumps(("a", "A")))
        spill.put("b.py", ("b", "again"))
        assert list(spill.values()) == [("b", "again"), ("a", "A")]
        assert list(spill.values()) == list(spill.values())  # each pass reads them again


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
def test_processes_forked_after_the_writes_read_the_values() -> None:
    global _SHARED
    evs = [scan(f"src/m{i}.rs", RUST * (i + 1), "rust") for i in range(20)]
    with Spill[FileEvidence]() as spill:
        for ev in evs:
            spill.put(ev.path, ev)
        _SHARED = spill
        try:
            with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
                got = list(pool.map(_read_in_child, [ev.path for ev in reversed(evs)]))
        finally:
            _SHARED = None
    assert got == list(reversed(evs))


def test_spill_file_has_no_name_to_leave_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with Spill[str]() as spill:
        spill.put("k", "v" * 100_000)
        assert os.listdir(tmp_path) == []
        assert spill.get("k") == "v" * 100_000
