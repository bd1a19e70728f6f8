"""The PostgreSQL store as a user meets it: chosen by URL, a broken URL is one
clear error with its exit code, and a server that restarts (or a process
killed) in the middle of a write leaves the previous snapshot current."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest

from errordex.errors import EXIT_STORE, NotOurDatabase, StoreError, StoreMissing
from errordex.store import migrations as sqlite_migrations
from errordex.store import open_store
from errordex.store.postgres import migrations, writer
from errordex.store.postgres.store import VERSION_TTL, PostgresStore
from errordex.store.sqlite import SqliteStore
from tests.cli.test_cli import git, repo  # noqa: F401 (the fixture)
from tests.pgserver import PgServer
from tests.store.test_postings import MESSAGES, expected, stored
from tests.store.test_sqlite import data

CLI = [sys.executable, "-m", "errordex.cli"]


def cli(url: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args],
        env={**os.environ, "ERRORDEX_DB": url, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_postgres_url_opens_the_postgres_store(pg_url: str) -> None:
    store = open_store(pg_url, write=True)
    assert isinstance(store, PostgresStore)
    store.save(data("a" * 40, ["one"]))
    store.close()
    again = open_store(pg_url)
    assert [e.message for e in again.entries()] == ["one"]
    assert again.has_snapshot("o/r", "a" * 40)
    again.close()


def test_fresh_postgres_database_has_sqlites_tables_and_migrations(
    pg_url: str, tmp_path: Path
) -> None:
    store = PostgresStore(pg_url)
    names = [r[0] for r in store.conn.execute("SELECT name FROM _migrations ORDER BY name")]
    assert names == [fn.__name__ for fn in sqlite_migrations.MIGRATIONS]
    assert [fn.__name__ for fn in migrations.MIGRATIONS] == names
    lite = SqliteStore(tmp_path / "db.sqlite")
    for table in ("repos", "snapshots", "sites", "files", "analyses", "match_docs"):
        cols = [
            r[0]
            for r in store.conn.execute(
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = ?"
                " ORDER BY ordinal_position",
                (table,),
            )
        ]
        assert cols == [r[1] for r in lite.conn.execute(f"PRAGMA table_info({table})")]
    store.close()
    lite.close()


def test_reading_an_empty_postgres_database_says_there_is_no_store(pg_url: str) -> None:
    with pytest.raises(StoreMissing, match="there is no errordex store in the database"):
        open_store(pg_url)
    proc = cli(pg_url, "list")
    assert proc.returncode == EXIT_STORE and "Traceback" not in proc.stderr


def test_a_database_of_other_tables_is_refused_and_left_untouched(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE invoices (id integer)")
    with pytest.raises(NotOurDatabase, match=r"holds other tables \(invoices\)"):
        open_store(pg_url, write=True)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        tables = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchall()
    assert tables == [("invoices",)]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.mark.parametrize(
    ("case", "said"),
    [
        ("bad host", "failed to resolve host"),
        ("refused", "Connection refused"),
        ("wrong password", 'password authentication failed for user "postgres"'),
        ("no such database", 'database "nosuchdb" does not exist'),
        ("not a database URL", "unsupported database URL"),
        ("half a URL", "unsupported database URL"),
    ],
)
def test_a_broken_database_url_is_one_clear_error_with_the_store_exit_code(
    pg_server: PgServer, case: str, said: str
) -> None:
    url = {
        "bad host": "postgresql://postgres@no-such-host.invalid/errordex",
        "refused": f"postgresql://postgres@127.0.0.1:{_closed_port()}/errordex",
        "wrong password": pg_server.tcp_url(password="wrong"),
        "no such database": pg_server.url("nosuchdb"),
        "not a database URL": "https://example.org/errordex",
        "half a URL": "postgresql:/errordex",
    }[case]
    for command in (["index", "."], ["list"]):
        proc = cli(url, *command)
        assert proc.returncode == EXIT_STORE, proc.stderr
        assert proc.stderr.startswith("error: ") and said in proc.stderr
        assert "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1
    if case == "wrong password":
        assert "wrong" not in proc.stderr  # the password is never shown


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_a_server_restart_during_the_write_fails_cleanly_and_keeps_the_previous_snapshot(
    pg_server: PgServer, pg_url: str, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = PostgresStore(pg_url)
    store.save(data("a" * 40, MESSAGES))

    def restart_at(point: str) -> None:
        if point == "save":  # inside finish's transaction, entries and sites written
            pg_server.restart(mode)

    monkeypatch.setattr(writer, "_failpoint", restart_at)
    with pytest.raises(StoreError, match="nothing was written, the previous snapshot is intact"):
        store.save(data("b" * 40, ["brand new message"]))
    monkeypatch.undo()
    # the pool's connections died with the server: reads reconnect
    assert store.current("o/r").commit == "a" * 40
    assert not store.has_snapshot("o/r", "b" * 40)
    assert sorted(e.message for e in store.entries()) == sorted(MESSAGES)
    assert store.conn.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 1
    assert stored(store) == expected(store.conn)
    store.save(data("b" * 40, ["brand new message"]))  # and the next index goes through
    assert [e.message for e in store.entries()] == ["brand new message"]
    store.close()


def test_kill_9_during_the_write_leaves_the_previous_snapshot(
    pg_url: str,
    repo: Path,  # noqa: F811
) -> None:
    assert cli(pg_url, "index", str(repo), "--rev", "v1").returncode == 0
    before = json.loads(cli(pg_url, "list", "--json").stdout)
    for point in ("files", "analyses", "save"):
        proc = cli(pg_url, "index", str(repo), ERRORDEX_FAILPOINT=point)
        assert proc.returncode == -9
        assert json.loads(cli(pg_url, "list", "--json").stdout) == before
    stats = json.loads(cli(pg_url, "stats", "--json").stdout)
    assert stats["repos"][0]["commit"] == git(repo, "rev-parse", "v1")
    assert cli(pg_url, "index", str(repo)).returncode == 0
    store = PostgresStore(pg_url)
    assert store.current("acme/parsers").commit == git(repo, "rev-parse", "HEAD")
    assert stored(store) == expected(store.conn)
    store.close()


def test_writers_in_parallel_take_turns_and_leave_every_snapshot_whole(pg_url: str) -> None:
    PostgresStore(pg_url).close()
    failures: list[BaseException] = []

    def write(slug: str) -> None:
        try:
            store = PostgresStore(pg_url)
            for i in range(6):
                store.save(data(f"{i:040x}", [f"{slug} message {i}", *MESSAGES], slug=slug))
            store.close()
        except BaseException as exc:  # reported below
            failures.append(exc)

    threads = [threading.Thread(target=write, args=(f"o/r{n}",)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    store = PostgresStore(pg_url)
    assert [r.snapshot.commit for r in store.repos()] == [f"{5:040x}"] * 3
    assert stored(store) == expected(store.conn)
    assert store.match_status().ready
    store.close()


def test_the_page_cache_sees_a_snapshot_written_by_another_process(pg_url: str) -> None:
    reader = PostgresStore(pg_url)
    version = reader.data_version()
    other = PostgresStore(pg_url)
    other.save(data("a" * 40, ["one"]))
    assert other.for_thread().data_version() != version  # its own write: at once
    # another's: read again once VERSION_TTL has passed, in the background
    deadline = time.monotonic() + VERSION_TTL + 5
    while reader.data_version() == version:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    reader.close()
    other.close()


def test_a_message_with_a_nul_is_stored_and_read_back(pg_url: str) -> None:
    store = PostgresStore(pg_url)
    store.save(data("a" * 40, ["bad byte \x00 here", "index out of range"]))
    assert sorted(e.message for e in store.entries()) == [
        "bad byte \x00 here",
        "index out of range",
    ]
    assert stored(store) == expected(store.conn)
    store.close()


def test_the_cli_on_postgres_prints_what_it_prints_on_sqlite(
    pg_url: str,
    repo: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """index, list, show, explain, stats, verify and export through the CLI, on
    either store: the same output (but the database's name)."""
    lite = str(tmp_path / "db.sqlite")
    paste = 'Traceback (most recent call last):\n  File "parse.py", line 6, in parse\nValueError: empty input is not allowed\n'
    outputs: list[list[str]] = []
    for url in (lite, pg_url):
        got = []
        for args in (["index", str(repo), "--rev", "v1"], ["index", str(repo), "--json"]):
            proc = cli(url, *args)
            assert proc.returncode == 0, proc.stderr
        for args in (["list", "--json"], ["stats", "--json"], ["verify", "--json"]):
            proc = cli(url, *args)
            assert proc.returncode == 0, proc.stderr
            got.append(proc.stdout.replace(url, "DB"))
        entry = json.loads(got[0])[0]["id"]
        got.append(cli(url, "show", entry[:6], "--json").stdout)
        proc = subprocess.run(
            [*CLI, "explain", "-", "--json"],
            input=paste,
            env={**os.environ, "ERRORDEX_DB": url},
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 0, proc.stderr
        got.append(proc.stdout)
        out = tmp_path / f"site-{len(outputs)}"
        assert cli(url, "export", str(out)).returncode == 0
        got.append((out / "dump.jsonl").read_text())
        outputs.append(got)
    for a, b in zip(*outputs, strict=True):
        assert _steady(a) == _steady(b)


def _steady(text: str) -> str:
    """JSON output without what differs between two runs (when, how long)."""

    def drop(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: drop(v) for k, v in value.items() if k not in ("indexed_at", "seconds")}
        if isinstance(value, list):
            return [drop(v) for v in value]
        return value

    try:
        return json.dumps(drop(json.loads(text)))
    except json.JSONDecodeError:  # JSON lines (dump.jsonl)
        return "\n".join(json.dumps(drop(json.loads(line))) for line in text.splitlines())


def test_a_server_restart_while_indexing_fails_the_index_cleanly(
    pg_server: PgServer,
    pg_url: str,
    repo: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from errordex.pipeline import index

    store = PostgresStore(pg_url)
    index(str(repo), store, rev="v1", jobs=1)
    before = [(e.id, e.message) for e in store.entries()]

    def restart_at(point: str) -> None:
        if point == "files":  # the first file texts are kept: extraction goes on
            pg_server.restart()

    monkeypatch.setattr(writer, "_failpoint", restart_at)
    with pytest.raises(StoreError, match=r"lost the database .* while writing"):
        index(str(repo), store, jobs=1)
    monkeypatch.undo()
    assert [(e.id, e.message) for e in store.entries()] == before
    assert store.current("acme/parsers").commit == git(repo, "rev-parse", "v1")
    store.close()
