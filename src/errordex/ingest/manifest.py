"""A plain directory's version, read from the manifest at its root.

Pure: it reads through the ``read`` callable it is given. A git checkout
has tags for this; a directory (an unpacked crate, a source tarball) has
only what its manifest says.

    >>> files = {"Cargo.toml": b'[package]\\nname = "bytes"\\nversion = "1.2.1"\\n'}
    >>> manifest_version(files.get)
    '1.2.1'
"""

from __future__ import annotations

import configparser
import json
import re
import tomllib
from collections.abc import Callable
from typing import Any

#: what a version label may look like (1.2.1, 2.0.0rc1, 0.3.0-alpha.2+build)
_VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$")

ReadFn = Callable[[str], bytes | None]


def manifest_version(read: ReadFn) -> str | None:
    """The version in Cargo.toml, pyproject.toml, setup.cfg or package.json
    at the root, the first that has one; None when none does."""
    for name, parse in _MANIFESTS:
        data = read(name)
        if data is None:
            continue
        try:
            found = parse(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, configparser.Error):
            continue  # a broken manifest has no version to give
        if isinstance(found, str) and _VERSION.match(found.strip()):
            return found.strip()
    return None


def _get(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _cargo(text: str) -> Any:
    doc = tomllib.loads(text)
    version = _get(doc, "package", "version")
    if isinstance(version, dict) and version.get("workspace") is True:  # version.workspace = true
        return _get(doc, "workspace", "package", "version")
    return version if version is not None else _get(doc, "workspace", "package", "version")


def _pyproject(text: str) -> Any:
    doc = tomllib.loads(text)
    return _get(doc, "project", "version") or _get(doc, "tool", "poetry", "version")


def _setup_cfg(text: str) -> Any:
    cfg = configparser.ConfigParser(interpolation=None)
    cfg.read_string(text)
    # "attr: pkg.__version__" or "file: VERSION" is not a version
    return cfg.get("metadata", "version", fallback=None)


def _package_json(text: str) -> Any:
    return _get(json.loads(text), "version")


_MANIFESTS: tuple[tuple[str, Callable[[str], Any]], ...] = (
    ("Cargo.toml", _cargo),
    ("pyproject.toml", _pyproject),
    ("setup.cfg", _setup_cfg),
    ("package.json", _package_json),
)
