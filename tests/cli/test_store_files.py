"""What the CLI does with the file --db names: someone else's database, a
damaged store, a read-only one, one that does not exist (issue 12, items 5-8).
Real SQLite files throughout; damage is done to the bytes of a real store."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from errordex.cli import main
from errordex.errors import EXIT_STORE
from errordex.pipeline import index
from errordex.store.opening import APPLICATION_ID
from errordex.store.sqlite import SqliteStore

SRC = """
def parse(value):
    if not value:
        raise ValueError("empty input is not allowed")
    return int(value)
"""

#: the commands that only read the store, with arguments
READERS = [
    ("list",),
    ("stats",),
    ("show", "0123456789abcdef"),
    ("explain", "ValueError: empty input is not allowed"),
    ("verify",),
]


def run(db: Path | str, *args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, [*args, "--db", str(db)], catch_exceptions=False)
    return res.exit_code, res.stdout, " ".join(res.stderr.split())  # stderr unwrapped


@pytest.fixture
def source(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "parse.py").write_text(SRC)
    return src


@pytest.fixture
def store(tmp_path: Path, source: Path) -> Path:
    """A store with one small repository indexed, closed (no -wal or -shm left)."""
    db = tmp_path / "store" / "errordex.db"
    written = SqliteStore(db)
    index(str(source), written, name="acme/parse", jobs=1)
    written.close()
    assert sorted(p.name for p in db.parent.iterdir()) == ["errordex.db"]
    return db


def files_of(directory: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.iterdir())
        if p.is_file()
    }


# -- item 5: a file that is not errordex's ------------------------------------


def test_index_into_another_database_is_refused_and_leaves_it_untouched(
    tmp_path: Path, source: Path
) -> None:
    theirs = tmp_path / "theirs" / "app.db"
    theirs.parent.mkdir()
    with sqlite3.connect(theirs) as conn:
        conn.execute("CREATE TABLE foo (x)")
        conn.execute("INSERT INTO foo VALUES (1)")
    conn.close()
    before = files_of(theirs.parent)
    for args in [("index", str(source)), *READERS]:
        code, _, err = run(theirs, *args)
        assert code == EXIT_STORE, (args, err)
        assert err == (
            f"error: {theirs} is another database (it holds foo), not an errordex store;"
            " errordex leaves it untouched: name another file with --db or ERRORDEX_DB"
        )
        assert files_of(theirs.parent) == before


def test_a_database_with_another_application_id_is_refused(tmp_path: Path, source: Path) -> None:
    theirs = tmp_path / "geo.gpkg"
    with sqlite3.connect(theirs) as conn:
        conn.execute("PRAGMA application_id = 1196444487")  # GeoPackage's "GPKG"
    conn.close()
    before = theirs.read_bytes()
    code, _, err = run(theirs, "index", str(source))
    assert code == EXIT_STORE
    assert "another application's database (application_id 0x47504b47)" in err
    assert theirs.read_bytes() == before


@pytest.mark.parametrize(
    "content", [b"name,value\nx,1\n", bytes(range(256)) * 40], ids=["text", "binary"]
)
def test_a_file_that_is_not_sqlite_is_refused_and_left_untouched(
    tmp_path: Path, source: Path, content: bytes
) -> None:
    bad = tmp_path / "notes.db"
    bad.write_bytes(content)
    for args in [("index", str(source)), *READERS]:
        code, _, err = run(bad, *args)
        assert code == EXIT_STORE, (args, err)
        assert f"error: {bad} is not an SQLite database, so not an errordex store" in err
    assert files_of(tmp_path) == {"notes.db": hashlib.sha256(content).hexdigest()}


def test_a_new_store_carries_the_application_id(store: Path) -> None:
    with sqlite3.connect(store) as conn:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    conn.close()


def test_a_store_from_before_the_application_id_is_read_and_stamped_by_index(
    store: Path, source: Path
) -> None:
    with sqlite3.connect(store) as conn:
        conn.execute("PRAGMA application_id = 0")  # as every store written before it
    conn.close()
    code, out, _ = run(store, "list")
    assert code == 0 and "empty input is not allowed" in out
    with sqlite3.connect(store) as conn:  # reading does not stamp it
        assert conn.execute("PRAGMA application_id").fetchone()[0] == 0
    conn.close()
    code, _, err = run(store, "index", str(source), "--name", "acme/parse")
    assert code == 0, err
    with sqlite3.connect(store) as conn:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    conn.close()


# -- item 6: a damaged store --------------------------------------------------


def damage_pages(db: Path, *tables: str) -> None:
    """Overwrite the b-tree header of the root page of each of ``tables`` (pages
    in the middle of the file), as a bad sector or a torn copy would."""
    with sqlite3.connect(db) as conn:
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        marks = ", ".join("?" * len(tables))
        roots = conn.execute(
            f"SELECT rootpage FROM sqlite_master WHERE name IN ({marks})", tables
        ).fetchall()
    conn.close()
    data = bytearray(db.read_bytes())
    assert len(roots) == len(tables) and all(1 < r < len(data) // size for (r,) in roots)
    for (root,) in roots:
        start = (root - 1) * size
        data[start : start + 12] = b"\xa5" * 12
    db.write_bytes(bytes(data))


def damage_blob(db: Path, sql: str) -> None:
    """Flip bytes in the middle of one zlib-compressed value, in place in the
    file: SQLite's pages stay sound, the value no longer inflates."""
    with sqlite3.connect(db) as conn:
        blob = conn.execute(sql).fetchone()[0]
    conn.close()
    data = bytearray(db.read_bytes())
    at = data.find(blob)
    assert at > 0 and len(blob) > 16
    mid = at + len(blob) // 2
    data[mid : mid + 4] = bytes(b ^ 0xFF for b in data[mid : mid + 4])
    db.write_bytes(bytes(data))


