"""A plain directory's version label, from the manifest at its root."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from errordex.ingest import DirectorySource, IngestOptions, manifest, open_source

BYTES = next(Path("/usr/share/cargo/registry").glob("bytes-1.*"), None)


def test_manifest_doctests_pass() -> None:
    assert doctest.testmod(manifest).failed == 0


@pytest.mark.skipif(BYTES is None, reason="Debian's librust-bytes-dev is not installed")
def test_unpacked_crate_directory_has_its_cargo_version() -> None:
    assert BYTES is not None
    src = open_source(str(BYTES))
    assert isinstance(src, DirectorySource)
    assert src.version_label == BYTES.name.removeprefix("bytes-")


@pytest.mark.parametrize(
    ("name", "text", "version"),
    [
        ("Cargo.toml", '[package]\nname = "a"\nversion = "0.3.0-alpha.2"\n', "0.3.0-alpha.2"),
        (
            "Cargo.toml",
            '[workspace.package]\nversion = "2.1.0"\n[package]\nname = "a"\n'
            "version.workspace = true\n",
            "2.1.0",
        ),
        ("pyproject.toml", '[project]\nname = "a"\nversion = "1.4rc1"\n', "1.4rc1"),
        ("pyproject.toml", '[tool.poetry]\nname = "a"\nversion = "0.9.1"\n', "0.9.1"),
        ("pyproject.toml", '[project]\nname = "a"\ndynamic = ["version"]\n', None),
        ("setup.cfg", "[metadata]\nname = a\nversion = 3.0.2\n", "3.0.2"),
        ("setup.cfg", "[metadata]\nversion = attr: a.__version__\n", None),
        ("package.json", '{"name": "a", "version": "5.0.0"}', "5.0.0"),
        ("package.json", '{"name": "a", "version": "5.0.0\\n\\u001b[2J"}', None),
        ("Cargo.toml", "[package\nbroken", None),
        ("README.md", "version = 1.0", None),
    ],
)
def test_directory_version_label_comes_from_its_manifest(
    tmp_path: Path, name: str, text: str, version: str | None
) -> None:
    (tmp_path / name).write_text(text)
    src = DirectorySource(tmp_path, None, IngestOptions())
    assert src.version_label == version


def test_a_symlinked_manifest_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.toml"
    outside.write_text('[package]\nname = "a"\nversion = "6.6.6"\n')
    root = tmp_path / "root"
    root.mkdir()
    (root / "Cargo.toml").symlink_to(outside)
    assert DirectorySource(root, None, IngestOptions()).version_label is None
