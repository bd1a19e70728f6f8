"""Indexing a git URL: a bare clone in the cache, fetched when reused."""

from __future__ import annotations

from pathlib import Path

import pytest

from errordex.errors import CloneFailed, UnknownRevision
from errordex.ingest import IngestOptions, SourceFile, open_source
from errordex.ingest.clone import clone_dir, is_git_url

from .conftest import GitRepo


def test_file_url_is_cloned_bare_into_the_cache(sample_repo: GitRepo, tmp_path: Path) -> None:
    url = sample_repo.root.as_uri()
    cache = tmp_path / "cache"
    with open_source(url, options=IngestOptions(cache_dir=cache)) as src:
        assert src.commit == sample_repo.git("rev-parse", "HEAD")
        assert src.repo.slug == "local/project"
        assert src.repo.url == url
        assert src.repo.default_branch == "main"
        assert src.read("src/app.py") == b"raise ValueError('bad app')\n"
        paths = [f.path for f in src.files() if isinstance(f, SourceFile)]
    assert "src/lib.py" in paths
    clone = clone_dir(url, cache)
    assert (clone / "HEAD").is_file()
    assert not (clone / "src").exists()  # bare: no work tree
    assert [p.name for p in cache.iterdir()] == [clone.name]


def test_reused_clone_fetches_new_commits(sample_repo: GitRepo, tmp_path: Path) -> None:
    url = sample_repo.root.as_uri()
    opts = IngestOptions(cache_dir=tmp_path / "cache")
    open_source(url, options=opts).close()
    sample_repo.write("src/new.py", "raise OSError('new')\n")
    new_head = sample_repo.commit("third")
    sample_repo.git("tag", "v2")
    with open_source(url, options=opts) as src:
        assert src.commit == new_head
        assert src.version_label == "v2"
    with open_source(url, rev="v1", options=opts) as src:
        assert src.commit == sample_repo.git("rev-parse", "v1")


def test_clone_of_github_url_gets_forge_ref() -> None:
    # no network: only the naming, which does not need the clone
    assert is_git_url("https://github.com/pallets/click.git")
    assert is_git_url("git@github.com:pallets/click.git")
    assert is_git_url("ssh://git@gitlab.com/o/r")
    assert is_git_url("file:///srv/repo")
    assert not is_git_url("./some/dir")
    assert not is_git_url("pkg:click")


def test_unknown_revision_of_a_url_is_a_clear_error(sample_repo: GitRepo, tmp_path: Path) -> None:
    url = sample_repo.root.as_uri()
    with pytest.raises(UnknownRevision, match=r"unknown revision 'nope' in file://"):
        open_source(url, rev="nope", options=IngestOptions(cache_dir=tmp_path / "cache"))


def test_clone_failure_reports_git_message(tmp_path: Path) -> None:
    url = (tmp_path / "missing").as_uri()
    cache = tmp_path / "cache"
    # git's reason, not its closing advice ("... and the repository exists.")
    with pytest.raises(
        CloneFailed,
        match=r"^could not clone file://.*missing: '.*missing' does not appear to be a git repository$",
    ):
        open_source(url, options=IngestOptions(cache_dir=cache))
    assert list(cache.iterdir()) == []  # no half-made clone left behind


def test_clone_keeps_no_credentials_in_repo_url(sample_repo: GitRepo, tmp_path: Path) -> None:
    # file:// cannot carry credentials; check the redaction the URL naming uses
    from errordex.ingest.slug import redact_url

    assert (
        redact_url("https://user:tok@git.example.com/o/r.git") == "https://git.example.com/o/r.git"
    )
