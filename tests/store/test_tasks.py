"""The queue's records in the store (``errordex.store.tasks``): a task runs
once, a process that dies is counted, and the schema is as migrated."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from errordex.store import tasks
from errordex.store.sqlite import SqliteStore

JOB = {"source": "pkg:six", "rev": None}


def test_fresh_database_has_the_queue_tasks_table(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "db.sqlite")
    cols = [r[1] for r in store.conn.execute("PRAGMA table_info(queue_tasks)")]
    assert cols == [
        "task_id", "source", "rev", "job", "state", "attempts", "lost", "reason", "repo",
        "commit", "worker", "enqueued_at", "started_at", "finished_at", "seconds", "bytes",
        "parent", "part", "parts", "merger",
    ]  # fmt: skip
    staged = [r[1] for r in store.conn.execute("PRAGMA table_info(queue_staged)")]
    assert staged == ["task_id", "seq", "data"]


def test_a_finished_task_is_not_started_again(tmp_path: Path) -> None:
    conn = SqliteStore(tmp_path / "db.sqlite").conn
    tasks.enqueue(conn, [("t1", JOB)])
    assert tasks.start(conn, "t1", JOB, "w:1", max_attempts=3).run
    tasks.finish(conn, "t1", "done", None, repo="benjaminp/six", commit="c" * 40)
    again = tasks.start(conn, "t1", JOB, "w:2", max_attempts=3)
    assert not again.run and again.previous == "done"
    assert tasks.counts(conn) == {"queued": 0, "running": 0, "done": 1, "skipped": 0, "failed": 0}


def test_a_task_whose_process_dies_each_time_is_failed_after_max_attempts(tmp_path: Path) -> None:
    conn = SqliteStore(tmp_path / "db.sqlite").conn
    tasks.enqueue(conn, [("t1", JOB)])
    first = tasks.start(conn, "t1", JOB, "w:1", max_attempts=2)
    assert first.run and first.lost_worker is None
    # w:1 died without recording anything: the message comes back
    second = tasks.start(conn, "t1", JOB, "w:2", max_attempts=2)
    assert second.run and second.lost_worker == "w:1" and second.attempt == 2
    third = tasks.start(conn, "t1", JOB, "w:3", max_attempts=2)
    assert not third.run
    rec = tasks.record(conn, "t1")
    assert rec is not None and rec.state == "failed" and rec.lost == 2
    assert rec.reason is not None and "died in each of its 2 attempts" in rec.reason


def test_retries_after_transient_faults_are_not_counted_as_lost(tmp_path: Path) -> None:
    conn = SqliteStore(tmp_path / "db.sqlite").conn
    tasks.enqueue(conn, [("t1", JOB)])
    for n in range(4):
        assert tasks.start(conn, "t1", JOB, f"w:{n}", max_attempts=2).run
        tasks.retrying(conn, "t1", "retrying after: database is locked")
    rec = tasks.record(conn, "t1")
    assert rec is not None and rec.state == "queued" and rec.attempts == 4 and rec.lost == 0


def test_a_task_from_another_store_is_recorded_when_it_starts(tmp_path: Path) -> None:
    conn = SqliteStore(tmp_path / "db.sqlite").conn
    assert tasks.start(conn, "elsewhere", JOB, "w:1", max_attempts=3).run
    rec = tasks.record(conn, "elsewhere")
    assert rec is not None and rec.state == "running" and rec.source == "pkg:six"


def _split(conn: sqlite3.Connection, parts: int = 2) -> list[str]:
    tasks.enqueue(conn, [("t1", JOB)])
    assert tasks.start(conn, "t1", JOB, "w:1", max_attempts=3).run
    ids = [f"t1.{n}" for n in range(parts)]
    assert tasks.split(conn, "t1", [(i, {**JOB, "part": n}) for n, i in enumerate(ids)])
    return ids


def _staged(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM queue_staged").fetchone()[0])


def test_a_split_task_is_merged_once_by_the_part_done_last(tmp_path: Path) -> None:
    conn = SqliteStore(tmp_path / "db.sqlite").conn
    a, b = _split(conn)
    assert not tasks.split(conn, "t1", [("again", JOB)])  # delivered again: recorded once
    again = tasks.start(conn, "t1", JOB, "w:2", max_attempts=3)
    assert not again.run and again.split
    for part in (a, b):
        assert tasks.start(conn, part, JOB, "w:3", max_attempts=3).run
    assert (
        tasks.finish_part(conn, b, [b"b0", b"b1"], commit="c" * 40, seconds=1.0, nbytes=10)
        == "wait"
    )
    assert tasks.finish_part(conn, a, [b"a0"], commit="c" * 40, seconds=1.0, nbytes=10) == "merge"
    assert tasks.finish_part(conn, a, [b"a0"], commit="c" * 40, seconds=1.0, nbytes=10) == "dropped"
    parent = tasks.record(conn, "t1")
    assert parent is not None and parent.merger == a and parent.state == "running"
    assert list(tasks.staged(conn, "t1")) == [b"a0", b"b0", b"b1"]  # in the parts' order
    merging = tasks.start_merge(conn, "t1", "w:4", max_attempts=3)
    assert merging.run and merging.lost_worker is None
    # the merge's process died: counted, as a task's
    assert tasks.start_merge(conn, "t1", "w:5", max_attempts=3).lost_worker == "w:4"
    tasks.finish(conn, "t1", "done", None)
    assert _staged(conn) == 0
    assert tasks.counts(conn) == {"queued": 0, "running": 0, "done": 1, "skipped": 0, "failed": 0}


def test_a_merge_retried_after_a_fault_the_store_could_not_record_is_not_a_lost_worker(
    tmp_path: Path,
) -> None:
    conn = SqliteStore(tmp_path / "db.sqlite").conn
    (a,) = _split(conn, 1)
    assert tasks.start(conn, a, JOB, "w:2", max_attempts=2).run
    assert tasks.finish_part(conn, a, [b"a0"], commit="c" * 40, seconds=1.0, nbytes=10) == "merge"
    first = tasks.start_merge(conn, "t1", "w:3", max_attempts=2)
    assert first.run and first.attempt == 2  # the task's start was its first
    # the merge's attempt ended in a transient fault, and its record still names w:3
    again = tasks.start_merge(conn, "t1", "w:4", max_attempts=2, after_transient=first.attempt)
    assert again.run and again.lost_worker is None and again.attempt == 3
    # a mark of another attempt (the part's, say) does not hide a merge that died
    died = tasks.start_merge(conn, "t1", "w:5", max_attempts=2, after_transient=first.attempt)
    assert died.run and died.lost_worker == "w:4"
    rec = tasks.record(conn, "t1")
    assert rec is not None and rec.lost == 1 and rec.attempts == 4 and rec.state == "running"


def test_a_failed_part_fails_its_task_and_the_parts_still_to_run(tmp_path: Path) -> None:
    conn = SqliteStore(tmp_path / "db.sqlite").conn
    a, b, c = _split(conn, 3)
    for part in (a, b):
        assert tasks.start(conn, part, JOB, "w:2", max_attempts=3).run
    assert tasks.finish_part(conn, a, [b"a0"], commit="c" * 40, seconds=1.0, nbytes=10) == "wait"
    tasks.finish(conn, b, "failed", "RuntimeError: boom")
    parent = tasks.record(conn, "t1")
    assert parent is not None and parent.state == "failed"
    assert parent.reason == "part 2 of 3 failed: RuntimeError: boom"
    rest = tasks.record(conn, c)
    assert rest is not None and rest.state == "failed"
    assert rest.reason == "not needed: part 2 of 3 failed: RuntimeError: boom"
    assert not tasks.start(conn, c, JOB, "w:3", max_attempts=3).run
    assert _staged(conn) == 0
    assert tasks.counts(conn)["failed"] == 1  # the task, not its parts
