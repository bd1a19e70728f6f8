"""The distributed queue's records, in the store (table ``queue_tasks``,
migrations ``m007_queue_tasks`` and ``m008_queue_parts``).

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

A big repository's task may be split (``split``) into parts, each a task of
its own (``parent`` names the repository's). The repository's task stays
``running`` meanwhile, with no worker. A part that is done keeps its
extraction in ``queue_staged`` (``finish_part``); the one that finds every
part done becomes the ``merger``, takes the repository's task for the merge
(``start_merge``) and ends it. A part that fails fails the repository's task
and the parts still to run, in the same transaction; when the repository's
task ends, its parts' staged rows go.
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
    #: of a part: the repository's task, its number (from 0), and how many there are
    parent: str | None = None
    part: int | None = None
    #: of a split repository's task (how many parts), and of a part
    parts: int | None = None
    #: of a split repository's task: the part whose process merges them
    merger: str | None = None

    @property
    def label(self) -> str:
        """What the task indexes: ``SOURCE@REV``, and which part.

        >>> TaskRecord("t", "pkg:x", None, {}, "queued", 0, 0, None, None, None, None,
        ...            "", None, None, None, None, parent="p", part=1, parts=4).label
        'pkg:x (part 2 of 4)'
        """
        what = f"{self.source}@{self.rev}" if self.rev else self.source
        return what if self.part is None else f"{what} (part {self.part + 1} of {self.parts})"

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
            "parent": self.parent,
            "part": self.part,
            "parts": self.parts,
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
    #: the task was split into parts already: they run it now
    split: bool = False


_COLS = (
    'task_id, source, rev, job, state, attempts, lost, reason, repo, "commit", worker,'
    " enqueued_at, started_at, finished_at, seconds, bytes, parent, part, parts, merger"
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
        parent=row[16],
        part=row[17],
        parts=row[18],
        merger=row[19],
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
            "SELECT state, attempts, lost, worker, parts, parent FROM queue_tasks"
            " WHERE task_id = ?",
            (task_id,),
        ).fetchone()
        if row is None:  # enqueued into another store: record it here
            conn.execute(
                "INSERT INTO queue_tasks (task_id, source, rev, job, state, enqueued_at)"
                " VALUES (?, ?, ?, ?, 'queued', ?)",
                (task_id, job["source"], job.get("rev"), json.dumps(job, sort_keys=True), _now()),
            )
            row = ("queued", 0, 0, None, None, None)
        state, attempts, lost, last_worker, parts, parent = row
        if state in FINAL:
            return Started(run=False, attempt=attempts, previous=state)
        if parts is not None and parent is None:
            # split already (its message came again): its parts run it now
            return Started(run=False, attempt=attempts, previous=state, split=True)
        # still running: the process of the attempt before died before it could
        # record anything (kill -9, out of memory, a crash in native code)
        ended = state == "running" and after_transient is not None and attempts == after_transient
        lost_worker = last_worker if state == "running" and not ended else None
        if lost_worker is not None:
            lost += 1
        if lost >= max_attempts:
            why = (
                f"the worker process running it died in each of its {lost} attempts"
                f" (killed, out of memory, or crashed in native code); the last was"
                f" {last_worker}"
            )
            conn.execute(
                "UPDATE queue_tasks SET state = 'failed', lost = ?, reason = ?, finished_at = ?"
                " WHERE task_id = ?",
                (lost, why, _now(), task_id),
            )
            if parent is not None:
                _fail_split(conn, task_id, why)
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
    """Record how the task ended (it stays so). A part that failed fails its
    repository's task; a split repository's task that ended drops its parts'
    staged extraction."""
    with _transaction(db) as conn:
        conn.execute(
            "UPDATE queue_tasks SET state = ?, reason = ?, repo = coalesce(?, repo),"
            ' "commit" = coalesce(?, "commit"), seconds = ?, bytes = ?, finished_at = ?'
            " WHERE task_id = ?",
            (state, reason, repo, commit, seconds, nbytes, _now(), task_id),
        )
        row = conn.execute(
            "SELECT parent, parts FROM queue_tasks WHERE task_id = ?", (task_id,)
        ).fetchone()
        if row is not None and row[0] is not None and state == "failed":
            _fail_split(conn, task_id, reason or "failed")
        elif row is not None and row[1] is not None:
            _end_split(conn, task_id, reason if state == "failed" else None)


def retrying(db: Db, task_id: str, reason: str) -> None:
    """Put the task back to queued, with the transient fault it will be
    retried after; a split repository's task whose merge will be retried
    stays running, with no worker."""
    with _transaction(db) as conn:
        conn.execute(
            "UPDATE queue_tasks SET state = CASE WHEN parts IS NOT NULL AND parent IS NULL"
            " THEN state ELSE 'queued' END, worker = CASE WHEN parts IS NOT NULL AND parent"
            " IS NULL THEN NULL ELSE worker END, reason = ? WHERE task_id = ? AND state"
            " NOT IN ('done', 'skipped', 'failed')",
            (reason, task_id),
        )


def split(db: Db, task_id: str, parts: list[tuple[str, dict[str, Any]]]) -> bool:
    """Record the repository's task ``task_id`` as split into ``parts`` (id,
    job as JSON), queued, in one transaction. False (and nothing recorded)
    when it was split already (its message delivered again)."""
    now = _now()
    with _transaction(db) as conn:
        row = conn.execute("SELECT parts FROM queue_tasks WHERE task_id = ?", (task_id,)).fetchone()
        if row is not None and row[0] is not None:
            return False
        conn.executemany(
            "INSERT INTO queue_tasks (task_id, source, rev, job, state, enqueued_at, parent,"
            " part, parts) VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?)",
            (
                (pid, job["source"], job.get("rev"), json.dumps(job, sort_keys=True), now,
                 task_id, n, len(parts))
                for n, (pid, job) in enumerate(parts)
            ),
        )  # fmt: skip
        conn.execute(
            "UPDATE queue_tasks SET parts = ?, worker = NULL, reason = ? WHERE task_id = ?",
            (len(parts), f"split into {len(parts)} parts: 0 done", task_id),
        )
    return True


Finished = Literal["merge", "wait", "dropped"]


def finish_part(
    db: Db,
    task_id: str,
    staged: Iterable[bytes],
    *,
    commit: str | None,
    seconds: float,
    nbytes: int,
) -> Finished:
    """Record the part ``task_id`` as done and keep its extraction
    (``staged``: its chunks, in order), in one transaction. "merge": it is
    the last part to be done, and its process merges them (it is recorded
    as the ``merger``); "wait": others are not done yet; "dropped": nothing
    kept, the part had ended already (an attempt before, or its repository's
    task failed)."""
    now = _now()
    with _transaction(db) as conn:
        row = conn.execute(
            "SELECT state, parent FROM queue_tasks WHERE task_id = ?", (task_id,)
        ).fetchone()
        if row is None or row[0] in FINAL or row[1] is None:
            return "dropped"
        parent = row[1]
        ended = conn.execute(
            "SELECT state, reason FROM queue_tasks WHERE task_id = ?", (parent,)
        ).fetchone()
        if ended is None or ended[0] in FINAL:  # failed meanwhile (sent again after, say)
            _end_split(conn, parent, ended[1] if ended is not None else "its task is gone")
            return "dropped"
        conn.execute("DELETE FROM queue_staged WHERE task_id = ?", (task_id,))
        conn.executemany(
            "INSERT INTO queue_staged VALUES (?, ?, ?)",
            ((task_id, seq, chunk) for seq, chunk in enumerate(staged)),
        )
        conn.execute(
            "UPDATE queue_tasks SET state = 'done', reason = NULL, \"commit\" = ?, seconds = ?,"
            " bytes = ?, finished_at = ? WHERE task_id = ?",
            (commit, seconds, nbytes, now, task_id),
        )
        done, total = conn.execute(
            "SELECT sum(CASE WHEN state = 'done' THEN 1 ELSE 0 END), count(*) FROM queue_tasks"
            " WHERE parent = ?",
            (parent,),
        ).fetchone()
        if done < total:
            conn.execute(
                "UPDATE queue_tasks SET reason = ? WHERE task_id = ?",
                (f"split into {total} parts: {done} done", parent),
            )
            return "wait"
        conn.execute(
            "UPDATE queue_tasks SET merger = ?, reason = ? WHERE task_id = ?",
            (task_id, f"split into {total} parts: {done} done, merging", parent),
        )
    return "merge"


def start_merge(
    db: Db, task_id: str, worker: str, max_attempts: int, *, after_transient: int | None = None
) -> Started:
    """Take the split repository's task ``task_id`` for one attempt at the
    merge, by ``worker``. As ``start``: a merge whose process died is
    counted, and after ``max_attempts`` of those the task is failed; the
    merge's attempt a transient fault ended (``after_transient``) is not."""
    with _transaction(db) as conn:
        row = conn.execute(
            "SELECT state, attempts, lost, worker, parts FROM queue_tasks WHERE task_id = ?",
            (task_id,),
        ).fetchone()
        if row is None:
            return Started(run=False, attempt=0, previous=None)
        state, attempts, lost, last_worker, parts = row
        if state in FINAL:
            return Started(run=False, attempt=attempts, previous=state)
        ended = after_transient is not None and attempts == after_transient
        lost_worker = last_worker if not ended else None
        if lost_worker is not None:
            lost += 1
        if lost >= max_attempts:
            why = (
                f"the worker process merging its {parts} parts died in each of its {lost}"
                f" attempts (killed, out of memory, or crashed in native code); the last was"
                f" {last_worker}"
            )
            conn.execute(
                "UPDATE queue_tasks SET state = 'failed', lost = ?, reason = ?, finished_at = ?,"
                " worker = NULL WHERE task_id = ?",
                (lost, why, _now(), task_id),
            )
            _drop_staged(conn, task_id)
            return Started(run=False, attempt=attempts, previous=state, lost_worker=lost_worker)
        conn.execute(
            "UPDATE queue_tasks SET attempts = ?, lost = ?, worker = ?, reason = ?"
            " WHERE task_id = ?",
            (attempts + 1, lost, worker, f"split into {parts} parts: merging", task_id),
        )
    return Started(run=True, attempt=attempts + 1, previous=state, lost_worker=lost_worker)


