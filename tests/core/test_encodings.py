"""A Python file in the encoding it declares (PEP 263) is indexed, its
messages read as written."""

from __future__ import annotations

from pathlib import Path

from errordex import pipeline
from errordex.store.sqlite import SqliteStore


def test_a_latin1_file_that_says_so_is_indexed_with_its_text(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "declared.py").write_bytes(
        "# -*- coding: latin-1 -*-\ndef f():\n    raise ValueError('bad café value')\n".encode(
            "latin-1"
        )
    )
    (src / "undeclared.py").write_bytes(
        "def g():\n    raise ValueError('no café here')\n".encode("latin-1")
    )
    store = SqliteStore(tmp_path / "db.sqlite")
    result = pipeline.index(str(src), store, name="acme/old", jobs=1)
    [entry] = store.entries(repo="acme/old")
    assert entry.message == "bad café value"
    assert entry.sites[0].path == "declared.py" and entry.sites[0].line == 3
    text = store.file_text(result.snapshot_id, "declared.py")
    assert text is not None and "bad café value" in text
    assert [(s.path, s.reason) for s in result.skips] == [("undeclared.py", "not UTF-8")]
