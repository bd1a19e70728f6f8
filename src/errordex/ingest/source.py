"""The values ingest hands to the pipeline, and the Source interface."""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from errordex import forge, model
from errordex.errors import InputError
from errordex.ingest import filters


@dataclass(frozen=True)
class SourceFile:
    """One file's bytes at the snapshot. ``path`` is posix, relative to the repo root."""

    path: str
    data: bytes

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", "replace")


@dataclass(frozen=True)
class IngestOptions:
    """How to read a source.

    ``wanted`` lets the caller (who knows which extensions it can parse) say
    which paths it needs; other files are neither read nor yielded.
    ``exclude`` holds the user's gitignore-style patterns (``test/``,
    ``/build``, ``*_pb2.py``, ``!keep.py``; see ``filters.Exclude``), relative to the
    source root: an excluded directory is not entered, and it or an excluded
    file is one Skip. A bad pattern is an InputError here, before any work.
    ``cache_dir`` is where git URLs are cloned; by default the user cache
    directory ``.../errordex/clones``.
    ``python`` (an interpreter) and ``site_packages`` (directories) say
    where ``pkg:NAME`` looks, instead of errordex's own environment.
    ``forge_url`` is the base address of the forge a git repository named
    ``owner/name`` is on (its links are made there; GitHub by default).
    """

    max_file_bytes: int = 1_000_000
    cache_dir: Path | None = None
    wanted: Callable[[str], bool] | None = None
    exclude: tuple[str, ...] = ()
    python: Path | None = None
    site_packages: tuple[Path, ...] = ()
    forge_url: str | None = None
    #: ``exclude`` parsed, for the sources to match paths against
    excludes: filters.Excludes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "exclude", tuple(self.exclude))
        object.__setattr__(self, "site_packages", tuple(self.site_packages))
        object.__setattr__(self, "excludes", filters.parse_excludes(self.exclude))
        if self.forge_url is not None:
            try:
                forge.named_repo("owner/name", self.forge_url)
            except ValueError as e:
                raise InputError(str(e)) from None

    def is_wanted(self, path: str) -> bool:
        return self.wanted is None or self.wanted(path)


class Source(ABC):
    """A repository at one commit: its identity, and its files.

    Use it as a context manager (or call ``close``): a git source keeps one
    ``git cat-file --batch`` process open for reading.
    """

    #: "git", "directory" or "package"
    kind: str = ""

    @property
    @abstractmethod
    def repo(self) -> model.Repo: ...

    @property
    @abstractmethod
    def commit(self) -> str:
        """Full SHA for git; a content hash (40 hex) for a directory or package."""

    @property
    def commit_kind(self) -> model.CommitKind:
        """What ``commit`` is: "git" (a commit's SHA) or "content" (a hash)."""
        return "content"

    @property
    def commit_date(self) -> str | None:
        """ISO-8601 committer date, when there is a commit."""
        return None

    @property
    def version_label(self) -> str | None:
        """A tag (or ``git describe``) for the commit, or the package version."""
        return None

    @property
    def forge_ref(self) -> str | None:
        """The ref that forge links can be pinned to, only when it is known to exist there."""
        return None

    @abstractmethod
    def files(self) -> Iterator[SourceFile | model.Skip]:
        """Every file seen, in path order: its content, or why it was skipped.

        A skipped directory (vendored, a submodule, a symlink to a directory)
        is one Skip whose path is the directory's.
        """

    def listing(self) -> list[tuple[str, int]]:
        """(path, size) of each file ``files()`` would read, in path order,
        from the sizes on disk or in git (one may still be skipped, say as
        binary): what a split index cuts into parts of about the same size
        (``errordex.parts``). This one reads every file; a source that can
        tell without, does."""
        return [(f.path, len(f.data)) for f in self.files() if isinstance(f, SourceFile)]

    @abstractmethod
    def read(self, path: str) -> bytes | None:
        """One file's bytes at this snapshot, or None if there is no such file."""

    def file_url(self, path: str, line: int | None = None) -> str | None:
        """Forge link to ``path`` pinned to ``forge_ref``, or None."""
        return forge.file_url(self.repo.url, self.forge_ref, path, line)

    def close(self) -> None:  # noqa: B027 - optional hook, most sources hold nothing
        """Release processes or files held open."""

    def __enter__(self) -> Source:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class ContentHash:
    """A stable 40-hex identity for a file list and contents (feed it in path order).

    Each file adds its path and the SHA-1 of its content, so a large file can
    be hashed as a stream.
    """

    def __init__(self) -> None:
        self._h = hashlib.sha1(b"errordex-content-v1\0", usedforsecurity=False)

    def add(self, path: str, data: bytes) -> None:
        self._add(path, hashlib.sha1(data, usedforsecurity=False).digest())

    def add_file(self, path: str, file: Path) -> None:
        """Hash ``file`` without loading it whole; an unreadable file is hashed as such."""
        try:
            with file.open("rb") as f:
                digest = hashlib.file_digest(f, "sha1").digest()
        except OSError as e:
            digest = f"unreadable: {e.strerror}".encode()
        self._add(path, digest)

    def _add(self, path: str, digest: bytes) -> None:
        name = path.encode("utf-8", "surrogateescape")
        self._h.update(b"%d:%s\0%d:%s" % (len(name), name, len(digest), digest))

    def hexdigest(self) -> str:
        return self._h.hexdigest()


def examine(
    path: str, size: int | Callable[[], int], read: Callable[[], bytes], options: IngestOptions
) -> SourceFile | model.Skip | None:
    """Decide one regular file: None if not wanted, else its content or a Skip.

    ``size`` is the size, or a function that finds it (a stat), called only
    for a wanted file. Reads only when the name and size let the file through.
    """
    if not options.is_wanted(path):
        return None
    try:
        reason = filters.skip_by_name(path) or filters.too_large(
            size() if callable(size) else size, options.max_file_bytes
        )
        if reason:
            return model.Skip(path, reason)
        data = read()
    except OSError as e:
        return model.Skip(path, f"cannot read ({e.strerror or e})")
    reason = filters.too_large(len(data), options.max_file_bytes) or filters.skip_by_content(data)
    if reason:
        return model.Skip(path, reason)
    return SourceFile(path, data)
