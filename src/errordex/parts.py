"""A big repository indexed in parts: its files cut by path into ranges that
several workers extract at once, and the parts' extractions merged into
one snapshot, the same as one process would have written.

    plan = parts.plan(source, split_over=32 << 20)     # None: not worth it
    # each worker, for its range:
    with parts.open_part(spec, plan.ranges[k], rev=plan.commit, ...) as src:
        got = parts.extract_part(src)                   # got.chunks are stored
    # then one process, once every part is done:
    parts.merge(source, plan.commit, chunks_in_order, store)

A part reads only the files of its range and extracts them (the per-file
work: parsing, sites, evidence); the merge replays the parts' results in
the source's order (``pipeline.index_extracted``) and runs what needs every
file (the forwarded messages, grouping, the analysis across files) and the
snapshot's write, in one transaction as always.

The chunks are pickles: they are read back only from the store they were
written to, by errordex's own workers.
"""

from __future__ import annotations

import bisect
import io
import itertools
import pickle
import time
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from errordex import model
from errordex.ingest import IngestOptions, Source, SourceFile
from errordex.ingest.source import ContentHash
from errordex.pipeline import (
    ExtractedStep,
    IndexResult,
    ProgressFn,
    extracted_steps,
    index_extracted,
    open_for_index,
)
from errordex.store.base import Store

__all__ = [
    "MAX_PARTS",
    "PartExtraction",
    "PathRange",
    "Plan",
    "extract_part",
    "merge",
    "open_part",
    "parse_size",
    "plan",
]

#: parts at most, whatever the size (each is a task and a message)
MAX_PARTS = 64
#: bytes of pickled steps in one staged chunk (before compression)
CHUNK_BYTES = 4 << 20


@dataclass(frozen=True, slots=True)
class PathRange:
    """The paths ``lo <= path < hi`` (None: no bound), in the sources' order.

    >>> r = PathRange("b", "d")
    >>> [p in r for p in ("a", "b", "c/x.py", "d")]
    [False, True, True, False]
    """

    lo: str | None
    hi: str | None

    def __contains__(self, path: object) -> bool:
        assert isinstance(path, str)
        return (self.lo is None or self.lo <= path) and (self.hi is None or path < self.hi)

    def to_json(self) -> list[str | None]:
        return [self.lo, self.hi]

    @classmethod
    def from_json(cls, data: Sequence[str | None]) -> PathRange:
        return cls(data[0], data[1])


@dataclass(frozen=True, slots=True)
class Plan:
    """How a repository at ``commit`` is cut: ``ranges`` in order, of about
    the same bytes. ``digests``: for a content hash (a directory, a package,
    whose files may change), each range's ``part_digest`` at the plan, which
    each part checks against the files it read."""

    commit: str
    ranges: tuple[PathRange, ...]
    digests: tuple[str, ...] | None
    bytes: int


def parse_size(text: str) -> int:
    """``--split-over``'s value: bytes, with K, M or G (1024s); 0 or "off":
    never split.

    >>> parse_size("32M"), parse_size("1.5k"), parse_size("off"), parse_size("4096")
    (33554432, 1536, 0, 4096)
    """
    t = text.strip().lower().removesuffix("b").removesuffix("i")
    if t in ("off", "never", "none", ""):
        return 0
    scale = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(t[-1:], 1)
    number = t[:-1] if scale > 1 else t
    try:
        value = float(number)
    except ValueError:
        raise ValueError(f"{text!r} is not a size (say 32M, 512K, 2G, or off)") from None
    if value < 0:
        raise ValueError(f"{text!r} is not a size: it is negative")
    return int(value * scale)


def cut(listing: Sequence[tuple[str, int]], n: int) -> tuple[PathRange, ...]:
    """``n`` ranges of ``listing`` (path, size; in path order) of about the
    same bytes each, cut between files; fewer when there are fewer files.

    >>> cut([("a", 5), ("b", 5), ("c", 5), ("d", 5)], 2)
    (PathRange(lo=None, hi='c'), PathRange(lo='c', hi=None))
    """
    total = sum(size for _, size in listing)
    cuts: list[str] = []
    so_far = 0
    for path, size in listing:
        if len(cuts) == n - 1:
            break
        if so_far >= total * (len(cuts) + 1) / n and (not cuts or cuts[-1] < path):
            cuts.append(path)
        so_far += size
    bounds: list[str | None] = [None, *cuts, None]
    return tuple(PathRange(lo, hi) for lo, hi in itertools.pairwise(bounds))


