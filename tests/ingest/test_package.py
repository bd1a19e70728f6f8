"""Indexing an installed Python distribution: pkg:NAME."""

from __future__ import annotations

import importlib.metadata

import pytest

from errordex.errors import InputError, SourceNotFound
from errordex.ingest import IngestOptions, PackageSource, SourceFile, open_source
from errordex.model import Skip


def test_pkg_click_has_its_version_and_github_slug() -> None:
    src = open_source("pkg:click")
    assert isinstance(src, PackageSource)
    assert src.kind == "package"
    assert src.version_label == importlib.metadata.version("click")
    assert src.repo.slug == "pallets/click"
    assert src.repo.url == "https://github.com/pallets/click"
    assert src.forge_ref is None  # installed paths are not the repo's layout
    assert len(src.commit) == 40
    assert src.commit == open_source("pkg:click").commit


def test_pkg_files_are_the_package_own_files() -> None:
    src = open_source("pkg:click")
    items = list(src.files())
    paths = [i.path for i in items]
    assert "click/core.py" in paths
    assert paths == sorted(paths)
    assert not any(".dist-info" in p or "__pycache__" in p or p.startswith("..") for p in paths)
    core = next(i for i in items if i.path == "click/core.py")
    assert isinstance(core, SourceFile)
    assert b"class Context" in core.data
    assert src.read("click/core.py") == core.data
    assert src.read("click-8.0.dist-info/METADATA") is None


def test_pkg_honours_wanted() -> None:
    src = open_source("pkg:click", options=IngestOptions(wanted=lambda p: p.endswith(".typed")))
    assert [i.path for i in src.files()] == ["click/py.typed"]


def test_unknown_package_is_source_not_found() -> None:
    with pytest.raises(
        SourceNotFound, match=r"^no installed Python distribution named no-such-pkg-xyz$"
    ):
        open_source("pkg:no-such-pkg-xyz")


def test_rev_with_package_is_refused() -> None:
    with pytest.raises(InputError, match=r"--rev does not apply"):
        open_source("pkg:click", rev="v1")


def test_name_overrides_package_slug() -> None:
    assert open_source("pkg:click", name="me/click").repo.slug == "me/click"


def test_pip_bundled_projects_are_one_vendored_skip_each() -> None:
    # pip (in every virtualenv) bundles requests, urllib3, rich... under pip/_vendor.
    items = list(open_source("pkg:pip").files())
    skips = {i.path: i.reason for i in items if isinstance(i, Skip)}
    assert skips.get("pip/_vendor") == "vendored directory"
    read = [i.path for i in items if not isinstance(i, Skip)]
    assert read and not any(p.startswith("pip/_vendor/") for p in read)
    assert "pip/_internal/main.py" in read
