"""Helpers shared by the extractors (pure)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection

from errordex import plugins

_WS = re.compile(r"\s+")


def context_hash(lines: list[str], line: int, radius: int = 2) -> str:
    """Hash of the normalized lines around ``line`` (1-based).

    Used to follow a site across commits when the code around it moves: the
    line number changes, the hash does not.
    """
    lo = max(0, line - 1 - radius)
    hi = min(len(lines), line + radius)
    norm = "\n".join(_WS.sub(" ", s).strip() for s in lines[lo:hi])
    return hashlib.sha256(norm.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def is_test_path(path: str) -> bool:
    """Whether a file lives in test code by its path alone: in a test
    directory of any language, or named as a test file of any language
    (``Language.test_dirs``, ``Language.is_test_file``).

    >>> is_test_path("tests/test_api.py"), is_test_path("src/lib.rs")
    (True, False)
    """
    parts = path.split("/")
    dirs = plugins.dirs_of_tests()
    if any(p in dirs for p in parts[:-1]):
        return True
    return plugins.is_test_file(parts[-1])


def decode_all(items: Collection[bytes]) -> list[str]:
    """Each of ``items`` decoded as UTF-8 (errors replaced), in iteration order.

    One decode of the items joined by newlines, split again, where no item
    holds a newline: a newline is never part of a UTF-8 sequence, so each
    piece decodes as it would alone. The scans decode every distinct
    identifier of a file so (the crates: 487k names, 0.17 -> 0.07 s in cProfile).

    >>> decode_all([b"x", b"\\xff", b""]), decode_all([b"a\\nb"])
    (['x', '\\ufffd', ''], ['a\\nb'])
    """
    parts = b"\n".join(items).decode("utf-8", "replace").split("\n")
    if len(parts) == len(items):
        return parts
    return [item.decode("utf-8", "replace") for item in items]


#: test-support code shipped beside a library (a ``burn-backend-tests`` crate,
#: ``flask/testing.py``, a ``testutils`` module): helpers for tests, not its API
TEST_SUPPORT = re.compile(
    r"(^|[-_/])(tests?|testing|testutils?|test[-_](utils?|support|helpers?|common))([-_/.]|$)"
)


def is_test_support(path: str) -> bool:
    """Whether a package or path is test-support code (``TEST_SUPPORT``).

    >>> is_test_support("src/flask/testing.py"), is_test_support("src/flask/app.py")
    (True, False)
    """
    return TEST_SUPPORT.search(path) is not None
