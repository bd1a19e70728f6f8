"""Reading a commit of a local git repository, straight from git's objects."""

from __future__ import annotations

import gc
import hashlib
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from errordex import model
from errordex.errors import SourceNotFound, UnknownRevision
from errordex.ingest import GitSource, IngestOptions, Source, SourceFile, open_source

from .conftest import GitRepo

SMALL = IngestOptions(max_file_bytes=1000)


def listing(src: Source) -> dict[str, str]:
    """path -> "file" or the skip reason."""
    out: dict[str, str] = {}
    for item in src.files():
        out[item.path] = "file" if isinstance(item, SourceFile) else item.reason
    return out


def test_head_lists_files_and_skips_with_reasons(sample_repo: GitRepo) -> None:
    with open_source(str(sample_repo.root), options=SMALL) as src:
        got = listing(src)
    assert got == {
        "README.md": "file",
        "big.txt": "too large (5000 bytes)",
        "data.bin": "binary",
        "docs/guide.md": "file",
        "gen/api_pb2.py": "generated",
        "gen/header.py": "generated",
        "latin1.txt": "not UTF-8",
        "libs/sub": "submodule",
        "mostly_utf8.txt": "file",
        "node_modules": "vendored directory",
        "outside": "symlink",
        "src/app.py": "file",
        "src/lib.py": "file",
        "vendor": "vendored directory",
    }
    assert list(got) == sorted(got)


def test_head_identity_is_the_commit(sample_repo: GitRepo) -> None:
    head = sample_repo.git("rev-parse", "HEAD")
    with open_source(str(sample_repo.root)) as src:
        assert isinstance(src, GitSource)
        assert src.kind == "git"
        assert src.commit == head
        assert src.commit_date == "2024-05-01T12:00:00+00:00"
        assert src.version_label is not None and src.version_label.startswith("v1-1-g")
        assert src.repo == model.Repo(slug="local/project", url=None, default_branch=None)
        assert src.forge_ref is None


@pytest.mark.parametrize("rev", ["v1", "feature", "HEAD~1", "short"])
def test_rev_selects_older_tree(sample_repo: GitRepo, rev: str) -> None:
    first = sample_repo.git("rev-parse", "v1")
    if rev == "short":
        rev = first[:8]
    with open_source(str(sample_repo.root), rev=rev) as src:
        assert src.commit == first
        assert src.version_label == "v1"
        assert listing(src) == {"README.md": "file", "src/app.py": "file"}


def test_file_content_matches_the_revision(sample_repo: GitRepo) -> None:
    sample_repo.write("src/app.py", "raise ValueError('changed')\n")
    sample_repo.commit("third")
    with open_source(str(sample_repo.root), rev="v1") as src:
        files = {f.path: f.data for f in src.files() if isinstance(f, SourceFile)}
        assert files["src/app.py"] == b"raise ValueError('bad app')\n"
        assert src.read("src/app.py") == b"raise ValueError('bad app')\n"
        assert src.read("src/lib.py") is None  # not in v1
        assert src.read("no such.rs") is None  # "<name> missing", three fields
        assert src.read("not here either.rs") is None
    with open_source(str(sample_repo.root)) as src:
        assert src.read("src/app.py") == b"raise ValueError('changed')\n"


def test_uncommitted_changes_are_not_indexed(sample_repo: GitRepo) -> None:
    sample_repo.write("src/app.py", "dirty\n")
    sample_repo.write("src/untracked.py", "new\n")
    with open_source(str(sample_repo.root)) as src:
        assert src.read("src/app.py") == b"raise ValueError('bad app')\n"
        assert "src/untracked.py" not in listing(src)


