"""What one queued task does, apart from Celery: take the task, skip a
snapshot that is stored already, index, and record how it ended.

Faults are sorted here. A transient one (the store is locked or cannot be
opened just now, a clone or fetch failed, the broker went away) raises
``Transient`` and the Celery task retries it with backoff. Anything else the
source does to the indexer (a source that cannot be read, an exception in
errordex, a time limit) is recorded as the task's failure with its reason,
and the queue goes on.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

from errordex.errors import (
    CloneFailed,
    ErrordexError,
    NotOurDatabase,
    StoreDamaged,
    StoreError,
    StoreReadOnly,
)
from errordex.pipeline import index_source, open_for_index
from errordex.queue.jobs import IndexJob
from errordex.store import tasks
from errordex.store.base import Store

log = logging.getLogger(__name__)


#: what git says when the network, not the repository, is at fault
_NETWORK = re.compile(
    r"Could not resolve host|Connection refused|Connection reset|Connection timed out"
    r"|timed out|Failed to connect|early EOF|RPC failed|Temporary failure|Network is unreachable"
    r"|returned error: 5\d\d",
    re.I,
)


#: a connection's errors in kombu, redis-py and psycopg (by name: none is imported here)
_CONNECTION_ERRORS = frozenset({"OperationalError", "ConnectionError"})
_CONNECTION_LIBS = frozenset({"kombu", "redis", "psycopg", "psycopg_pool"})


class Transient(Exception):
    """A fault worth retrying: the message says what it was. ``attempt`` is
    the attempt it ended (its record may still say running, when the store
    was what failed): the retry tells ``tasks.start`` so, and that attempt
    is not counted as one whose process died."""

    def __init__(self, message: str, attempt: int | None = None) -> None:
        super().__init__(message)
        self.attempt = attempt


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a task ended, as its Celery result and its record say."""

    state: Literal["done", "skipped", "failed"]
    reason: str | None
    repo: str | None = None
    commit: str | None = None
    seconds: float | None = None
    bytes: int | None = None
    entries: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "reason": self.reason,
            "repo": self.repo,
            "commit": self.commit,
            "seconds": self.seconds,
            "bytes": self.bytes,
            "entries": self.entries,
        }


def worker_name() -> str:
    """host:pid of the process running a task (the one to kill, say)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def is_transient(exc: BaseException) -> bool:
    """Whether a retry may succeed: the store busy or not reachable now, a
    clone that failed for the network (not for a repository that is not
    there), the broker's connection.

    >>> from errordex.errors import CloneFailed
    >>> is_transient(CloneFailed("could not clone u: Could not resolve host: example.org"))
    True
    >>> is_transient(CloneFailed("could not clone u: repository 'u' not found"))
    False
    """
    if isinstance(exc, CloneFailed):
        return bool(_NETWORK.search(str(exc)))
    if isinstance(exc, Transient | ConnectionError | TimeoutError):
        return True
    if isinstance(exc, NotOurDatabase | StoreDamaged | StoreReadOnly):
        return False
    if type(exc) is StoreError:  # "cannot open the database ...": locked, or gone for now
        return True
    if isinstance(exc, sqlite3.OperationalError):
        code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
        return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_IOERR)
    # kombu's, redis-py's and psycopg's connection errors and their subclasses
    # (psycopg's AdminShutdown, CannotConnectNow, the pool's PoolTimeout),
    # without importing them here
    return any(
        c.__name__ in _CONNECTION_ERRORS and c.__module__.split(".")[0] in _CONNECTION_LIBS
        for c in type(exc).__mro__
    )


def describe(exc: BaseException) -> str:
    """An exception as one line of a failure's reason."""
    if isinstance(exc, ErrordexError):
        return str(exc)
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def run_job(
    store: Store,
    job: IndexJob,
    task_id: str,
    *,
    max_attempts: int = 3,
    soft_timeout: type[BaseException] | None = None,
    soft_limit: float | None = None,
    after_transient: int | None = None,
) -> Outcome:
    """Run one task: ``store`` is the worker's (written to), ``soft_timeout``
    the exception a soft time limit raises (Celery's), ``soft_limit`` its
    seconds, ``after_transient`` the attempt a transient fault ended (this
    is its retry: ``Transient.attempt``).

    Returns the outcome it recorded; raises ``Transient`` for a fault to
    retry (the task is back to queued then)."""
    try:
        begun = tasks.start(
            store,
            task_id,
            job.to_json(),
            worker_name(),
            max_attempts,
            after_transient=after_transient,
        )
        rec = None if begun.run else tasks.record(store, task_id)
    except Exception as exc:
        if is_transient(exc):
            raise Transient(
                f"the store could not record the start: {describe(exc)}", after_transient
            ) from exc
        raise
    if not begun.run:
        state = rec.state if rec is not None and rec.state in tasks.FINAL else "failed"
        why = rec.reason if rec is not None else None
        if begun.previous in tasks.FINAL:  # delivered again: nothing to do
            why = f"already {begun.previous}: a task is run once"
        log.info("task %s (%s): %s", task_id, job.label, why)
        return Outcome(state, why)  # type: ignore[arg-type]
    if begun.lost_worker:
        log.warning(
            "task %s (%s): attempt %d; the worker of the one before (%s) was lost",
            task_id,
            job.label,
            begun.attempt,
            begun.lost_worker,
        )
    started = time.perf_counter()
    outcome: Outcome
    try:
        outcome = _index(store, job, started)
    except Exception as exc:
        if soft_timeout is not None and isinstance(exc, soft_timeout):
            limit = f" of {soft_limit:g}s" if soft_limit else ""
            outcome = Outcome("failed", f"timed out: the soft time limit{limit} was reached")
        elif is_transient(exc):
            reason = describe(exc)
            try:
                tasks.retrying(store, task_id, f"retrying after: {reason}")
            except Exception:  # the store itself is what fails: the retry knows the attempt
                log.warning("task %s: could not record the retry", task_id, exc_info=True)
            raise Transient(reason, begun.attempt) from exc
        else:
            # a source that cannot be read, or one that breaks the indexer:
            # recorded, and the queue goes on
            if not isinstance(exc, ErrordexError):
                log.exception("task %s (%s) failed", task_id, job.label)
            outcome = Outcome("failed", describe(exc))
    try:
        record_outcome(store, task_id, outcome)
    except Transient as exc:
        exc.attempt = begun.attempt
        raise
    return outcome


