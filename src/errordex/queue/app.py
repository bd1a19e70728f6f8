"""The Celery side of the queue: the app, its settings, sending tasks, and
running a worker.

Delivery is at least once: a task's message is acknowledged when the task
has ended (``acks_late``), and a worker process that dies in the middle of
one (kill -9, out of memory) gives its message back to the queue
(``reject_on_worker_lost``). The store's records (``errordex.store.tasks``)
make a second delivery harmless, and stop a source that kills the process
each time after ``max_attempts``. Each worker process takes one message at
a time (``worker_prefetch_multiplier=1``): a long task holds up no other.
"""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from celery import Celery, Task
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded
from kombu.utils.url import maybe_sanitize_url

from errordex.errors import BrokerUnavailable
from errordex.queue.jobs import IndexJob, PartJob
from errordex.queue.run import (
    Outcome,
    Transient,
    describe,
    is_transient,
    record_failure,
    run_job,
    run_part,
)
from errordex.store import open_store
from errordex.store.base import Store
from errordex.store.sqlite import SqliteStore

log = logging.getLogger(__name__)

#: the task's name, which the sender and the workers share
TASK_NAME = "errordex.index"
#: the task of one part of a repository split (``errordex.parts``)
PART_TASK_NAME = "errordex.index_part"
#: the queue (a Redis list) the tasks wait in
QUEUE = "errordex"
#: where the broker is when neither --broker nor ERRORDEX_BROKER says
DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
#: seconds before a transient fault's retry: 2, 4, 8, ... at most this
MAX_BACKOFF = 60


def broker_url(url: str | None = None) -> str:
    return url or os.environ.get("ERRORDEX_BROKER") or DEFAULT_BROKER


@dataclass(frozen=True, slots=True)
class WorkerSettings:
    """What ``errordex worker`` takes, besides the broker."""

    db: str | None = None
    concurrency: int = 1
    max_tasks_per_child: int | None = None
    #: kilobytes of resident memory after which a process is replaced
    max_memory_per_child: int | None = None
    #: seconds; the task is told to stop (and recorded as failed)
    soft_time_limit: float = 900
    #: seconds; the process is killed (and the task recorded as failed)
    time_limit: float = 960
    #: times the process running a task may die before it is recorded as failed
    max_attempts: int = 3
    #: retries of a transient fault (store or broker connection)
    max_retries: int = 5
    #: seconds a write waits for another process's write to the store to
    #: commit; then the task is retried later
    store_timeout: float = 600
    loglevel: str = "INFO"


def make_app(broker: str, time_limit: float = 960) -> Celery:
    """A Celery app for ``broker``; ``time_limit`` (the tasks' hard limit)
    sets how long an unacknowledged message waits before Redis hands it to
    another worker (the worker that had it is gone)."""
    app = Celery("errordex", broker=broker, set_as_current=False)
    if broker.startswith("redis://"):
        # kombu's Redis transport, with a failed ack that does not stall the worker
        app.conf.broker_transport = "errordex.queue.transport:Transport"
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_acks_on_failure_or_timeout=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        accept_content=["json"],
        task_ignore_result=True,  # how each task ended is in the store
        task_default_queue=QUEUE,
        worker_enable_remote_control=False,
        worker_send_task_events=False,
        broker_connection_retry_on_startup=True,
        broker_connection_timeout=4,
        # a message still unacknowledged this long (its worker is gone) is
        # delivered again; longer than a task may run, so never twice at once
        broker_transport_options={"visibility_timeout": max(3600, int(time_limit * 2))},
        task_publish_retry_policy={
            "max_retries": 2,
            "interval_start": 0.2,
            "interval_step": 0.5,
            "interval_max": 1,
        },
    )
    return app


def shown(url: str) -> str:
    """The broker URL without its password."""
    return str(maybe_sanitize_url(url))


def ping(app: Celery, url: str) -> None:
    """Raise ``BrokerUnavailable`` unless the broker answers."""
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0.2, timeout=4)
    except Exception as exc:
        raise BrokerUnavailable(
            f"the broker at {shown(url)} cannot be reached ({describe(exc)}): start redis-server,"
            " or name it with --broker or ERRORDEX_BROKER"
        ) from None


