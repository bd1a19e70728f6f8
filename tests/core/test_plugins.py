"""Languages are plugins: found through the ``errordex.languages`` entry
points, a third party's as errordex's own, and a broken one is an error that
names it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from errordex import plugins
from errordex.errors import LanguageError
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore

FIXTURES = Path(__file__).parent.parent / "fixtures" / "languages"


def _install(into: Path, module: str, entry: str) -> None:
    """Install the fixture package ``module`` into ``into`` as a distribution
    would be: the package, and a dist-info whose entry_points.txt registers
    it in the ``errordex.languages`` group under ``entry``."""
    shutil.copytree(FIXTURES / module, into / module)
    info = into / f"{module}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[errordex.languages]\n{entry} = {module}\n")


@pytest.fixture
def site_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A directory on sys.path to install plugin distributions into; the
    languages are read again with it, and without it after the test."""
    into = tmp_path / "site"
    into.mkdir()
    monkeypatch.syspath_prepend(str(into))
    plugins.forget()
    yield into
    plugins.forget()
    for name in [m for m in sys.modules if m.startswith(("errordex_starlark", "errordex_broken"))]:
        del sys.modules[name]


def test_builtin_languages_register_through_entry_points() -> None:
    assert {"python", "rust"} <= set(plugins.languages())
    assert plugins.for_path("src/lib.rs") is plugins.get("rust")


def test_a_third_party_language_indexes_its_files(site_dir: Path, tmp_path: Path) -> None:
    _install(site_dir, "errordex_starlark", "starlark")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "rules.star").write_text(
        'def check(version):\n    if not version:\n        fail("a version is required")\n'
    )
    (repo / "lib.py").write_text('raise ValueError("bad port")\n')
    store = SqliteStore(tmp_path / "errordex.db")
    result = index(str(repo), store, name="acme/rules", jobs=1)
    entries = {e.message: e for e in store.entries(repo="acme/rules")}
    assert result.snapshot.stats.sites == 2
    star = entries["a version is required"]
    assert star.kinds == ("fail",)
    assert [(s.path, s.line, s.language) for s in star.sites] == [("rules.star", 3, "starlark")]
    assert entries["bad port"].sites[0].language == "python"


def test_a_broken_language_is_an_error_naming_it(site_dir: Path, tmp_path: Path) -> None:
    _install(site_dir, "errordex_broken", "cobol")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "lib.py").write_text('raise ValueError("bad port")\n')
    with pytest.raises(
        LanguageError, match=r"language 'cobol' \(errordex_broken\) cannot be loaded"
    ):
        index(str(repo), SqliteStore(tmp_path / "errordex.db"), name="acme/lib", jobs=1)


def test_the_cli_says_which_language_is_broken_and_why(site_dir: Path, tmp_path: Path) -> None:
    _install(site_dir, "errordex_broken", "cobol")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "lib.py").write_text('raise ValueError("bad port")\n')
    env = {**os.environ, "PYTHONPATH": str(site_dir)}
    done = subprocess.run(
        [sys.executable, "-m", "errordex.cli", "index", str(repo), "--db", str(tmp_path / "x.db")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == LanguageError.exit_code
    assert "language 'cobol' (errordex_broken) cannot be loaded" in done.stderr
    assert "No module named 'tree_sitter_cobol'" in done.stderr
    assert "Traceback" not in done.stderr
