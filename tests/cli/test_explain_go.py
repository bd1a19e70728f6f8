"""Real Go output, pasted: a small program written here calls Debian's
google/uuid and spf13/pflag wrongly, runs with ``go run`` (GOPATH mode over
/usr/share/gocode, offline), and what it printed leads to the right page,
through the library (``explain_text``) and the CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from errordex.cli import main
from errordex.explain import explain_text
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore

GOCODE = Path("/usr/share/gocode/src")
UUID = GOCODE / "github.com/google/uuid"
PFLAG = GOCODE / "github.com/spf13/pflag"

pytestmark = pytest.mark.skipif(
    shutil.which("go") is None or not UUID.is_dir() or not PFLAG.is_dir(),
    reason="needs Debian's golang-go, golang-github-google-uuid-dev and golang-github-spf13-pflag-dev",
)

PROGRAM = """package main

import (
\t"fmt"
\t"log"
\t"os"

\t"github.com/google/uuid"
\t"github.com/spf13/pflag"
)

func main() {
\tif len(os.Args) > 1 && os.Args[1] == "int" {
\t\tfs := pflag.NewFlagSet("demo", pflag.ContinueOnError)
\t\tfs.Int("n", 1, "a number")
\t\tif err := fs.Parse([]string{"--n=x"}); err != nil {
\t\t\tlog.Fatal(err)
\t\t}
\t}
\tif len(os.Args) > 1 {
\t\tfs := pflag.NewFlagSet("demo", pflag.ContinueOnError)
\t\tfs.SetOutput(os.Stdout)
\t\tif err := fs.Parse([]string{"--nope"}); err != nil {
\t\t\tfmt.Fprintln(os.Stderr, "error:", err)
\t\t\tos.Exit(1)
\t\t}
\t}
\tuuid.MustParse("nope")
}
"""


def go_run(tmp: Path, *args: str) -> str:
    """What ``go run main.go ARGS`` printed on stderr (it fails: that is the point)."""
    (tmp / "main.go").write_text(PROGRAM)
    env = {
        **os.environ,
        "GO111MODULE": "off",  # GOPATH mode: the imports are Debian's sources
        "GOPATH": str(GOCODE.parent),
        "GOCACHE": str(tmp / "cache"),
        "GOPROXY": "off",
        "GOFLAGS": "",
        "HOME": str(tmp),
    }
    done = subprocess.run(
        ["go", "run", "main.go", *args], cwd=tmp, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode != 0, done.stdout
    return done.stderr


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("go") / "db.sqlite"
    store = SqliteStore(path)
    index(str(UUID), store, name="google/uuid", jobs=1)
    index(str(PFLAG), store, name="spf13/pflag", jobs=1)
    store.close()
    return path


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("prog")


@pytest.fixture(scope="module")
def panicked(work: Path) -> str:
    """What the program printed when uuid.MustParse panicked (run once)."""
    return go_run(work)


@pytest.fixture(scope="module")
def logged(work: Path) -> str:
    """What it printed when log.Fatal printed the error pflag wrapped around strconv's."""
    return go_run(work, "int")


@pytest.fixture(scope="module")
def printed(work: Path) -> str:
    """What it printed when pflag's Parse returned an error it printed."""
    return go_run(work, "flag")


def test_a_real_go_panic_leads_to_the_wrapped_library_error_page(db: Path, panicked: str) -> None:
    text = panicked
    assert text.startswith("panic: uuid: Parse(nope): invalid UUID length: 4\n")
    assert "goroutine 1 [running]:" in text
    store = SqliteStore(db)
    parts = explain_text(store, text)["parts"]
    lead = parts[0]
    # the innermost part uuid throws leads: its type's Error() message
    assert (lead["message"], lead["relation"]) == ("invalid UUID length: 4", "wrapped")
    assert lead["answer"]["kind"] == "entry"
    best = lead["matches"][0]
    assert (best["repo"], best["message"]) == ("google/uuid", "invalid UUID length: %d")
    assert best["values"] == {"err.len": "4"}
    # the whole panic is MustParse's own, at the frame the trace names
    whole = next(p for p in parts if p["relation"] is None)
    assert whole["matches"][0]["message"] == "uuid: Parse({s}): {err.Error()}"
    site = whole["matches"][0]["site"]
    assert (site["path"], site["line"]) == ("uuid.go", 163)
    assert whole["frames"][0]["function"] == "github.com/google/uuid.MustParse"


