"""How public code reaches a site: call chains from a package's entry points."""

from __future__ import annotations

from pathlib import Path

from tests.repo_files import index_files

FILES = {
    "pkg/__init__.py": """
from .decoder import Decoder


def loads(s):
    return Decoder().decode(s)


def safe_loads(s):
    try:
        return loads(s)
    except ValueError:
        return None
""",
    "pkg/decoder.py": """
class Decoder:
    def decode(self, s):
        return self.raw_decode(s)

    def raw_decode(self, s):
        if not s:
            raise ValueError("Expecting value")
        return s


def try_decode(s):
    try:
        return Decoder().decode(s)
    except ValueError:
        return None
""",
}


def test_public_site_lists_the_chains_from_entry_points_that_do_not_catch_it(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, FILES, "acme/reach")
    (entry,) = [e for e in store.entries() if e.message == "Expecting value"]
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    [reach] = stored["facts"]["reachability"]
    assert reach["function"] == "Decoder.raw_decode" and reach["public"]
    # loads (the package's API) -> decode -> raw_decode; try_decode catches it.
    assert [[hop["function"] for hop in chain] for chain in reach["paths"]] == [
        ["loads", "Decoder.decode"]
    ]
    trigger = stored["analysis"]["trigger"]
    assert trigger["paths"] == [
        "`Decoder.raw_decode`",
        "`loads` → `Decoder.decode` → `Decoder.raw_decode`",
    ]


def test_a_catch_in_a_test_is_not_offered_as_the_repos_pattern(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": (
            'def parse(s):\n    if not s:\n        raise ValueError("empty input")\n    return s\n'
        ),
        "tests/test_parse.py": (
            "from pkg import parse\n\n\n"
            "def test_empty():\n"
            "    try:\n"
            '        parse("")\n'
            "    except ValueError:\n"
            "        pass\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/parse")
    (entry,) = [e for e in store.entries() if e.message == "empty input"]
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    assert [c["path"] for c in stored["facts"]["catches"]] == ["tests/test_parse.py"]
    assert not any("Catch" in s["text"] for s in stored["analysis"]["solutions"])