def _tree_state(root: Path) -> dict[str, str]:
    state = {}
    for p in sorted(root.rglob("*")):
        if ".git" in p.relative_to(root).parts or p.is_symlink() or not p.is_file():
            continue
        state[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return state


def test_reading_a_revision_checks_nothing_out(sample_repo: GitRepo) -> None:
    before_tree = _tree_state(sample_repo.root)
    before_head = sample_repo.git("rev-parse", "HEAD")
    before_ref = sample_repo.git("symbolic-ref", "HEAD")
    before_status = sample_repo.git("status", "--porcelain")
    before_index = (sample_repo.root / ".git" / "index").read_bytes()
    for rev in ("v1", "feature", None):
        with open_source(str(sample_repo.root), rev=rev) as src:
            for item in src.files():
                if isinstance(item, SourceFile):
                    src.read(item.path)
    assert _tree_state(sample_repo.root) == before_tree
    assert sample_repo.git("rev-parse", "HEAD") == before_head
    assert sample_repo.git("symbolic-ref", "HEAD") == before_ref
    assert (sample_repo.root / ".git" / "index").read_bytes() == before_index
    assert sample_repo.git("status", "--porcelain") == before_status


def test_subdirectory_indexes_only_its_subtree(sample_repo: GitRepo) -> None:
    with open_source(str(sample_repo.root / "src")) as src:
        assert listing(src) == {"src/app.py": "file", "src/lib.py": "file"}
        # files outside the subtree can still be read (a manifest at the root, say)
        assert src.read("README.md") == b"# project\n"


def test_subdirectory_missing_at_revision_is_an_error(sample_repo: GitRepo) -> None:
    with pytest.raises(SourceNotFound, match=r"the directory docs/ is not in revision v1"):
        open_source(str(sample_repo.root / "docs"), rev="v1")


def test_indexing_a_vendored_directory_itself_reads_it(sample_repo: GitRepo) -> None:
    with open_source(str(sample_repo.root / "vendor")) as src:
        assert listing(src) == {"vendor/dep.py": "file"}


def test_read_refuses_symlinks_submodules_and_directories(sample_repo: GitRepo) -> None:
    with open_source(str(sample_repo.root)) as src:
        assert src.read("outside") is None
        assert src.read("libs/sub") is None
        assert src.read("src") is None
        assert src.read("no/such/file.py") is None


def test_wanted_files_only_are_yielded(sample_repo: GitRepo) -> None:
    opts = IngestOptions(wanted=lambda p: p.endswith(".py"))
    with open_source(str(sample_repo.root), options=opts) as src:
        got = listing(src)
    assert got == {
        "gen/api_pb2.py": "generated",
        "gen/header.py": "generated",
        "libs/sub": "submodule",
        "node_modules": "vendored directory",
        "outside": "symlink",
        "src/app.py": "file",
        "src/lib.py": "file",
        "vendor": "vendored directory",
    }


def test_default_size_limit_is_one_megabyte(git_repo: GitRepo) -> None:
    lines = (b"#" * 99 + b"\n") * 10_000  # 1,000,000 bytes (one long line is minified)
    git_repo.write("huge.py", lines + b"#")
    git_repo.write("fits.py", lines)
    git_repo.commit()
    with open_source(str(git_repo.root)) as src:
        assert listing(src) == {"fits.py": "file", "huge.py": "too large (1000001 bytes)"}


def test_origin_on_github_names_the_repo(sample_repo: GitRepo) -> None:
    sample_repo.git("remote", "add", "origin", "git@github.com:acme/widgets.git")
    sample_repo.git("update-ref", "refs/remotes/origin/main", "v1")
    sample_repo.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
    with open_source(str(sample_repo.root), rev="v1") as src:
        assert src.repo == model.Repo(
            slug="acme/widgets", url="https://github.com/acme/widgets", default_branch="main"
        )
        assert src.forge_ref == src.commit
        assert src.file_url("src/app.py", 1) == (
            f"https://github.com/acme/widgets/blob/{src.commit}/src/app.py#L1"
        )


def test_unpushed_commit_gets_no_forge_ref(sample_repo: GitRepo) -> None:
    sample_repo.git("remote", "add", "origin", "https://gitlab.com/acme/widgets.git")
    sample_repo.git("update-ref", "refs/remotes/origin/main", "v1")
    with open_source(str(sample_repo.root)) as src:  # HEAD is ahead of origin/main
        assert src.repo.url == "https://gitlab.com/acme/widgets"
        assert src.forge_ref is None
        assert src.file_url("src/app.py", 1) is None


def test_name_overrides_the_slug(sample_repo: GitRepo) -> None:
    with open_source(str(sample_repo.root), name="me/mine") as src:
        assert src.repo.slug == "me/mine"


def test_unknown_revision_is_a_clear_error(sample_repo: GitRepo) -> None:
    with pytest.raises(UnknownRevision, match=r"unknown revision 'nope' in .*project"):
        open_source(str(sample_repo.root), rev="nope")


def test_revision_that_looks_like_an_option_is_refused(sample_repo: GitRepo) -> None:
    with pytest.raises(UnknownRevision, match=r"unknown revision '--all'"):
        open_source(str(sample_repo.root), rev="--all")


def test_repository_without_commits_is_a_clear_error(git_repo: GitRepo) -> None:
    with pytest.raises(UnknownRevision, match=r"has no commits yet"):
        open_source(str(git_repo.root))


def test_reading_uses_one_cat_file_process(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(2000):
        git_repo.write(f"pkg/m{i // 100}/f{i}.py", f"raise ValueError('e{i}')\n")
    git_repo.commit()
    commands: list[list[str]] = []
    real_popen = subprocess.Popen

    class RecordingPopen(real_popen):  # type: ignore[valid-type,misc]
        def __init__(self, args: Any, *rest: Any, **kw: Any) -> None:
            commands.append([str(a) for a in args])
            super().__init__(args, *rest, **kw)

    monkeypatch.setattr(subprocess, "Popen", RecordingPopen)
    start = time.monotonic()
    with open_source(str(git_repo.root)) as src:
        files = [f for f in src.files() if isinstance(f, SourceFile)]
        assert src.read("pkg/m3/f300.py") == b"raise ValueError('e300')\n"
    elapsed = time.monotonic() - start
    assert len(files) == 2000
    assert files[0].data.startswith(b"raise ValueError")
    assert sum("cat-file" in c and "--batch" in c for c in commands) == 1
    assert len(commands) < 15
    assert elapsed < 10


def test_closing_stops_the_cat_file_process(sample_repo: GitRepo) -> None:
    src = open_source(str(sample_repo.root))
    list(src.files())
    src.close()
    src.close()  # twice is harmless
    assert src.read("README.md") == b"# project\n"  # restarts on demand
    src.close()


def test_unclosed_source_stops_its_process_when_collected(sample_repo: GitRepo) -> None:
    src = open_source(str(sample_repo.root))
    assert src.read("README.md") == b"# project\n"
    assert isinstance(src, GitSource)
    proc = src._cat._proc
    assert proc is not None and proc.poll() is None
    del src
    gc.collect()
    assert proc.poll() is not None


def test_vendored_directory_sorts_as_its_path(git_repo: GitRepo) -> None:
    git_repo.write("vendor.py", "x\n")
    git_repo.write("vendor/a.py", "x\n")
    git_repo.write("vendo.py", "x\n")
    git_repo.commit()
    with open_source(str(git_repo.root)) as src:
        assert list(listing(src)) == ["vendo.py", "vendor", "vendor.py"]


def test_untracked_directory_inside_a_work_tree_is_read_from_disk(sample_repo: GitRepo) -> None:
    extra = sample_repo.root / "build" / "gen"
    extra.mkdir(parents=True)
    (extra / "x.py").write_text("raise ValueError('x')\n")
    with open_source(str(extra)) as src:
        assert src.kind == "directory"
        assert listing(src) == {"x.py": "file"}
