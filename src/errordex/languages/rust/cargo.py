"""Cargo.toml manifests, read into Packages (pure: text in, value out).

>>> pkg = parse_manifest("crates/a/Cargo.toml", '[package]\\nname = "a"\\nversion = "1.0.0"\\n')
>>> pkg.name, pkg.root, pkg.version
('a', 'crates/a', '1.0.0')
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from errordex.analysis.evidence import FileEvidence, Manifest
from errordex.model import Package

_HEADER = re.compile(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$")
_KEY = re.compile(r"""^\s*(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9_.\-]+))\s*=""")


def read_manifest(path: str, text: str) -> tuple[Package | None, FileEvidence]:
    """The crate a Cargo.toml declares, and its evidence (features and
    dependency lines) for the analysis."""
    evidence = FileEvidence(
        path=path, language="cargo", n_lines=len(text.splitlines()), manifest=manifest(text)
    )
    return parse_manifest(path, text), evidence


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


def manifest(text: str) -> Manifest:
    """Feature and dependency lines of a Cargo.toml (dev-dependencies left out:
    they do not make a crate a user's dependency)."""
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return Manifest(crate=None)
    pkg = data.get("package")
    crate = pkg.get("name") if isinstance(pkg, dict) else None
    renames: dict[str, str] = {}
    tables: list[object] = [data.get("dependencies"), data.get("build-dependencies")]
    targets = data.get("target")
    if isinstance(targets, dict):
        tables.extend(t.get("dependencies") for t in targets.values() if isinstance(t, dict))
    for table in tables:
        if isinstance(table, dict):
            for key, spec in table.items():
                real = spec.get("package") if isinstance(spec, dict) else None
                renames[str(key)] = str(real) if isinstance(real, str) else str(key)
    features: dict[str, int] = {}
    deps: dict[str, tuple[str, int]] = {}
    repository: tuple[str, int] | None = None
    repo_url = pkg.get("repository") if isinstance(pkg, dict) else None
    section = ""
    for i, line in enumerate(text.splitlines(), 1):
        h = _HEADER.match(line)
        if h:
            section = h.group(1).strip()
            last = section.rsplit(".", 1)
            # [dependencies.foo]
            if len(last) == 2 and last[0].endswith("dependencies") and "dev-" not in last[0]:
                key = last[1].strip("\"'")
                deps.setdefault(key, (renames.get(key, key), i))
            continue
        k = _KEY.match(line)
        if not k:
            continue
        key = next(g for g in k.groups() if g)
        if section == "package" and key == "repository" and isinstance(repo_url, str):
            repository = (repo_url, i)
        elif section == "features":
            features.setdefault(key, i)
        elif section.endswith("dependencies") and "dev-dependencies" not in section:
            deps.setdefault(key, (renames.get(key, key), i))
    return Manifest(
        crate=crate if isinstance(crate, str) else None,
        feature_lines=features,
        deps=deps,
        repository=repository,
    )