def new_task_ids(n: int) -> list[str]:
    return [str(uuid.uuid4()) for _ in range(n)]


def publish(app: Celery, url: str, tasks: Iterable[tuple[str, IndexJob | PartJob]]) -> int:
    """Send each (task id, job or part); returns how many were sent. Raises
    ``BrokerUnavailable`` (after the sent ones) when the broker goes away."""
    sent = 0
    try:
        with app.producer_or_acquire() as producer:
            for task_id, job in tasks:
                name = PART_TASK_NAME if isinstance(job, PartJob) else TASK_NAME
                app.send_task(
                    name, args=[job.to_json()], task_id=task_id, producer=producer, retry=True
                )
                sent += 1
    except Exception as exc:
        if isinstance(exc, BrokerUnavailable):
            raise
        raise BrokerUnavailable(
            f"the broker at {shown(url)} went away after {sent} tasks were sent"
            f" ({describe(exc)}); the others are recorded as queued: once it is back,"
            " `errordex queue requeue` sends them"
        ) from None
    return sent


# -- the worker's side ------------------------------------------------------

#: each process's store, by pid (a forked child opens its own)
_STORES: dict[int, Store] = {}


def worker_store(settings: WorkerSettings) -> Store:
    """This process's store, opened at its first task."""
    store = _STORES.get(os.getpid())
    if store is None:
        store = _waiting(open_store(settings.db, write=True), settings)
        _STORES[os.getpid()] = store
    return store


def _waiting(store: Store, settings: WorkerSettings) -> Store:
    """Several worker processes write one SQLite file: a snapshot's write
    waits for another's to commit rather than fail. (PostgreSQL's writers
    take turns under the store's lock by themselves.)"""
    if isinstance(store, SqliteStore):
        store.conn.execute(f"PRAGMA busy_timeout = {int(settings.store_timeout * 1000)}")
    return store


def _opened(settings: WorkerSettings) -> Store:
    """``worker_store``, where a store that cannot be opened for now (a
    database restarting, a file locked) is a fault to retry, as one lost
    while writing is: the task must not fail, unrecorded, before it starts."""
    try:
        return worker_store(settings)
    except Exception as exc:
        if is_transient(exc):
            raise Transient(f"the store could not be opened: {describe(exc)}") from exc
        raise


def drop_store() -> None:
    store = _STORES.pop(os.getpid(), None)
    if store is not None:
        try:
            store.close()
        except Exception:
            log.debug("closing the store failed", exc_info=True)


