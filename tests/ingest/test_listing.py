"""A source's listing (``Source.listing``): the sizes of the files it would
read, in its order, told without reading them, for a split index to cut."""

from __future__ import annotations

import shutil
from pathlib import Path

from errordex.ingest import SourceFile
from errordex.pipeline import open_for_index
from tests.ingest.conftest import GitRepo


def _read(spec: str) -> list[tuple[str, int]]:
    with open_for_index(spec) as src:
        return [(f.path, len(f.data)) for f in src.files() if isinstance(f, SourceFile)]


def _listed(spec: str) -> list[tuple[str, int]]:
    with open_for_index(spec) as src:
        return src.listing()


def test_a_git_repositorys_listing_is_its_files_and_sizes_without_the_skipped(
    sample_repo: GitRepo,
) -> None:
    listed = _listed(str(sample_repo.root))
    read = _read(str(sample_repo.root))
    # every file read is listed, at its size; a listed file may be skipped for
    # its content (binary, not UTF-8), never one skipped for its name or place
    assert set(read) <= set(listed)
    assert [p for p, _ in listed] == sorted(p for p, _ in listed)
    assert not any(p.startswith(("vendor/", "node_modules/")) for p, _ in listed)
    assert "gen/api_pb2.py" not in dict(listed)


def test_a_directorys_and_a_packages_listing_is_what_they_read(tmp_path: Path) -> None:
    import click

    tree = tmp_path / "click"
    shutil.copytree(Path(click.__file__).parent, tree, ignore=shutil.ignore_patterns("__pycache__"))
    assert _listed(str(tree)) == _read(str(tree))
    assert _listed("pkg:click") == _read("pkg:click")
