"""What `errordex index` shows while it runs: each file, then each phase."""

from __future__ import annotations

import sysconfig
from pathlib import Path

from errordex import pipeline
from errordex.ingest import IngestOptions
from errordex.store.sqlite import SqliteStore

STDLIB = Path(sysconfig.get_paths()["stdlib"])


def test_progress_names_each_file_then_the_phases_after_them(tmp_path: Path) -> None:
    said: list[tuple[int, int, str]] = []

    def keep(p: str) -> bool:
        return pipeline.wanted(p) and p.startswith("json/")

    result = pipeline.index(
        str(STDLIB),
        SqliteStore(tmp_path / "db.sqlite"),
        options=IngestOptions(wanted=keep),
        name="python/cpython",
        jobs=1,
        progress=lambda seen, nbytes, path: said.append((seen, nbytes, path)),
    )
    texts = [path for _, _, path in said]
    files = [t for t in texts if t.startswith("json/")]
    assert files and all(t.endswith(".py") for t in files)
    phases = texts[texts.index("grouping the sites into errors") :]
    n = len(pipeline_entries(tmp_path / "db.sqlite"))
    assert phases[1] == f"analysing errors: 0 of {n:,}"
    assert phases[-2:] == [f"analysing errors: {n:,} of {n:,}", "writing the snapshot"]
    # the counts stay those of the files read
    st = result.snapshot.stats
    assert said[-1][:2] == (st.files_seen, st.bytes_parsed)


def pipeline_entries(db: Path) -> list[str]:
    store = SqliteStore(db)
    return [e.id for e in store.entries(repo="python/cpython", include_test_only=True)]
