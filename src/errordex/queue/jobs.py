"""One queued index job: a source at a revision, with the options ``errordex
index`` takes. It travels to the worker as JSON (``to_json``/``from_json``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errordex.ingest import IngestOptions

#: ``errordex index``'s default for --max-file-bytes
DEFAULT_MAX_FILE_BYTES = 1_000_000


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
        )
