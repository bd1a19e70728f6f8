"""Calls written on one line, by callee name, kept on disk (``CallTexts``).

The Debian crates have 126k such calls, and ``facts.callers`` reads those of
a few hundred names. So the calls wait in a ``TempBytes`` file: they are
held a few thousand at a time, then each name's are written as one chunk,
and memory keeps only where each name's chunks are. A name's calls come
back in the order they were added, in one read per chunk (a name has at
most one chunk per flush):

    texts = CallTexts()
    texts.add("parse", "src/a.rs", "main", 3, 'parse("1")')
    texts.flush()  # before forking readers: each reads the file itself
    texts.get("parse")  # (("src/a.rs", "main", 3, 'parse("1")'),)
"""

from __future__ import annotations

import marshal
from array import array
from collections import OrderedDict

from errordex.scratch.spill import TempBytes

#: calls held in memory before they are written out
FLUSH_CALLS = 8192
#: calls read back that each process keeps (the names read last): the
#: crates read ``new``'s 8k calls 23 times, ``fmt``'s 429 calls 184 times
CACHE_CALLS = 16384

#: (path, caller symbol, line, call text)
CallText = tuple[str, str, int, str]


class CallTexts:
    def __init__(self, flush_calls: int = FLUSH_CALLS, cache_calls: int = CACHE_CALLS) -> None:
        self._flush_calls = flush_calls
        self._cache_calls = cache_calls
        self._file = TempBytes(prefix="errordex-calls-")
        #: callee name -> offset, length, offset, length... of its chunks
        self._chunks: dict[str, array[int]] = {}
        #: callee name -> calls not yet written
        self._pending: dict[str, list[CallText]] = {}
        self._n_pending = 0
        #: callee name -> its written calls, the names read last
        self._read: OrderedDict[str, tuple[CallText, ...]] = OrderedDict()
        self._n_read = 0

    def add(self, callee: str, path: str, caller: str, line: int, text: str) -> None:
        calls = self._pending.get(callee)
        if calls is None:
            calls = self._pending[callee] = []
        calls.append((path, caller, line, text))
        self._n_pending += 1
        if self._n_pending >= self._flush_calls:
            self.flush()

    def flush(self) -> None:
        """Write the calls held in memory (in one write). Readers forked
        later share the file, so this comes before they are forked."""
        if not self._pending:
            return
        out = bytearray()
        start = self._file.size
        for callee, calls in self._pending.items():
            # marshal: twice as fast as pickle here; the file lives only as
            # long as this process and those it forks, so its format may
            # change with the Python version. A path is written once per chunk.
            data = marshal.dumps(calls)
            chunks = self._chunks.get(callee)
            if chunks is None:
                chunks = self._chunks[callee] = array("Q")
            chunks.append(start + len(out))
            chunks.append(len(data))
            out += data
        self._file.append(out)
        self._pending = {}
        self._n_pending = 0
        self._read.clear()
        self._n_read = 0

    def get(self, name: str) -> tuple[CallText, ...]:
        """The calls of ``name``, in the order they were added."""
        written = self._written(name)
        pending = self._pending.get(name)
        return written + tuple(pending) if pending else written

    def _written(self, name: str) -> tuple[CallText, ...]:
        got = self._read.get(name)
        if got is not None:
            self._read.move_to_end(name)
            return got
        chunks = self._chunks.get(name)
        if chunks is None:
            return ()
        found: list[CallText] = []
        for i in range(0, len(chunks), 2):
            found += marshal.loads(self._file.read(chunks[i], chunks[i + 1]))
        got = self._read[name] = tuple(found)
        self._n_read += len(got)
        while self._n_read > self._cache_calls and len(self._read) > 1:
            self._n_read -= len(self._read.popitem(last=False)[1])
        return got

    def __contains__(self, name: str) -> bool:
        return name in self._chunks or name in self._pending

    def __len__(self) -> int:
        """How many names have calls."""
        return len(self._chunks.keys() | self._pending.keys())

    def close(self) -> None:
        self._file.close()
