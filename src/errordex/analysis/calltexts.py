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
    texts.containing("parse", '"1"')  # the same, of the calls whose text holds '"1"'

A name with many calls (the crates' ``new`` has 34k, more than the cache
holds, and ``facts.callers`` reads it for hundreds of entries) is also held
as its texts joined into one string (``_Joined``), a tenth of the memory of
its calls as tuples: ``containing`` finds a word there and builds only the
calls that hold it.
"""

from __future__ import annotations

import marshal
from array import array
from bisect import bisect_right
from collections import OrderedDict
from dataclasses import dataclass

from errordex.scratch.spill import TempBytes

#: calls held in memory before they are written out
FLUSH_CALLS = 8192
#: calls read back that each process keeps (the names read last): the
#: crates read ``new``'s 8k calls 23 times, ``fmt``'s 429 calls 184 times
CACHE_CALLS = 16384
#: a name with more calls than this is held joined (``_Joined``) for ``containing``...
BIG_CALLS = 4096
#: ...and this many such names are (those read last)
BIG_HELD = 8

#: (path, caller symbol, line, call text)
CallText = tuple[str, str, int, str]


class CallTexts:
    def __init__(self, flush_calls: int = FLUSH_CALLS, cache_calls: int = CACHE_CALLS) -> None:
        self._flush_calls = flush_calls
        self._cache_calls = cache_calls
        self._file = TempBytes(prefix="errordex-calls-")
        #: callee name -> offset, length, calls, offset, length, calls... of its chunks
        self._chunks: dict[str, array[int]] = {}
        #: callee name -> calls not yet written
        self._pending: dict[str, list[CallText]] = {}
        self._n_pending = 0
        #: callee name -> its written calls, the names read last
        self._read: OrderedDict[str, tuple[CallText, ...]] = OrderedDict()
        self._n_read = 0
        #: big names (``BIG_CALLS``) -> their written calls joined, the names read last
        self._joined: OrderedDict[str, _Joined | None] = OrderedDict()

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
            chunks.append(len(calls))
            out += data
        self._file.append(out)
        self._pending = {}
        self._n_pending = 0
        self._read.clear()
        self._n_read = 0
        self._joined.clear()

    def get(self, name: str) -> tuple[CallText, ...]:
        """The calls of ``name``, in the order they were added."""
        written = self._written(name)
        pending = self._pending.get(name)
        return written + tuple(pending) if pending else written

    def containing(self, name: str, word: str) -> tuple[CallText, ...]:
        """The calls of ``name`` whose text holds ``word``, in the order they
        were added: ``get(name)`` filtered so."""
        if not word:
            return self.get(name)
        joined = self._joined_of(name) if "\n" not in word else None
        if joined is None:
            return tuple(c for c in self.get(name) if word in c[3])
        pending = self._pending.get(name)
        found = joined.containing(word)
        return found + tuple(c for c in pending if word in c[3]) if pending else found

    def _joined_of(self, name: str) -> _Joined | None:
        """A big name's written calls joined, or None: a name of few calls,
        one in the cache already, or one whose texts hold a newline."""
        if name in self._read:
            return None
        if name in self._joined:
            self._joined.move_to_end(name)
            return self._joined[name]
        chunks = self._chunks.get(name)
        if chunks is None or sum(chunks[2::3]) <= BIG_CALLS:
            return None
        got = self._joined[name] = _Joined.of(self._load(chunks))
        if len(self._joined) > BIG_HELD:
            self._joined.popitem(last=False)
        return got

    def _load(self, chunks: array[int]) -> tuple[CallText, ...]:
        found: list[CallText] = []
        for i in range(0, len(chunks), 3):
            found += marshal.loads(self._file.read(chunks[i], chunks[i + 1]))
        return tuple(found)

    def _written(self, name: str) -> tuple[CallText, ...]:
        got = self._read.get(name)
        if got is not None:
            self._read.move_to_end(name)
            return got
        chunks = self._chunks.get(name)
        if chunks is None:
            return ()
        got = self._read[name] = self._load(chunks)
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


@dataclass(frozen=True, slots=True)
class _Joined:
    """A name's calls by column: their texts joined by newlines, where each
    starts (and one past the end), and their paths, callers and lines."""

    texts: str
    starts: array[int]
    paths: list[str]
    callers: list[str]
    lines: array[int]

    @classmethod
    def of(cls, calls: tuple[CallText, ...]) -> _Joined | None:
        """None when a text holds a newline (a word found could not be
        told to one call)."""
        texts = "\n".join(c[3] for c in calls)
        if texts.count("\n") != len(calls) - 1:
            return None
        starts = array("q", [0])
        at = 0
        for c in calls:
            at += len(c[3]) + 1
            starts.append(at)
        return cls(
            texts,
            starts,
            [c[0] for c in calls],
            [c[1] for c in calls],
            array("q", [c[2] for c in calls]),
        )

    def containing(self, word: str) -> tuple[CallText, ...]:
        """The calls whose text holds ``word`` (no newline in it), in order."""
        texts, starts = self.texts, self.starts
        out: list[CallText] = []
        at = texts.find(word)
        while at >= 0:
            k = bisect_right(starts, at) - 1
            end = starts[k + 1]
            out.append((self.paths[k], self.callers[k], self.lines[k], texts[starts[k] : end - 1]))
            at = texts.find(word, end)
        return tuple(out)
