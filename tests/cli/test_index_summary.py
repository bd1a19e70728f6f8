"""What `errordex index` says about the snapshot it wrote: its file counts,
what its commit is, its version, and the links it can give."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from errordex.cli import main

BYTES = next(Path("/usr/share/cargo/registry").glob("bytes-1.*"), None)


def run(db: Path, *args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, [*args, "--db", str(db)], catch_exceptions=False)
    return res.exit_code, res.stdout, res.stderr


needs_bytes = pytest.mark.skipif(
    BYTES is None, reason="Debian's librust-bytes-dev is not installed"
)


@pytest.fixture
def crate(tmp_path: Path) -> Path:
    """A copy of Debian's bytes crate: a plain directory, in no git work tree."""
    assert BYTES is not None
    shutil.copytree(BYTES, tmp_path / BYTES.name)
    return tmp_path / BYTES.name


@needs_bytes
def test_crate_directory_summary_has_cargos_version(crate: Path, tmp_path: Path) -> None:
    code, out, _ = run(tmp_path / "db", "index", str(crate), "--name", "tokio-rs/bytes", "-j", "1")
    assert code == 0
    assert out.splitlines()[0].endswith(f"({crate.name.removeprefix('bytes-')})")


@needs_bytes
def test_crate_directory_file_counts_add_up(crate: Path, tmp_path: Path) -> None:
    code, out, _ = run(tmp_path / "db", "index", str(crate), "--name", "tokio-rs/bytes", "-j", "1")
    assert code == 0
    files = out.splitlines()[1]
    said = re.search(r"files: (\d+) seen: (\d+) parsed, (\d+) manifests read, (\d+) skipped", files)
    assert said is not None, files
    seen, parsed, manifests, skipped = map(int, said.groups())
    assert seen == parsed + manifests + skipped
    assert manifests == 1
    code, out, _ = run(tmp_path / "db", "index", str(crate), "--name", "tokio-rs/bytes", "--json")
    stats = json.loads(out)["stats"]
    assert stats["manifests_read"] == 1
    assert stats["files_seen"] == (
        stats["files_parsed"] + stats["manifests_read"] + stats["files_skipped"]
    )
