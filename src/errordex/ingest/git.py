"""A commit of a git repository, read straight from git's objects.

Nothing is checked out: ``git ls-tree`` lists the tree and one
``git cat-file --batch`` process streams the blobs. The work tree, the index
and HEAD are never touched.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path

from errordex import model
from errordex.errors import SourceError, SourceNotFound, UnknownRevision
from errordex.forge import parse_forge_url
from errordex.ingest import filters
from errordex.ingest.gitcmd import CatFile, GitFailed, git_optional, git_text, run_git
from errordex.ingest.slug import repo_from_remote
from errordex.ingest.source import IngestOptions, Source, SourceFile, examine

log = logging.getLogger(__name__)

MODE_SYMLINK = "120000"
MODE_SUBMODULE = "160000"


@dataclass(frozen=True)
class GitLocation:
    """Where a path sits in git: the git dir, the work tree (None if bare), and
    the path of the directory inside the repo ("" for the top, else "a/b")."""

    git_dir: Path
    work_tree: Path | None
    prefix: str


@dataclass(frozen=True)
class TreeEntry:
    mode: str
    type: str
    oid: str
    size: int | None
    path: str


def locate(path: Path) -> GitLocation | None:
    """The repository ``path`` is in, or None when it is not in one."""
    try:
        out = git_text(["rev-parse", "--is-bare-repository", "--absolute-git-dir"], cwd=path)
    except GitFailed:
        return None
    bare, git_dir = out.split("\n", 1)
    if bare == "true":
        return GitLocation(Path(git_dir), None, "")
    try:
        top, _, prefix = git_text(
            ["rev-parse", "--show-toplevel", "--show-prefix"], cwd=path
        ).partition("\n")
    except GitFailed:  # inside the .git directory itself
        return GitLocation(Path(git_dir), None, "")
    return GitLocation(Path(git_dir), Path(top), prefix.strip().strip("/"))


def resolve(git_dir: Path, rev: str, where: Path | str) -> str:
    """The full SHA of the commit ``rev`` names; UnknownRevision if none."""
    if not rev or rev.startswith("-") or "\n" in rev:
        raise UnknownRevision(f"unknown revision {rev!r} in {where}")
    try:
        return git_text(
            ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"],
            git_dir=git_dir,
        )
    except GitFailed:
        if rev == "HEAD":
            raise UnknownRevision(f"the repository {where} has no commits yet") from None
        raise UnknownRevision(f"unknown revision {rev!r} in {where}") from None


class GitSource(Source):
    """Files of one commit (optionally one subdirectory of it)."""

    kind = "git"

    def __init__(
        self,
        git_dir: Path,
        sha: str,
        repo: model.Repo,
        options: IngestOptions,
        *,
        prefix: str = "",
        forge_ref: str | None = None,
    ) -> None:
        self.git_dir = git_dir
        self.prefix = prefix
        self.options = options
        self._sha = sha
        self._repo = repo
        self._forge_ref = forge_ref
        self._cat = CatFile(git_dir)

    @property
    def repo(self) -> model.Repo:
        return self._repo

    @property
    def commit(self) -> str:
        return self._sha

    @property
    def commit_kind(self) -> model.CommitKind:
        return "git"

    @cached_property
    def _commit_date(self) -> str | None:
        return git_optional(
            ["-c", "log.showSignature=false", "show", "-s", "--format=%cI", self._sha],
            git_dir=self.git_dir,
        )

    @property
    def commit_date(self) -> str | None:
        return self._commit_date

    @cached_property
    def _version_label(self) -> str | None:
        return git_optional(["describe", "--tags", "--abbrev=12", self._sha], git_dir=self.git_dir)

    @property
    def version_label(self) -> str | None:
        return self._version_label

    @property
    def forge_ref(self) -> str | None:
        return self._forge_ref

    @cached_property
    def entries(self) -> dict[str, TreeEntry]:
        """Every non-tree entry under the prefix, by path relative to the repo root."""
        tree = f"{self._sha}:{self.prefix}" if self.prefix else self._sha
        out = run_git(["ls-tree", "-r", "-z", "--long", tree], git_dir=self.git_dir)
        base = f"{self.prefix}/" if self.prefix else ""
        result: dict[str, TreeEntry] = {}
        for record in out.split(b"\0"):
            if not record:
                continue
            meta, _, raw_path = record.partition(b"\t")
            mode, type_, oid, size = meta.decode().split()
            path = base + raw_path.decode("utf-8", "surrogateescape")
            result[path] = TreeEntry(mode, type_, oid, None if size == "-" else int(size), path)
        return result

    def files(self) -> Iterator[SourceFile | model.Skip]:
        for item in self._plan():
            if isinstance(item, model.Skip):
                yield item
                continue
            got = examine(item.path, item.size or 0, partial(self._blob, item.oid), self.options)
            if got is not None:
                yield got

    def listing(self) -> list[tuple[str, int]]:
        """The sizes ``git ls-tree`` gives: no blob is read."""
        wanted = self.options.is_wanted
        return [
            (e.path, e.size or 0)
            for e in self._plan()
            if isinstance(e, TreeEntry) and wanted(e.path) and not filters.skip_by_name(e.path)
        ]

    def _plan(self) -> list[TreeEntry | model.Skip]:
        # Decide directories first (a vendored or excluded dir is one Skip), then
        # walk in path order. Patterns match paths relative to the indexed subtree.
        plan: list[TreeEntry | model.Skip] = []
        skipped_dir: str | None = None
        excludes = self.options.excludes
        for path in sorted(self.entries):
            if skipped_dir is not None and path.startswith(skipped_dir):
                continue
            entry = self.entries[path]
            rel = path[len(self.prefix) :].lstrip("/")
            skipped = filters.skipped_prefix(rel, excludes, is_dir=entry.mode == MODE_SUBMODULE)
            if skipped is not None:
                skip_path = f"{self.prefix}/{skipped[0]}" if self.prefix else skipped[0]
                skipped_dir = skip_path + "/"
                plan.append(model.Skip(skip_path, skipped[1]))
            elif entry.mode == MODE_SUBMODULE:
                plan.append(model.Skip(path, filters.REASON_SUBMODULE))
            elif entry.mode == MODE_SYMLINK:
                plan.append(model.Skip(path, filters.REASON_SYMLINK))
            elif entry.type != "blob":
                plan.append(model.Skip(path, filters.REASON_SPECIAL))
            else:
                plan.append(entry)
        plan.sort(key=lambda item: item.path)
        return plan

    def _blob(self, oid: str) -> bytes:
        got = self._cat.get(oid)
        if got is None:
            raise OSError(f"object {oid} is missing")
        return got[1]

    def read(self, path: str) -> bytes | None:
        entry = self.entries.get(path)
        if entry is not None:
            if entry.type != "blob" or entry.mode in (MODE_SYMLINK, MODE_SUBMODULE):
                return None
            return self._blob(entry.oid)
        # outside the indexed subtree (a manifest at the root, say): ask git by path
        got = self._cat.get(f"{self._sha}:{path}")
        return got[1] if got is not None and got[0] == "blob" else None

    def close(self) -> None:
        self._cat.close()


def tracks_directory(loc: GitLocation, rev: str = "HEAD") -> bool:
    """Whether ``rev`` has the directory ``loc`` points at (False for an
    untracked or ignored directory inside a work tree)."""
    if not loc.prefix:
        return (
            git_optional(
                ["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], git_dir=loc.git_dir
            )
            is not None
        )
    kind = git_optional(["cat-file", "-t", f"{rev}:{loc.prefix}"], git_dir=loc.git_dir)
    return kind == "tree"


def open_git(
    loc: GitLocation,
    rev: str | None,
    name: str | None,
    options: IngestOptions,
    *,
    url: str | None = None,
) -> GitSource:
    """A GitSource for ``rev`` (default HEAD) of the repository at ``loc``.

    ``url`` is given for a clone of a URL: it names the repo and its HEAD is
    the remote's default branch.
    """
    where = loc.work_tree or loc.git_dir
    sha = resolve(loc.git_dir, rev or "HEAD", url or where)
    if loc.prefix:
        kind = git_optional(["cat-file", "-t", f"{sha}:{loc.prefix}"], git_dir=loc.git_dir)
        if kind != "tree":
            raise SourceNotFound(
                f"the directory {loc.prefix}/ is not in revision {rev or 'HEAD'} ({sha[:12]})"
            )
    if url is not None:
        remote: str | None = url
        branch = git_optional(["symbolic-ref", "--quiet", "--short", "HEAD"], git_dir=loc.git_dir)
    else:
        remote = git_optional(["config", "--get", "remote.origin.url"], git_dir=loc.git_dir)
        origin_head = git_optional(
            ["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"], git_dir=loc.git_dir
        )
        branch = origin_head.removeprefix("origin/") if origin_head else None
    dirname = url.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1] if url else where.name
    repo = repo_from_remote(
        remote,
        name=name,
        dirname=dirname,
        default_branch=branch,
        keep_url=url is not None,
        forge_url=options.forge_url,
    )
    if not repo.url:
        forge_ref = None
    elif url is not None or (remote and parse_forge_url(remote)):
        forge_ref = sha if _on_forge(loc.git_dir, sha, cloned=url is not None) else None
        if forge_ref is None:
            log.info("commit %s is not on origin; forge links are left out", sha[:12])
    else:
        # No remote on a forge to ask: the user named the repository (--name
        # owner/name, --forge-url), and links are pinned to the commit's SHA.
        forge_ref = sha
    return GitSource(loc.git_dir, sha, repo, options, prefix=loc.prefix, forge_ref=forge_ref)


def _on_forge(git_dir: Path, sha: str, *, cloned: bool) -> bool:
    """Whether the commit is known to exist on the remote (so links to it work).

    A clone's refs all come from the remote. In a local checkout, the commit
    must be reachable from a remote-tracking branch of origin; a commit made
    locally and never pushed is not.
    """
    if cloned:
        return True
    try:
        out = git_text(
            [
                "for-each-ref",
                "--count=1",
                "--format=%(refname)",
                f"--contains={sha}",
                "refs/remotes/origin/",
            ],
            git_dir=git_dir,
        )
    except GitFailed as e:
        raise SourceError(f"cannot read the refs of {git_dir}: {e.reason}") from None
    return bool(out)
