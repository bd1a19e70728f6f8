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


def test_a_name_left_out_of_all_is_not_public_and_the_page_leads_with_the_api(
    tmp_path: Path,
) -> None:
    # json.decoder's shape: a helper the scanner calls raises first in the
    # file; __all__ names the decoder, whose method json.loads reaches.
    files = {
        "pkg/__init__.py": (
            "from .decoder import Decoder\n\n\ndef loads(s):\n    return Decoder().decode(s)\n"
        ),
        "pkg/decoder.py": (
            '__all__ = ["Decoder"]\n\n\n'
            "def parse_object(s):\n"
            "    if not s:\n"
            '        raise ValueError("Expecting value")\n\n\n'
            "class Decoder:\n"
            "    parse = parse_object\n\n"
            "    def decode(self, s):\n"
            "        return self.raw_decode(s)\n\n"
            "    def raw_decode(self, s):\n"
            "        if s is None:\n"
            '            raise ValueError("Expecting value")\n'
            "        return self.parse(s)\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/lead")
    (entry,) = [e for e in store.entries() if e.message == "Expecting value"]
    assert [s.line for s in entry.sites] == [6, 17]  # the helper comes first in the file
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    public = {r["function"]: r["public"] for r in stored["facts"]["reachability"]}
    assert public == {"parse_object": False, "Decoder.raw_decode": True}
    assert stored["analysis"]["summary"]["text"].startswith(
        "You called `pkg.Decoder.raw_decode(s=…)` (`pkg/decoder.py`), and it raises"
    )


def test_all_that_cannot_be_read_leaves_every_public_name_public() -> None:
    from errordex.analysis import scan

    for head in ('__all__ = ["a"]\n__all__.extend(["helper"])\n', "__all__ = names()\n"):
        ev = scan("pkg/m.py", head + "def helper():\n    pass\n", "python")
        assert [(f.name, f.public) for f in ev.functions] == [("helper", True)]
    ev = scan("pkg/m.py", '__all__ = ("a",)\n__all__ += ["b"]\ndef b():\n    pass\n', "python")
    assert [(f.name, f.public) for f in ev.functions] == [("b", True)]
    ev = scan("pkg/m.py", '__all__ = ["a"]\ndef helper():\n    pass\n', "python")
    assert [(f.name, f.public) for f in ev.functions] == [("helper", False)]
