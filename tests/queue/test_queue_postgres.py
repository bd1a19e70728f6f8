"""The queue on a PostgreSQL store when the server goes away: its
connections dropped under a task (``pg_terminate_backend``, as a restart
does), and a real server restarted under real workers while they write.
Each ends with every task done or failed with its reason, nothing lost,
no half-written snapshot, and no worker counted as lost that was not."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg_pool import PoolTimeout

from errordex.pipeline import open_for_index
from errordex.queue.jobs import IndexJob, PartJob
from errordex.queue.run import Transient, is_transient, run_job, run_part
from errordex.store import tasks
from errordex.store.postgres.store import PostgresStore
from errordex.store.postgres.writer import PgSnapshotWriter
from errordex.store.writer import SnapshotData
from tests.pgserver import PgServer
from tests.queue.conftest import Queue, Redis, make_tree

SMALL = ["pkg:six", "pkg:idna", "pkg:vine", "pkg:mdurl"]


def drop_connections(url: str) -> int:
    """Terminate every other connection to ``url``'s database, as a server
    restart does to them; how many."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return len(rows)


@pytest.fixture
def pg_store(pg_url: str) -> Any:
    store = PostgresStore(pg_url)
    yield store
    store.close()


def test_psycopg_connection_errors_and_the_pools_timeout_are_transient() -> None:
    # a fast restart or pg_terminate_backend: AdminShutdown; a server in
    # recovery: CannotConnectNow; no connection from the pool in time: PoolTimeout
    for exc in (
        psycopg.errors.AdminShutdown("terminating connection due to administrator command"),
        psycopg.errors.CannotConnectNow("the database system is starting up"),
        PoolTimeout("couldn't get a connection after 5.00 sec"),
        psycopg.OperationalError("server closed the connection unexpectedly"),
    ):
        assert is_transient(exc), exc
    assert not is_transient(psycopg.errors.UndefinedTable("relation does not exist"))


def test_a_task_starts_on_a_pool_whose_connections_the_server_dropped(
    pg_store: PostgresStore, pg_url: str, tmp_path: Path
) -> None:
    job = IndexJob(str(make_tree(tmp_path / "tree", files=2)), name="acme/tree")
    tasks.enqueue(pg_store, [("t1", job.to_json())])
    assert tasks.counts(pg_store)["queued"] == 1  # the pool holds a connection now
    assert drop_connections(pg_url) >= 1
    outcome = run_job(pg_store, job, "t1")
    assert outcome.state == "done", outcome
    rec = tasks.record(pg_store, "t1")
    assert rec is not None and rec.state == "done" and rec.attempts == 1 and rec.lost == 0


