"""What one queued task does, apart from Celery: take the task, skip a
snapshot that is stored already, index, and record how it ended.

Faults are sorted here. A transient one (the store is locked or cannot be
opened just now, a clone or fetch failed, the broker went away) raises
``Transient`` and the Celery task retries it with backoff. Anything else the
source does to the indexer (a source that cannot be read, an exception in
errordex, a time limit) is recorded as the task's failure with its reason,
and the queue goes on.

A repository over its job's ``split_over`` is split (``errordex.parts``):
its task records and sends its parts (``run_part``) and ends; the process
that finishes the last part merges them into the snapshot. A part that
fails fails the repository's task, and the snapshot is not written.
"""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Literal

from errordex import parts
from errordex.errors import (
    CloneFailed,
    ErrordexError,
    NotOurDatabase,
    StoreDamaged,
    StoreError,
    StoreReadOnly,
)
from errordex.pipeline import index_source, open_for_index
from errordex.queue.jobs import IndexJob, PartJob
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
    is not counted as one whose process died. ``merge``: the attempt is the
    merge's, of a split repository's task (``tasks.start_merge``), not the
    part's own."""

    def __init__(self, message: str, attempt: int | None = None, *, merge: bool = False) -> None:
        super().__init__(message)
        self.attempt = attempt
        self.merge = merge


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a task ended, as its Celery result and its record say."""

    #: "split": the task was split into parts, which go on with it
    state: Literal["done", "skipped", "failed", "split"]
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


#: send_parts(parts): sends (task id, part) messages to the workers
SendParts = Callable[[list[tuple[str, PartJob]]], None]


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
    send_parts: SendParts | None = None,
) -> Outcome:
    """Run one task: ``store`` is the worker's (written to), ``soft_timeout``
    the exception a soft time limit raises (Celery's), ``soft_limit`` its
    seconds, ``after_transient`` the attempt a transient fault ended (this
    is its retry: ``Transient.attempt``); ``send_parts`` sends the parts of
    a repository split (without it, none is).

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
    if begun.split:
        return Outcome("split", "split into parts already: they go on with it")
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
        outcome = _index(store, job, task_id, started, send_parts)
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
    if outcome.state != "split":  # recorded with its parts
        _record_attempt(store, task_id, outcome, begun.attempt)
    return outcome


@contextmanager
def _failpoint(source: str) -> Iterator[None]:
    """Fault injection for tests: ERRORDEX_QUEUE_FAILPOINT=SOURCE=POINT sets
    ERRORDEX_FAILPOINT=POINT (``store/writer.py``) while this process indexes
    SOURCE alone, so one poisoned source among others kills its process;
    POINT ``hang`` hangs deaf to the soft time limit's signal (SIGUSR1), as
    native code that never returns would, ``kill`` kills the process at
    once, ``crash`` raises, and ``slow`` sleeps 3 s first. SOURCE may name
    a part, ``SOURCE#2``, or the merge of the parts, ``SOURCE#merge``."""
    named, _, point = os.environ.get("ERRORDEX_QUEUE_FAILPOINT", "").rpartition("=")
    if not point or named != source:
        yield
        return
    if point == "hang":
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
        while True:
            time.sleep(60)
    if point == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if point == "crash":
        raise RuntimeError(f"failpoint: {source} crashes the indexer")
    if point == "slow":
        time.sleep(3)
        yield
        return
    os.environ["ERRORDEX_FAILPOINT"] = point
    try:
        yield
    finally:
        os.environ.pop("ERRORDEX_FAILPOINT", None)


def _index(
    store: Store, job: IndexJob, task_id: str, started: float, send_parts: SendParts | None
) -> Outcome:
    with _failpoint(job.source):
        return _index_job(store, job, task_id, started, send_parts)


def _index_job(
    store: Store, job: IndexJob, task_id: str, started: float, send_parts: SendParts | None
) -> Outcome:
    source = open_for_index(job.source, rev=job.rev, name=job.name, options=job.options())
    with source:
        # asked before the commit: a directory is walked once for both
        listing = source.listing() if send_parts is not None and job.split_over > 0 else None
        slug, commit = source.repo.slug, source.commit
        if tasks.snapshot_stored(store, slug, commit):
            return Outcome(
                "skipped",
                f"the snapshot {slug} @ {commit[:10]} is stored already",
                repo=slug,
                commit=commit,
                seconds=round(time.perf_counter() - started, 3),
            )
        if listing is not None and send_parts is not None:
            plan = parts.plan(source, job.split_over, listing)
            if plan is not None:
                return _split(store, job, task_id, source.commit_kind == "git", plan, send_parts)
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


def _split(
    store: Store,
    job: IndexJob,
    task_id: str,
    git: bool,
    plan: parts.Plan,
    send_parts: SendParts,
) -> Outcome:
    """Record the parts of ``plan`` and send them."""
    pinned = replace(job, rev=plan.commit) if git else job
    jobs = [
        (
            str(uuid.uuid4()),
            PartJob(
                task_id,
                n,
                len(plan.ranges),
                pinned,
                plan.commit,
                (r.lo, r.hi),
                plan.digests[n] if plan.digests else None,
            ),
        )
        for n, r in enumerate(plan.ranges)
    ]
    why = f"split into {len(jobs)} parts ({plan.bytes:,} bytes)"
    if tasks.split(store, task_id, [(pid, pj.to_json()) for pid, pj in jobs]):
        log.info("task %s (%s): %s", task_id, job.label, why)
        send_parts(jobs)
    return Outcome("split", why, commit=plan.commit, bytes=plan.bytes)


def run_part(
    store: Store,
    job: PartJob,
    task_id: str,
    *,
    max_attempts: int = 3,
    soft_timeout: type[BaseException] | None = None,
    soft_limit: float | None = None,
    after_transient: int | None = None,
    after_merge_transient: int | None = None,
) -> Outcome:
    """Run one part of a split repository: extract its files and keep them
    staged; when it is the last part done, merge them all into the snapshot
    and end the repository's task. Returns the part's outcome (or, after a
    merge, the repository's); raises ``Transient`` for a fault to retry.
    ``after_transient`` is the part's attempt a transient fault ended,
    ``after_merge_transient`` the merge's (as ``run_job``'s)."""
    try:
        begun = tasks.start(
            store,
            task_id,
            job.to_json(),
            worker_name(),
            max_attempts,
            after_transient=after_transient,
        )
    except Exception as exc:
        if is_transient(exc):
            raise Transient(
                f"the store could not record the start: {describe(exc)}", after_transient
            ) from exc
        raise
    if begun.run:
        if begun.lost_worker:
            log.warning(
                "task %s (%s): attempt %d; the worker of the one before (%s) was lost",
                task_id,
                job.label,
                begun.attempt,
                begun.lost_worker,
            )
        verdict = _extract_part(store, job, task_id, begun.attempt, soft_timeout, soft_limit)
        if isinstance(verdict, Outcome):
            return verdict
    else:
        # delivered again: the part that was to merge, whose process died merging
        try:
            rec, parent = tasks.record(store, task_id), tasks.record(store, job.parent)
        except Exception as exc:
            if is_transient(exc):
                raise Transient(f"the store could not be read: {describe(exc)}") from exc
            raise
        mine = parent is not None and parent.merger == task_id and parent.state not in tasks.FINAL
        if rec is None or rec.state != "done" or not mine:
            state = rec.state if rec is not None and rec.state in tasks.FINAL else "failed"
            return Outcome(state, f"already {state}: a task is run once")  # type: ignore[arg-type]
        verdict = "merge"
    if verdict == "wait":
        return Outcome("done", f"{job.label} is done; the others are not yet")
    if verdict == "dropped":
        return Outcome("failed", f"{job.label} is not kept: its task ended before it")
    return _merge(store, job, max_attempts, after_merge_transient, soft_timeout, soft_limit)


def _extract_part(
    store: Store,
    job: PartJob,
    task_id: str,
    attempt: int,
    soft_timeout: type[BaseException] | None,
    soft_limit: float | None,
) -> Outcome | tasks.Finished:
    """Extract the part and keep it staged: what ``tasks.finish_part`` said,
    or the outcome of a part that failed (and failed its repository's task)."""
    src = job.job
    paths = parts.PathRange(*job.paths)
    try:
        with (
            _failpoint(f"{src.source}#{job.part + 1}"),
            parts.open_part(
                src.source, paths, rev=src.rev, name=src.name, options=src.options()
            ) as source,
        ):
            got = parts.extract_part(source)
        if job.digest is not None and got.digest != job.digest:
            raise ErrordexError(
                f"the files of {src.source} changed while it was indexed in parts: index it again"
            )
    except Exception as exc:
        outcome = _failed(exc, task_id, job.label, soft_timeout, soft_limit)
        if outcome is None:
            _retrying(store, task_id, exc, attempt)
        assert outcome is not None
        _record_attempt(store, task_id, outcome, attempt)
        return outcome
    try:
        return tasks.finish_part(
            store, task_id, got.chunks, commit=job.commit, seconds=got.seconds, nbytes=got.bytes
        )
    except Exception as exc:
        if is_transient(exc):
            _retrying(store, task_id, exc, attempt)
        raise


def _merge(
    store: Store,
    job: PartJob,
    max_attempts: int,
    after_transient: int | None,
    soft_timeout: type[BaseException] | None,
    soft_limit: float | None,
) -> Outcome:
    """Merge the staged parts into the snapshot, as the repository's task;
    ``after_transient`` is the merge's attempt a transient fault ended."""
    parent = job.parent
    try:
        begun = tasks.start_merge(
            store, parent, worker_name(), max_attempts, after_transient=after_transient
        )
        rec = tasks.record(store, parent)
    except Exception as exc:
        if is_transient(exc):
            raise Transient(
                f"the store could not record the merge: {describe(exc)}",
                after_transient,
                merge=True,
            ) from exc
        raise
    if not begun.run:
        return Outcome("failed", rec.reason if rec is not None else None)
    # the snapshot's seconds are the repository's, from its task's start
    started = time.perf_counter() - _since(rec.started_at if rec is not None else None)
    src = job.job
    try:
        with _failpoint(f"{src.source}#merge"):
            source = open_for_index(src.source, rev=src.rev, name=src.name, options=src.options())
            with source:
                slug = source.repo.slug
                if tasks.snapshot_stored(store, slug, job.commit):
                    # written by a merge whose process died before it could say so
                    outcome = Outcome("done", None, repo=slug, commit=job.commit)
                else:
                    result = parts.merge(
                        source, job.commit, tasks.staged(store, parent), store, started=started
                    )
                    stats = result.snapshot.stats
                    outcome = Outcome(
                        "done",
                        None,
                        repo=slug,
                        commit=job.commit,
                        seconds=round(stats.seconds, 3),
                        bytes=stats.bytes_parsed,
                        entries=stats.entries,
                    )
    except Exception as exc:
        failed = _failed(exc, parent, f"{src.label} (merging)", soft_timeout, soft_limit)
        if failed is None:
            _retrying(store, parent, exc, begun.attempt, merge=True)
        assert failed is not None
        outcome = Outcome("failed", f"merging its {job.parts} parts: {failed.reason}")
    _record_attempt(store, parent, outcome, begun.attempt, merge=True)
    return outcome


def _since(stamp: str | None) -> float:
    """Seconds since a record's timestamp (0 without one).

    >>> _since(None), _since(datetime.now(UTC).isoformat()) < 1
    (0.0, True)
    """
    if stamp is None:
        return 0.0
    return max(0.0, (datetime.now(UTC) - datetime.fromisoformat(stamp)).total_seconds())


def _failed(
    exc: Exception,
    task_id: str,
    label: str,
    soft_timeout: type[BaseException] | None,
    soft_limit: float | None,
) -> Outcome | None:
    """The failure ``exc`` is, or None when it is a transient fault."""
    if soft_timeout is not None and isinstance(exc, soft_timeout):
        limit = f" of {soft_limit:g}s" if soft_limit else ""
        return Outcome("failed", f"timed out: the soft time limit{limit} was reached")
    if is_transient(exc):
        return None
    if not isinstance(exc, ErrordexError):
        log.exception("task %s (%s) failed", task_id, label)
    return Outcome("failed", describe(exc))


def _retrying(
    store: Store, task_id: str, exc: Exception, attempt: int, *, merge: bool = False
) -> None:
    """Record that ``task_id`` will be retried after ``exc``, which ended
    its ``attempt`` (the merge's, with ``merge``), and raise ``Transient``."""
    reason = describe(exc)
    try:
        tasks.retrying(store, task_id, f"retrying after: {reason}")
    except Exception:  # the store itself is what fails: the retry knows the attempt
        log.warning("task %s: could not record the retry", task_id, exc_info=True)
    raise Transient(reason, attempt, merge=merge) from exc


def _record_attempt(
    store: Store, task_id: str, outcome: Outcome, attempt: int, *, merge: bool = False
) -> None:
    """``record_outcome``, where a store that cannot take it names the
    ``attempt`` it ended (the merge's, with ``merge``) to the retry."""
    try:
        record_outcome(store, task_id, outcome)
    except Transient as exc:
        exc.attempt, exc.merge = attempt, merge
        raise


def record_failure(store: Store, task_id: str, why: str) -> None:
    """Record a failure the task could not record itself (its hard time
    limit, its retries spent, an error it did not expect). A part that was
    merging its repository's parts fails that task, as the merge's failure."""
    try:
        rec = tasks.record(store, task_id)
        parent = None
        if rec is not None and rec.parent is not None and rec.state == "done":
            parent = tasks.record(store, rec.parent)
    except Exception as exc:
        if is_transient(exc):
            raise Transient(f"the store could not record the failure: {describe(exc)}") from exc
        raise
    if (
        rec is not None
        and parent is not None
        and parent.merger == task_id
        and parent.state not in tasks.FINAL
    ):
        why = f"merging its {rec.parts} parts: {why}"
        record_outcome(store, parent.task_id, Outcome("failed", why))
        return
    record_outcome(store, task_id, Outcome("failed", why))


def record_outcome(store: Store, task_id: str, outcome: Outcome) -> None:
    """Write how a task ended into its record."""
    assert outcome.state != "split"  # ``tasks.split`` records it
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
