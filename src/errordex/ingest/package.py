"""An installed Python distribution (``pkg:NAME``): its own files, from its RECORD.

The distribution is looked for in errordex's own environment, or in the one
the user names: ``--python PATH`` (that interpreter's ``sys.path``, asked by
running it) or ``--site-packages DIR``. Only files under the directory that
holds the distribution (its site-packages) are read: a RECORD can name any
path (``/etc/x``, ``pkg/../../x``, a file through a symlinked directory).
"""

from __future__ import annotations

import heapq
import importlib.metadata as md
import json
import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path

from errordex import model
from errordex.errors import InputError, SourceError, SourceNotFound
from errordex.forge import ForgeRepo, parse_forge_url
from errordex.ingest import filters
from errordex.ingest.slug import validate_name
from errordex.ingest.source import ContentHash, IngestOptions, Source, SourceFile, examine

# Project-URL labels that name the source repository, best first (normalized).
_SOURCE_LABELS = ("source", "sourcecode", "repository", "code", "github", "gitlab", "homepage")
_NOT_SOURCE = ("fund", "sponsor", "donat", "tidelift")

REASON_OUTSIDE = "outside site-packages"
REASON_OUTSIDE_LINK = "outside site-packages (through a symlink)"
#: how long an interpreter named by --python may take to print its sys.path
PYTHON_TIMEOUT = 30


def canonical_name(name: str) -> str:
    """PEP 503 normalized distribution name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def forge_repo(meta: md.PackageMetadata) -> ForgeRepo | None:
    """The GitHub/GitLab repository a distribution's metadata points at, if any."""
    labelled: list[tuple[str, str]] = []
    for entry in meta.get_all("Project-URL") or []:
        label, _, url = entry.partition(",")
        labelled.append((re.sub(r"[^a-z]", "", label.lower()), url.strip()))
    ranked = [url for want in _SOURCE_LABELS for label, url in labelled if label == want]
    ranked += [home.strip() for home in meta.get_all("Home-page") or []]
    ranked += [url for label, url in labelled if not any(bad in label for bad in _NOT_SOURCE)]
    for url in ranked:
        repo = parse_forge_url(url)
        if repo is not None:
            return repo
    return None


class PackageSource(Source):
    """The files a distribution installed into site-packages (not its .dist-info)."""

    kind = "package"

    def __init__(self, dist: md.Distribution, name: str | None, options: IngestOptions) -> None:
        self.dist = dist
        self.options = options
        self.base = Path(str(dist.locate_file(""))).resolve()
        dist_name = dist.metadata["Name"] or "unknown"
        found = forge_repo(dist.metadata)
        if name is not None:
            slug = validate_name(name)
        elif found is not None:
            slug = found.slug
        else:
            slug = f"pypi/{canonical_name(dist_name)}"
        self._repo = model.Repo(slug=slug, url=found.web_url if found else None)

    @property
    def repo(self) -> model.Repo:
        return self._repo

    @property
    def version_label(self) -> str | None:
        return self.dist.version

    @cached_property
    def _record(self) -> tuple[list[str], list[model.Skip]]:
        """The distribution's own files (no metadata, no bytecode) that are
        under its site-packages, and a Skip for each wanted one that is not."""
        own: set[str] = set()
        outside: dict[str, str] = {}
        for record in self.dist.files or ():
            path = record.as_posix()
            parts = record.parts
            if parts and parts[0].endswith((".dist-info", ".egg-info")):
                continue
            if "__pycache__" in parts or record.name.endswith((".pyc", ".pyo")):
                continue
            reason = self._outside(path)
            if reason is None:
                own.add(path)
            elif self.options.is_wanted(path):
                outside[path] = reason
        skips = [model.Skip(p, r) for p, r in sorted(outside.items())]
        return sorted(own), skips

    def _outside(self, path: str) -> str | None:
        """Why ``path`` (as RECORD has it) is not under the base, or None.

        Scripts and data files (``../../../bin/flask``) are legitimately
        outside; so is anything a crafted RECORD names. The directories on
        the way are resolved, so a symlinked directory cannot lead out; the
        file itself is not (a symlink there is skipped as one).
        """
        parts = path.split("/")
        if not path or path.startswith("/") or any(p in ("", "..") for p in parts):
            return REASON_OUTSIDE
        try:
            parent = (self.base / path).parent.resolve()
        except (OSError, RuntimeError):  # a symlink loop
            return REASON_OUTSIDE_LINK
        return None if parent.is_relative_to(self.base) else REASON_OUTSIDE_LINK

    @property
    def paths(self) -> list[str]:
        """The distribution's own files that are under its site-packages."""
        return self._record[0]

    @cached_property
    def _path_set(self) -> frozenset[str]:
        return frozenset(self.paths)

    def _full(self, path: str) -> Path:
        return self.base / path

    @property
    def commit(self) -> str:
        return self._content_hash

    @cached_property
    def _content_hash(self) -> str:
        h = ContentHash()
        for path in self.paths:
            h.add_file(path, self._full(path))
        return h.hexdigest()

    def files(self) -> Iterator[SourceFile | model.Skip]:
        return heapq.merge(self._record[1], self._own_files(), key=lambda item: item.path)

    def _own_files(self) -> Iterator[SourceFile | model.Skip]:
        skipped_dirs: set[str] = set()
        for path in self.paths:
            skipped = filters.skipped_prefix(path, self.options.excludes)
            if skipped is not None:
                # A bundled copy of another project (pip/_vendor) or an
                # excluded directory is one Skip.
                if skipped[0] not in skipped_dirs:
                    skipped_dirs.add(skipped[0])
                    yield model.Skip(*skipped)
                continue
            full = self._full(path)
            try:
                st = full.lstat()
            except OSError:
                yield model.Skip(path, "listed in RECORD but missing")
                continue
            if stat.S_ISLNK(st.st_mode):
                yield model.Skip(path, filters.REASON_SYMLINK)
                continue
            if not stat.S_ISREG(st.st_mode):
                yield model.Skip(path, filters.REASON_SPECIAL)
                continue
            item = examine(path, st.st_size, full.read_bytes, self.options)
            if item is not None:
                yield item

    def listing(self) -> list[tuple[str, int]]:
        """The sizes its own files have on disk (``lstat``): none is read."""
        found = []
        for path in self.paths:
            if not self.options.is_wanted(path) or filters.skip_by_name(path):
                continue
            if filters.skipped_prefix(path, self.options.excludes) is not None:
                continue
            try:
                st = self._full(path).lstat()
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                found.append((path, st.st_size))
        return found

    def read(self, path: str) -> bytes | None:
        if path not in self._path_set or self._outside(path) is not None:
            return None
        full = self._full(path)
        try:
            if full.is_symlink() or not full.is_file():
                return None
            return full.read_bytes()
        except OSError:
            return None


