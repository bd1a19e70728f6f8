"""Indexing an installed Python distribution: pkg:NAME."""

from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from errordex.errors import InputError, SourceError, SourceNotFound
from errordex.ingest import IngestOptions, PackageSource, SourceFile, open_source
from errordex.model import Skip


def test_pkg_click_has_its_version_and_github_slug() -> None:
    src = open_source("pkg:click")
    assert isinstance(src, PackageSource)
    assert src.kind == "package"
    assert src.version_label == importlib.metadata.version("click")
    assert src.repo.slug == "pallets/click"
    assert src.repo.url == "https://github.com/pallets/click"
    assert src.forge_ref is None  # installed paths are not the repo's layout
    assert len(src.commit) == 40
    assert src.commit == open_source("pkg:click").commit


def test_pkg_files_are_the_package_own_files() -> None:
    src = open_source("pkg:click")
    items = list(src.files())
    paths = [i.path for i in items]
    assert "click/core.py" in paths
    assert paths == sorted(paths)
    assert not any(".dist-info" in p or "__pycache__" in p or p.startswith("..") for p in paths)
    core = next(i for i in items if i.path == "click/core.py")
    assert isinstance(core, SourceFile)
    assert b"class Context" in core.data
    assert src.read("click/core.py") == core.data
    assert src.read("click-8.0.dist-info/METADATA") is None


def test_pkg_honours_wanted() -> None:
    src = open_source("pkg:click", options=IngestOptions(wanted=lambda p: p.endswith(".typed")))
    assert [i.path for i in src.files()] == ["click/py.typed"]


def test_unknown_package_is_source_not_found() -> None:
    with pytest.raises(
        SourceNotFound, match=r"^no installed Python distribution named no-such-pkg-xyz in "
    ):
        open_source("pkg:no-such-pkg-xyz")


def test_rev_with_package_is_refused() -> None:
    with pytest.raises(InputError, match=r"--rev does not apply"):
        open_source("pkg:click", rev="v1")


def test_name_overrides_package_slug() -> None:
    assert open_source("pkg:click", name="me/click").repo.slug == "me/click"


def test_pip_bundled_projects_are_one_vendored_skip_each() -> None:
    # pip (in every virtualenv) bundles requests, urllib3, rich... under pip/_vendor.
    items = list(open_source("pkg:pip").files())
    skips = {i.path: i.reason for i in items if isinstance(i, Skip)}
    assert skips.get("pip/_vendor") == "vendored directory"
    read = [i.path for i in items if not isinstance(i, Skip)]
    assert read and not any(p.startswith("pip/_vendor/") for p in read)
    assert "pip/_internal/main.py" in read


# -- a distribution installed by hand into a site-packages of our own ----------


def open_package_source(spec: str, options: IngestOptions) -> PackageSource:
    src = open_source(spec, options=options)
    assert isinstance(src, PackageSource)
    return src


RAISING = 'def f():\n    raise ValueError("fake says no")\n'


def install_fake(site: Path, record: list[str], name: str = "fakedist") -> None:
    """A distribution ``name`` (package ``fakepkg``) in ``site``, with the
    RECORD given (as an installer would write it, without hashes)."""
    (site / "fakepkg").mkdir(parents=True)
    (site / "fakepkg" / "__init__.py").write_text(RAISING)
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"  # as installers escape it
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    lines = [*record, f"{info.name}/METADATA,,", f"{info.name}/RECORD,,"]
    (info / "RECORD").write_text("".join(f"{r},,\n" if "," not in r else f"{r}\n" for r in lines))


