"""Forge links for a repository the user names: --name owner/name on a git
commit with no remote on a forge links to GitHub, or to --forge-url."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from errordex.cli import main
from errordex.errors import InputError
from errordex.forge import file_url, named_repo, parse_forge_url
from errordex.ingest import IngestOptions, open_source
from errordex.ingest.slug import repo_from_remote

from .conftest import GitRepo

RAISES = 'def f(x):\n    if x < 0:\n        raise ValueError("x must not be negative")\n'


@pytest.fixture
def no_remote(tmp_path: Path) -> GitRepo:
    """A repository as fetched without its remote (an unpacked mirror, a git init)."""
    repo = GitRepo(tmp_path / "widgets")
    repo.write("src/m.py", RAISES)
    repo.commit()
    return repo


def test_named_repository_without_origin_links_to_github_at_the_commit(
    no_remote: GitRepo,
) -> None:
    sha = no_remote.git("rev-parse", "HEAD")
    with open_source(str(no_remote.root), name="acme/widgets") as src:
        assert src.repo.url == "https://github.com/acme/widgets"
        assert src.forge_ref == sha
        assert src.file_url("src/m.py", 3) == (
            f"https://github.com/acme/widgets/blob/{sha}/src/m.py#L3"
        )


@pytest.mark.parametrize(
    ("forge_url", "link"),
    [
        ("https://codeberg.org", "https://codeberg.org/acme/widgets/src/commit/{sha}/src/m.py#L3"),
        (
            "https://gitlab.example.org/",
            "https://gitlab.example.org/acme/widgets/-/blob/{sha}/src/m.py#L3",
        ),
        (
            "https://gitea.example.org:3000",
            "https://gitea.example.org:3000/acme/widgets/src/commit/{sha}/src/m.py#L3",
        ),
    ],
)
def test_forge_url_names_another_forge(no_remote: GitRepo, forge_url: str, link: str) -> None:
    sha = no_remote.git("rev-parse", "HEAD")
    options = IngestOptions(forge_url=forge_url)
    with open_source(str(no_remote.root), name="acme/widgets", options=options) as src:
        assert src.file_url("src/m.py", 3) == link.format(sha=sha)


def test_local_names_get_no_forge_links(no_remote: GitRepo) -> None:
    with open_source(str(no_remote.root)) as src:  # local/widgets
        assert (src.repo.slug, src.repo.url, src.file_url("src/m.py", 3)) == (
            "local/widgets",
            None,
            None,
        )
    with open_source(str(no_remote.root), name="local/widgets") as src:
        assert src.file_url("src/m.py", 3) is None


def test_a_content_hash_gets_no_forge_links(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(RAISES)
    with open_source(str(tmp_path), name="acme/widgets") as src:
        assert src.commit_kind == "content"
        assert src.file_url("m.py", 3) is None
    options = IngestOptions(forge_url="https://codeberg.org")
    with pytest.raises(InputError, match="--forge-url links to a git commit"):
        open_source(str(tmp_path), name="acme/widgets", options=options)


@pytest.mark.parametrize(
    ("forge_url", "said"),
    [
        ("https://git.example.org", "which forge runs there is unknown"),
        ("https://gitlab.example.org/acme/widgets", "without a path"),
        ("gitlab.example.org", "must be an https:// address"),
    ],
)
def test_a_forge_url_links_cannot_be_made_for_is_an_input_error(forge_url: str, said: str) -> None:
    with pytest.raises(InputError, match=said):
        IngestOptions(forge_url=forge_url)


def test_cli_index_with_name_gives_linked_pages(no_remote: GitRepo, tmp_path: Path) -> None:
    db = str(tmp_path / "db")
    sha = no_remote.git("rev-parse", "HEAD")
    res = CliRunner().invoke(main, ["index", str(no_remote.root), "--name", "acme/w", "--db", db])
    assert res.exit_code == 0, res.output
    listed = json.loads(CliRunner().invoke(main, ["list", "--json", "--db", db]).stdout)
    shown = CliRunner().invoke(main, ["show", listed[0]["id"], "--json", "--db", db]).stdout
    assert json.loads(shown)["sites"][0]["url"] == (
        f"https://github.com/acme/w/blob/{sha}/src/m.py#L3"
    )
    bad = CliRunner().invoke(
        main, ["index", str(no_remote.root), "--forge-url", "ftp://x", "--db", db]
    )
    assert bad.exit_code == 2 and "--forge-url 'ftp://x' must be an https:// address" in bad.stderr


def test_origin_on_a_forge_still_decides_the_links(tmp_path: Path) -> None:
    repo = repo_from_remote("git@github.com:pallets/click.git", name="me/fork", dirname="click")
    assert repo.url == "https://github.com/pallets/click"
    # a clone of a URL on another host keeps that URL; one of this machine's does not
    kept = repo_from_remote(
        "https://git.example.org/a/b.git", name="me/b", dirname="b", keep_url=True
    )
    assert kept.url == "https://git.example.org/a/b.git"
    local = repo_from_remote("file:///srv/mirror/b.git", name="me/b", dirname="b", keep_url=True)
    assert local.url == "https://github.com/me/b"


@pytest.mark.parametrize(
    ("url", "forge", "web"),
    [
        ("https://gitlab.gnome.org/GNOME/gtk.git", "gitlab", "https://gitlab.gnome.org/GNOME/gtk"),
        ("git@gitea.example.org:o/r.git", "gitea", "https://gitea.example.org/o/r"),
        ("https://codeberg.org/o/r/src/branch/main", "gitea", "https://codeberg.org/o/r"),
    ],
)
def test_self_hosted_forges_named_by_their_host_are_known(url: str, forge: str, web: str) -> None:
    repo = parse_forge_url(url)
    assert repo is not None and (repo.forge, repo.web_url) == (forge, web)


@pytest.mark.parametrize(
    "url", ["https://gist.github.com/a/b", "https://a.github.io/b/c", "https://github.io/a/b"]
)
def test_sites_that_are_not_forges_are_not_taken_for_one(url: str) -> None:
    assert parse_forge_url(url) is None


def test_named_repo_defaults_to_github() -> None:
    assert file_url(named_repo("o/r").web_url, "abc", "a.py", 1) == (
        "https://github.com/o/r/blob/abc/a.py#L1"
    )
