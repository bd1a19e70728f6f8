"""Work a cached value out once while the other threads asking for it wait.

Fifty requests arriving at a fresh server for pages of one file each lexed
the whole file (and read it from the store) on every thread at once: the
first seconds of ``bench/web.py``'s cold runs were spent doing the same work
up to 40 times over, and their p99 was that wait.

    locks = KeyLocks()
    with locks.holding(key):
        value = cache.get(key) or build(key)   # one thread at a time per key
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

__all__ = ["KeyLocks"]


@dataclass
class _Held:
    lock: threading.Lock = field(default_factory=threading.Lock)
    users: int = 0


class KeyLocks:
    """A lock per key, kept while a thread holds it or waits for it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[Hashable, _Held] = {}

    @contextmanager
    def holding(self, key: Hashable) -> Iterator[None]:
        with self._lock:
            held = self._held.setdefault(key, _Held())
            held.users += 1
        try:
            with held.lock:
                yield
        finally:
            with self._lock:
                held.users -= 1
                if not held.users:
                    del self._held[key]

    def __len__(self) -> int:
        """Keys held or waited for now."""
        return len(self._held)
