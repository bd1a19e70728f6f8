"""Pages of Go entries, indexed from Debian's google/uuid: every section,
grounded (``verify`` finds nothing ungrounded), and Go's forms on the page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from errordex.cli import main
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.analysis.conftest import PAGE_SECTIONS as SECTIONS

UUID = Path("/usr/share/gocode/src/github.com/google/uuid")
YAML = Path("/usr/share/gocode/src/gopkg.in/yaml.v3")

pytestmark = pytest.mark.skipif(
    not UUID.is_dir() or not YAML.is_dir(),
    reason="needs Debian's golang-github-google-uuid-dev and golang-gopkg-yaml.v3-dev",
)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("uuid") / "db.sqlite"
    store = SqliteStore(path)
    index(str(UUID), store, name="google/uuid", jobs=1)
    index(str(YAML), store, name="go-yaml/yaml", jobs=1)
    store.close()
    return str(path)


def cli(db: str, *args: str) -> tuple[int, Any]:
    res = CliRunner().invoke(main, [*args, "--json"], env={"ERRORDEX_DB": db})
    return res.exit_code, json.loads(res.stdout)


def page(db: str, message: str, repo: str = "google/uuid") -> dict[str, Any]:
    code, entries = cli(db, "list", "--repo", repo)
    assert code == 0
    eid = next(e["id"] for e in entries if e["message"] == message)
    code, data = cli(db, "show", eid)
    assert code == 0
    return dict(data)


def test_go_error_type_page_has_every_section(db: str) -> None:
    data = page(db, "invalid UUID length: %d")
    sections = data["analysis"]
    assert [k for k in SECTIONS if not sections.get(k)] == []
    summary = sections["summary"]["text"]
    assert summary.startswith("You called `uuid.Parse(s)` (`uuid.go`), and it returns the error")
    fix = sections["example_fix"]
    assert 'Parse("12345")' in fix["before"]["code"]
    # the "after" is the same call as another test of the repo makes it, with a valid UUID
    after = fix["after"]["code"].splitlines()[1]
    assert after.startswith('Parse("') and len(after.split('"')[1]) == 36, after
    assert "uuid.TestWrongLength" in [r["test"] for r in sections["reproductions"]]
    assert sections["meaning"]["text"].startswith(
        "The error type `invalidLengthError` is defined at uuid.go:50. 2 places outside tests"
        " build it."
    )


def test_go_sites_of_an_error_type_are_its_returns_and_its_error_method(db: str) -> None:
    data = page(db, "invalid UUID length: %d")
    got = [(s["path"], s["line"], s["kind"]) for s in data["sites"]]
    assert got == [
        ("uuid.go", 92, "return"),
        ("uuid.go", 136, "return"),
        ("uuid.go", 50, "error-method"),
    ]


@pytest.mark.parametrize("repo", ["google/uuid", "go-yaml/yaml"])
def test_verify_finds_nothing_ungrounded_on_an_indexed_go_package(db: str, repo: str) -> None:
    code, report = cli(db, "verify", "--repo", repo)
    assert code == 0, report
    [one] = report["repos"]
    assert one["entries"] >= 9 and one["checked"]["identifiers"] > 100
    assert one["ungrounded"] == 0, one["problems"]


def test_go_sites_belong_to_the_module_their_go_mod_names(db: str) -> None:
    data = page(db, "invalid UUID length: %d")
    assert {s["package"] for s in data["sites"]} == {"github.com/google/uuid"}
    invariant = page(
        db,
        "internal error: attempted to parse unknown event (please report): {p.event.typ.String()}",
        "go-yaml/yaml",
    )
    meaning = invariant["analysis"]["meaning"]["text"]
    assert "an internal invariant of `gopkg.in/yaml.v3` that broke" in meaning


def test_a_site_in_a_file_with_a_build_constraint_says_where_it_exists(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "go.mod").write_text("module example.com/term\n\ngo 1.19\n")
    (repo / "term_windows.go").write_text(
        '//go:build windows && !cgo\n\npackage term\n\nimport "errors"\n\n'
        "// Size reports the console size; it returns an error if it has none.\n"
        "func Size(fd int) (int, error) {\n"
        "\tif fd < 0 {\n"
        '\t\treturn 0, errors.New("term: no console on this handle")\n'
        "\t}\n"
        "\treturn 80, nil\n"
        "}\n"
    )
    db = str(tmp_path / "db.sqlite")
    store = SqliteStore(Path(db))
    index(str(repo), store, name="acme/term", jobs=1)
    store.close()
    data = page(db, "term: no console on this handle", "acme/term")
    [site] = data["sites"]
    assert site["guards"][0] == {"kind": "cfg", "text": "windows && !cgo", "line": 1}
    meaning = data["analysis"]["meaning"]
    assert (
        "term_windows.go is compiled only when its build constraint `windows && !cgo`"
        in (meaning["text"])
    )
    assert "term_windows.go:1" in meaning["evidence"]
    # a doc comment has no `# Errors` section: it is quoted as a doc comment
    assert (
        "The doc comment of `term.Size` says: “Size reports the console size; it returns an"
        " error if it has none”." in meaning["text"]
    )
    assert data["analysis"]["prevention"]["items"] == [
        "Read the doc comment of `term.Size` (term_windows.go:7)."
    ]
    summary = data["analysis"]["summary"]["text"]
    assert summary.startswith("You called `term.Size(fd)`")
    code, report = cli(db, "verify", "--repo", "acme/term")
    assert code == 0 and report["repos"][0]["ungrounded"] == 0, report
