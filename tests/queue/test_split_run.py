"""A split task's steps in this process, without Celery (``queue.run``):
the task records and sends its parts, each part keeps its extraction, and
the last one merges them into the snapshot one index writes; a part that
meets a locked store is put back to be retried, and loses nothing."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import kombu
import pytest

from errordex.pipeline import index
from errordex.queue.jobs import IndexJob, PartJob
from errordex.queue.run import Transient, run_job, run_part
from errordex.store import tasks
from errordex.store.sqlite import SqliteStore

TABLES = ("entries", "sites", "files", "analyses", "packages", "classes", "skips")


def _rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(db) as conn:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in TABLES}


def test_a_split_task_run_step_by_step_writes_what_one_index_writes(tmp_path: Path) -> None:
    tree = tmp_path / "kombu"
    shutil.copytree(Path(kombu.__file__).parent, tree, ignore=shutil.ignore_patterns("__pycache__"))
    one = tmp_path / "one.db"
    index(str(tree), SqliteStore(one), name="acme/kombu", jobs=1)

    db = tmp_path / "split.db"
    store = SqliteStore(db)
    job = IndexJob(str(tree), name="acme/kombu", split_over=300 << 10)
    tasks.enqueue(store, [("t1", job.to_json())])
    sent: list[tuple[str, PartJob]] = []
    split = run_job(store, job, "t1", send_parts=sent.extend)
    assert split.state == "split" and len(sent) == 3
    paths = [p.paths for _, p in sent]
    assert paths[0][0] is None and paths[-1][1] is None  # every path in one part
    assert [hi for _, hi in paths[:-1]] == [lo for lo, _ in paths[1:]]
    assert all(p.digest for _, p in sent)  # a directory: its files are checked
    # the task's message again: nothing more is sent
    assert run_job(store, job, "t1", send_parts=sent.extend).state == "split" and len(sent) == 3

    (first, p1), (second, p2), (last, p3) = sent
    assert run_part(store, p2, second).reason == f"{p2.label} is done; the others are not yet"
    assert run_part(store, p1, first).state == "done"
    # the last part's finish meets a store locked by another process: retried later
    store.conn.execute("PRAGMA busy_timeout = 100")
    with sqlite3.connect(db, isolation_level=None) as holder:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(Transient, match="database is locked"):
            run_part(store, p3, last)
        holder.execute("ROLLBACK")
    rec = tasks.record(store, last)
    assert rec is not None and rec.state in ("queued", "running")
    merged = run_part(store, p3, last)
    assert merged.state == "done" and merged.repo == "acme/kombu", merged
    parent = tasks.record(store, "t1")
    assert parent is not None and parent.state == "done" and parent.merger == last
    assert _rows(db) == _rows(one)


def test_a_directory_changed_between_the_plan_and_a_part_fails_the_task(tmp_path: Path) -> None:
    tree = tmp_path / "kombu"
    shutil.copytree(Path(kombu.__file__).parent, tree, ignore=shutil.ignore_patterns("__pycache__"))
    store = SqliteStore(tmp_path / "split.db")
    job = IndexJob(str(tree), name="acme/kombu", split_over=300 << 10)
    tasks.enqueue(store, [("t1", job.to_json())])
    sent: list[tuple[str, PartJob]] = []
    run_job(store, job, "t1", send_parts=sent.extend)
    (first, p1) = sent[0]
    with (tree / "__init__.py").open("a") as f:
        f.write("\nraise ValueError('changed')\n")
    failed = run_part(store, p1, first)
    assert failed.state == "failed"
    parent = tasks.record(store, "t1")
    assert parent is not None and parent.state == "failed"
    assert "changed while it was indexed in parts: index it again" in str(parent.reason)
    assert store.conn.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 0
