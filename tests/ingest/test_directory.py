"""Indexing a plain directory (not in git): .gitignore, symlinks, content hash."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from errordex.errors import InputError, NotAGitRepo, SourceNotFound
from errordex.ingest import DirectorySource, IngestOptions, Source, SourceFile, open_source


def write(root: Path, path: str, data: bytes | str = "x = 1\n") -> None:
    full = root / path
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_bytes(data.encode() if isinstance(data, str) else data)


def listing(src: Source) -> dict[str, str]:
    return {
        item.path: "file" if isinstance(item, SourceFile) else item.reason for item in src.files()
    }


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "plain"
    write(root, ".gitignore", "*.log\n!keep.log\nbuild/\n/top_only.py\ncache\n")
    write(root, "a.log")
    write(root, "keep.log")
    write(root, "build/out.py")
    write(root, "top_only.py")
    write(root, "pkg/top_only.py")
    write(root, "pkg/cache/c.py")
    write(root, "pkg/.gitignore", "local.py\n")
    write(root, "pkg/local.py")
    write(root, "pkg/mod.py", "raise ValueError('x')\n")
    write(root, "third_party/lib.py")
    write(root, "data.bin", b"\x00\x01")
    write(root, "app.min.js", "x")
    (tmp_path / "secret.py").write_text("SECRET = 1\n")
    os.symlink(tmp_path / "secret.py", root / "escape.py")
    os.symlink(tmp_path, root / "escape_dir")
    return root


def test_plain_directory_honours_gitignore_and_skips(tree: Path) -> None:
    src = open_source(str(tree))
    assert isinstance(src, DirectorySource)
    assert src.kind == "directory"
    assert listing(src) == {
        ".gitignore": "file",
        "app.min.js": "generated",
        "data.bin": "binary",
        "escape.py": "symlink",
        "escape_dir": "symlink",
        "keep.log": "file",
        "pkg/.gitignore": "file",
        "pkg/mod.py": "file",
        "pkg/top_only.py": "file",
        "third_party": "vendored directory",
    }


def test_symlink_out_of_root_is_never_read(tree: Path) -> None:
    src = open_source(str(tree))
    datas = [f.data for f in src.files() if isinstance(f, SourceFile)]
    assert b"SECRET = 1\n" not in datas
    assert src.read("escape.py") is None
    assert src.read("escape_dir/secret.py") is None
    assert src.read("../secret.py") is None
    assert src.read("pkg/mod.py") == b"raise ValueError('x')\n"


def test_directory_identity_is_a_content_hash(tree: Path, tmp_path: Path) -> None:
    first = open_source(str(tree))
    assert len(first.commit) == 40
    assert first.commit == open_source(str(tree)).commit  # idempotent
    assert first.repo.slug == "local/plain"
    assert first.commit_date is None and first.forge_ref is None
    write(tree, "a.log", "ignored files do not count\n")
    assert open_source(str(tree)).commit == first.commit
    write(tree, "pkg/mod.py", "raise ValueError('y')\n")
    assert open_source(str(tree)).commit != first.commit


def test_directory_without_gitignore_lists_everything(tmp_path: Path) -> None:
    write(tmp_path / "d", "b.py")
    write(tmp_path / "d", "a/z.py")
    write(tmp_path / "d", "a.py")
    assert list(listing(open_source(str(tmp_path / "d")))) == ["a.py", "a/z.py", "b.py"]


def test_rev_on_plain_directory_is_refused(tree: Path) -> None:
    with pytest.raises(NotAGitRepo, match=r"is not a git repository, so --rev cannot be used"):
        open_source(str(tree), rev="main")


def test_missing_path_is_source_not_found(tmp_path: Path) -> None:
    with pytest.raises(SourceNotFound, match=r"^no such file or directory: .*nowhere$"):
        open_source(str(tmp_path / "nowhere"))


def test_file_instead_of_directory_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "f.py")
    with pytest.raises(SourceNotFound, match=r"^not a directory: "):
        open_source(str(tmp_path / "f.py"))


def test_bad_name_is_an_input_error(tree: Path) -> None:
    with pytest.raises(InputError, match=r"--name must look like owner/name"):
        open_source(str(tree), name="just-a-name")


def test_size_limit_applies_to_directories(tmp_path: Path) -> None:
    write(tmp_path / "d", "big.py", "#" * 20)
    src = open_source(str(tmp_path / "d"), options=IngestOptions(max_file_bytes=10))
    assert listing(src) == {"big.py": "too large (20 bytes)"}
