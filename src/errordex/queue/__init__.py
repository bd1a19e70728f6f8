"""Indexing many repositories on Celery workers, with Redis as the broker.

    errordex worker --concurrency 2            # as many as you like, anywhere
    errordex crawl sources.txt                 # one task per source at a revision
    errordex index pkg:click --queue           # one task
    errordex queue status                      # counts per state, and the failures

The tasks' records live in the store (``errordex.store.tasks``), which every
worker and the CLI share: the broker carries messages, the store says what
became of them. Configuration: ``ERRORDEX_DB`` (the store) and
``ERRORDEX_BROKER`` (a ``redis://`` URL), or ``--db`` and ``--broker``.

Celery is imported only here and below, and only when the queue is used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from errordex.queue.jobs import IndexJob, PartJob
from errordex.store import tasks
from errordex.store.base import Store
from errordex.store.tasks import TaskRecord

__all__ = [
    "Enqueued",
    "IndexJob",
    "PartJob",
    "QueueStatus",
    "enqueue",
    "requeue",
    "status",
]


@dataclass(frozen=True, slots=True)
class Enqueued:
    """Tasks sent: (task id, job) each."""

    broker: str
    tasks: list[tuple[str, IndexJob | PartJob]]


@dataclass(frozen=True, slots=True)
class QueueStatus:
    counts: dict[str, int]
    failures: list[TaskRecord]
    running: list[TaskRecord]
    #: queued again after a transient fault, with that fault as the reason
    retrying: list[TaskRecord]
    #: the parts of each running task that was split, by its id
    parts: dict[str, list[TaskRecord]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": 1,
            "counts": self.counts,
            "total": sum(self.counts.values()),
            "running": [
                {**r.to_json(), "parts_of": [p.to_json() for p in self.parts.get(r.task_id, ())]}
                for r in self.running
            ],
            "retrying": [r.to_json() for r in self.retrying],
            "failures": [r.to_json() for r in self.failures],
        }


def enqueue(store: Store, jobs: list[IndexJob], broker: str | None = None) -> Enqueued:
    """Record ``jobs`` as queued in ``store`` and send one task each.

    Raises ``BrokerUnavailable`` before recording anything when the broker
    does not answer; when it goes away while sending, the tasks not sent
    stay recorded as queued (``requeue`` sends them)."""
    from errordex.queue import app as celery_app

    url = celery_app.broker_url(broker)
    app = celery_app.make_app(url)
    celery_app.ping(app, url)
    pairs: list[tuple[str, IndexJob | PartJob]] = list(
        zip(celery_app.new_task_ids(len(jobs)), jobs, strict=True)
    )
    tasks.enqueue(store, ((tid, job.to_json()) for tid, job in pairs))
    celery_app.publish(app, url, pairs)
    return Enqueued(celery_app.shown(url), pairs)


def requeue(store: Store, broker: str | None = None) -> Enqueued:
    """Send again every task recorded as queued: after the broker lost its
    messages (a Redis restarted without persistence). A task delivered twice
    runs once; the second delivery is a no-op."""
    from errordex.queue import app as celery_app

    url = celery_app.broker_url(broker)
    app = celery_app.make_app(url)
    celery_app.ping(app, url)
    pairs: list[tuple[str, IndexJob | PartJob]] = [
        (r.task_id, PartJob.from_json(r.job) if r.parent else IndexJob.from_json(r.job))
        for r in tasks.records(store, "queued", parts=True)
    ]
    celery_app.publish(app, url, pairs)
    return Enqueued(celery_app.shown(url), pairs)


def status(store: Store, failures: int | None = None) -> QueueStatus:
    """Tasks per state (a repository's task each, not its parts), those
    running (a split one with its parts), those waiting for a retry (parts
    too), and the failures with their reasons."""
    running = tasks.records(store, "running")
    return QueueStatus(
        counts=tasks.counts(store),
        failures=tasks.records(store, "failed", limit=failures),
        running=running,
        retrying=[r for r in tasks.records(store, "queued", parts=True) if r.reason],
        parts={r.task_id: tasks.parts_of(store, r.task_id) for r in running if r.parts},
    )
