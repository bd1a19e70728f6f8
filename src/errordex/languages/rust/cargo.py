"""Cargo.toml manifests, read into Packages (pure: text in, value out).

>>> pkg = parse_manifest("crates/a/Cargo.toml", '[package]\\nname = "a"\\nversion = "1.0.0"\\n')
>>> pkg.name, pkg.root, pkg.version
('a', 'crates/a', '1.0.0')
"""

from __future__ import annotations

import tomllib
from typing import Any

from errordex.model import Package


def parse_manifest(path: str, text: str, workspace_text: str | None = None) -> Package | None:
    """The crate a manifest declares, or None for a workspace-only or broken
    manifest.

    ``version.workspace = true`` is resolved from ``workspace_text`` (the
    workspace root's Cargo.toml) when it is given, else the version is None.
    Features are the ``[features]`` table; an optional dependency is an
    implicit feature of the same name unless a feature names it ``dep:x``.
    """
    data = _load(text)
    if data is None:
        return None
    package = data.get("package")
    if not isinstance(package, dict) or not isinstance(package.get("name"), str):
        return None
    version = _version(package.get("version"), workspace_text)
    features: dict[str, tuple[str, ...]] = {}
    table = data.get("features")
    if isinstance(table, dict):
        for name, enables in table.items():
            if isinstance(enables, list):
                features[str(name)] = tuple(str(e) for e in enables)
    explicit = {e[4:] for values in features.values() for e in values if e.startswith("dep:")}
    for dep in _optional_deps(data):
        if dep not in features and dep not in explicit:
            features[dep] = (f"dep:{dep}",)
    root = path.rsplit("/", 1)[0] if "/" in path else ""
    return Package(
        name=package["name"], manifest=path, root=root, version=version, features=features
    )


def _load(text: str) -> dict[str, Any] | None:
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, UnicodeError, ValueError):
        return None


def _version(value: object, workspace_text: str | None) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and value.get("workspace") is True and workspace_text:
        root = _load(workspace_text) or {}
        ws = root.get("workspace")
        wpkg = ws.get("package") if isinstance(ws, dict) else None
        v = wpkg.get("version") if isinstance(wpkg, dict) else None
        return v if isinstance(v, str) else None
    return None


def _optional_deps(data: dict[str, Any]) -> list[str]:
    out: list[str] = []
    tables: list[object] = [data.get("dependencies")]
    targets = data.get("target")
    if isinstance(targets, dict):
        tables.extend(t.get("dependencies") for t in targets.values() if isinstance(t, dict))
    for table in tables:
        if isinstance(table, dict):
            for name, spec in table.items():
                if isinstance(spec, dict) and spec.get("optional") is True:
                    out.append(str(name))
    return out
