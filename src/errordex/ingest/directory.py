"""A plain directory (not in git): walked on disk, honouring its .gitignore files.

Ignore rules are git's own: ``git check-ignore --no-index`` runs against the
directory with an empty temporary repository, one batch per directory depth,
so negation, anchored and directory patterns behave exactly as in git.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path
from types import TracebackType

from errordex import model
from errordex.errors import SourceError
from errordex.ingest import filters
from errordex.ingest.gitcmd import GitFailed, run_git
from errordex.ingest.manifest import manifest_version
from errordex.ingest.slug import local_slug, validate_name
from errordex.ingest.source import ContentHash, IngestOptions, Source, SourceFile, examine


@dataclass(frozen=True, slots=True)
class DirEntry:
    """What the walk found at ``path``: a regular file, or a Skip reason.

    The walk does not stat files: most are not wanted, and ``examine`` asks
    for the size of those that are.
    """

    path: str
    skip: str | None = None


class IgnoreRules:
    """Asks git which paths under ``root`` its .gitignore files exclude."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._tmp: tempfile.TemporaryDirectory[str] | None = None

    def __enter__(self) -> IgnoreRules:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()

    def _git_dir(self) -> Path:
        if self._tmp is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="errordex-ignore-")
            run_git(["init", "--quiet", "--bare", self._tmp.name])
        return Path(self._tmp.name)

    def ignored(self, paths: list[str]) -> set[str]:
        if not paths:
            return set()
        out = run_git(
            [
                "-c",
                f"core.excludesFile={os.devnull}",  # the user's global ignores are not the repo's
                f"--work-tree={self.root}",
                "check-ignore",
                "--no-index",
                "-z",
                "--stdin",
            ],
            git_dir=self._git_dir(),
            input=b"".join(os.fsencode(p) + b"\0" for p in paths),
            ok_codes=(0, 1),  # 1: nothing ignored
        )
        return {os.fsdecode(p) for p in out.split(b"\0") if p}


def walk(
    root: Path,
    excludes: filters.Excludes = filters.NO_EXCLUDES,
    wanted: Callable[[str], bool] | None = None,
) -> list[DirEntry]:
    """Every file under ``root`` that git would not ignore, in path order;
    of the regular files, only the ``wanted`` ones.

    Symlinks are never followed. Vendored and excluded directories are not
    entered; each is one entry, and so is an excluded file. Nothing is stat-ed:
    the directory entry's type says what it is.
    """
    entries: list[DirEntry] = []
    level = [""]
    has_ignore_files = False
    with IgnoreRules(root) as rules:
        while level:
            found: list[tuple[str, os.DirEntry[str]]] = []
            for rel in level:
                try:
                    with os.scandir(root / rel if rel else root) as it:
                        found.extend((f"{rel}/{e.name}" if rel else e.name, e) for e in it)
                except OSError as err:
                    entries.append(DirEntry(rel, skip=f"cannot read ({err.strerror or err})"))
            has_ignore_files = has_ignore_files or any(e.name == ".gitignore" for _, e in found)
            ignored = rules.ignored([p for p, _ in found]) if has_ignore_files else set()
            level = []
            for path, e in found:
                if path in ignored:
                    continue
                is_dir = e.is_dir(follow_symlinks=False)
                excluded = filters.excluded(path, is_dir, excludes) if excludes else None
                if excluded is not None:
                    entries.append(DirEntry(path, skip=excluded))
                elif e.is_symlink():
                    entries.append(DirEntry(path, skip=filters.REASON_SYMLINK))
                elif is_dir:
                    if e.name in filters.VENDORED_DIRS:
                        entries.append(DirEntry(path, skip=filters.REASON_VENDORED))
                    else:
                        level.append(path)
                elif e.is_file(follow_symlinks=False):
                    if wanted is None or wanted(path):
                        entries.append(DirEntry(path))
                else:
                    entries.append(DirEntry(path, skip=filters.REASON_SPECIAL))
    entries.sort(key=lambda d: d.path)
    return entries


def _read_under(root: Path, rel: str) -> bytes:
    return (root / rel).read_bytes()


def _size_under(root: Path, rel: str) -> int:
    return os.lstat(root / rel).st_size


class DirectorySource(Source):
    """The files of a directory as they are on disk now."""

    kind = "directory"

    def __init__(self, root: Path, name: str | None, options: IngestOptions) -> None:
        self.root = root
        self.options = options
        slug = validate_name(name) if name is not None else local_slug(root.name)
        self._repo = model.Repo(slug=slug)
        self._hash: str | None = None

    @property
    def repo(self) -> model.Repo:
        return self._repo

    @cached_property
    def _version_label(self) -> str | None:
        return manifest_version(self.read)

    @property
    def version_label(self) -> str | None:
        """The version its Cargo.toml, pyproject.toml, setup.cfg or package.json says."""
        return self._version_label

    @cached_property
    def entries(self) -> list[DirEntry]:
        try:
            return walk(self.root, self.options.excludes, self.options.wanted)
        except GitFailed as e:
            raise SourceError(
                f"cannot read the .gitignore rules of {self.root}: {e.reason}"
            ) from None

    @property
    def commit(self) -> str:
        """A hash of the paths and contents of the files this source yields.

        ``files()`` computes it as it reads, so indexing reads each file once;
        asking before that reads them in a pass of its own.
        """
        if self._hash is None:
            for _ in self.files():
                pass
        assert self._hash is not None
        return self._hash

    def files(self) -> Iterator[SourceFile | model.Skip]:
        h = ContentHash()
        for entry in self.entries:
            if entry.skip is not None:
                h.add(entry.path + "\0skip", entry.skip.encode())
                yield model.Skip(entry.path, entry.skip)
                continue
            # The walk kept only wanted files; examine stats and reads them.
            item = examine(
                entry.path,
                partial(_size_under, self.root, entry.path),
                partial(_read_under, self.root, entry.path),
                self.options,
            )
            if isinstance(item, SourceFile):
                h.add(item.path, item.data)
            elif item is not None:
                h.add(item.path + "\0skip", item.reason.encode())
            if item is not None:
                yield item
        self._hash = h.hexdigest()
        # Read once; ``read`` does not need the walk, and a run's analysis
        # workers would each start with it (about 110 bytes a file).
        self.__dict__.pop("entries", None)

    def listing(self) -> list[tuple[str, int]]:
        """The sizes the walk's files have on disk (``lstat``): none is read.
        Asked before ``commit``, the walk is made once for both."""
        found = []
        for entry in self.entries:
            if entry.skip is None and not filters.skip_by_name(entry.path):
                try:
                    found.append((entry.path, _size_under(self.root, entry.path)))
                except OSError:
                    continue
        return found

    def read(self, path: str) -> bytes | None:
        """A regular file under the root, reached without following a symlink."""
        parts = path.split("/")
        if not path or path.startswith("/") or any(p in ("", ".", "..") for p in parts):
            return None
        current = self.root
        try:
            for part in parts:
                current = current / part
                mode = current.lstat().st_mode
                if stat.S_ISLNK(mode):
                    return None
            if not stat.S_ISREG(mode):
                return None
            return current.read_bytes()
        except OSError:
            return None