@contextmanager
def _failpoint(job: IndexJob) -> Iterator[None]:
    """Fault injection for tests: ERRORDEX_QUEUE_FAILPOINT=SOURCE=POINT sets
    ERRORDEX_FAILPOINT=POINT (``store/writer.py``) while this process indexes
    SOURCE alone, so one poisoned source among others kills its process;
    POINT ``hang`` hangs deaf to the soft time limit's signal (SIGUSR1), as
    native code that never returns would."""
    source, _, point = os.environ.get("ERRORDEX_QUEUE_FAILPOINT", "").rpartition("=")
    if not point or source != job.source:
        yield
        return
    if point == "hang":
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
        while True:
            time.sleep(60)
    os.environ["ERRORDEX_FAILPOINT"] = point
    try:
        yield
    finally:
        os.environ.pop("ERRORDEX_FAILPOINT", None)


def _index(store: Store, job: IndexJob, started: float) -> Outcome:
    with _failpoint(job):
        return _index_job(store, job, started)


def _index_job(store: Store, job: IndexJob, started: float) -> Outcome:
    source = open_for_index(job.source, rev=job.rev, name=job.name, options=job.options())
    with source:
        slug, commit = source.repo.slug, source.commit
        if tasks.snapshot_stored(store, slug, commit):
            return Outcome(
                "skipped",
                f"the snapshot {slug} @ {commit[:10]} is stored already",
                repo=slug,
                commit=commit,
                seconds=round(time.perf_counter() - started, 3),
            )
        # one process per task: the queue's concurrency is the worker's
        result = index_source(source, store, jobs=1, started=started)
    stats = result.snapshot.stats
    return Outcome(
        "done",
        None,
        repo=slug,
        commit=commit,
        seconds=round(stats.seconds, 3),
        bytes=stats.bytes_parsed,
        entries=stats.entries,
    )


def record_outcome(store: Store, task_id: str, outcome: Outcome) -> None:
    """Write how a task ended into its record."""
    try:
        tasks.finish(
            store,
            task_id,
            outcome.state,
            outcome.reason,
            repo=outcome.repo,
            commit=outcome.commit,
            seconds=outcome.seconds,
            nbytes=outcome.bytes,
        )
    except Exception as exc:
        if is_transient(exc):
            raise Transient(f"the store could not record the outcome: {describe(exc)}") from exc
        raise
