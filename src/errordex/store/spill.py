"""Values of one index run that wait on disk until they are read back by key.

A ``Spill`` pickles each value to an unlinked temporary file and keeps only
its offset in memory. Reads use ``os.pread``, which moves no shared file
offset, so processes forked after the values are written read them too. The
file has no name, so an interrupted run (kill -9 included) leaves nothing
behind.

    with Spill[FileEvidence]() as evidence:
        evidence.put("src/a.rs", ev)
        evidence.get("src/a.rs")  # an equal value, unpickled
"""

from __future__ import annotations

import os
import pickle
import tempfile
from typing import Generic, TypeVar

_T = TypeVar("_T")


class Spill(Generic[_T]):
    def __init__(self) -> None:
        # closed by close() / the with block, like the Spill itself
        self._file = tempfile.TemporaryFile(prefix="errordex-spill-")  # noqa: SIM115
        self._fd = self._file.fileno()
        #: key -> (offset, length) of its pickle
        self._where: dict[str, tuple[int, int]] = {}
        self._end = 0

    def __enter__(self) -> Spill[_T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._file.close()

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, key: str) -> bool:
        return key in self._where

    def put(self, key: str, value: _T) -> None:
        """Write ``value`` under ``key`` (a key written again reads the last value)."""
        self.put_pickled(key, pickle.dumps(value, pickle.HIGHEST_PROTOCOL))

    def put_pickled(self, key: str, pickled: bytes) -> None:
        """``put`` of a value pickled already (by a worker process, say)."""
        data = memoryview(pickled)
        done = 0
        while done < len(data):
            done += os.pwrite(self._fd, data[done:], self._end + done)
        self._where[key] = (self._end, len(data))
        self._end += len(data)

    def get(self, key: str) -> _T | None:
        """The value written under ``key``, or None."""
        where = self._where.get(key)
        if where is None:
            return None
        offset, length = where
        value: _T = pickle.loads(os.pread(self._fd, length, offset))
        return value
