"""Ingest: turn a SOURCE argument into a Source, the files of one commit.

This is the only stage that reads disk, runs git or touches the network.

    >>> with open_source("pkg:click") as src:
    ...     src.repo.slug, src.version_label
    ('pallets/click', '8.5.1')

SOURCE is one of:

- a directory in a git repository: HEAD (or ``rev``) read from git's objects,
  nothing checked out; a subdirectory indexes that subtree only;
- a plain directory: walked on disk, honouring .gitignore files;
- a git URL (https://, ssh://, file://, ``git@host:o/r.git``): a bare clone
  in the cache, fetched when reused;
- ``pkg:NAME``: the files of an installed Python distribution.
"""

from __future__ import annotations

from pathlib import Path

from errordex.errors import InputError, NotAGitRepo, SourceNotFound, UnknownRevision
from errordex.ingest import clone, git
from errordex.ingest.directory import DirectorySource
from errordex.ingest.git import GitSource
from errordex.ingest.package import PackageSource, open_package
from errordex.ingest.slug import validate_name
from errordex.ingest.source import IngestOptions, Source, SourceFile

__all__ = [
    "DirectorySource",
    "GitSource",
    "IngestOptions",
    "PackageSource",
    "Source",
    "SourceFile",
    "open_source",
]

PKG_PREFIX = "pkg:"


def open_source(
    spec: str,
    rev: str | None = None,
    name: str | None = None,
    options: IngestOptions | None = None,
) -> Source:
    """Open SOURCE at ``rev``; ``name`` ("owner/name") overrides the detected slug.

    Raises a SourceError subclass (one clear sentence) when SOURCE cannot be
    read, and InputError for a malformed ``name`` or a ``rev`` that does not apply.
    """
    opts = options or IngestOptions()
    if not spec.strip():
        # Path("") is the working directory: an empty SOURCE (an unset shell
        # variable) would index wherever the command runs
        raise InputError("SOURCE is empty: name a directory, a git URL or pkg:NAME")
    if rev is not None and not rev.strip():
        raise InputError("--rev is empty: give a commit, a tag or a branch")
    if name is not None:
        validate_name(name)  # before any clone
    if spec.startswith(PKG_PREFIX):
        if rev is not None:
            raise InputError(f"--rev does not apply to an installed package ({spec})")
        _no_forge_links(opts, f"{spec} is an installed package")
        return open_package(spec[len(PKG_PREFIX) :], name, opts)
    if opts.python is not None or opts.site_packages:
        raise InputError(f"--python and --site-packages apply to pkg:NAME only, not {spec}")
    if clone.is_git_url(spec):
        git_dir = clone.ensure_clone(spec, opts.cache_dir)
        cloned = git.GitLocation(git_dir, None, "")
        if rev is not None:
            try:
                git.resolve(git_dir, rev, spec)
            except UnknownRevision:  # a commit on no branch: forges serve it by SHA
                clone.fetch_commit(git_dir, rev)
        return git.open_git(cloned, rev, name, opts, url=spec)
    path = Path(spec).expanduser()
    if not path.exists():
        raise SourceNotFound(f"no such file or directory: {spec}")
    if not path.is_dir():
        raise SourceNotFound(f"not a directory: {spec}")
    path = path.resolve()
    found = git.locate(path)
    if found is not None:
        if rev is None and found.prefix and not git.tracks_directory(found):
            # An untracked or ignored directory inside someone's work tree
            # (a virtualenv, an installed stdlib): read it from disk.
            _no_forge_links(opts, f"{spec} is not tracked by git")
            return DirectorySource(path, name, opts)
        return git.open_git(found, rev, name, opts)
    if rev is not None:
        raise NotAGitRepo(f"{spec} is not a git repository, so --rev cannot be used")
    _no_forge_links(opts, f"{spec} is not a git repository")
    return DirectorySource(path, name, opts)


def _no_forge_links(options: IngestOptions, why: str) -> None:
    if options.forge_url is not None:
        raise InputError(
            f"--forge-url links to a git commit, and {why}: its snapshot is a content hash"
        )
