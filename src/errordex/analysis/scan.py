"""``scan``: the evidence one file gives, computed beside extraction (pure)."""

from __future__ import annotations

import re
import tomllib

from tree_sitter import Tree

from errordex.analysis.evidence import FileEvidence, Manifest
from errordex.languages.python import scan as scan_python
from errordex.languages.rust import scan as scan_rust

_HEADER = re.compile(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$")
_KEY = re.compile(r"""^\s*(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9_.\-]+))\s*=""")


def scan(path: str, text: str, language: str, tree: Tree | None = None) -> FileEvidence:
    """Evidence in one file; ``language`` is "rust", "python" or "cargo"
    (a Cargo.toml). Unknown languages give empty evidence. ``tree`` is the
    file's tree-sitter parse, if the caller has it (it is parsed otherwise)."""
    if language == "rust":
        return scan_rust.scan(path, text, tree)
    if language == "python":
        return scan_python.scan(path, text, tree)
    if language == "cargo":
        return FileEvidence(
            path=path, language="cargo", n_lines=len(text.splitlines()), manifest=manifest(text)
        )
    return FileEvidence(path=path, language=language, n_lines=len(text.splitlines()))


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
