"""Which files the indexer skips, and why. Pure: decisions over names and bytes.

Each function returns a skip reason (a short sentence fragment stored with
the snapshot) or None to keep the file.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass, field

import pathspec

from errordex.errors import InputError

#: Directory names whose contents are someone else's code (``_vendor`` and
#: ``vendored`` are how Python packages such as pip and setuptools bundle theirs).
VENDORED_DIRS = frozenset(
    {"vendor", "_vendor", "vendored", "third_party", "third-party", "node_modules", ".git"}
)
GENERATED_SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py", ".pb.go", ".min.js")
GENERATED_MARKERS = (b"@generated", b"DO NOT EDIT", b"Code generated")
BINARY_PROBE = 8192
#: A file over MINIFIED_BYTES whose lines average over MINIFIED_LINE bytes is
#: a minified bundle (npm's yargs ships build/index.cjs: 62 KB on one line):
#: its sites would show that line as their snippet. None of the stdlib or of
#: Debian's crates is (one data table of pygments is).
MINIFIED_BYTES = 4096
MINIFIED_LINE = 1000
#: Share of undecodable bytes above which a file is not treated as text.
MAX_BAD_UTF8 = 0.01

REASON_SYMLINK = "symlink"
REASON_SUBMODULE = "submodule"
REASON_VENDORED = "vendored directory"
REASON_GENERATED = "generated"
REASON_MINIFIED = "minified"
REASON_BINARY = "binary"
REASON_NOT_UTF8 = "not UTF-8"
REASON_SPECIAL = "not a regular file"
REASON_EXCLUDED = "excluded by --exclude {}"

_SURROGATE = re.compile("[\udc80-\udcff]")


@dataclass(frozen=True)
class Exclude:
    """One ``--exclude`` pattern, gitignore-style (git's own wildmatch rules,
    through ``pathspec``), matched against paths relative to the source root:

    - ``test/``: a trailing slash matches directories only;
    - ``*_pb2.py``, ``test/``: no other slash, so the name matches at any depth;
    - ``/build``, ``docs/api``: a leading or inner slash anchors it at the root;
    - ``*`` and ``?`` never match ``/``; ``**/`` is any number of directories,
      and ``docs/**`` (everything inside docs) excludes the directory ``docs``;
    - ``!keep.py``: keeps what an earlier pattern excluded (the last pattern
      that matches a path decides), but, as in git, not inside a directory
      that is excluded: that directory is not entered.

    >>> Exclude.parse("test/").matches("lib/test", is_dir=True)
    True
    """

    pattern: str
    #: the pattern as a gitignore line, without its ``!``
    line: str
    negated: bool
    spec: pathspec.GitIgnoreSpec = field(repr=False, compare=False)

    @classmethod
    def parse(cls, pattern: str) -> Exclude:
        """InputError for a pattern that could only be a mistake (empty, ``..``, bad)."""
        body = pattern.strip()
        negated = body.startswith("!")
        body = body.removeprefix("!")
        parts = body.rstrip("/").lstrip("/").split("/")
        if not parts[0] or any(p in ("", ".", "..") for p in parts) or body.rstrip("/") == "/**":
            raise InputError(
                f"--exclude {pattern!r} is not a pattern of paths under the source"
                " (write /build for build at its root)"
            )
        if body.startswith("#"):  # a comment in a .gitignore; a name here
            body = "\\" + body
        try:
            spec = pathspec.GitIgnoreSpec.from_lines([body])
        except (re.error, ValueError) as e:  # a character class such as [z-a]
            raise InputError(f"--exclude {pattern!r} is not a valid pattern: {e}") from None
        return cls(pattern, body, negated, spec)

    def matches(self, path: str, *, is_dir: bool) -> bool:
        """Whether the pattern (for ``!x``: ``x``) matches ``path``."""
        return self.spec.match_file(path + "/" if is_dir else path)


@dataclass(frozen=True)
class Excludes:
    """The user's ``--exclude`` patterns, in order; the last that matches a
    path decides whether it is excluded."""

    patterns: tuple[Exclude, ...] = ()
    spec: pathspec.GitIgnoreSpec = field(
        default_factory=lambda: pathspec.GitIgnoreSpec.from_lines([]), repr=False, compare=False
    )
    #: directories decided so far: a flat listing asks about each file's
    #: directories, the same few again and again
    _dirs: dict[str, str | None] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, patterns: Sequence[Exclude]) -> Excludes:
        lines = [("!" if ex.negated else "") + ex.line for ex in patterns]
        return cls(tuple(patterns), pathspec.GitIgnoreSpec.from_lines(lines))

    def __len__(self) -> int:
        return len(self.patterns)

    def reason(self, path: str, *, is_dir: bool) -> str | None:
        if not is_dir:
            return self._reason(path)
        if path not in self._dirs:
            self._dirs[path] = self._reason(path + "/")
        return self._dirs[path]

    def _reason(self, path: str) -> str | None:
        found = self.spec.check_file(path)
        if not found.include or found.index is None:  # no pattern, or a "!" one
            return None
        return REASON_EXCLUDED.format(self.patterns[found.index].pattern)


def parse_excludes(patterns: Sequence[str]) -> Excludes:
    return Excludes.of([Exclude.parse(p) for p in patterns])


NO_EXCLUDES = Excludes()


def excluded(path: str, is_dir: bool, excludes: Excludes | Sequence[Exclude]) -> str | None:
    """The skip reason when the patterns exclude ``path``, else None.

    >>> excluded("gen/api_pb2.py", False, parse_excludes(["*_pb2.py"]))
    'excluded by --exclude *_pb2.py'
    >>> excluded("gen/keep_pb2.py", False, parse_excludes(["*_pb2.py", "!keep_pb2.py"]))
    """
    if not excludes:
        return None
    if not isinstance(excludes, Excludes):
        excludes = Excludes.of(excludes)
    return excludes.reason(path, is_dir=is_dir)


def skipped_prefix(
    path: str, excludes: Excludes | Sequence[Exclude], *, is_dir: bool = False
) -> tuple[str, str] | None:
    """For a source that lists files flat (git, a RECORD): the shallowest of
    ``path``'s directories that is excluded or vendored, or ``path`` itself if
    it is excluded, with the reason; None to keep it. Exclusion wins over
    vendoring at the same level, as in the directory walk.

    >>> skipped_prefix("a/test/t.py", parse_excludes(["test/"]))
    ('a/test', 'excluded by --exclude test/')
    """
    if excludes and not isinstance(excludes, Excludes):
        excludes = Excludes.of(excludes)
    parts = path.split("/")
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        prefix = "/".join(parts[: i + 1])
        reason = excluded(prefix, is_dir or not last, excludes) if excludes else None
        if reason is not None:
            return prefix, reason
        if not last and part in VENDORED_DIRS:
            return prefix, REASON_VENDORED
    return None


def too_large(size: int, max_bytes: int) -> str | None:
    return f"too large ({size} bytes)" if size > max_bytes else None


def skip_by_name(path: str) -> str | None:
    """Generated files recognisable by their name (protobuf, minified JS)."""
    name = path.rsplit("/", 1)[-1]
    return REASON_GENERATED if name.endswith(GENERATED_SUFFIXES) else None


def skip_by_content(data: bytes) -> str | None:
    """Binary (a NUL in the first 8 KiB), generated (a marker in the first 5
    lines), minified (lines of over ``MINIFIED_LINE`` bytes on average), or
    not text (more than 1% of the bytes are not UTF-8)."""
    if b"\0" in data[:BINARY_PROBE]:
        return REASON_BINARY
    head = b"\n".join(data[:BINARY_PROBE].split(b"\n", 5)[:5])
    if any(marker in head for marker in GENERATED_MARKERS):
        return REASON_GENERATED
    if len(data) > MINIFIED_BYTES and len(data) > MINIFIED_LINE * (data.count(b"\n") + 1):
        return REASON_MINIFIED
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        if declared_text(data) is not None:
            return None  # text in the encoding it declares
        text = data.decode("utf-8", "surrogateescape")
        bad = len(_SURROGATE.findall(text))
        if bad > MAX_BAD_UTF8 * len(data):
            return REASON_NOT_UTF8
    return None


def declared_text(data: bytes) -> str | None:
    """The text of a file that is not UTF-8 but declares its encoding in its
    first two lines (PEP 263: ``# -*- coding: latin-1 -*-``, as Python 2 era
    sources do) and decodes in it; None otherwise."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:  # an unknown encoding, or one a BOM contradicts
        return None
    if encoding in ("utf-8", "utf-8-sig"):
        return None
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None
