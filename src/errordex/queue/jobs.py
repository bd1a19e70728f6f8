"""One queued index job: a source at a revision, with the options ``errordex
index`` takes; and one part of a big one split (``PartJob``). They travel to
the worker as JSON (``to_json``/``from_json``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errordex.ingest import IngestOptions

#: ``errordex index``'s default for --max-file-bytes
DEFAULT_MAX_FILE_BYTES = 1_000_000
#: bytes of source over which a queued repository is split into parts that
#: several workers extract at once, and about the most each part gets
#: (``--split-over``). The merge (grouping, the analysis across files, the
#: write) stays one process, about 2/5 of an index (the stdlib: 5.1 of
#: 13.7 s), and each part opens the source again: below a few seconds of
#: parsing a part (10 MB/s a core), a split saves little.
DEFAULT_SPLIT_OVER = 32 << 20


@dataclass(frozen=True, slots=True)
class IndexJob:
    """What one task indexes: ``source`` (a directory, git URL or ``pkg:NAME``)
    at ``rev``, as ``errordex index SOURCE --rev REV ...`` would.

    >>> IndexJob("https://example.org/o/r.git", rev="v1").label
    'https://example.org/o/r.git@v1'
    >>> IndexJob.from_json(IndexJob("pkg:click").to_json()) == IndexJob("pkg:click")
    True
    """

    source: str
    rev: str | None = None
    name: str | None = None
    exclude: tuple[str, ...] = ()
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    interpreter: str | None = None
    site_packages: tuple[str, ...] = ()
    forge_url: str | None = None
    #: bytes of source over which it is split into parts (0: never)
    split_over: int = DEFAULT_SPLIT_OVER

    @property
    def label(self) -> str:
        return f"{self.source}@{self.rev}" if self.rev else self.source

    def options(self) -> IngestOptions:
        return IngestOptions(
            max_file_bytes=self.max_file_bytes,
            exclude=self.exclude,
            python=Path(self.interpreter).expanduser() if self.interpreter else None,
            site_packages=tuple(Path(d).expanduser() for d in self.site_packages),
            forge_url=self.forge_url,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "rev": self.rev,
            "name": self.name,
            "exclude": list(self.exclude),
            "max_file_bytes": self.max_file_bytes,
            "interpreter": self.interpreter,
            "site_packages": list(self.site_packages),
            "forge_url": self.forge_url,
            "split_over": self.split_over,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> IndexJob:
        return cls(
            source=str(data["source"]),
            rev=data.get("rev"),
            name=data.get("name"),
            exclude=tuple(data.get("exclude") or ()),
            max_file_bytes=int(data.get("max_file_bytes") or DEFAULT_MAX_FILE_BYTES),
            interpreter=data.get("interpreter"),
            site_packages=tuple(data.get("site_packages") or ()),
            forge_url=data.get("forge_url"),
            split_over=int(data.get("split_over", DEFAULT_SPLIT_OVER)),
        )


@dataclass(frozen=True, slots=True)
class PartJob:
    """Part ``part`` (from 0) of ``parts`` of the task ``parent``: ``job``'s
    files whose paths are in ``paths`` (``errordex.parts.PathRange``'s
    [lo, hi)), at ``commit`` (``job.rev`` is that commit for git, so every
    part reads the same files); ``digest``: for a content hash, the digest
    of its files at the plan, which its reading must give again.

    >>> j = PartJob("t1", 0, 2, IndexJob("/src"), "c" * 40, (None, "m.py"), None)
    >>> PartJob.from_json(j.to_json()) == j, j.label
    (True, '/src (part 1 of 2)')
    """

    parent: str
    part: int
    parts: int
    job: IndexJob
    commit: str
    paths: tuple[str | None, str | None]
    digest: str | None

    @property
    def label(self) -> str:
        return f"{self.job.label} (part {self.part + 1} of {self.parts})"

    def to_json(self) -> dict[str, Any]:
        return {
            # what the task records show of every task
            "source": self.job.source,
            "rev": self.job.rev,
            "parent": self.parent,
            "part": self.part,
            "parts": self.parts,
            "job": self.job.to_json(),
            "commit": self.commit,
            "paths": list(self.paths),
            "digest": self.digest,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PartJob:
        lo, hi = data["paths"]
        return cls(
            parent=str(data["parent"]),
            part=int(data["part"]),
            parts=int(data["parts"]),
            job=IndexJob.from_json(data["job"]),
            commit=str(data["commit"]),
            paths=(lo, hi),
            digest=data.get("digest"),
        )
