"""Which files the indexer skips, and why. Pure: decisions over names and bytes.

Each function returns a skip reason (a short sentence fragment stored with
the snapshot) or None to keep the file.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass

from errordex.errors import InputError

#: Directory names whose contents are someone else's code (``_vendor`` and
#: ``vendored`` are how Python packages such as pip and setuptools bundle theirs).
VENDORED_DIRS = frozenset(
    {"vendor", "_vendor", "vendored", "third_party", "third-party", "node_modules", ".git"}
)
GENERATED_SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py", ".pb.go", ".min.js")
GENERATED_MARKERS = (b"@generated", b"DO NOT EDIT", b"Code generated")
BINARY_PROBE = 8192
#: Share of undecodable bytes above which a file is not treated as text.
MAX_BAD_UTF8 = 0.01

REASON_SYMLINK = "symlink"
REASON_SUBMODULE = "submodule"
REASON_VENDORED = "vendored directory"
REASON_GENERATED = "generated"
REASON_BINARY = "binary"
REASON_NOT_UTF8 = "not UTF-8"
REASON_SPECIAL = "not a regular file"
REASON_EXCLUDED = "excluded by --exclude {}"

_SURROGATE = re.compile("[\udc80-\udcff]")


@dataclass(frozen=True)
class Exclude:
    """One ``--exclude`` pattern, gitignore-style, matched against paths relative
    to the source root. What git's rules say, without negation:

    - ``test/``: a trailing slash matches directories only;
    - ``*_pb2.py``, ``test/``: no other slash, so the name matches at any depth;
    - ``/build``, ``docs/api``: a leading or inner slash anchors it at the root;
    - ``*`` and ``?`` never match ``/``; ``**/`` is any number of directories,
      and ``docs/**`` (everything inside docs) excludes the directory ``docs``.

    >>> Exclude.parse("test/").matches("lib/test", is_dir=True)
    True
    """

    pattern: str
    regex: re.Pattern[str]
    dirs_only: bool

    @classmethod
    def parse(cls, pattern: str) -> Exclude:
        """InputError for a pattern that could only be a mistake (empty, negated, ``..``)."""
        body = pattern.strip()
        if body.startswith("!"):
            raise InputError(f"--exclude {pattern!r}: negated patterns are not supported")
        dirs_only = body.endswith("/")
        body = body.rstrip("/")
        anchored = "/" in body
        if body.endswith("/**"):  # everything inside: the directory itself
            body, dirs_only = body[:-3], True
        parts = body.lstrip("/").split("/")
        if not body.lstrip("/") or any(p in ("", ".", "..") for p in parts):
            raise InputError(
                f"--exclude {pattern!r} is not a pattern of paths under the source"
                " (write /build for build at its root)"
            )
        out = "" if anchored else "(?:.*/)?"
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            if part == "**":
                out += ".*" if last else "(?:[^/]+/)*"
            else:
                out += _glob(part) + ("" if last else "/")
        try:
            regex = re.compile(out, re.DOTALL)
        except re.error as e:  # a character class such as [z-a]
            raise InputError(f"--exclude {pattern!r} is not a valid pattern: {e}") from None
        return cls(pattern, regex, dirs_only)

    def matches(self, path: str, *, is_dir: bool) -> bool:
        return (is_dir or not self.dirs_only) and self.regex.fullmatch(path) is not None


def _glob(part: str) -> str:
    """One path segment of a pattern as a regex: ``*``, ``?``, ``[a-z]``, ``\\x``."""
    out, i = "", 0
    while i < len(part):
        c = part[i]
        i += 1
        if c == "*":
            while i < len(part) and part[i] == "*":  # "a**b" is "a*b"
                i += 1
            out += "[^/]*"
        elif c == "?":
            out += "[^/]"
        elif c == "\\" and i < len(part):
            out += re.escape(part[i])
            i += 1
        elif c == "[" and (end := _class_end(part, i)) > 0:
            chars = part[i:end]
            negate = chars[:1] in ("!", "^")
            body = "".join("\\" + ch if ch in "\\[]^&~|" else ch for ch in chars[negate:])
            out += ("[^/" if negate else "[") + body + "]"
            i = end + 1
        else:
            out += re.escape(c)
    return out


def _class_end(part: str, start: int) -> int:
    """Where the ``]`` closing a ``[`` class that opens before ``start`` is; -1 if none.
    A ``]`` first in the class (after ``!``) is one of its characters."""
    j = start + (part[start : start + 1] in ("!", "^"))
    j += part[j : j + 1] == "]"
    return part.find("]", j)


def parse_excludes(patterns: Sequence[str]) -> tuple[Exclude, ...]:
    return tuple(Exclude.parse(p) for p in patterns)


def excluded(path: str, is_dir: bool, excludes: Sequence[Exclude]) -> str | None:
    """The skip reason when a pattern excludes ``path``, else None.

    >>> excluded("gen/api_pb2.py", False, parse_excludes(["*_pb2.py"]))
    'excluded by --exclude *_pb2.py'
    """
    for ex in excludes:
        if ex.matches(path, is_dir=is_dir):
            return REASON_EXCLUDED.format(ex.pattern)
    return None


def skipped_prefix(
    path: str, excludes: Sequence[Exclude], *, is_dir: bool = False
) -> tuple[str, str] | None:
    """For a source that lists files flat (git, a RECORD): the shallowest of
    ``path``'s directories that is excluded or vendored, or ``path`` itself if
    it is excluded, with the reason; None to keep it. Exclusion wins over
    vendoring at the same level, as in the directory walk.

    >>> skipped_prefix("a/test/t.py", parse_excludes(["test/"]))
    ('a/test', 'excluded by --exclude test/')
    """
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
    lines), or not text (more than 1% of the bytes are not UTF-8)."""
    if b"\0" in data[:BINARY_PROBE]:
        return REASON_BINARY
    head = b"\n".join(data[:BINARY_PROBE].split(b"\n", 5)[:5])
    if any(marker in head for marker in GENERATED_MARKERS):
        return REASON_GENERATED
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
