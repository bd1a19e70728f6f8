"""The distributed queue end to end: a real redis-server, real Celery
workers (``errordex worker`` subprocesses), one SQLite store they share.
Each fault test ends with every task done, skipped or recorded as failed,
nothing lost, and no half-written snapshot."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import time
from pathlib import Path
from typing import Any

from tests.queue.conftest import Queue, Redis, free_port, make_tree

SMALL = ["pkg:six", "pkg:idna", "pkg:vine", "pkg:mdurl"]


def test_crawl_indexes_every_source_and_status_counts_them(queue: Queue) -> None:
    queue.worker("--concurrency", "2")
    ids = queue.crawl("# four packages and one that is not installed", *SMALL, "", "pkg:nosuchdist")
    recs = queue.wait(ids)
    assert sorted(str(r["state"]) for r in recs.values()) == ["done"] * 4 + ["failed"]
    assert len(queue.snapshots()) == 4
    st = queue.cli("queue", "status", "--json")
    data = json.loads(st.stdout)
    assert data["counts"] == {"queued": 0, "running": 0, "done": 4, "skipped": 0, "failed": 1}
    [failure] = data["failures"]
    assert failure["source"] == "pkg:nosuchdist"
    assert "no installed Python distribution named nosuchdist" in failure["reason"]
    text = queue.cli("queue", "status").stdout
    assert "done 4" in text and "failed 1" in text
    assert "pkg:nosuchdist: no installed Python distribution" in text


def test_a_clone_that_fails_for_the_network_is_retried_and_status_says_why(
    queue: Queue, tmp_path: Path
) -> None:
    queue.worker()
    # nothing listens on this port: "Failed to connect", retried with backoff
    down = f"http://127.0.0.1:{free_port()}/o/r.git"
    missing = (tmp_path / "no-such-repo.git").as_uri()  # not there: failed at once
    ids = queue.crawl(down, missing)
    deadline = time.monotonic() + 30
    while True:
        st = json.loads(queue.cli("queue", "status", "--json").stdout)
        if st["retrying"] and st["failures"]:
            break
        assert time.monotonic() < deadline, st
        time.sleep(0.2)
    [waiting] = st["retrying"]
    assert waiting["source"] == down and "retrying after: could not clone" in waiting["reason"]
    [failed] = st["failures"]
    assert failed["source"] == missing and failed["attempts"] == 1
    # the retry may be running by now (2 s, then 4 s, ... of backoff): until
    # the task is back to queued, between two attempts
    while f"queued   {ids[0]}  {down}: attempt " not in (
        text := queue.cli("queue", "status").stdout
    ):
        assert time.monotonic() < deadline + 30, text
        time.sleep(0.2)
    assert "retrying after: could not clone" in text


def test_a_task_for_a_stored_snapshot_is_skipped_and_says_so(queue: Queue) -> None:
    worker = queue.worker()
    first = queue.cli("index", "pkg:six", "--queue", "--json")
    assert first.returncode == 0, first.stderr
    [one] = [t["task_id"] for t in json.loads(first.stdout)["tasks"]]
    queue.wait([one])
    [two] = queue.crawl("pkg:six")
    recs = queue.wait([two])
    assert recs[one]["state"] == "done"
    assert recs[two]["state"] == "skipped"
    assert "is stored already" in str(recs[two]["reason"])
    assert len(queue.snapshots()) == 1
    # the task's result says so too
    assert "'state': 'skipped'" in worker.output()


def test_the_same_message_delivered_twice_runs_once(queue: Queue) -> None:
    queue.worker()
    [tid] = queue.crawl("pkg:vine")
    queue.wait([tid])
    # the record says done: sending its message again (requeue) changes nothing
    with sqlite3.connect(queue.db) as conn:
        conn.execute("UPDATE queue_tasks SET state = 'queued' WHERE task_id = ?", (tid,))
    requeued = queue.cli("queue", "requeue")
    assert requeued.returncode == 0, requeued.stderr
    recs = queue.wait([tid])
    assert recs[tid]["state"] == "skipped" and recs[tid]["attempts"] == 2
    assert len(queue.snapshots()) == 1


def test_a_broker_that_is_down_is_a_clear_error_with_exit_8(queue: Queue, tmp_path: Path) -> None:
    down = f"redis://127.0.0.1:{free_port()}/0"
    listing = tmp_path / "list.txt"
    listing.write_text("pkg:six\n")
    for args in (["crawl", str(listing)], ["index", "pkg:six", "--queue"], ["worker"]):
        started = time.monotonic()
        done = queue.cli(*args, "--broker", down)
        assert done.returncode == 8, (args, done.stderr)
        assert "cannot be reached" in done.stderr and "ERRORDEX_BROKER" in done.stderr
        assert "Traceback" not in done.stderr
        assert time.monotonic() - started < 20
    # nothing was recorded as queued
    st = json.loads(queue.cli("queue", "status", "--json").stdout)
    assert st["total"] == 0


def test_a_worker_killed_in_the_middle_of_a_task_is_redelivered_and_done(
    queue: Queue, tmp_path: Path
) -> None:
    tree = make_tree(tmp_path / "tree", files=40)
    queue.worker()
    [tid] = queue.crawl(str(tree))
    deadline = time.monotonic() + 30
    while (rec := queue.records()[tid])["state"] != "running":
        assert time.monotonic() < deadline, rec
        time.sleep(0.05)
    time.sleep(0.5)  # well into the index
    pid = int(str(rec["worker"]).rsplit(":", 1)[1])
    os.kill(pid, signal.SIGKILL)
    recs = queue.wait([tid])
    assert recs[tid]["state"] == "done", recs[tid]
    assert recs[tid]["lost"] == 1 and recs[tid]["attempts"] == 2
    assert queue.workers[0].proc.poll() is None  # the worker replaced its process
    # one whole snapshot: every raise of the tree, once
    assert len(queue.snapshots()) == 1
    assert _entries(queue.db) == 40 * 40


def test_a_source_that_kills_its_process_is_failed_and_blocks_nothing(queue: Queue) -> None:
    # pkg:idna dies in the middle of its snapshot's write, every time
    queue.worker("--max-attempts", "2", env={"ERRORDEX_QUEUE_FAILPOINT": "pkg:idna=save"})
    ids = queue.crawl("pkg:idna", "pkg:six", "pkg:mdurl")
    recs = queue.wait(ids)
    by_source = {r["source"]: r for r in recs.values()}
    assert by_source["pkg:idna"]["state"] == "failed"
    assert "died in each of its 2 attempts" in str(by_source["pkg:idna"]["reason"])
    assert by_source["pkg:six"]["state"] == by_source["pkg:mdurl"]["state"] == "done"
    # no half-written snapshot of idna: no repository, no entries, no postings
    slugs = [s for s, _ in queue.snapshots()]
    assert len(slugs) == 2 and not any("idna" in s for s in slugs)
    with sqlite3.connect(queue.db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        orphans = conn.execute(
            "SELECT count(*) FROM entries WHERE snapshot_id NOT IN (SELECT id FROM snapshots)"
        ).fetchone()[0]
    assert orphans == 0


def test_a_source_that_hangs_times_out_and_the_queue_goes_on(queue: Queue) -> None:
    # a git server that accepts the connection and never answers
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/o/r.git"
        # (long enough for pkg:six on a busy machine)
        queue.worker("--soft-time-limit", "4", "--time-limit", "8")
        ids = queue.crawl(url, "pkg:six")
        recs = queue.wait(ids, timeout=40)
    by_source = {r["source"]: r for r in recs.values()}
    assert by_source[url]["state"] == "failed"
    assert "timed out: the soft time limit of 4s" in str(by_source[url]["reason"])
    assert by_source["pkg:six"]["state"] == "done"
    clones = Path(os.environ["XDG_CACHE_HOME"]) / "errordex" / "clones"
    assert not list(clones.glob(".clone-*"))  # no half clone left in the cache


def test_a_source_deaf_to_the_soft_limit_is_killed_at_the_hard_limit(queue: Queue) -> None:
    queue.worker(
        "--soft-time-limit",
        "4",
        "--time-limit",
        "6",
        env={"ERRORDEX_QUEUE_FAILPOINT": "pkg:idna=hang"},
    )
    ids = queue.crawl("pkg:idna", "pkg:six")
    recs = queue.wait(ids, timeout=40)
    by_source = {r["source"]: r for r in recs.values()}
    assert by_source["pkg:idna"]["state"] == "failed"
    assert "the hard time limit of 6s was reached" in str(by_source["pkg:idna"]["reason"])
    assert by_source["pkg:six"]["state"] == "done"
    assert [s for s, _ in queue.snapshots()] == ["benjaminp/six"]


def test_a_process_is_replaced_after_max_tasks_per_child(queue: Queue) -> None:
    queue.worker("--max-tasks-per-child", "1", "--max-memory-per-child", "400000")
    ids = queue.crawl("pkg:six", "pkg:vine")
    recs = queue.wait(ids)
    assert {r["state"] for r in recs.values()} == {"done"}
    assert len({r["worker"] for r in recs.values()}) == 2  # one process each


def test_a_store_locked_for_a_while_is_retried_with_backoff(queue: Queue) -> None:
    # the store exists (as crawl leaves it) and another process holds its write lock
    [tid] = queue.crawl("pkg:mdurl")
    with sqlite3.connect(queue.db, isolation_level=None) as holder:
        holder.execute("BEGIN IMMEDIATE")
        queue.worker("--store-timeout", "0.5")
        deadline = time.monotonic() + 30
        while "retry 1 in 2s" not in queue.workers[0].output():
            assert time.monotonic() < deadline, queue.workers[0].output()[-2000:]
            time.sleep(0.1)
        holder.execute("ROLLBACK")
    recs = queue.wait([tid])
    assert recs[tid]["state"] == "done"
    assert "database is locked" in queue.workers[0].output()


def test_redis_stopped_for_a_moment_loses_no_task(queue: Queue, tmp_path: Path) -> None:
    queue.worker()
    ids = queue.crawl(*SMALL, "pkg:iniconfig", "pkg:click-didyoumean")
    deadline = time.monotonic() + 30
    while not any(r["state"] == "done" for r in queue.records().values()):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    queue.redis.stop()  # no persistence: the messages still waiting are gone
    time.sleep(1)
    listing = tmp_path / "more.txt"
    listing.write_text("pkg:six\n")
    refused = queue.cli("crawl", str(listing))
    assert refused.returncode == 8 and "Traceback" not in refused.stderr
    assert queue.cli("queue", "status").returncode == 0  # the records are in the store
    queue.redis.start()
    requeued = queue.cli("queue", "requeue")
    assert requeued.returncode == 0, requeued.stderr
    recs = queue.wait(ids, timeout=60)
    assert {r["state"] for r in recs.values()} <= {"done", "skipped"}, recs
    assert len(queue.snapshots()) == len(ids)  # each one, once, whole


def _entries(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM entries").fetchone()[0])


def test_workers_on_a_postgresql_store_index_every_source_and_a_rerun_is_skipped(
    redis: Redis, tmp_path: Path, pg_url: str
) -> None:
    """The same queue with its records and snapshots in PostgreSQL: two
    worker processes take turns writing, every task ends done or failed, and
    sending the same sources again stores nothing twice."""
    q = Queue(Path(pg_url), redis, tmp_path)
    q.db = pg_url  # type: ignore[assignment]  # a URL, not a path: only env() reads it
    try:
        q.worker("--concurrency", "2")
        ids = q.crawl(*SMALL[:3], "pkg:nosuchdist")

        def status() -> dict[str, Any]:
            done = q.cli("queue", "status", "--json")
            assert done.returncode == 0, done.stderr
            data: dict[str, Any] = json.loads(done.stdout)
            return data

        deadline = time.monotonic() + 120
        while status()["counts"]["done"] + status()["counts"]["failed"] < len(ids):
            assert time.monotonic() < deadline, status()
            time.sleep(0.5)
        data = status()
        assert data["counts"] == {"queued": 0, "running": 0, "done": 3, "skipped": 0, "failed": 1}
        assert "nosuchdist" in data["failures"][0]["reason"]
        listed = q.cli("list", "--json", "--limit", "1000")
        assert listed.returncode == 0, listed.stderr
        again = q.crawl(*SMALL[:3])
        deadline = time.monotonic() + 120
        while status()["counts"]["skipped"] < len(again):
            assert time.monotonic() < deadline, status()
            time.sleep(0.5)
        stats = q.cli("stats", "--json")
        assert stats.returncode == 0, stats.stderr
        assert len(json.loads(stats.stdout)["repos"]) == 3, stats.stdout
    finally:
        for w in q.workers:
            w.stop()