def staged(db: Db, task_id: str) -> Iterator[bytes]:
    """The staged chunks of the split repository's task ``task_id``: its
    parts' in order, each part's in its order; each read when it is asked for."""
    conn = _reader(db)
    keys = conn.execute(
        "SELECT s.task_id, s.seq FROM queue_staged s JOIN queue_tasks t ON t.task_id = s.task_id"
        " WHERE t.parent = ? ORDER BY t.part, s.seq",
        (task_id,),
    ).fetchall()
    for part_id, seq in keys:
        row = conn.execute(
            "SELECT data FROM queue_staged WHERE task_id = ? AND seq = ?", (part_id, seq)
        ).fetchone()
        yield bytes(row[0])


def _fail_split(conn: Sql, part_id: str, why: str) -> None:
    """The part ``part_id`` failed: so does its repository's task, with the
    reason, and the parts still to run are not needed; nothing is staged."""
    row = conn.execute(
        "SELECT parent, part, parts FROM queue_tasks WHERE task_id = ?", (part_id,)
    ).fetchone()
    parent, n, total = row
    reason = f"part {n + 1} of {total} failed: {why}"
    conn.execute(
        "UPDATE queue_tasks SET state = 'failed', reason = ?, worker = NULL, finished_at = ?"
        " WHERE task_id = ? AND state NOT IN ('done', 'skipped', 'failed')",
        (reason, _now(), parent),
    )
    _end_split(conn, parent, reason)


