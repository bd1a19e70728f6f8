"""Reading a crawl file: every bad line reported with its number, never a
traceback, and nothing enqueued then (no broker is needed to find out)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from errordex.errors import CrawlFileError, InputError
from errordex.queue.crawlfile import parse
from errordex.queue.jobs import IndexJob
from tests.queue.conftest import ERRORDEX, free_port


def test_sources_revisions_names_and_comments_are_read(tmp_path: Path) -> None:
    text = """
# packages
pkg:click
pkg:six   # trailing comment

https://github.com/pallets/click.git@8.1.7
git@github.com:tokio-rs/bytes.git
git@github.com:tokio-rs/bytes.git@v1.5.0
/usr/share/cargo/registry/bytes-1.2.1 --name tokio-rs/bytes
checkouts/burn@main
pkg:click
"""
    assert parse(text, "list.txt", tmp_path) == [
        IndexJob("pkg:click"),
        IndexJob("pkg:six"),
        IndexJob("https://github.com/pallets/click.git", rev="8.1.7"),
        IndexJob("git@github.com:tokio-rs/bytes.git"),
        IndexJob("git@github.com:tokio-rs/bytes.git", rev="v1.5.0"),
        IndexJob("/usr/share/cargo/registry/bytes-1.2.1", name="tokio-rs/bytes"),
        IndexJob(str(tmp_path / "checkouts/burn"), rev="main"),
    ]


def test_every_bad_line_is_reported_with_its_number(tmp_path: Path) -> None:
    text = "pkg:six\nftp://example.org/x\npkg:click@8.1\n\nsome dir with spaces\nrepo@\npkg:\n"
    with pytest.raises(CrawlFileError) as caught:
        parse(text, "list.txt", tmp_path)
    assert [n for n, _ in caught.value.problems] == [2, 3, 5, 6, 7]
    message = str(caught.value)
    assert message.startswith("list.txt: 5 bad lines, nothing was enqueued:")
    assert "line 2: 'ftp://example.org/x' is a URL git cannot clone" in message
    assert "line 3: 'pkg:click@8.1': an installed package has no revision" in message


def test_a_file_that_names_no_source_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="names no source"):
        parse("# nothing here\n\n", "list.txt", tmp_path)


def test_crawl_with_bad_lines_exits_2_without_a_traceback(tmp_path: Path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text("pkg:six\npkg:a b c\n")
    done = subprocess.run(
        [ERRORDEX, "crawl", str(listing), "--db", str(tmp_path / "s.db")],
        # no broker listens here: the file is refused before the broker is asked
        env={"ERRORDEX_BROKER": f"redis://127.0.0.1:{free_port()}/0", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "line 2: expected one source" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "s.db").exists()
