"""What the analysis reads back from disk: the Index loads a file's evidence
only when a fact needs it (a large repository's evidence waits on disk)."""

from __future__ import annotations

from errordex.analysis import FileEvidence, scan
from errordex.analysis.analyse import index_of
from errordex.analysis.facts import catches, related
from errordex.analysis.index import CrossFile, Index
from errordex.group import group
from errordex.languages.python.extract import extract
from errordex.model import ErrorEntry

_FILES = {
    "shapes.py": (
        "def scale(factor):\n"
        "    if factor == 0:\n"
        '        raise ValueError("zero factor")\n'
        "    return factor\n\n\n"
        "def resize(shape, factor):\n"
        "    try:\n"
        "        return scale(factor)\n"
        "    except ValueError:\n"
        "        return shape\n"
    ),
    # callers of `scale` that catch nothing
    **{
        f"use_{i}.py": f"from shapes import scale\n\n\ndef use_{i}(x):\n    return scale(x)\n"
        for i in range(3)
    },
    "report.py": "def main():\n    try:\n        int('x')\n    except ValueError:\n        return 1\n",
}


def _index(loaded: list[str]) -> Index:
    cross = CrossFile()
    rest: dict[str, FileEvidence] = {}
    for path, text in _FILES.items():
        rest[path] = cross.add(scan(path, text, "python"))

    def load(path: str) -> FileEvidence | None:
        loaded.append(path)
        return rest.get(path)

    return Index(cross, [], [], load=load)


def test_catches_reads_only_the_files_that_catch_the_error() -> None:
    loaded: list[str] = []
    ix = _index(loaded)
    chain = [{"name": "ValueError", "builtin": True, "path": "shapes.py", "line": 3}]
    reach = [{"name": "scale", "function": "scale", "path": "shapes.py", "line": 1}]
    found = catches(chain, ix, reach)
    assert [(c["path"], c["function"], c.get("calls")) for c in found] == [
        ("shapes.py", "resize", "scale"),
        ("report.py", "main", None),
    ]
    # the callers of `scale` in use_*.py catch nothing: their files are not read
    assert set(loaded) <= {"shapes.py", "report.py"}


def _entries_and_index(files: dict[str, str]) -> tuple[list[ErrorEntry], Index]:
    sites = [s for path, text in files.items() for s in extract(path, text).sites]
    entries = group("acme/lib", sites)
    evidence = [scan(path, text, "python") for path, text in files.items()]
    return entries, index_of(entries, evidence, [], [])


_RAISERS = {
    f"m{i}.py": "".join(
        f'def f{j}(x):\n    if x == {j}:\n        raise ValueError("bad m{i}{j}")  # two words: no wording shared\n\n\n'
        for j in range(3)
    )
    for i in range(4)
}


def test_related_entries_of_a_builtin_class_are_those_of_the_same_files_in_index_order() -> None:
    entries, ix = _entries_and_index(_RAISERS)
    entry = next(e for e in entries if e.message == "bad m21")
    got = [(r["message"], r["reason"]) for r in related(entry, ix)]
    assert got == [
        (e.message, "same exception `ValueError`")
        for e in entries
        if e.sites[0].path == "m2.py" and e.id != entry.id
    ]
    # the lookup ``related`` reads: only the files asked for, in ``by_exception`` order
    every = ix.by_exception["ValueError"]
    assert ix.raising_in("ValueError", {"m3.py", "m0.py"}) == [
        r for r in every if r.path in ("m0.py", "m3.py")
    ]


def test_catches_of_one_or_more_names_come_outside_tests_first_then_by_place() -> None:
    files = {
        "tests/test_a.py": "def test_a():\n    try:\n        f()\n    except KeyError:\n        pass\n",
        "b.py": "def g():\n    try:\n        f()\n    except (ValueError, KeyError):\n        pass\n",
        "a.py": "def h():\n    try:\n        f()\n    except ValueError:\n        pass\n",
    }
    ix = index_of([], [scan(path, text, "python") for path, text in files.items()], [], [])
    assert [(c.path, c.exception) for c in ix.catches_of(["ValueError"])] == [
        ("a.py", "ValueError"),
        ("b.py", "ValueError"),
    ]
    assert [(c.path, c.exception) for c in ix.catches_of(["KeyError", "ValueError"])] == [
        ("a.py", "ValueError"),
        ("b.py", "KeyError"),
        ("b.py", "ValueError"),
        ("tests/test_a.py", "KeyError"),
    ]
