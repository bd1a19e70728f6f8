"""Throw sites grouped into entries on disk, for one index run.

A site is a kilobyte or more in memory, and a large repository has tens of
thousands: they were the largest thing an index run held. ``SiteGroups``
keeps each site pickled in a ``TempBytes`` file and only where it is in
memory (16 bytes), grouped by ``group_key``. Once every site is in,
``settle`` works out the entries and their order (by id); ``entry(i)``
then builds the i-th one from its sites read back, in this process or one
forked after ``settle``.

    groups = SiteGroups("owner/repo")
    groups.add(site)                      # or add_pickled(...) from a worker
    groups.settle(names, revise, place)   # class messages, packages
    for e in groups.entries(): ...
"""

from __future__ import annotations

import pickle
from array import array
from collections.abc import Callable, Container, Iterator

from errordex.classmsg import raise_key
from errordex.group import entry_id, entry_of, group_key
from errordex.model import ErrorEntry, ThrowSite
from errordex.scratch.spill import OnDisk, TempBytes

#: what ``SiteGroups.add_pickled`` takes for one site: its ``group_key``,
#: ``raise_key`` and pickle (a worker process works them out)
PickledSite = tuple[str, str, bytes]

ReviseFn = Callable[[ThrowSite], ThrowSite]
#: a revision that may drop the site (None)
DropFn = Callable[[ThrowSite], ThrowSite | None]


def pickled_site(site: ThrowSite) -> PickledSite:
    return group_key(site), raise_key(site), pickle.dumps(site, pickle.HIGHEST_PROTOCOL)


def _same(site: ThrowSite) -> ThrowSite:
    return site


class SiteGroups(OnDisk):
    """One run's sites, grouped by key on disk (see the module's docstring)."""

    def __init__(self, slug: str) -> None:
        self.slug = slug
        self._file = TempBytes(prefix="errordex-sites-")
        #: key -> (offset, length, number of its ``raise_key`` or -1) of each site
        self._by_key: dict[str, array[int]] = {}
        #: raise key -> its number
        self._raised: dict[str, int] = {}
        #: after ``settle``: entry ids in order, and (offset, length) of each one's sites
        self.ids: list[str] = []
        self._places: list[array[int]] = []
        self._place: ReviseFn = _same
        #: sites added
        self.n_sites = 0

    def __len__(self) -> int:
        """Entries, once settled."""
        return len(self.ids)

    def add(self, site: ThrowSite) -> None:
        self.add_pickled(*pickled_site(site))

    def add_pickled(self, key: str, raised: str, pickled: bytes) -> None:
        """Add one site, as ``pickled_site`` gives it."""
        where = self._by_key.get(key)
        if where is None:
            where = self._by_key[key] = array("q")
        number = self._raised.setdefault(raised, len(self._raised)) if raised else -1
        where.extend((self._file.append(pickled), len(pickled), number))
        self.n_sites += 1

    def raising(self, classes: Container[str]) -> list[ThrowSite]:
        """The sites added so far that raise one of ``classes`` (by the bare
        name their ``raise_key`` holds), read back; before ``settle``."""
        numbers = {n for key, n in self._raised.items() if key.split("\0", 1)[-1] in classes}
        if not numbers:
            return []
        out: list[ThrowSite] = []
        for where in self._by_key.values():
            for i in range(0, len(where), 3):
                offset, length, number = where[i : i + 3]
                if number in numbers:
                    out.append(pickle.loads(self._file.read(offset, length)))
        return out

    def settle(
        self,
        raised: Container[str] = (),
        revise: DropFn = _same,
        place: ReviseFn = _same,
    ) -> None:
        """Work out the entries, once every site is in. A site whose
        ``raise_key`` is in ``raised`` is read back and ``revise``-d (which
        may change its key, or drop it: None); ``place`` is applied to every
        site as an entry is built (it must not change its key)."""
        numbers = {n for name, n in self._raised.items() if name in raised}
        by_key: dict[str, array[int]] = {}
        for key, where in self._by_key.items():
            for i in range(0, len(where), 3):
                offset, length, number = where[i : i + 3]
                to = key
                if number in numbers:
                    site: ThrowSite = pickle.loads(self._file.read(offset, length))
                    new = revise(site)
                    if new is None:
                        self.n_sites -= 1
                        continue
                    if new is not site:
                        to, _, pickled = pickled_site(new)
                        offset, length = self._file.append(pickled), len(pickled)
                got = by_key.get(to)
                if got is None:
                    got = by_key[to] = array("q")
                got.extend((offset, length))
        self._by_key, self._raised = {}, {}
        ordered = sorted((entry_id(self.slug, key), where) for key, where in by_key.items())
        self.ids = [id for id, _ in ordered]
        self._places = [where for _, where in ordered]
        self._place = place

    def entry(self, i: int) -> ErrorEntry:
        """The i-th entry, in id order (after ``settle``)."""
        where = self._places[i]
        read, place = self._file.read, self._place
        sites = [place(pickle.loads(read(where[j], where[j + 1]))) for j in range(0, len(where), 2)]
        return entry_of(self.ids[i], self.slug, sites)

    def entries(self, lo: int = 0, hi: int | None = None) -> Iterator[ErrorEntry]:
        """Entries lo..hi (all of them by default), one at a time."""
        for i in range(lo, len(self.ids) if hi is None else hi):
            yield self.entry(i)
