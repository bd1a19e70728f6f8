"""A site's package is the one whose root is the longest prefix of its path."""

from __future__ import annotations

from dataclasses import replace

from errordex.extract import extractor_for
from errordex.model import Package, ThrowSite
from errordex.pipeline import _package_placer

SOURCE = 'def f(x):\n    raise ValueError("bad x")\n'


def _site_at(path: str, package: str | None = None) -> ThrowSite:
    found = extractor_for(path)
    assert found is not None
    (site,) = found[1](path, SOURCE).sites
    return replace(site, package=package)


def test_the_deepest_root_that_holds_the_path_names_the_package() -> None:
    place = _package_placer(
        [
            Package("top", "Cargo.toml", ""),
            Package("outer", "crates/a/Cargo.toml", "crates/a"),
            Package("inner", "crates/a/sub/Cargo.toml", "crates/a/sub/"),
            Package("other", "crates/ab/Cargo.toml", "crates/ab"),
        ]
    )
    assert place(_site_at("crates/a/sub/x/m.py")).package == "inner"
    assert place(_site_at("crates/a/subway/m.py")).package == "outer"
    assert place(_site_at("crates/ab/m.py")).package == "other"
    assert place(_site_at("crates/abc/m.py")).package == "top"
    assert place(_site_at("m.py")).package == "top"
    # a site that has its package keeps it
    assert place(_site_at("crates/a/m.py", "given")).package == "given"


def test_a_path_under_no_root_has_no_package() -> None:
    place = _package_placer([Package("a", "a/Cargo.toml", "a"), Package("b", "b/Cargo.toml", "b")])
    assert place(_site_at("c/m.py")).package is None
    assert place(_site_at("ab/m.py")).package is None
    assert place(_site_at("b/m.py")).package == "b"
