"""Real code nobody here wrote: Debian's packaged crates and an installed PyPI
package. Every stored analysis must verify with nothing ungrounded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from errordex.cli import main

REGISTRY = Path("/usr/share/cargo/registry")
CRATES = ["semver-1.0.14", "regex-1.7.1", "log-0.4.17", "clap-4.0.32"]

pytestmark = [pytest.mark.corpus, pytest.mark.slow]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("corpus") / "errordex.db")
    runner = CliRunner()
    for crate in CRATES:
        if not (REGISTRY / crate).is_dir():
            pytest.skip(f"{crate} is not installed (apt install librust-*-dev)")
        r = runner.invoke(
            main,
            ["index", str(REGISTRY / crate), "--name", f"debian/{crate}", "--db", path, "-j", "1"],
        )
        assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["index", "pkg:click", "--db", path, "-j", "1"])
    assert r.exit_code == 0, r.output
    return path


def test_verify_real_corpora_reports_zero_ungrounded(db: str) -> None:
    result = CliRunner().invoke(main, ["verify", "--json", "--db", db])
    report = json.loads(result.output)
    assert {r["repo"]: r["problems"] for r in report["repos"]} == {
        r["repo"]: [] for r in report["repos"]
    }
    assert result.exit_code == 0
    assert sum(r["entries"] for r in report["repos"]) > 100


def test_log_kv_stub_page_gives_the_cargo_line(db: str) -> None:
    result = CliRunner().invoke(main, ["list", "--repo", "debian/log-0.4.17", "--json", "--db", db])
    entries = json.loads(result.output)
    entry = next(e for e in entries if "kv_unstable" in e["message"])
    shown = json.loads(CliRunner().invoke(main, ["show", entry["id"], "--json", "--db", db]).output)
    (feature,) = [f for f in shown["facts"]["features"] if f["feature"] == "kv_unstable"]
    assert (
        feature["negated"]
        and feature["dependency_line"] == 'log = { version = "0.4", features = ["kv_unstable"] }'
    )


def test_semver_display_messages_are_reproduced_by_its_tests(db: str) -> None:
    result = CliRunner().invoke(
        main, ["list", "--repo", "debian/semver-1.0.14", "--json", "--db", db]
    )
    entries = json.loads(result.output)
    entry = next(
        e for e in entries if e["message"].startswith("unexpected end of input while parsing")
    )
    shown = json.loads(CliRunner().invoke(main, ["show", entry["id"], "--json", "--db", db]).output)
    tests = shown["facts"]["tests"]
    assert tests and all(t["path"].startswith("tests/") for t in tests)
    assert shown["analysis"]["reproductions"][0]["code"].startswith("let err = ")
