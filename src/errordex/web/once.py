"""Work a cached value out once while the other threads asking for it wait.

Fifty requests arriving at a fresh server for pages of one file each lexed
the whole file (and read it from the store) on every thread at once: the
first seconds of ``bench/web.py``'s cold runs were spent doing the same work
up to 40 times over, and their p99 was that wait.

    cache = OnceCache(size=256)
    rows = cache.get(key, lambda: lex(read(path)))   # one build per key at a time

``OnceCache`` is the LRU every page cache is: the highlighted rows of whole
files, the lines of snapshot files (bounded by characters), the catalog's
order. ``KeyLocks`` is the lock per key underneath.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Generic, TypeVar

__all__ = ["KeyLocks", "OnceCache"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


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


class OnceCache(Generic[K, V]):
    """An LRU whose missing values are built once per key: the other threads
    asking for the same key wait for the first one's value.

    ``size`` bounds the sum of ``weight(value)`` (1 each by default); a value
    heavier than an eighth of it is handed out but not kept, and a build that
    returns None is not kept either (the next ask builds again)."""

    def __init__(self, size: int, weight: Callable[[V], int] = lambda _: 1) -> None:
        self.size = size
        self.weight = weight
        self.kept = 0
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self._building = KeyLocks()

    def _hit(self, key: K) -> V | None:
        with self._lock:
            hit = self._data.get(key)
            if hit is not None:
                self._data.move_to_end(key)
            return hit

    def get(self, key: K, build: Callable[[], V | None]) -> V | None:
        """The value kept for ``key``, or ``build()``'s, built by one thread at a time."""
        hit = self._hit(key)
        if hit is not None:
            return hit
        with self._building.holding(key):
            hit = self._hit(key)
            if hit is not None:
                return hit
            value = build()
            if value is not None:
                self._keep(key, value)
            return value

    def _keep(self, key: K, value: V) -> None:
        weight = self.weight(value)
        if weight > max(1, self.size // 8):
            return
        with self._lock:
            if key in self._data:
                return
            self._data[key] = value
            self.kept += weight
            while self.kept > self.size:
                _, dropped = self._data.popitem(last=False)
                self.kept -= self.weight(dropped)

    def __len__(self) -> int:
        return len(self._data)