def _end_split(conn: Sql, task_id: str, failed: str | None) -> None:
    """The split task ``task_id`` ended: its parts' staged rows go, and when
    it ``failed`` (why), its parts still to run are not needed."""
    if failed is not None:
        conn.execute(
            "UPDATE queue_tasks SET state = 'failed', reason = ?, finished_at = ? WHERE"
            " parent = ? AND state NOT IN ('done', 'skipped', 'failed')",
            (f"not needed: {failed}", _now(), task_id),
        )
    _drop_staged(conn, task_id)


def _drop_staged(conn: Sql, task_id: str) -> None:
    conn.execute(
        "DELETE FROM queue_staged WHERE task_id IN"
        " (SELECT task_id FROM queue_tasks WHERE parent = ?)",
        (task_id,),
    )


def counts(db: Db) -> dict[str, int]:
    """Tasks per state (a repository's each, not its parts), every state present."""
    conn = _reader(db)
    found = dict(
        conn.execute(
            "SELECT state, count(*) FROM queue_tasks WHERE parent IS NULL GROUP BY state"
        ).fetchall()
    )
    return {s: int(found.get(s, 0)) for s in STATES}


def records(
    db: Db, state: State | None = None, limit: int | None = None, *, parts: bool = False
) -> list[TaskRecord]:
    """Tasks (in ``state``), oldest first (those enqueued together, in their order
    on SQLite; by id on PostgreSQL, which keeps no insertion order); with
    ``parts``, the parts of split tasks too."""
    conn = _reader(db)
    conds, params = (["state = ?"], [state]) if state else ([], [])
    if not parts:
        conds.append("parent IS NULL")
    where = f"WHERE {' AND '.join(conds)}" if conds else ""
    then = "rowid" if dialect(conn) == "sqlite" else "task_id"
    sql = f"SELECT {_COLS} FROM queue_tasks {where} ORDER BY enqueued_at, {then}"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return [_record(r) for r in conn.execute(sql, params)]


def parts_of(db: Db, task_id: str) -> list[TaskRecord]:
    """The parts of the split task ``task_id``, in order."""
    conn = _reader(db)
    rows = conn.execute(
        f"SELECT {_COLS} FROM queue_tasks WHERE parent = ? ORDER BY part", (task_id,)
    ).fetchall()
    return [_record(r) for r in rows]


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
