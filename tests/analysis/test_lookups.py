"""What the analysis reads back from disk: the Index loads a file's evidence
only when a fact needs it (a large repository's evidence waits on disk)."""

from __future__ import annotations

from errordex.analysis import FileEvidence, scan
from errordex.analysis.facts import catches
from errordex.analysis.index import CrossFile, Index

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