def test_a_damaged_store_is_reported_with_the_fix_and_not_written(
    store: Path, source: Path
) -> None:
    damage_pages(store, "entries", "sites")
    damaged = store.read_bytes()
    said = (
        f"error: the database at {store} is damaged (database disk image is malformed):"
        f" remove it and index again (`sqlite3 {store} .recover` may save what it still holds)"
    )
    for args in [("stats",), ("list",), ("explain", "ValueError: empty input is not allowed")]:
        code, _, err = run(store, *args)
        assert (code, err) == (EXIT_STORE, said), args
    code, _, err = run(store, "verify")  # checks the pages first
    assert code == EXIT_STORE and f"the database at {store} is damaged (" in err
    assert store.read_bytes() == damaged
    before = files_of(store.parent)
    (source / "more.py").write_text('raise KeyError("one more")\n')
    code, _, err = run(store, "index", str(source), "--name", "acme/parse")
    assert code == EXIT_STORE and f"the database at {store} is damaged (" in err
    assert "remove it and index again" in err
    assert files_of(store.parent) == before


def test_index_refuses_a_store_damaged_where_it_would_not_write(store: Path, source: Path) -> None:
    # snapshot_idents is read for old snapshots only and never written now:
    # an index would write around the damage and say nothing
    damage_pages(store, "snapshot_idents")
    before = files_of(store.parent)
    (source / "more.py").write_text('raise KeyError("one more")\n')  # a new snapshot
    code, _, err = run(store, "index", str(source), "--name", "acme/parse")
    assert code == EXIT_STORE
    assert err.startswith(f"error: the database at {store} is damaged (")
    assert files_of(store.parent) == before


def test_a_stored_analysis_that_does_not_inflate_is_reported_as_damage(store: Path) -> None:
    damage_blob(store, "SELECT data FROM analyses LIMIT 1")
    code, _, err = run(store, "verify")
    assert code == EXIT_STORE
    assert err.startswith(
        f"error: the database at {store} is damaged (Error -3 while decompressing"
    )


