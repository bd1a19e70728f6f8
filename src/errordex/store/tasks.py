"""The distributed queue's records, in the store (table ``queue_tasks``,
migration ``m007_queue_tasks``).

The broker (Redis) carries the messages; these rows say what each task was
asked to do and what became of it, so every worker and ``errordex queue
status`` see the same thing, and they outlive the broker (a Redis restarted
without persistence has lost its messages; ``errordex queue requeue`` sends
again what is still recorded as queued).

A task's life: ``queued`` (``enqueue``) -> ``running`` (``start``, once per
attempt) -> ``done``, ``skipped`` (its snapshot was stored already) or
``failed`` (``finish``), or back to ``queued`` for a retry (``retrying``).
A task that is done, skipped or failed stays so: a message delivered twice
is a no-op the second time. Each change is one short transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, Union

from errordex.store.sql import Sql, dialect

if TYPE_CHECKING:
    from errordex.store.base import Store

State = Literal["queued", "running", "done", "skipped", "failed"]
#: every state, in the order a task goes through them
STATES: tuple[State, ...] = ("queued", "running", "done", "skipped", "failed")
#: states a task does not leave
FINAL: frozenset[str] = frozenset({"done", "skipped", "failed"})


@dataclass(frozen=True, slots=True)
class TaskRecord:
    """One task as recorded."""

    task_id: str
    source: str
    rev: str | None
    job: dict[str, Any]
    state: State
    attempts: int
    #: attempts whose process died before it recorded anything
    lost: int
    reason: str | None
    repo: str | None
    commit: str | None
    worker: str | None
    enqueued_at: str
    started_at: str | None
    finished_at: str | None
    seconds: float | None
    bytes: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "task_id": self.task_id,
            "source": self.source,
            "rev": self.rev,
            "state": self.state,
            "attempts": self.attempts,
            "lost": self.lost,
            "reason": self.reason,
            "repo": self.repo,
            "commit": self.commit,
            "worker": self.worker,
            "enqueued_at": self.enqueued_at,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "seconds": self.seconds,
            "bytes": self.bytes,
        }


@dataclass(frozen=True, slots=True)
class Started:
    """What ``start`` found: run the task (``run``), or not, and why."""

    run: bool
    attempt: int
    #: the state the task was in (``None``: no record, as when the worker's
    #: store is not the one the task was enqueued in)
    previous: str | None
    #: the previous attempt's worker, when that attempt never finished
    lost_worker: str | None = None


_COLS = (
    'task_id, source, rev, job, state, attempts, lost, reason, repo, "commit", worker,'
    " enqueued_at, started_at, finished_at, seconds, bytes"
)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


#: where the records are: a store, or an SQLite store's connection
Db = Union["Store", sqlite3.Connection]


def _reader(db: Db) -> Sql:
    return db if isinstance(db, sqlite3.Connection) else db.conn


@contextmanager
def _transaction(db: Db) -> Iterator[Sql]:
    """One short transaction that holds the records' write lock from its
    start, so two workers never both read a row as queued and both take it:
    SQLite's ``BEGIN IMMEDIATE`` (which waits out the busy timeout), or on
    PostgreSQL a connection of the pool and a lock on the table."""
    from errordex.store.sqlite import SqliteStore

    if isinstance(db, (sqlite3.Connection, SqliteStore)):
        conn = db if isinstance(db, sqlite3.Connection) else db.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return
    from errordex.store.postgres.store import PostgresStore

    assert isinstance(db, PostgresStore)
    with db.locked("queue_tasks") as sql:
        yield sql


def _record(row: tuple[Any, ...]) -> TaskRecord:
    return TaskRecord(
        task_id=row[0],
        source=row[1],
        rev=row[2],
        job=json.loads(row[3]),
        state=row[4],
        attempts=row[5],
        lost=row[6],
        reason=row[7],
        repo=row[8],
        commit=row[9],
        worker=row[10],
        enqueued_at=row[11],
        started_at=row[12],
        finished_at=row[13],
        seconds=row[14],
        bytes=row[15],
    )


def enqueue(db: Db, tasks: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """Record tasks (id, job as JSON: its ``source`` and ``rev``) as queued, in one transaction."""
    now = _now()
    with _transaction(db) as conn:
        conn.executemany(
            "INSERT INTO queue_tasks (task_id, source, rev, job, state, enqueued_at)"
            " VALUES (?, ?, ?, ?, 'queued', ?)",
            (
                (tid, job["source"], job.get("rev"), json.dumps(job, sort_keys=True), now)
                for tid, job in tasks
            ),
        )


def start(
    db: Db,
    task_id: str,
    job: dict[str, Any],
    worker: str,
    max_attempts: int,
    *,
    after_transient: int | None = None,
) -> Started:
    """Take the task for one attempt by ``worker``. A task that is done,
    skipped or failed is not run again. A task whose attempts never finished
    (the process running it was killed, or crashed) is recorded as failed
    once that has happened ``max_attempts`` times. Retries after a transient
    fault are attempts too, but they are not counted against that: the fault
    put the task back to queued (``retrying``) or, when the store itself was
    what failed, the retry names the attempt it ended (``after_transient``)."""
    with _transaction(db) as conn:
        row = conn.execute(
            "SELECT state, attempts, lost, worker FROM queue_tasks WHERE task_id = ?", (task_id,)
        ).fetchone()
        if row is None:  # enqueued into another store: record it here
            conn.execute(
                "INSERT INTO queue_tasks (task_id, source, rev, job, state, enqueued_at)"
                " VALUES (?, ?, ?, ?, 'queued', ?)",
                (task_id, job["source"], job.get("rev"), json.dumps(job, sort_keys=True), _now()),
            )
            row = ("queued", 0, 0, None)
        state, attempts, lost, last_worker = row
        if state in FINAL:
            return Started(run=False, attempt=attempts, previous=state)
        # still running: the process of the attempt before died before it could
        # record anything (kill -9, out of memory, a crash in native code)
        ended = state == "running" and after_transient is not None and attempts == after_transient
        lost_worker = last_worker if state == "running" and not ended else None
        if lost_worker is not None:
            lost += 1
        if lost >= max_attempts:
            conn.execute(
                "UPDATE queue_tasks SET state = 'failed', lost = ?, reason = ?, finished_at = ?"
                " WHERE task_id = ?",
                (
                    lost,
                    f"the worker process running it died in each of its {lost} attempts"
                    f" (killed, out of memory, or crashed in native code); the last was"
                    f" {last_worker}",
                    _now(),
                    task_id,
                ),
            )
            return Started(run=False, attempt=attempts, previous=state, lost_worker=lost_worker)
        attempt = attempts + 1
        conn.execute(
            "UPDATE queue_tasks SET state = 'running', attempts = ?, lost = ?, worker = ?,"
            " started_at = ? WHERE task_id = ?",
            (attempt, lost, worker, _now(), task_id),
        )
    return Started(run=True, attempt=attempt, previous=state, lost_worker=lost_worker)


def finish(
    db: Db,
    task_id: str,
    state: Literal["done", "skipped", "failed"],
    reason: str | None,
    *,
    repo: str | None = None,
    commit: str | None = None,
    seconds: float | None = None,
    nbytes: int | None = None,
) -> None:
    """Record how the task ended (it stays so)."""
    with _transaction(db) as conn:
        conn.execute(
            "UPDATE queue_tasks SET state = ?, reason = ?, repo = coalesce(?, repo),"
            ' "commit" = coalesce(?, "commit"), seconds = ?, bytes = ?, finished_at = ?'
            " WHERE task_id = ?",
            (state, reason, repo, commit, seconds, nbytes, _now(), task_id),
        )


def retrying(db: Db, task_id: str, reason: str) -> None:
    """Put the task back to queued, with the transient fault it will be retried after."""
    with _transaction(db) as conn:
        conn.execute(
            "UPDATE queue_tasks SET state = 'queued', reason = ? WHERE task_id = ? AND state"
            " NOT IN ('done', 'skipped', 'failed')",
            (reason, task_id),
        )


def counts(db: Db) -> dict[str, int]:
    """Tasks per state, every state present."""
    conn = _reader(db)
    found = dict(conn.execute("SELECT state, count(*) FROM queue_tasks GROUP BY state").fetchall())
    return {s: int(found.get(s, 0)) for s in STATES}


def records(db: Db, state: State | None = None, limit: int | None = None) -> list[TaskRecord]:
    """Tasks (in ``state``), oldest first (those enqueued together, in their order
    on SQLite; by id on PostgreSQL, which keeps no insertion order)."""
    conn = _reader(db)
    where, params = ("WHERE state = ?", [state]) if state else ("", [])
    then = "rowid" if dialect(conn) == "sqlite" else "task_id"
    sql = f"SELECT {_COLS} FROM queue_tasks {where} ORDER BY enqueued_at, {then}"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return [_record(r) for r in conn.execute(sql, params)]


def record(db: Db, task_id: str) -> TaskRecord | None:
    conn = _reader(db)
    row = conn.execute(f"SELECT {_COLS} FROM queue_tasks WHERE task_id = ?", (task_id,)).fetchone()
    return None if row is None else _record(row)


def snapshot_stored(db: Db, slug: str, commit: str) -> bool:
    """Whether the store holds a snapshot of ``slug`` at ``commit``."""
    conn = _reader(db)
    row = conn.execute(
        'SELECT 1 FROM snapshots s JOIN repos r ON r.id = s.repo_id WHERE r.slug = ? AND s."commit" = ?',
        (slug, commit),
    ).fetchone()
    return row is not None
