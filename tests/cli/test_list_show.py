"""`list` and `show` over several repositories: which repository each entry is
in, and entries named by a short id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from errordex.cli import main
from errordex.errors import EXIT_NOT_FOUND, EXIT_USAGE
from tests.cli.test_cli import git


def make_repo(root: Path, name: str, messages: list[str]) -> Path:
    r = root / name
    r.mkdir()
    git(r, "init", "-q", "-b", "main")
    body = "".join(
        f"def f{i}(x):\n    if x:\n        raise ValueError({m!r})\n"
        for i, m in enumerate(messages)
    )
    (r / "mod.py").write_text(body)
    git(r, "add", ".")
    git(r, "commit", "-qm", "v1")
    return r


def run(db: str, *args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, [*args, "--db", db])
    return res.exit_code, res.stdout, res.stderr


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "errordex.db")
    for slug, messages in (
        ("acme/alpha", ["alpha is broken"]),
        # two messages whose ids both start with 56cb
        ("acme/beta", ["beta is broken", "beta failure 63", "beta failure 154"]),
    ):
        repo = make_repo(tmp_path, slug.split("/")[1], messages)
        assert run(path, "index", str(repo), "--name", slug)[0] == 0
    return path


def ids(db: str) -> dict[str, str]:
    """message -> id of every entry."""
    return {e["message"]: e["id"] for e in json.loads(run(db, "list", "--json")[1])}


def test_list_of_several_repositories_has_a_repository_column(db: str) -> None:
    code, out, _ = run(db, "list")
    assert code == 0
    assert out.splitlines()[0].split()[:3] == ["id", "repo", "sites"]
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines()[1:] if line[:1] != " "}
    entry_ids = ids(db)
    assert rows[entry_ids["alpha is broken"]] == "acme/alpha"
    assert rows[entry_ids["beta failure 63"]] == "acme/beta"


def test_list_of_one_repository_has_no_repository_column(db: str) -> None:
    _, out, _ = run(db, "list", "--repo", "acme/beta")
    assert out.splitlines()[0].split()[:2] == ["id", "sites"]


def test_show_takes_a_unique_id_prefix_of_four_or_more_digits(db: str) -> None:
    full = ids(db)["alpha is broken"]
    code, whole, _ = run(db, "show", full)
    assert code == 0
    for short in (full[:4], full[:9], full[:4].upper()):
        assert run(db, "show", short) == (0, whole, "")
    code, out, _ = run(db, "show", full[:4], "--json")
    assert code == 0 and json.loads(out)["id"] == full


def test_an_ambiguous_id_prefix_is_a_usage_error_naming_the_candidates(db: str) -> None:
    one, two = ids(db)["beta failure 63"], ids(db)["beta failure 154"]
    assert one[:4] == two[:4] == "56cb"
    code, out, err = run(db, "show", "56cb")
    assert (code, out) == (EXIT_USAGE, "")
    assert f"'56cb' starts 2 ids: {min(one, two)} (acme/beta), {max(one, two)} (acme/beta)" in err
    # a longer prefix tells them apart
    n = next(i for i in range(4, 16) if one[i] != two[i]) + 1
    assert run(db, "show", one[:n], "--json")[0] == 0


def test_a_prefix_that_starts_no_id_or_is_too_short_is_not_found(db: str) -> None:
    taken = {i[:3] for i in ids(db).values()}
    free = next(f"{n:03x}" for n in range(4096) if f"{n:03x}" not in taken)
    code, _, err = run(db, "show", free + "0")
    assert code == EXIT_NOT_FOUND and "no error with an id starting with" in err
    full = ids(db)["alpha is broken"]
    code, _, err = run(db, "show", full[:3])  # three digits are too few
    assert code == EXIT_NOT_FOUND and f"no error with id {full[:3]!r}" in err
