"""The index keeps evidence on disk and reads it back by path; what it
writes must not depend on how much of it stays in memory."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from errordex import pipeline
from errordex.ingest import IngestOptions
from errordex.scratch.spill import Spill
from errordex.store.sqlite import SqliteStore

CRATES = Path("/usr/share/cargo/registry")
STDLIB = Path(sysconfig.get_paths()["stdlib"])
FIXTURES = Path(__file__).parents[1] / "analysis" / "fixtures"


def _first_crates(n: int) -> set[str]:
    return set(sorted(p.name for p in CRATES.iterdir() if p.is_dir())[:n])


def _analyses(db: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as c:
        return c.execute("SELECT entry_id, data FROM analyses ORDER BY entry_id").fetchall()


CORPORA: dict[str, tuple[Path, Callable[[str], bool]]] = {
    "crates": (CRATES, lambda p: p.split("/", 1)[0] in _first_crates(12)),
    "stdlib": (STDLIB, lambda p: p.startswith(("json/", "email/", "logging/"))),
}


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_analyses_are_the_same_when_every_file_is_read_again(
    corpus: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, part = CORPORA[corpus]
    if not root.is_dir():
        pytest.skip(f"no {root}")
    reads = 0
    real_get = Spill.get

    def counting_get(self: Spill[Any], key: str) -> Any:
        nonlocal reads
        reads += 1
        return real_get(self, key)

    monkeypatch.setattr(Spill, "get", counting_get)

    def keep(p: str) -> bool:
        return pipeline.wanted(p) and part(p)

    got = []
    for cache in (1, 1_000_000):
        monkeypatch.setattr(pipeline, "EVIDENCE_CACHE_FILES", cache)
        reads = 0
        db = tmp_path / f"{cache}.db"
        opts = IngestOptions(wanted=keep)
        pipeline.index(str(root), SqliteStore(db), options=opts, name="real/corpus", jobs=1)
        got.append((_analyses(db), reads))
    (tiny, tiny_reads), (big, big_reads) = got
    assert tiny and tiny == big
    # The one-file cache read files again and again; the big one read each once.
    assert tiny_reads > 2 * big_reads > 0


def test_identifiers_handed_over_in_parts_are_stored_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "py"
    shutil.copytree(FIXTURES / "py", src)
    for f in list(src.rglob("*.py_")):
        f.rename(f.with_suffix(".py"))
    got = []
    for held in (3, 1_000_000):
        monkeypatch.setattr(pipeline, "IDENTS_HELD", held)
        store = SqliteStore(tmp_path / f"{held}.db")
        sid = pipeline.index(str(src), store, name="fixture/py", jobs=1).snapshot_id
        got.append(store.idents(sid))
    assert len(got[0]) > 10 and got[0] == got[1]


def _cli(db: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "errordex.cli", *args],
        env={**os.environ, "ERRORDEX_DB": str(db), **env},
        capture_output=True,
        text=True,
    )


def test_kill_during_analysis_leaves_previous_snapshot_and_no_spill_file(tmp_path: Path) -> None:
    src = tmp_path / "py"
    shutil.copytree(FIXTURES / "py", src)
    for f in list(src.rglob("*.py_")):
        f.rename(f.with_suffix(".py"))
    db = tmp_path / "errordex.db"
    assert _cli(db, "index", str(src), "--name", "fixture/py").returncode == 0
    before = json.loads(_cli(db, "list", "--json").stdout)
    assert before
    # Another commit of the tree: one more error.
    (src / "extra.py").write_text('def f():\n    raise ValueError("a new error")\n')
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    killed = _cli(
        db,
        "index",
        str(src),
        "--name",
        "fixture/py",
        "--jobs",
        "2",
        ERRORDEX_FAILPOINT="analyses",
        TMPDIR=str(scratch),
    )
    assert killed.returncode == -9
    assert json.loads(_cli(db, "list", "--json").stdout) == before
    assert os.listdir(scratch) == []
    assert _cli(db, "index", str(src), "--name", "fixture/py").returncode == 0
    after = json.loads(_cli(db, "list", "--json").stdout)
    assert len(after) == len(before) + 1


def _sites(db: Path) -> list[tuple[str, int, str, int, str]]:
    with sqlite3.connect(db) as c:
        return c.execute(
            "SELECT entry_id, seq, path, line, data FROM sites ORDER BY rowid"
        ).fetchall()


def test_entries_analysed_a_few_at_a_time_are_stored_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sites wait on disk, and each chunk of entries is built from them again."""
    root, part = CORPORA["stdlib"]

    def keep(p: str) -> bool:
        return pipeline.wanted(p) and part(p)

    got = []
    for chunk in (3, 1_000_000):
        monkeypatch.setattr(pipeline, "_CHUNK_ENTRIES", chunk)
        db = tmp_path / f"{chunk}.db"
        opts = IngestOptions(wanted=keep)
        pipeline.index(str(root), SqliteStore(db), options=opts, name="real/corpus", jobs=1)
        got.append((_analyses(db), _sites(db)))
    assert len(got[0][0]) > 100 and got[0] == got[1]
