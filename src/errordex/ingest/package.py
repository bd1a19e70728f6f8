"""An installed Python distribution (``pkg:NAME``): its own files, from its RECORD."""

from __future__ import annotations

import importlib.metadata as md
import re
import stat
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path

from errordex import model
from errordex.errors import SourceNotFound
from errordex.forge import ForgeRepo, parse_forge_url
from errordex.ingest import filters
from errordex.ingest.slug import validate_name
from errordex.ingest.source import ContentHash, IngestOptions, Source, SourceFile, examine

# Project-URL labels that name the source repository, best first (normalized).
_SOURCE_LABELS = ("source", "sourcecode", "repository", "code", "github", "gitlab", "homepage")
_NOT_SOURCE = ("fund", "sponsor", "donat", "tidelift")


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
    def paths(self) -> list[str]:
        """The distribution's own files: under site-packages, no metadata, no bytecode."""
        own: set[str] = set()
        for record in self.dist.files or ():
            parts = record.parts
            if not parts or parts[0] == ".." or parts[0].endswith((".dist-info", ".egg-info")):
                continue
            if "__pycache__" in parts or record.name.endswith((".pyc", ".pyo")):
                continue
            own.add(record.as_posix())
        return sorted(own)

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

    def read(self, path: str) -> bytes | None:
        if path not in self._path_set:
            return None
        full = self._full(path)
        try:
            if full.is_symlink() or not full.is_file():
                return None
            return full.read_bytes()
        except OSError:
            return None


def open_package(name: str, alias: str | None, options: IngestOptions) -> PackageSource:
    try:
        dist = md.distribution(name)
    except (md.PackageNotFoundError, ValueError):
        raise SourceNotFound(f"no installed Python distribution named {name}") from None
    if dist.files is None:
        raise SourceNotFound(f"the distribution {name} has no RECORD, so its files are unknown")
    return PackageSource(dist, alias, options)
