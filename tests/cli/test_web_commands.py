"""serve and export as a user runs them: their settings and what they say."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from errordex.cli import main
from errordex.errors import EXIT_NOT_FOUND, EXIT_USAGE
from tests.web.conftest import build_store


def run(db: Path, *args: str, **env: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(
        main, [*args], env={"ERRORDEX_DB": str(db), **env}, catch_exceptions=False
    )
    return res.exit_code, res.stdout, res.stderr


def indexed(tmp_path: Path) -> Path:
    db = tmp_path / "errordex.db"
    build_store(db).close()
    return db


def test_not_found_says_where_to_look_on_the_command_line(tmp_path: Path) -> None:
    code, _, err = run(indexed(tmp_path), "show", "0123456789abcdef")
    assert code == EXIT_NOT_FOUND
    assert "no error with id '0123456789abcdef' (see `errordex list`)" in err


def test_export_without_a_base_url_says_there_is_no_sitemap(tmp_path: Path) -> None:
    code, out, err = run(indexed(tmp_path), "export", str(tmp_path / "site"))
    assert code == 0 and "wrote" in out
    assert "no sitemap.xml" in err and "--base-url" in err


def test_export_again_says_what_it_removed(tmp_path: Path) -> None:
    db = indexed(tmp_path)
    run(db, "export", str(tmp_path / "site"))
    code, out, _ = run(db, "export", str(tmp_path / "site"), "--repo", "local/thing")
    assert code == 0 and "files of the previous export" in out


def test_export_into_a_foreign_directory_is_a_usage_error(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "keep.txt").write_text("x")
    db = indexed(tmp_path)
    code, _, err = run(db, "export", str(site))
    assert code == EXIT_USAGE and "--force" in err
    code, _, _ = run(db, "export", str(site), "--force")
    assert code == 0 and (site / "keep.txt").read_text() == "x"


def test_serve_refuses_a_bad_base_or_report_url_before_listening(tmp_path: Path) -> None:
    db = indexed(tmp_path)
    code, _, err = run(db, "serve", "--port", "1", "--base-url", "errors.example.org")
    assert code == EXIT_USAGE and "--base-url 'errors.example.org'" in err
    code, _, err = run(db, "serve", "--port", "1", ERRORDEX_REPORT_URL="mailto:x@y")
    assert code == EXIT_USAGE and "--report-url 'mailto:x@y'" in err
