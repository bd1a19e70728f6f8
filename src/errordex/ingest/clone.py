"""Cloning a git URL into the cache: one bare clone per URL, fetched when reused."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import shutil
import tempfile
from pathlib import Path

import platformdirs

from errordex.errors import CloneFailed
from errordex.ingest.gitcmd import GitFailed, git_optional, run_git
from errordex.ingest.slug import local_slug, redact_url

log = logging.getLogger(__name__)

_URL = re.compile(r"^(?:https?|ssh|git|file|git\+ssh|git\+https|ssh\+git)://", re.IGNORECASE)
_SCP = re.compile(r"^[A-Za-z0-9_.-]+@[A-Za-z0-9_.-]+:")
_REFSPECS = ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"]
_HEX = re.compile(r"^[0-9a-f]{7,64}$")


def is_git_url(spec: str) -> bool:
    """A URL git can clone: ``scheme://…`` or scp-like ``user@host:path``."""
    return bool(_URL.match(spec) or (_SCP.match(spec) and not Path(spec).exists()))


def default_cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir("errordex")) / "clones"


def clone_dir(url: str, cache_dir: Path) -> Path:
    """``<cache>/<name>-<hash of the URL>.git``: readable, and unique per URL."""
    key = hashlib.sha256(url.encode("utf-8")).hexdigest()[:16]
    name = local_slug(url.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]).split("/", 1)[1]
    return cache_dir / f"{name}-{key}.git"


def ensure_clone(url: str, cache_dir: Path | None) -> Path:
    """The git dir of an up-to-date bare clone of ``url``; CloneFailed if it cannot be made."""
    cache = cache_dir or default_cache_dir()
    target = clone_dir(url, cache)
    if (target / "HEAD").is_file():
        _update(url, target)
        return target
    cache.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".clone-", dir=cache))
    try:
        run_git(["clone", "--bare", "--quiet", "--end-of-options", url, str(tmp)])
    except GitFailed as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise CloneFailed(f"could not clone {redact_url(url)}: {e.reason}") from None
    except BaseException:  # a time limit, Ctrl-C: leave no half clone in the cache
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    try:
        os.rename(tmp, target)
    except OSError:  # another process cloned it meanwhile: use theirs
        shutil.rmtree(tmp, ignore_errors=True)
        if not (target / "HEAD").is_file():
            raise
    return target


def _update(url: str, git_dir: Path) -> None:
    """Fetch branches and tags, and follow the remote's default branch.

    When the remote cannot be reached, keep the cached copy (with a warning).
    """
    try:
        run_git(["fetch", "--quiet", "--prune", "origin", *_REFSPECS], git_dir=git_dir)
    except GitFailed as e:
        log.warning("could not fetch %s, using the cached clone: %s", redact_url(url), e.reason)
        return
    head = git_optional(["ls-remote", "--symref", "origin", "HEAD"], git_dir=git_dir)
    if head and head.startswith("ref: "):
        ref = head[len("ref: ") :].split("\t", 1)[0]
        if ref.startswith("refs/heads/"):
            run_git(["symbolic-ref", "HEAD", ref], git_dir=git_dir)


def fetch_commit(git_dir: Path, rev: str) -> None:
    """Try to fetch one commit by SHA (forges serve reachable commits not on a branch)."""
    if not _HEX.match(rev):
        return
    with contextlib.suppress(GitFailed):
        run_git(["fetch", "--quiet", "origin", rev], git_dir=git_dir)
