"""Cargo features: read ``#[cfg(...)]`` expressions and follow feature
forwarding across a workspace (pure).

    >>> features_in('all(not(feature = "autodiff"), unix)')
    [('autodiff', True)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from errordex.analysis.evidence import Manifest
from errordex.model import Package

_TOKEN = re.compile(r'\s*(feature\s*=\s*"[^"]*"|[A-Za-z_][A-Za-z0-9_]*|\(|\)|,|=\s*"[^"]*")')


def features_in(cfg: str) -> list[tuple[str, bool]]:
    """(feature, negated) for every ``feature = "x"`` in a cfg predicate;
    negated when an odd number of ``not(...)`` encloses it."""
    out: list[tuple[str, bool]] = []
    stack: list[bool] = []  # per open paren: is it a not(
    pending_not = False
    for m in _TOKEN.finditer(cfg):
        tok = m.group(1)
        if tok.startswith("feature"):
            name = tok.split("=", 1)[1].strip().strip('"')
            out.append((name, sum(stack) % 2 == 1))
        elif tok == "(":
            stack.append(pending_not)
            pending_not = False
        elif tok == ")":
            if stack:
                stack.pop()
        else:
            pending_not = tok == "not"
    return out


def enabled_by(pkg: Package, feature: str, seed: str = "default") -> bool:
    """Whether turning on ``seed`` of ``pkg`` turns on ``feature`` (in-crate only)."""
    seen: set[str] = set()
    todo = [seed]
    while todo:
        f = todo.pop()
        if f == feature:
            return True
        if f in seen:
            continue
        seen.add(f)
        todo.extend(e for e in pkg.features.get(f, ()) if "/" not in e and not e.startswith("dep:"))
    return False


@dataclass(frozen=True)
class Link:
    """Feature ``feature`` of ``crate`` turns on ``enables`` (``entry`` as written)."""

    crate: str
    feature: str
    entry: str
    manifest: str
    line: int


@dataclass(frozen=True)
class Workspace:
    packages: dict[str, Package]
    manifests: dict[str, tuple[str, Manifest]]  # crate -> (path, manifest)

    def feature_line(self, crate: str, feature: str) -> tuple[str, int] | None:
        got = self.manifests.get(crate)
        if got is None or feature not in got[1].feature_lines:
            return None
        return got[0], got[1].feature_lines[feature]

    def dependents(self, crate: str) -> list[str]:
        return sorted(
            c
            for c, (_, m) in self.manifests.items()
            if c != crate and any(real == crate for real, _ in m.deps.values())
        )

    def forwarders(self, crate: str, feature: str) -> list[Link]:
        """Features of other workspace crates that turn on ``crate``'s ``feature``."""
        out: list[Link] = []
        for other, (path, m) in sorted(self.manifests.items()):
            pkg = self.packages.get(other)
            if pkg is None or other == crate:
                continue
            keys = [k for k, (real, _) in m.deps.items() if real == crate]
            for key in keys:
                wanted = {f"{key}/{feature}", f"{key}?/{feature}"}
                for g, entries in pkg.features.items():
                    hit = next((e for e in entries if e in wanted), None)
                    if hit is not None and g in m.feature_lines:
                        out.append(Link(other, g, hit, path, m.feature_lines[g]))
        return out

    def chains(self, crate: str, feature: str, depth: int = 4) -> list[list[Link]]:
        """Forwarding chains from ``crate``'s feature up to crates that nothing
        forwards further; the top of each chain is its last link."""
        done: list[list[Link]] = []
        todo: list[list[Link]] = [[]]
        while todo:
            chain = todo.pop(0)
            at_crate, at_feature = (
                (chain[-1].crate, chain[-1].feature) if chain else (crate, feature)
            )
            ups = [
                u
                for u in self.forwarders(at_crate, at_feature)
                if all(u.crate != c.crate for c in chain)
            ]
            if not ups or len(chain) >= depth:
                if chain:
                    done.append(chain)
                continue
            todo.extend([*chain, u] for u in ups)
        # The crate a user most likely depends on: not a dependency of another.
        done.sort(key=lambda c: (bool(self.dependents(c[-1].crate)), -len(c)))
        return done[:5]


def dependency_line(name: str, version: str | None, feature: str) -> str:
    """The Cargo.toml line a user writes to turn on ``feature`` of ``name``:
    with the version at the indexed commit, as written (a pre-release stays
    one: cargo picks a pre-release only when asked for it), so it can be
    pasted as it is.

        >>> dependency_line("burn", "0.19.0-pre.2", "autodiff")
        'burn = { version = "0.19.0-pre.2", features = ["autodiff"] }'
    """
    if version:
        return f'{name} = {{ version = "{version.split("+", 1)[0]}", features = ["{feature}"] }}'
    return f'{name} = {{ features = ["{feature}"] }}'