def test_a_real_go_panic_through_the_cli(db: Path, panicked: str) -> None:
    text = panicked
    res = CliRunner().invoke(
        main, ["explain", "-"], input=text, env={"ERRORDEX_DB": str(db), "COLUMNS": "200"}
    )
    assert res.exit_code == 0
    out = res.stdout
    # the middle part (`Parse(nope): invalid UUID length: 4`) answers the same: not repeated
    assert out.startswith("error 1 of 2 (wrapped): invalid UUID length: 4\n")
    assert "error 2 of 2: uuid: Parse(nope): invalid UUID length: 4\n" in out
    assert "google/uuid · invalidLengthError\ninvalid UUID length: %d\n" in out
    assert "Thrown at uuid.go:163 in uuid.MustParse  (panic)  ← your error" in out


def test_a_real_printed_go_error_leads_to_the_pflag_page(db: Path, printed: str) -> None:
    text = printed
    assert "error: unknown flag: --nope\n" in text and "exit status 1" in text
    res = CliRunner().invoke(
        main, ["explain", "--json", "-"], input=text, env={"ERRORDEX_DB": str(db)}
    )
    assert res.exit_code == 0
    parts = json.loads(res.stdout)["parts"]
    hit = next(p for p in parts if p["answer"] is not None)
    assert hit["message"] == "unknown flag: --nope"
    best = hit["matches"][0]
    assert (best["repo"], best["message"]) == ("spf13/pflag", "unknown flag: --%s")
    assert best["values"] == {"name": "nope"}
    # thrown through the file's helper that hands its format to fmt.Errorf
    site = best["sites"][0]
    assert (site["path"], site["kind"], site["via"]) == (
        "flag.go",
        "fmt.Errorf",
        "flag.go:917 pflag.FlagSet.failf",
    )


def test_a_real_go_panic_pasted_on_the_site_goes_to_the_wrapped_library_error(
    db: Path, panicked: str
) -> None:
    """The web paste box goes straight to one page: the innermost wrapped part
    an entry answers (uuid's invalidLengthError), not MustParse's wrapping panic."""
    from fastapi.testclient import TestClient

    from errordex.web.app import create_app

    text = panicked
    with TestClient(create_app(SqliteStore(db))) as c:
        r = c.post("/explain", data={"q": text}, follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"].startswith("/google/uuid/errors/7e9a6907702aceb3")


def test_a_real_log_fatal_chain_leads_to_the_library_that_wrapped_it(db: Path, logged: str) -> None:
    """``invalid argument "x" for "--n" flag: strconv.ParseInt: parsing "x":
    invalid syntax``: the inner parts are the standard library's (not
    indexed), so pflag's own message, with strconv's error as its ``%v``, leads."""
    line = logged.splitlines()[0]
    assert line.endswith(
        ' invalid argument "x" for "--n" flag: strconv.ParseInt: parsing "x": invalid syntax'
    )
    parts = explain_text(SqliteStore(db), logged)["parts"]
    assert [(p["message"], p["relation"]) for p in parts[:3]] == [
        ("invalid syntax", "wrapped"),
        ('parsing "x": invalid syntax', "wrapped"),
        ('strconv.ParseInt: parsing "x": invalid syntax', "wrapped"),
    ]
    assert [p["answer"] for p in parts[:3]] == [None, None, None]
    whole = parts[-1]
    assert whole["kind"] == "log" and whole["answer"]["kind"] == "entry"
    best = whole["matches"][0]
    assert (best["repo"], best["message"]) == ("spf13/pflag", "invalid argument %q for %q flag: %v")
    assert best["values"]["err"] == 'strconv.ParseInt: parsing "x": invalid syntax'
    res = CliRunner().invoke(
        main, ["explain", "-"], input=logged, env={"ERRORDEX_DB": str(db), "COLUMNS": "200"}
    )
    assert res.exit_code == 0
    # the wrapped parts nothing answers are not shown: one error, pflag's page
    assert res.stdout.startswith('error: invalid argument "x" for "--n" flag: strconv.ParseInt')
    assert "spf13/pflag · fmt.Errorf\ninvalid argument %q for %q flag: %v\n" in res.stdout
