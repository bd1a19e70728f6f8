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
    said = re.search(
        r"files: (\d+) seen: (\d+) parsed, (\d+) manifests read, (\d+) docs read, (\d+) skipped",
        files,
    )
    assert said is not None, files
    seen, parsed, manifests, docs, skipped = map(int, said.groups())
    assert seen == parsed + manifests + docs + skipped
    assert manifests == 1 and docs == 1  # its README.md
    code, out, _ = run(tmp_path / "db", "index", str(crate), "--name", "tokio-rs/bytes", "--json")
    stats = json.loads(out)["stats"]
    assert stats["manifests_read"] == 1
    assert stats["files_seen"] == (
        stats["files_parsed"]
        + stats["manifests_read"]
        + stats["docs_read"]
        + stats["files_skipped"]
    )


RAISES = 'def f(x):\n    if x < 0:\n        raise ValueError("x must not be negative")\n'


@pytest.fixture
def plain_dir(tmp_path: Path) -> Path:
    root = tmp_path / "plain"
    root.mkdir()
    (root / "m.py").write_text(RAISES)
    return root


def test_plain_directory_summary_calls_its_hash_a_content_hash(
    plain_dir: Path, tmp_path: Path
) -> None:
    db = tmp_path / "db"
    code, out, _ = run(db, "index", str(plain_dir), "-j", "1")
    assert code == 0
    assert out.splitlines()[0].startswith("local/plain @ content hash ")
    code, out, _ = run(db, "index", str(plain_dir), "--json")
    summary = json.loads(out)
    assert summary["commit_kind"] == "content" and len(summary["commit"]) == 40
    code, out, _ = run(db, "stats", "--json")
    assert json.loads(out)["repos"][0]["commit_kind"] == "content"
    code, out, _ = run(db, "stats")
    assert "* a content hash of the files read, not a git commit" in out
    code, out, _ = run(db, "list", "--json")
    entry_id = json.loads(out)[0]["id"]
    code, out, _ = run(db, "show", entry_id, "--json")
    assert json.loads(out)["commit_kind"] == "content"
    code, out, _ = run(db, "show", entry_id)
    assert f"id {entry_id} · content hash " in out


def test_git_repository_summary_keeps_calling_its_commit_a_commit(tmp_path: Path) -> None:
    from tests.ingest.conftest import GitRepo

    repo = GitRepo(tmp_path / "proj")
    repo.write("m.py", RAISES)
    sha = repo.commit()
    _, out, _ = run(tmp_path / "db", "index", str(repo.root), "--json")
    summary = json.loads(out)
    assert (summary["commit"], summary["commit_kind"]) == (sha, "git")
    _, out, _ = run(tmp_path / "db", "index", str(repo.root))
    assert out.splitlines()[0] == f"local/proj @ {sha[:10]}"


def test_web_pages_of_a_plain_directory_say_content_hash(plain_dir: Path, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from errordex.pipeline import index
    from errordex.store.sqlite import SqliteStore
    from errordex.web.app import create_app
    from errordex.web.urls import Urls

    store = SqliteStore(tmp_path / "db")
    result = index(str(plain_dir), store, jobs=1)
    short = result.snapshot.commit[:7]
    (entry,) = store.entries()
    urls = Urls()
    with TestClient(create_app(store)) as client:
        catalog = client.get(urls.repo("local/plain")).text
        assert f"content hash <code>{short}</code>" in catalog
        assert f"commit <code>{short}" not in catalog
        page = client.get(urls.error("local/plain", entry.id)).text
        assert f'<code class="sha">@{short}</code> (content hash)' in page
        assert "content hash" in client.get(urls.home()).text
        data = client.get(urls.error_json("local/plain", entry.id)).json()
        assert data["commit_kind"] == "content"


def test_a_store_from_before_commit_kind_is_backfilled_when_opened(
    plain_dir: Path, tmp_path: Path
) -> None:
    from errordex.pipeline import index
    from errordex.store.sqlite import SqliteStore

    store = SqliteStore(tmp_path / "db")
    index(str(plain_dir), store, jobs=1)
    store.conn.execute("ALTER TABLE snapshots DROP COLUMN commit_kind")
    store.conn.execute("DELETE FROM _migrations WHERE name = 'm005_commit_kind'")
    store.close()
    reopened = SqliteStore(tmp_path / "db")
    assert reopened.current("local/plain").snapshot.commit_kind == "content"