def test_a_task_whose_connections_drop_while_it_writes_is_queued_again_then_done(
    pg_store: PostgresStore, pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    job = IndexJob(str(make_tree(tmp_path / "tree", files=2)), name="acme/tree")
    tasks.enqueue(pg_store, [("t1", job.to_json())])
    finish = PgSnapshotWriter.finish

    def dropped(self: PgSnapshotWriter, data: SnapshotData) -> int:
        drop_connections(pg_url)  # the writer's and the pool's
        return finish(self, data)

    monkeypatch.setattr(PgSnapshotWriter, "finish", dropped)
    with pytest.raises(Transient) as raised:
        run_job(pg_store, job, "t1")
    rec = tasks.record(pg_store, "t1")
    # the retry is recorded, on a fresh connection: not left running
    assert rec is not None and rec.state == "queued", rec
    assert rec.reason is not None and rec.reason.startswith("retrying after: lost the database")
    assert raised.value.attempt == 1
    assert tasks.snapshot_stored(pg_store, "acme/tree", _commit(job)) is False
    monkeypatch.undo()
    outcome = run_job(pg_store, job, "t1", after_transient=raised.value.attempt)
    assert outcome.state == "done", outcome
    rec = tasks.record(pg_store, "t1")
    assert rec is not None and rec.attempts == 2 and rec.lost == 0


def test_a_retry_after_a_fault_the_store_could_not_record_is_not_a_lost_worker(
    pg_store: PostgresStore,
) -> None:
    tasks.enqueue(pg_store, [("t1", {"source": "pkg:six"})])
    assert tasks.start(pg_store, "t1", {"source": "pkg:six"}, "w:1", max_attempts=2).run
    # attempt 1 ended in a transient fault, and its record still says running
    for n in (2, 3, 4):
        begun = tasks.start(
            pg_store, "t1", {"source": "pkg:six"}, f"w:{n}", max_attempts=2, after_transient=n - 1
        )
        assert begun.run and begun.lost_worker is None
    # attempt 4's process died: the message comes back with no such mark
    begun = tasks.start(pg_store, "t1", {"source": "pkg:six"}, "w:5", max_attempts=2)
    assert begun.run and begun.lost_worker == "w:4"
    rec = tasks.record(pg_store, "t1")
    assert rec is not None and rec.lost == 1 and rec.attempts == 5


def test_a_split_tasks_merge_whose_connections_drop_is_retried_as_the_merges_attempt(
    pg_store: PostgresStore, pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = make_tree(tmp_path / "tree", files=4)  # about 18 KB: 2 parts
    job = IndexJob(str(tree), name="acme/tree", split_over=10_000)
    tasks.enqueue(pg_store, [("t1", job.to_json())])
    sent: list[tuple[str, PartJob]] = []
    assert run_job(pg_store, job, "t1", send_parts=sent.extend).state == "split"
    assert len(sent) == 2
    (first, p1), (last, p2) = sent
    assert run_part(pg_store, p1, first).state == "done"
    finish = PgSnapshotWriter.finish

    def dropped(self: PgSnapshotWriter, data: SnapshotData) -> int:
        drop_connections(pg_url)
        return finish(self, data)

    def unreachable(*args: object) -> None:  # the store is still down for the retry's record
        raise psycopg.OperationalError("the database system is shutting down")

    monkeypatch.setattr(PgSnapshotWriter, "finish", dropped)
    monkeypatch.setattr(tasks, "retrying", unreachable)
    with pytest.raises(Transient) as raised:
        run_part(pg_store, p2, last)
    # the merge's attempt (the task's start was its first), not the part's
    assert raised.value.merge and raised.value.attempt == 2
    parent = tasks.record(pg_store, "t1")
    assert parent is not None and parent.state == "running" and parent.worker is not None
    assert tasks.snapshot_stored(pg_store, "acme/tree", _commit(job)) is False
    monkeypatch.undo()
    merged = run_part(pg_store, p2, last, after_merge_transient=raised.value.attempt)
    assert merged.state == "done" and merged.repo == "acme/tree", merged
    parent = tasks.record(pg_store, "t1")
    assert parent is not None and parent.state == "done" and parent.merger == last
    assert parent.attempts == 3 and parent.lost == 0, parent
    assert tasks.snapshot_stored(pg_store, "acme/tree", _commit(job))


def _commit(job: IndexJob) -> str:
    with open_for_index(job.source, name=job.name, options=job.options()) as source:
        return source.commit


@pytest.mark.parametrize(
    ("mode", "split_over"), [("immediate", None), ("fast", None), ("fast", "100K")]
)
def test_postgresql_restarted_while_workers_write_loses_no_task(
    redis: Redis,
    tmp_path: Path,
    pg_server: PgServer,
    pg_url: str,
    mode: str,
    split_over: str | None,
) -> None:
    """A PostgreSQL crash (``immediate``) or restart (``fast``) in the middle
    of the work: each task ends done (its write failed and was retried) or
    failed with its reason, no worker is counted as lost (none died), and
    every snapshot that is current is whole (``verify`` reads each one).
    With ``split_over``, each tree is split in 3 parts, and the restart
    meets their extractions or their merges."""
    q = Queue(Path(pg_url), redis, tmp_path)
    q.db = pg_url  # type: ignore[assignment]  # a URL, not a path: only env() reads it
    trees = [make_tree(tmp_path / f"tree{i}", files=60) for i in range(3)]
    try:
        q.worker("--concurrency", "2")
        listing = tmp_path / "crawl.txt"
        lines = [f"{t} --name acme/tree{i}" for i, t in enumerate(trees)] + SMALL[:2]
        listing.write_text("\n".join(lines) + "\n")
        split = ["--split-over", split_over] if split_over else []
        sent = q.cli("crawl", str(listing), *split, "--json")
        assert sent.returncode == 0, sent.stderr
        ids = [t["task_id"] for t in json.loads(sent.stdout)["tasks"]]
        time.sleep(1.5)
        pg_server.restart(mode)

        def status() -> dict[str, Any]:
            done = q.cli("queue", "status", "--json")
            assert done.returncode == 0, done.stderr
            data: dict[str, Any] = json.loads(done.stdout)
            return data

        deadline = time.monotonic() + 180
        while (c := status()["counts"])["done"] + c["failed"] + c["skipped"] < len(ids):
            assert time.monotonic() < deadline, (status(), q.workers[0].output()[-3000:])
            time.sleep(1)
        with psycopg.connect(pg_url) as conn:
            recs = conn.execute(
                "SELECT task_id, state, reason, lost, parent FROM queue_tasks"
            ).fetchall()
        assert sorted(r[0] for r in recs if r[4] is None) == sorted(ids)  # nothing lost
        parts = [r for r in recs if r[4] is not None]
        # 3 for each tree (and a package's over 100K, idna's)
        assert len(parts) >= 9 if split_over else not parts, parts
        for _task_id, state, reason, lost, _parent in recs:
            assert state in ("done", "skipped") or (state == "failed" and reason), recs
            assert lost == 0, (recs, q.workers[0].output()[-3000:])
        counts = status()["counts"]
        stats = json.loads(q.cli("stats", "--json").stdout)
        assert len(stats["repos"]) == counts["done"] + counts["skipped"], (counts, stats)
        assert counts["done"] >= 1
        verified = q.cli("verify")
        assert verified.returncode == 0, verified.stdout + verified.stderr
    finally:
        for w in q.workers:
            w.stop()
