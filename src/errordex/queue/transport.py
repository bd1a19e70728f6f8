"""Kombu's Redis transport, with one fault fixed: an acknowledgement that
fails because Redis went away must not stall the worker.

Kombu counts a message as delivered until its ack reaches Redis; when the
ack fails (Redis stopped while the task ran), the message stays counted, and
a worker that takes one message at a time never asks for another, even
after Redis is back (seen with kombu 5.7: "Couldn't ack", then nothing).
Here the message is forgotten locally either way: if Redis kept it, it is
delivered again after the visibility timeout, and the task's record in the
store makes that a no-op.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis, virtual


class QoS(redis.QoS):
    def ack(self, delivery_tag: Any) -> None:
        try:
            self._remove_from_indices(delivery_tag).execute()  # type: ignore[no-untyped-call]
        finally:
            virtual.QoS.ack(self, delivery_tag)  # type: ignore[no-untyped-call]

    def reject(self, delivery_tag: Any, requeue: bool = False) -> None:
        try:
            if requeue:
                self.restore_by_tag(delivery_tag, leftmost=True)  # type: ignore[no-untyped-call]
            else:
                self._remove_from_indices(delivery_tag).execute()  # type: ignore[no-untyped-call]
        finally:
            virtual.QoS.ack(self, delivery_tag)  # type: ignore[no-untyped-call]


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
