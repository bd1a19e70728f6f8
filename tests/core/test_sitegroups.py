"""Sites grouped on disk (``SiteGroups``) make the same entries as ``group``."""

from __future__ import annotations

import multiprocessing
import pickle
import sysconfig
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from errordex.extract import extractor_for
from errordex.group import group
from errordex.model import ErrorEntry, ThrowSite
from errordex.scratch.sitegroups import SiteGroups, pickled_site
from errordex.scratch.spill import SpillList
from errordex.template import Template

STDLIB = Path(sysconfig.get_paths()["stdlib"])
#: real modules nobody here wrote, with messages shared between them
MODULES = (
    "json/decoder.py",
    "json/encoder.py",
    "json/scanner.py",
    "configparser.py",
    "argparse.py",
)

_SHARED: SiteGroups | None = None


def _real_sites() -> list[ThrowSite]:
    sites: list[ThrowSite] = []
    for rel in MODULES:
        found = extractor_for(rel)
        assert found is not None
        sites.extend(found[1](rel, (STDLIB / rel).read_text()).sites)
    assert len(sites) > 100
    return sites


def _entry_in_child(i: int) -> ErrorEntry:
    assert _SHARED is not None
    return _SHARED.entry(i)


def test_entries_are_those_group_makes_in_the_same_order() -> None:
    sites = _real_sites()
    with SiteGroups("python/cpython") as groups:
        for s in reversed(sites):  # the order sites come in does not matter
            groups.add(s)
        groups.settle()
        assert groups.n_sites == len(sites)
        assert list(groups.entries()) == group("python/cpython", sites)
        assert len(groups) == len(group("python/cpython", sites))
        assert list(groups.entries(2, 4)) == group("python/cpython", sites)[2:4]


def test_a_revised_site_moves_to_its_new_entry_and_place_applies_to_all() -> None:
    sites = _real_sites()
    raised = next(s for s in sites if s.kind == "raise" and s.exception_type == "ValueError")
    new = Template.literal("a message its class gives")

    def revise(s: ThrowSite) -> ThrowSite:
        return replace(s, template=new) if s == raised else s

    def place(s: ThrowSite) -> ThrowSite:
        return replace(s, package="cpython")

    with SiteGroups("python/cpython") as groups:
        for s in sites:
            groups.add_pickled(*pickled_site(s))
        groups.settle({"python\0ValueError"}, revise, place)
        got = list(groups.entries())
    want = group("python/cpython", [place(revise(s)) for s in sites])
    assert got == want
    moved = [e for e in got if e.template == new]
    assert len(moved) == 1 and moved[0].sites[0].line == raised.line


def test_a_class_not_named_is_never_read_back() -> None:
    sites = _real_sites()
    seen: list[ThrowSite] = []

    def revise(s: ThrowSite) -> ThrowSite:
        seen.append(s)
        return s

    with SiteGroups("python/cpython") as groups:
        for s in sites:
            groups.add(s)
        groups.settle({"python\0JSONDecodeError"}, revise)
    assert seen and all(s.exception_type == "JSONDecodeError" for s in seen)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
def test_processes_forked_after_settle_build_the_entries() -> None:
    global _SHARED
    sites = _real_sites()
    with SiteGroups("python/cpython") as groups:
        for s in sites:
            groups.add(s)
        groups.settle()
        _SHARED = groups
        try:
            ctx = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(2, mp_context=ctx) as pool:
                got = list(pool.map(_entry_in_child, range(len(groups))))
        finally:
            _SHARED = None
    assert got == group("python/cpython", sites)


def test_spill_list_reads_values_back_by_position() -> None:
    values = SpillList[Template]()
    templates = [Template.literal(f"message {i}") for i in range(50)]
    for t in templates:
        values.append(t)
    assert len(values) == 50
    assert [values[i] for i in range(50)] == templates
    with pytest.raises(IndexError):
        values[50]


def test_a_site_revised_to_none_is_dropped() -> None:
    sites = _real_sites()
    raised = [s for s in sites if s.kind == "raise" and s.exception_type == "ValueError"]

    def revise(s: ThrowSite) -> ThrowSite | None:
        return None if s in raised else s

    with SiteGroups("python/cpython") as groups:
        for s in sites:
            groups.add(s)
        groups.settle({"python\0ValueError"}, revise)
        got = list(groups.entries())
        assert groups.n_sites == len(sites) - len(raised)
    kept = [s for s in sites if s not in raised]
    assert raised and got == group("python/cpython", kept)


def test_a_site_pickles_as_its_fields_and_comes_back_whole() -> None:
    # A site waits on disk pickled, twice read back: as a constructor call
    # on its values (not its ``__dict__``, which names every field each time).
    sites = [s for s in _real_sites() if s.args and s.guards]
    assert sites
    for site in sites:
        data = pickle.dumps(site, pickle.HIGHEST_PROTOCOL)
        back = pickle.loads(data)
        assert back == site and back.args == site.args and repr(back) == repr(site)
        assert b"context_hash" not in data and b"exception_type" not in data
