"""Values of one index run that wait on disk until they are read back.

``TempBytes`` appends bytes to an unlinked temporary file and reads them back
by (offset, length). Reads use ``os.pread``, which moves no shared file
offset, so processes forked after the bytes are written read them too. The
file has no name, so an interrupted run (kill -9 included) leaves nothing
behind; it is closed by ``close()`` or when its ``TempBytes`` is collected.

A ``Spill`` pickles each value to one and keeps only its offset in memory
(a ``SpillList`` is the same by position):

    with Spill[FileEvidence]() as evidence:
        evidence.put("src/a.rs", ev)
        evidence.get("src/a.rs")  # an equal value, unpickled
"""

from __future__ import annotations

import os
import pickle
import tempfile
import weakref
from array import array
from collections.abc import Iterator
from typing import Generic, Self, TypeVar

_T = TypeVar("_T")
_LENGTH = (1 << 32) - 1


class TempBytes:
    """An append-only unlinked temporary file, made on the first append."""

    def __init__(self, prefix: str = "errordex-spill-") -> None:
        self._prefix = prefix
        self._fd = -1
        self._closer: weakref.finalize[[], TempBytes] | None = None
        #: bytes written so far (the offset of the next append)
        self.size = 0

    def append(self, data: bytes | bytearray | memoryview) -> int:
        """Write ``data`` at the end; return its offset."""
        if self._closer is None:
            file = tempfile.TemporaryFile(prefix=self._prefix)  # noqa: SIM115
            self._fd = file.fileno()
            self._closer = weakref.finalize(self, file.close)
        view = memoryview(data)
        start = self.size
        done = 0
        while done < len(view):
            done += os.pwrite(self._fd, view[done:], start + done)
        self.size += len(view)
        return start

    def read(self, offset: int, length: int) -> bytes:
        """The ``length`` bytes written at ``offset``."""
        data = os.pread(self._fd, length, offset)
        while len(data) < length:  # a read past 2 GiB comes back in parts
            more = os.pread(self._fd, length - len(data), offset + len(data))
            if not more:
                raise EOFError(f"{length} bytes at {offset}: the file ends first")
            data += more
        return data

    def close(self) -> None:
        if self._closer is not None:
            self._closer()


class OnDisk:
    """Values kept in a ``TempBytes`` file (``_file``), closed on leaving a
    ``with`` block or by ``close()``."""

    _file: TempBytes

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._file.close()


class Spill(OnDisk, Generic[_T]):
    def __init__(self) -> None:
        self._file = TempBytes()
        #: key -> offset << 32 | length of its pickle (an int: a tuple of two
        #: would take three objects per key, 1 MB more on 14k files)
        self._where: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, key: str) -> bool:
        return key in self._where

    def put(self, key: str, value: _T) -> None:
        """Write ``value`` under ``key`` (a key written again reads the last value)."""
        self.put_pickled(key, pickle.dumps(value, pickle.HIGHEST_PROTOCOL))

    def put_pickled(self, key: str, pickled: bytes) -> None:
        """``put`` of a value pickled already (by a worker process, say)."""
        if len(pickled) >> 32:
            raise ValueError(
                f"{key}: a value of {len(pickled)} bytes pickled is too large to spill"
            )
        self._where[key] = self._file.append(pickled) << 32 | len(pickled)

    def get(self, key: str) -> _T | None:
        """The value written under ``key``, or None."""
        where = self._where.get(key)
        if where is None:
            return None
        value: _T = pickle.loads(self._file.read(where >> 32, where & _LENGTH))
        return value

    def values(self) -> Iterator[_T]:
        """Every value, one at a time, in the order the keys were first written."""
        for where in list(self._where.values()):
            value: _T = pickle.loads(self._file.read(where >> 32, where & _LENGTH))
            yield value


class SpillList(OnDisk, Generic[_T]):
    """A list that pickles each value to a ``TempBytes`` file and keeps only
    its offset (16 bytes) in memory; ``[i]`` unpickles the i-th value."""

    def __init__(self) -> None:
        self._file = TempBytes()
        #: offset, length, offset, length... of each value's pickle
        self._where: array[int] = array("q")

    def __len__(self) -> int:
        return len(self._where) // 2

    def append(self, value: _T) -> None:
        pickled = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
        self._where.extend((self._file.append(pickled), len(pickled)))

    def __getitem__(self, i: int) -> _T:
        if not 0 <= i < len(self):
            raise IndexError(i)
        value: _T = pickle.loads(self._file.read(self._where[2 * i], self._where[2 * i + 1]))
        return value
