"""A fresh server's first requests for pages of one file read and lex it once
(``web/once.py``), not once per thread."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from errordex.store.sqlite import SqliteStore
from errordex.web.context import FileLines
from errordex.web.render import FileRows

THREADS = 16


def _all_at_once(ask: Any) -> list[Any]:
    start = threading.Barrier(THREADS)

    def one(_: int) -> Any:
        start.wait()
        return ask()

    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(one, range(THREADS)))


def test_a_file_many_threads_ask_for_at_once_is_lexed_once() -> None:
    rows = FileRows()
    loads: list[int] = []

    def load() -> str:
        loads.append(1)
        time.sleep(0.2)  # a big file: the others ask while it is lexed
        return "def f():\n    raise ValueError('x')\n"

    got = _all_at_once(lambda: rows.get(("acme/widgets", "c0ffee", "f.py"), "python", load))
    assert len(loads) == 1
    assert all(g == got[0] for g in got) and len(got[0]) == 2
    assert len(rows._rows._building) == 0
    # a file that is not stored is not kept: the next ask reads again
    assert rows.get(("acme/widgets", "c0ffee", "gone.py"), "python", lambda: None) is None
    assert len(rows._rows._building) == 0


class _CountedReads(SqliteStore):
    """The web tests' store, counting its file reads (each slowed down)."""

    reads = 0

    def file_text(self, snapshot_id: int, path: str) -> str | None:
        type(self).reads += 1
        time.sleep(0.2)
        return super().file_text(snapshot_id, path)


def test_a_file_many_threads_ask_for_at_once_is_read_from_the_store_once(
    store: SqliteStore,
) -> None:
    counted = _CountedReads.reader(store.path)
    snap = counted.current("acme/widgets")
    lines = FileLines()
    got = _all_at_once(lambda: lines.get(counted, snap, "src/widgets/core.py"))
    assert _CountedReads.reads == 1
    assert got[0] and all(g == got[0] for g in got)
    assert lines.get(counted, snap, "src/widgets/nothing.py") is None
    assert len(lines._files._building) == 0
    counted.close()


def test_the_cache_drops_its_oldest_values_and_keeps_no_heavy_one() -> None:
    from errordex.web.once import OnceCache

    cache: OnceCache[str, str] = OnceCache(80, weight=len)
    for key in "abcdefgh":
        assert cache.get(key, (key * 10).strip) == key * 10
    assert len(cache) == 8 and cache.kept == 80
    cache.get("a", lambda: "unused")  # a hit moves "a" to the newest end
    cache.get("i", lambda: "i" * 10)
    assert cache.get("b", lambda: "rebuilt") == "rebuilt"  # "b" was the oldest
    assert cache.get("a", lambda: "unused") == "a" * 10
    assert cache.get("big", lambda: "x" * 11) == "x" * 11  # over an eighth: handed out ...
    assert cache.get("big", lambda: "again") == "again"  # ... not kept