def open_package(name: str, alias: str | None, options: IngestOptions) -> PackageSource:
    """The distribution ``name`` in the environment ``options`` names
    (``python``, ``site_packages``), else in errordex's own."""
    if not name.strip():
        raise InputError("pkg: needs a distribution name, as in pkg:click")
    path = search_path(options)
    try:
        found = (
            md.Distribution.discover(name=name)
            if path is None
            else md.Distribution.discover(name=name, path=path)
        )
        dist = next(iter(found), None)
    except ValueError:  # a name importlib.metadata cannot take
        dist = None
    if dist is None:
        raise SourceNotFound(
            f"no installed Python distribution named {name} {_where(options, path)}"
        )
    if dist.files is None:
        raise SourceNotFound(f"the distribution {name} has no RECORD, so its files are unknown")
    return PackageSource(dist, alias, options)


def search_path(options: IngestOptions) -> list[str] | None:
    """Where to look for distributions: ``--site-packages`` directories,
    then the ``sys.path`` of the ``--python`` interpreter; None for
    errordex's own ``sys.path``."""
    if options.python is None and not options.site_packages:
        return None
    path: list[str] = []
    for d in options.site_packages:
        if not d.is_dir():
            raise SourceNotFound(f"--site-packages {d}: no such directory")
        path.append(str(d.resolve()))
    if options.python is not None:
        path += interpreter_path(options.python)
    return path


def interpreter_path(python: Path) -> list[str]:
    """The directories on the ``sys.path`` of the interpreter ``python``, as
    it reports them when run (its venv, user site and .pth files included)."""
    try:
        proc = subprocess.run(
            [str(python), "-c", "import json, sys; print(json.dumps(sys.path))"],
            capture_output=True,
            timeout=PYTHON_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    except FileNotFoundError:
        raise SourceNotFound(f"--python {python}: no such program") from None
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SourceError(f"--python {python}: cannot run it ({e})") from None
    try:
        if proc.returncode != 0:
            raise ValueError(proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:])
        entries = json.loads(proc.stdout)
        if not isinstance(entries, list):
            raise ValueError(entries)
    except ValueError as e:
        raise SourceError(
            f"--python {python} did not report its sys.path; is it a Python interpreter? ({e})"
        ) from None
    return [p for p in entries if isinstance(p, str) and p and os.path.isdir(p)]


def _where(options: IngestOptions, path: list[str] | None) -> str:
    """Where the distribution was looked for, and how to look elsewhere."""
    dirs = path if path is not None else [p for p in sys.path if p and os.path.isdir(p)]
    # the stdlib and lib-dynload hold no distributions worth naming
    shown = [p for p in dirs if Path(p).name in ("site-packages", "dist-packages")] or dirs
    looked = ", ".join(shown) or "nowhere: the path is empty"
    if options.python is not None:
        whose = f"for {options.python}"
    elif options.site_packages:
        whose = "in --site-packages"
    else:
        whose = f"in errordex's own environment ({sys.executable})"
    return (
        f"{whose} (looked in {looked}); to read another environment, give"
        " --python PATH (its interpreter) or --site-packages DIR"
    )