@pytest.fixture
def hostile_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A site-packages on sys.path whose distribution's RECORD names files
    outside it: an absolute path, ``..`` paths, a symlinked directory."""
    secrets = tmp_path / "secrets"
    secrets.mkdir()
    (secrets / "secret.py").write_text('raise KeyError("secret outside")\n')
    site = tmp_path / "lib" / "site-packages"
    site.mkdir(parents=True)
    (tmp_path / "lib" / "up.py").write_text('raise KeyError("up outside")\n')
    install_fake(
        site,
        [
            "fakepkg/__init__.py",
            str(secrets / "secret.py"),
            "../up.py",
            "fakepkg/../../up.py",
            "fakepkg/link/secret.py",
            "../../../bin/fake-script",  # a console script: outside too, and not wanted
        ],
    )
    (site / "fakepkg" / "link").symlink_to(secrets, target_is_directory=True)
    monkeypatch.syspath_prepend(str(site))
    return site


def test_pkg_record_paths_outside_site_packages_are_skipped_not_read(
    hostile_site: Path, tmp_path: Path
) -> None:
    options = IngestOptions(wanted=lambda p: p.endswith(".py"))
    src = open_package_source("pkg:fakedist", options)
    items = list(src.files())
    read = {i.path: i.data for i in items if isinstance(i, SourceFile)}
    skips = {i.path: i.reason for i in items if isinstance(i, Skip)}
    assert read == {"fakepkg/__init__.py": RAISING.encode()}
    assert skips == {
        str(tmp_path / "secrets" / "secret.py"): "outside site-packages",
        "../up.py": "outside site-packages",
        "fakepkg/../../up.py": "outside site-packages",
        "fakepkg/link/secret.py": "outside site-packages (through a symlink)",
    }
    assert [i.path for i in items] == sorted(i.path for i in items)
    for path in skips:
        assert src.read(path) is None
    assert src.paths == ["fakepkg/__init__.py"]


def test_pkg_index_of_a_hostile_record_counts_the_outside_files_as_skipped(
    hostile_site: Path, tmp_path: Path
) -> None:
    from errordex.pipeline import index
    from errordex.store.sqlite import SqliteStore

    store = SqliteStore(tmp_path / "db.sqlite")
    result = index("pkg:fakedist", store, jobs=1)
    st = result.snapshot.stats
    assert (st.files_seen, st.files_parsed, st.files_skipped) == (5, 1, 4)
    messages = [e.message for e in store.entries()]
    assert messages == ["fake says no"]
    assert store.file_text(result.snapshot_id, "fakepkg/link/secret.py") is None


@pytest.fixture(scope="module")
def second_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real virtualenv besides errordex's (no pip: nothing is downloaded),
    with a distribution only it has."""
    venv = tmp_path_factory.mktemp("other") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    install_fake(Path(site), ["fakepkg/__init__.py"], name="only-in-other-venv")
    return python


def test_pkg_missing_here_says_where_it_looked_and_how_to_look_elsewhere(
    second_venv: Path,
) -> None:
    with pytest.raises(SourceNotFound) as info:
        open_source("pkg:only-in-other-venv")
    said = str(info.value)
    assert said.startswith("no installed Python distribution named only-in-other-venv in")
    assert sys.executable in said
    assert "site-packages" in said
    assert said.endswith("give --python PATH (its interpreter) or --site-packages DIR")


def test_pkg_is_found_in_the_environment_of_another_python(second_venv: Path) -> None:
    src = open_package_source("pkg:only-in-other-venv", IngestOptions(python=second_venv))
    assert src.version_label == "1.0"
    assert [i.path for i in src.files()] == ["fakepkg/__init__.py"]
    assert str(src.base).startswith(str(second_venv.parent.parent))
    # and errordex's own packages are not in that environment
    with pytest.raises(SourceNotFound, match=f"for {second_venv} \\(looked in .*site-packages"):
        open_source("pkg:click", options=IngestOptions(python=second_venv))


def test_pkg_is_found_in_a_named_site_packages(second_venv: Path) -> None:
    site = next((second_venv.parent.parent / "lib").glob("python*/site-packages"))
    src = open_package_source("pkg:only-in-other-venv", IngestOptions(site_packages=(site,)))
    assert src.paths == ["fakepkg/__init__.py"]


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (IngestOptions(python=Path("/no/such/python")), "--python /no/such/python: no such"),
        (IngestOptions(python=Path("/bin/true")), "--python /bin/true did not report its sys.path"),
        (IngestOptions(site_packages=(Path("/no/such/dir"),)), "--site-packages /no/such/dir"),
    ],
)
def test_pkg_bad_environment_options_say_so(options: IngestOptions, said: str) -> None:
    with pytest.raises(SourceError, match=f"^{re.escape(said)}"):
        open_source("pkg:click", options=options)


def test_environment_options_on_a_directory_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="apply to pkg:NAME only"):
        open_source(str(tmp_path), options=IngestOptions(python=Path(sys.executable)))


def test_cli_index_python_option_reads_the_other_environment(
    second_venv: Path, tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from errordex.cli import main

    db = str(tmp_path / "db.sqlite")
    args = ["index", "pkg:only-in-other-venv", "--db", db, "-j", "1", "--json"]
    missing = CliRunner().invoke(main, args)
    assert missing.exit_code == 3 and "--python PATH" in missing.output
    found = CliRunner().invoke(main, [*args, "--python", str(second_venv)])
    assert found.exit_code == 0, found.output
    assert json.loads(found.output)["version_label"] == "1.0"
