"""Which files the indexer skips, and why. Pure: decisions over names and bytes.

Each function returns a skip reason (a short sentence fragment stored with
the snapshot) or None to keep the file.
"""

from __future__ import annotations

import re

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

_SURROGATE = re.compile("[\udc80-\udcff]")


def vendored_prefix(path: str) -> str | None:
    """The vendored directory containing ``path`` ("a/vendor"), or None.

    >>> vendored_prefix("a/node_modules/x/y.js")
    'a/node_modules'
    """
    parts = path.split("/")
    for i, part in enumerate(parts[:-1]):
        if part in VENDORED_DIRS:
            return "/".join(parts[: i + 1])
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
        text = data.decode("utf-8", "surrogateescape")
        bad = len(_SURROGATE.findall(text))
        if bad > MAX_BAD_UTF8 * len(data):
            return REASON_NOT_UTF8
    return None