def plan(
    source: Source, split_over: int, listing: Sequence[tuple[str, int]] | None = None
) -> Plan | None:
    """How to cut ``source`` into parts of at most about ``split_over`` bytes
    (at most ``MAX_PARTS``), or None when it is not over ``split_over`` (or
    ``split_over`` is 0). ``listing``: ``source.listing()``, when it was
    asked before. For a content hash, every file is read once here, for the
    parts' digests."""
    if split_over <= 0:
        return None
    listing = source.listing() if listing is None else listing
    total = sum(size for _, size in listing)
    if total <= split_over:
        return None
    n = min(MAX_PARTS, -(-total // split_over))
    ranges = cut(listing, n)
    if len(ranges) < 2:
        return None
    digests = None
    if source.commit_kind == "content":
        hashes = [ContentHash() for _ in ranges]
        los = [r.lo or "" for r in ranges]
        for item in source.files():
            _hash_item(hashes[bisect.bisect_right(los, item.path) - 1], item)
        digests = tuple(h.hexdigest() for h in hashes)
    return Plan(source.commit, ranges, digests, total)


def _hash_item(h: ContentHash, item: SourceFile | model.Skip) -> None:
    if isinstance(item, SourceFile):
        h.add(item.path, item.data)
    else:
        h.add(item.path + "\0skip", item.reason.encode())


class _Part(Source):
    """The files of ``source`` in ``paths`` (a ``PathRange``), and a digest
    of them as they go by (``digest``, once they are all read)."""

    def __init__(self, source: Source, paths: PathRange) -> None:
        self.source = source
        self.paths = paths
        self.kind = source.kind
        self._hash = ContentHash()
        self.digest: str | None = None

    @property
    def repo(self) -> model.Repo:
        return self.source.repo

    @property
    def commit(self) -> str:
        return self.source.commit

    @property
    def commit_kind(self) -> model.CommitKind:
        return self.source.commit_kind

    def files(self) -> Iterator[SourceFile | model.Skip]:
        for item in self.source.files():
            if item.path in self.paths:
                _hash_item(self._hash, item)
                yield item
        self.digest = self._hash.hexdigest()

    def read(self, path: str) -> bytes | None:
        return self.source.read(path)

    def close(self) -> None:
        self.source.close()


def open_part(
    spec: str,
    paths: PathRange,
    rev: str | None = None,
    name: str | None = None,
    options: IngestOptions | None = None,
) -> Source:
    """``spec`` as ``open_for_index`` opens it, but only the files in
    ``paths`` (those out of it are not read)."""
    opts = options or IngestOptions()
    user_wanted = opts.wanted
    opts = replace(
        opts,
        wanted=(lambda p: p in paths)
        if user_wanted is None
        else (lambda p: p in paths and user_wanted(p)),
    )
    return _Part(open_for_index(spec, rev=rev, name=name, options=opts), paths)


@dataclass(frozen=True, slots=True)
class PartExtraction:
    """One part's extraction, to be stored as it is until the merge."""

    #: compressed pickles of its steps, in order (``steps_of`` reads them)
    chunks: list[bytes]
    #: ``Plan.digests``' digest of the files it read
    digest: str
    files: int
    bytes: int
    seconds: float


def extract_part(source: Source) -> PartExtraction:
    """Extract every file of ``source`` (an ``open_part``), in this process."""
    started = time.perf_counter()
    chunks: list[bytes] = []
    buf = io.BytesIO()
    files = nbytes = 0
    for step in extracted_steps(source):
        if isinstance(step, tuple):
            files += len(step[0])
            nbytes += sum(size for _, size, res, _ in step[0] if not isinstance(res, model.Skip))
        pickle.dump(step, buf, pickle.HIGHEST_PROTOCOL)
        if buf.tell() >= CHUNK_BYTES:
            chunks.append(zlib.compress(buf.getvalue(), 1))
            buf = io.BytesIO()
    if buf.tell():
        chunks.append(zlib.compress(buf.getvalue(), 1))
    assert isinstance(source, _Part) and source.digest is not None
    return PartExtraction(
        chunks, source.digest, files, nbytes, round(time.perf_counter() - started, 3)
    )


def steps_of(chunks: Iterable[bytes]) -> Iterator[ExtractedStep]:
    """The steps of staged chunks, in order, a chunk at a time."""
    for chunk in chunks:
        buf = io.BytesIO(zlib.decompress(chunk))
        end = buf.getbuffer().nbytes
        while buf.tell() < end:
            step: ExtractedStep = pickle.load(buf)
            yield step


def merge(
    source: Source,
    commit: str,
    chunks: Iterable[bytes],
    store: Store,
    progress: ProgressFn | None = None,
    started: float | None = None,
) -> IndexResult:
    """Write the snapshot of ``source`` at ``commit`` from its parts' staged
    ``chunks`` (every part's, in order): what one ``index`` of it writes."""
    return index_extracted(source, commit, steps_of(chunks), store, progress, started)