def register_index_task(app: Celery, settings: WorkerSettings) -> Task:
    """Register the index task, and the task of a part, on a worker's app."""

    class IndexTask(Task):  # type: ignore[misc]
        acks_late = True
        reject_on_worker_lost = True
        max_retries = settings.max_retries

        def on_failure(
            self, exc: Exception, task_id: str, args: Any, kwargs: Any, einfo: Any
        ) -> None:
            # a hard time limit: Celery killed the process, and calls this in
            # the worker's main process; or an error the task did not record
            if isinstance(exc, TimeLimitExceeded):
                why = (
                    f"timed out: the hard time limit of {settings.time_limit:g}s was"
                    " reached and the process was killed"
                )
            else:
                why = describe(exc)
            try:
                # a store of its own, closed at once: this may be the worker's
                # main process, whose connections must not live on in the
                # processes it forks
                store = _waiting(open_store(settings.db, write=True), settings)
                try:
                    record_failure(store, task_id, why)
                finally:
                    store.close()
            except Exception:
                log.exception("task %s: could not record its failure (%s)", task_id, why)

    def retried(
        self: Task, task_id: str, run: Callable[[Store], Outcome], marks: dict[str, int | None]
    ) -> dict[str, Any]:
        """``run`` the task on this process's store. A transient fault is
        retried with backoff, and recorded as the failure after the last
        retry; ``marks`` are the task's keyword arguments, and its retry's
        name the attempt the fault ended (``Transient.attempt``). An error
        ``run`` did not record is recorded here, or retried if the store
        cannot take it now: never acknowledged with the task still running."""
        try:
            try:
                outcome = run(_opened(settings))
            except Transient:
                raise
            except Exception as exc:
                if is_transient(exc):  # the store's, where ``run`` did not expect it
                    raise Transient(describe(exc)) from exc
                log.exception("task %s failed", task_id)
                outcome = Outcome("failed", describe(exc))
                record_failure(_opened(settings), task_id, str(outcome.reason))
        except Transient as exc:
            drop_store()  # reconnect for the next attempt
            retries = int(self.request.retries or 0)
            if retries >= settings.max_retries:
                outcome = Outcome("failed", f"gave up after {retries} retries: {exc}")
                try:
                    record_failure(worker_store(settings), task_id, str(outcome.reason))
                except Exception:
                    log.exception("task %s: could not record its failure", task_id)
                return outcome.to_json()
            delay = min(MAX_BACKOFF, 2 ** (retries + 1))
            log.warning("task %s: %s; retry %d in %ds", task_id, exc, retries + 1, delay)
            if exc.attempt is not None:
                mark = "after_merge_transient" if exc.merge else "after_transient"
                marks = {**marks, mark: exc.attempt}
            raise self.retry(
                countdown=delay, max_retries=settings.max_retries, kwargs=marks
            ) from None
        return outcome.to_json()

    def index(
        self: Task, job: dict[str, Any], after_transient: int | None = None
    ) -> dict[str, Any]:
        task_id = str(self.request.id)

        def send_parts(jobs: list[tuple[str, PartJob]]) -> None:
            url = str(self.app.conf.broker_url)
            publish(self.app, url, jobs)

        return retried(
            self,
            task_id,
            lambda store: run_job(
                store,
                IndexJob.from_json(job),
                task_id,
                max_attempts=settings.max_attempts,
                soft_timeout=SoftTimeLimitExceeded,
                soft_limit=settings.soft_time_limit,
                after_transient=after_transient,
                send_parts=send_parts,
            ),
            {"after_transient": after_transient},
        )

    def index_part(
        self: Task,
        job: dict[str, Any],
        after_transient: int | None = None,
        after_merge_transient: int | None = None,
    ) -> dict[str, Any]:
        task_id = str(self.request.id)
        return retried(
            self,
            task_id,
            lambda store: run_part(
                store,
                PartJob.from_json(job),
                task_id,
                max_attempts=settings.max_attempts,
                soft_timeout=SoftTimeLimitExceeded,
                soft_limit=settings.soft_time_limit,
                after_transient=after_transient,
                after_merge_transient=after_merge_transient,
            ),
            {"after_transient": after_transient, "after_merge_transient": after_merge_transient},
        )

    app.task(bind=True, name=PART_TASK_NAME, base=IndexTask)(index_part)
    task: Task = app.task(bind=True, name=TASK_NAME, base=IndexTask)(index)
    return task


def worker_argv(settings: WorkerSettings) -> list[str]:
    """The ``celery worker`` command line for ``settings``."""
    argv = [
        "worker",
        f"--concurrency={settings.concurrency}",
        f"--loglevel={settings.loglevel}",
        f"--hostname=errordex-{os.getpid()}@%h",
        f"--queues={QUEUE}",
        f"--soft-time-limit={settings.soft_time_limit:g}",
        f"--time-limit={settings.time_limit:g}",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]
    if settings.max_tasks_per_child:
        argv.append(f"--max-tasks-per-child={settings.max_tasks_per_child}")
    if settings.max_memory_per_child:
        argv.append(f"--max-memory-per-child={settings.max_memory_per_child}")
    return argv


def run_worker(broker: str, settings: WorkerSettings) -> None:
    """Run a Celery worker until it is stopped (SIGTERM, Ctrl-C). Raises
    ``BrokerUnavailable`` when the broker does not answer at the start,
    and a ``StoreError`` when the store cannot be written; once running, a
    broker that goes away is waited for."""
    app = make_app(broker, settings.time_limit)
    ping(app, broker)
    # create and migrate the store once, here, before the processes fork
    open_store(settings.db, write=True).close()
    register_index_task(app, settings)
    app.worker_main(worker_argv(settings))