def test_a_stored_file_text_that_does_not_inflate_is_reported_as_damage(store: Path) -> None:
    damage_blob(store, "SELECT text FROM files WHERE path = 'parse.py'")
    code, out, _ = run(store, "list", "--json")
    entry = out.split('"id": "')[1][:16]
    code, _, err = run(store, "show", entry)
    assert code == EXIT_STORE
    assert err.startswith(
        f"error: the database at {store} is damaged (Error -3 while decompressing"
    )


# -- item 7: a read-only store ------------------------------------------------


@contextmanager
def read_only(*paths: Path) -> Iterator[None]:
    """Make ``paths`` read-only even for root: ``chattr +i`` (skip where the
    file system does not have it); as another user, their write bits."""
    import os

    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in paths}
        for p in paths:
            p.chmod(modes[p] & ~0o222)
        try:
            yield
        finally:
            for p in paths:
                p.chmod(modes[p])
        return
    done: list[Path] = []
    try:
        for p in paths:
            got = subprocess.run(["chattr", "+i", str(p)], capture_output=True, text=True)
            if got.returncode != 0:
                pytest.skip(f"chattr +i does not work here: {got.stderr.strip()}")
            done.append(p)
        yield
    finally:
        for p in done:
            subprocess.run(["chattr", "-i", str(p)], check=True)


def test_index_into_a_read_only_store_is_refused_before_the_run(
    store: Path, source: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "no-such-dir"  # a source that cannot be read: never reached
    with read_only(store):
        code, _, err = run(store, "index", str(missing))
        assert code == EXIT_STORE
        assert err == (
            f"error: cannot write the database at {store} (attempt to write a readonly"
            " database): index needs the file and its directory writable (the commands"
            " that only read work without)"
        )
        code, out, err = run(store, "list")
        assert code == 0 and "empty input is not allowed" in out, err


def test_every_reading_command_works_in_a_read_only_directory(store: Path) -> None:
    before = files_of(store.parent)
    with read_only(store, store.parent):
        code, out, err = run(store, "list")
        assert code == 0 and "empty input is not allowed" in out, err
        code, out, err = run(store, "stats")
        assert code == 0 and "acme/parse" in out, err
        code, out, err = run(store, "explain", "ValueError: empty input is not allowed")
        assert code == 0 and "parse.py" in out, err
        code, _, err = run(store, "verify")
        assert code == 0, err
        code, _, err = run(store, "index", str(store.parent))
        assert code == EXIT_STORE and f"cannot write the database at {store}" in err
    assert files_of(store.parent) == before


def test_an_older_store_in_a_read_only_directory_says_it_needs_an_upgrade(store: Path) -> None:
    with sqlite3.connect(store) as conn:  # as errordex wrote it before m004
        conn.execute("DROP TABLE snapshot_ident_names")
        conn.execute("DELETE FROM _migrations WHERE name = 'm004_ident_names'")
    conn.close()
    with read_only(store, store.parent):
        code, _, err = run(store, "list")
    assert code == EXIT_STORE
    assert err == (
        f"error: the store at {store} was written by an older errordex and must be upgraded"
        " once, which needs the file and its directory writable"
    )
    code, out, err = run(store, "list")
    assert code == 0 and "empty input is not allowed" in out, err


# -- item 8: a store that does not exist --------------------------------------


def test_reading_a_store_that_does_not_exist_says_so_and_creates_nothing(tmp_path: Path) -> None:
    typo = tmp_path / "typo" / "errdex.db"
    for args in [*READERS, ("export", str(tmp_path / "site"))]:
        code, out, err = run(typo, *args)
        assert (code, out) == (EXIT_STORE, ""), args
        assert err == (
            f"error: there is no errordex store at {typo}: run `errordex index SOURCE` to create"
            " it, or name the right one with --db or ERRORDEX_DB"
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    typo.parent.mkdir()
    typo.touch()  # an empty file is no store either
    code, _, err = run(typo, "stats")
    assert code == EXIT_STORE and "there is no errordex store at" in err
    assert typo.read_bytes() == b""
