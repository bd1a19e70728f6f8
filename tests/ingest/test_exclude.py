"""--exclude: gitignore-style patterns (checked against git itself), and each
source kind leaving an excluded directory unread, as one skip."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from errordex.errors import InputError
from errordex.ingest import IngestOptions, Source, SourceFile, open_source
from errordex.ingest.directory import DirectorySource
from errordex.ingest.filters import Exclude, excluded, parse_excludes, skipped_prefix
from errordex.pipeline import wanted

from .conftest import GIT_ENV, GitRepo


def write(root: Path, path: str, data: str = "x = 1\n") -> None:
    full = root / path
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_text(data)


def listing(src: Source) -> dict[str, str]:
    return {
        item.path: "file" if isinstance(item, SourceFile) else item.reason for item in src.files()
    }


# -- the patterns --------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "path", "is_dir", "hit"),
    [
        # no slash but a trailing one: a directory of that name at any depth
        ("test/", "test", True, True),
        ("test/", "lib/test", True, True),
        ("test/", "test", False, False),  # a file named test
        ("test/", "tests", True, False),
        # no slash at all: a file or directory of that name at any depth
        ("test", "lib/test", False, True),
        ("test", "lib/test", True, True),
        ("*_pb2.py", "api_pb2.py", False, True),
        ("*_pb2.py", "gen/deep/api_pb2.py", False, True),
        ("*_pb2.py", "api_pb2.pyi", False, False),
        # a leading or inner slash anchors at the root
        ("/build", "build", True, True),
        ("/build", "build", False, True),
        ("/build", "src/build", True, False),
        ("/test/", "test", True, True),
        ("/test/", "ctypes/test", True, False),
        ("docs/api", "docs/api", True, True),
        ("docs/api", "src/docs/api", True, False),
        # "*" and "?" stop at a slash
        ("lib/*.py", "lib/a.py", False, True),
        ("lib/*.py", "lib/sub/a.py", False, False),
        ("t?st.py", "a/tast.py", False, True),
        ("t?st.py", "t/st.py", False, False),
        # "**": any number of directories; "x/**" is the directory x
        ("**/c", "c", True, True),
        ("**/c", "a/b/c", False, True),
        ("a/**/c", "a/c", True, True),
        ("a/**/c", "a/x/y/c", True, True),
        ("a/**/c", "b/a/c", True, False),
        ("docs/**", "docs", True, True),
        ("docs/**", "docs", False, False),
        ("docs/**", "src/docs", True, False),
        # character classes, escapes, literal dots
        ("[tb]est/", "best", True, True),
        ("[!t]est", "best", False, True),
        ("[!t]est", "test", False, False),
        ("*.py", "a.pyx", False, False),
        ("a.py", "aapy", False, False),
        (r"\*.py", "*.py", False, True),
        (r"\*.py", "a.py", False, False),
    ],
)
def test_exclude_pattern_semantics(pattern: str, path: str, is_dir: bool, hit: bool) -> None:
    assert Exclude.parse(pattern).matches(path, is_dir=is_dir) is hit


@pytest.mark.parametrize(
    "pattern", ["", "  ", "/", "!", "!../up", "../up", "./build", "a//b", "/**", "[z-a]"]
)
def test_meaningless_exclude_pattern_is_an_input_error(pattern: str) -> None:
    with pytest.raises(InputError, match=r"^--exclude "):
        IngestOptions(exclude=(pattern,))


def test_exclude_reason_names_the_pattern() -> None:
    assert excluded("a/test", True, parse_excludes(["x/", "test/"])) == (
        "excluded by --exclude test/"
    )
    assert excluded("a/test.py", False, parse_excludes(["test/"])) is None


def test_skipped_prefix_is_the_shallowest_directory() -> None:
    ex = parse_excludes(["test/"])
    assert skipped_prefix("test/sub/test/t.py", ex) == ("test", "excluded by --exclude test/")
    assert skipped_prefix("a/vendor/test/t.py", ex) == ("a/vendor", "vendored directory")
    assert skipped_prefix("a/vendor/x.py", parse_excludes(["vendor/"])) == (
        "a/vendor",
        "excluded by --exclude vendor/",
    )
    assert skipped_prefix("a/test", ex) is None  # a file named test
    assert skipped_prefix("a/test", ex, is_dir=True) == ("a/test", "excluded by --exclude test/")


GIT_ORACLE_FILES = [
    "test/a.py",
    "lib/test/b.py",
    "lib/tests/c.py",
    "lib/test.py",
    "docs/x.md",
    "docs/api/y.md",
    "src/docs/z.md",
    "gen/api_pb2.py",
    "api_pb2.py",
    "build/out.py",
    "src/build/keep.py",
    "src/build.py",
    "a/c/d.py",
    "a/x/y/c/e.py",
    "b/a/c/f.py",
    "best/g.py",
    "t/st.py",
]
GIT_ORACLE_PATTERNS = [
    "test/",
    "test",
    "/test/",
    "docs/**",
    "docs/api",
    "*_pb2.py",
    "/build",
    "build/",
    "build",
    "a/**/c/",
    "**/c",
    "lib/*.py",
    "lib/*/b.py",
    "t?st.py",
    "[tb]est/",
    "*.md",
    "src/",
    "**/api/**",
]


def git_ignored(tmp_path: Path, patterns: list[str]) -> tuple[Path, set[str]]:
    """The oracle: a tree of GIT_ORACLE_FILES, and which of them
    ``git check-ignore`` says ``patterns`` leave out."""
    tree = tmp_path / "tree"
    for path in GIT_ORACLE_FILES:
        write(tree, path)
    ignore_file = tmp_path / "exclude"
    ignore_file.write_text("".join(p + "\n" for p in patterns))
    subprocess.run(["git", "init", "--quiet", "--bare", str(tmp_path / "g")], check=True)
    out = subprocess.run(
        [
            "git",
            f"--git-dir={tmp_path / 'g'}",
            f"--work-tree={tree}",
            "-c",
            f"core.excludesFile={ignore_file}",
            "check-ignore",
            "--no-index",
            "-z",
            "--stdin",
        ],
        input="\0".join(GIT_ORACLE_FILES).encode(),
        capture_output=True,
        env={**os.environ, **GIT_ENV},
        check=False,
    ).stdout
    by_git = {p for p in out.decode().split("\0") if p}
    return tree, by_git


@pytest.mark.parametrize("pattern", GIT_ORACLE_PATTERNS)
def test_exclude_leaves_out_the_files_git_would_ignore(tmp_path: Path, pattern: str) -> None:
    tree, by_git = git_ignored(tmp_path, [pattern])
    ex = parse_excludes([pattern])
    ours = {p for p in GIT_ORACLE_FILES if skipped_prefix(p, ex) is not None}
    assert ours == by_git
    # and the walk, which matches directories as it enters them, agrees
    walked = listing(open_source(str(tree), options=IngestOptions(exclude=(pattern,))))
    kept = {p for p, what in walked.items() if not what.startswith("excluded by --exclude")}
    assert kept == set(GIT_ORACLE_FILES) - by_git


GIT_ORACLE_NEGATIONS = [
    ["*.py", "!api_pb2.py"],
    ["*.py", "!/api_pb2.py"],
    ["src/*", "!src/build.py"],
    ["*.md", "!docs/**"],
    ["*.md", "!docs/api/"],
    ["*.md", "!*.md", "docs/x.md"],  # the last pattern that matches decides
    # as in git, nothing inside an excluded directory comes back
    ["build/", "!build/out.py"],
    ["test/", "!test/a.py"],
    ["docs/", "!docs/api/y.md"],
    ["!*.py"],  # keeps what nothing excluded
]


@pytest.mark.parametrize("patterns", GIT_ORACLE_NEGATIONS, ids=" ".join)
def test_negated_exclude_keeps_what_git_keeps(tmp_path: Path, patterns: list[str]) -> None:
    tree, by_git = git_ignored(tmp_path, patterns)
    ex = parse_excludes(patterns)
    assert {p for p in GIT_ORACLE_FILES if skipped_prefix(p, ex) is not None} == by_git
    walked = listing(open_source(str(tree), options=IngestOptions(exclude=tuple(patterns))))
    kept = {p for p, what in walked.items() if not what.startswith("excluded by --exclude")}
    assert kept == set(GIT_ORACLE_FILES) - by_git


def test_negation_keeps_one_file_and_the_reason_names_the_excluding_pattern() -> None:
    ex = parse_excludes(["*_pb2.py", "!keep_pb2.py"])
    assert excluded("gen/keep_pb2.py", False, ex) is None
    assert excluded("gen/api_pb2.py", False, ex) == "excluded by --exclude *_pb2.py"
    assert Exclude.parse("!keep.py").negated
    assert Exclude.parse("!keep.py").matches("a/keep.py", is_dir=False)


def test_each_source_kind_honours_a_negated_exclude(git_repo: GitRepo, tmp_path: Path) -> None:
    opts = IngestOptions(exclude=("tests/*", "!tests/conftest.py"))
    r = git_repo
    r.write("app.py", "x = 1\n")
    r.write("tests/conftest.py", "x = 1\n")
    r.write("tests/test_app.py", "x = 1\n")
    r.commit()
    expected = {
        "app.py": "file",
        "tests/conftest.py": "file",
        "tests/test_app.py": "excluded by --exclude tests/*",
    }
    with open_source(str(r.root), options=opts) as src:
        assert listing(src) == expected
    plain = tmp_path / "plain"
    for path in expected:
        write(plain, path)
    assert listing(open_source(str(plain), options=opts)) == expected
    pip = listing(
        open_source("pkg:pip", options=IngestOptions(exclude=("*.py", "!pip/__init__.py")))
    )
    assert {p for p, what in pip.items() if what == "file"} >= {"pip/__init__.py"}
    assert not any(
        p.endswith(".py") and p != "pip/__init__.py" for p, w in pip.items() if w == "file"
    )


# -- each kind of source --------------------------------------------------------


def long_path_dir(base: Path) -> Path:
    """A directory whose path is just short enough to list (PATH_MAX is 4096 on
    Linux), so that a file in it with a 250-character name can be listed but
    not stat-ed or opened by path: ENAMETOOLONG, for root too."""
    limit = os.pathconf("/", "PC_PATH_MAX")
    d = base
    while len(str(d)) < limit - 240:
        d = d / ("d" * min(200, limit - 240 - len(str(d))))
    d.mkdir(parents=True)
    return d


def create_at(directory: Path, name: str, *, is_dir: bool = False) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        if is_dir:
            os.mkdir(name, dir_fd=fd)
        else:
            os.close(os.open(name, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd))
    finally:
        os.close(fd)


def test_walk_does_not_stat_files_that_are_not_wanted(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    write(root, "ok.py")
    deep = long_path_dir(root / "deep")
    create_at(deep, "n" * 250 + ".dat")  # not wanted: a stat of it would fail
    create_at(deep, "w" * 250 + ".py")  # wanted: stat-ed, and that fails
    with pytest.raises(OSError):
        (deep / ("n" * 250 + ".dat")).lstat()
    src = open_source(str(root), options=IngestOptions(wanted=wanted))
    got = listing(src)
    deep_rel = deep.relative_to(root).as_posix()
    assert got == {
        "ok.py": "file",
        f"{deep_rel}/{'w' * 250}.py": "cannot read (File name too long)",
    }


def test_excluded_directory_is_not_entered_and_is_one_skip(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    write(root, "app.py", "raise ValueError('kept')\n")
    write(root, "docs/conf.py")
    write(root, "gen/api_pb2.py")
    write(root, "pkg/build/b.py")
    write(root, "build/b.py")
    deep = long_path_dir(root / "docs" / "deep")
    create_at(deep, "x" * 250, is_dir=True)  # entering it would fail
    plain = listing(open_source(str(root)))
    assert plain[f"{deep.relative_to(root).as_posix()}/{'x' * 250}"].startswith("cannot read (")

    opts = IngestOptions(exclude=("docs/", "*_pb2.py", "/build"))
    src = open_source(str(root), options=opts)
    assert listing(src) == {
        "app.py": "file",
        "build": "excluded by --exclude /build",
        "docs": "excluded by --exclude docs/",
        "gen/api_pb2.py": "excluded by --exclude *_pb2.py",
        "pkg/build/b.py": "file",
    }


def test_directory_hash_counts_excluded_skips_like_other_skips(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    write(root, "app.py")
    write(root, "docs/conf.py")
    plain = open_source(str(root))
    excluding = open_source(str(root), options=IngestOptions(exclude=("docs/",)))
    assert isinstance(excluding, DirectorySource)
    assert excluding.commit != plain.commit
    # the skip is hashed with its reason, which names the pattern, as any skip is
    assert excluding.commit != (
        open_source(str(root), options=IngestOptions(exclude=("docs",))).commit
    )
    # the excluded directory's content is not part of it: only its skip
    write(root, "docs/conf.py", "changed = 1\n")
    assert open_source(str(root), options=IngestOptions(exclude=("docs/",))).commit == (
        excluding.commit
    )
    assert open_source(str(root)).commit != plain.commit


def test_git_revision_leaves_out_an_excluded_directory(git_repo: GitRepo) -> None:
    r = git_repo
    r.write("src/app.py", "raise ValueError('x')\n")
    r.write("src/test/test_app.py", "x = 1\n")
    r.write("test/test_top.py", "x = 1\n")
    r.write("gen/api_pb2.py", "x = 1\n")
    first = r.commit("first")
    r.write("src/later.py", "x = 1\n")
    r.commit("second")
    opts = IngestOptions(exclude=("test/", "/gen"))
    with open_source(str(r.root), rev=first, options=opts) as src:
        assert listing(src) == {
            "gen": "excluded by --exclude /gen",
            "src/app.py": "file",
            "src/test": "excluded by --exclude test/",
            "test": "excluded by --exclude test/",
        }
    # patterns are relative to the subtree indexed, as the vendored rule is
    with open_source(
        str(r.root / "src"), rev=first, options=IngestOptions(exclude=("/test",))
    ) as src:
        assert listing(src) == {"src/app.py": "file", "src/test": "excluded by --exclude /test"}


def test_package_leaves_out_an_excluded_directory() -> None:
    opts = IngestOptions(exclude=("commands/", "pip/_internal/*.py"))
    items = list(open_source("pkg:pip", options=opts).files())
    skips = {i.path: i.reason for i in items if not isinstance(i, SourceFile)}
    assert skips["pip/_internal/commands"] == "excluded by --exclude commands/"
    assert skips["pip/_internal/main.py"] == "excluded by --exclude pip/_internal/*.py"
    assert skips["pip/_vendor"] == "vendored directory"
    read = [i.path for i in items if isinstance(i, SourceFile)]
    assert "pip/_internal/cli/main.py" in read
    assert not any(p.startswith("pip/_internal/commands/") for p in read)
    assert not any(p.count("/") == 2 and p.startswith("pip/_internal/") for p in read)
