"""The web site on the PostgreSQL store: the same pages as on SQLite, and
``errordex serve --workers 2`` with each worker on its own pool."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from errordex.llm import prompt as prompts
from errordex.llm import prose
from errordex.pipeline import index
from errordex.store.base import Store
from errordex.store.postgres.store import PostgresStore
from errordex.store.sqlite import SqliteStore
from errordex.views import entry_json
from errordex.web import context as ctxs
from errordex.web.app import create_app
from tests.pgserver import PgServer
from tests.web.conftest import build_store, fill_store
from tests.web.real import click_store
from tests.web.test_server import SERVE_CLI, fetch


@pytest.fixture
def pg_store(pg_url: str) -> Iterator[PostgresStore]:
    store = PostgresStore(pg_url)
    fill_store(store)
    yield store
    store.close()


def site_urls(store: SqliteStore) -> list[str]:
    urls = ["/", "/index.json", "/api/repos", "/robots.txt", "/openapi.json"]
    for r in store.repos():
        slug = r.repo.slug
        urls += [f"/{slug}", f"/{slug}.json", f"/{slug}?page=2", f"/{slug}?kind=raise"]
        urls += [f"/{slug}?q=value", f"/{slug}?path=src/widgets"]
        for e in store.entries(repo=slug, include_test_only=True):
            urls += [f"/{slug}/errors/{e.id}", f"/{slug}/errors/{e.id}.json"]
            urls += [f"/api/errors/{e.id}"]
    for q in ("value must be positive, got 3", "index 7 out of range", "filler error number 12"):
        urls += [f"/search?q={q}", f"/search.json?q={q}", f"/api/search?q={q}"]
    urls += ["/api/errors/ffffffffffffffff", "/nobody/nothing"]
    return urls


def test_every_page_on_postgres_is_the_page_on_sqlite(
    tmp_path: Path, pg_store: PostgresStore
) -> None:
    lite = build_store(tmp_path / "db.sqlite")
    urls = site_urls(lite)
    pages: list[dict[str, tuple[int, bytes]]] = []
    for store in (lite, pg_store):
        app = create_app(store, base_url="https://errors.example.org/")
        with TestClient(app) as client:
            got = {}
            for u in [*urls, "/sitemap.xml"]:
                r = client.get(u)
                got[u] = (r.status_code, r.content)
            pages.append(got)
        app.state.stores.close()
    assert len(urls) > 100
    for u in pages[0]:
        assert pages[1][u] == pages[0][u], u
    lite.close()


def test_serve_with_two_worker_processes_on_postgres(pg_store: PostgresStore) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "ERRORDEX_DB": pg_store.url}
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE_CLI, "serve", "--port", str(port), "--workers", "2"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(url + "/robots.txt", timeout=1).read()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "did not start"
                time.sleep(0.1)
        ids = [e.id for e in pg_store.entries(repo="acme/widgets")][:10]
        urls = [f"{url}/acme/widgets/errors/{i}" for i in ids] + [f"{url}/acme/widgets"]
        urls += [f"{url}/search?q=filler+error+number+{n}" for n in range(5)]
        with ThreadPoolExecutor(max_workers=8) as pool:
            got = list(pool.map(fetch, urls * 4))
        assert all(status == 200 for status, _ in got)
        assert got[: len(urls)] == got[len(urls) : 2 * len(urls)]
        # two processes, each with its own pool of connections to the server
        names = {
            r[0]
            for r in pg_store.conn.execute(
                "SELECT application_name FROM pg_stat_activity"
                " WHERE datname = current_database() AND application_name LIKE 'errordex %'"
            )
        }
        assert len(names - {f"errordex {os.getpid()}"}) == 2
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=15)
    assert b"Traceback" not in err


def test_a_database_that_goes_away_is_a_503_and_serving_resumes_when_it_is_back(
    pg_server: PgServer, pg_store: PostgresStore
) -> None:
    app = create_app(pg_store)
    with TestClient(app) as client:
        assert client.get("/acme/widgets.json").status_code == 200
        pg_server.stop_only()
        try:
            assert client.get("/acme/widgets").status_code == 503
            assert client.get("/index.json").json() == {
                "ok": False,
                "error": "the error database cannot be read right now",
                "status": 503,
            }
        finally:
            pg_server.start_again()
        # the pool reconnects on its own backoff (1 s, then doubling)
        deadline = time.monotonic() + 60
        while client.get("/acme/widgets.json").status_code != 200:
            assert time.monotonic() < deadline, "did not resume"
            time.sleep(0.5)
    app.state.stores.close()


class _Counted:
    """A store's statements, counted (the PostgreSQL store's ``conn``)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.dialect = conn.dialect
        self.run: list[str] = []

    def execute(self, sql: str, parameters: Any = (), /) -> Any:
        self.run.append(sql)
        return self.conn.execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> Any:
        return self.conn.executemany(sql, parameters)


def _prose_for(store: Store, slug: str, entry_id: str, text: str) -> None:
    """A checked summary written for the entry's current facts (``llm/prose``),
    and two records that must not be shown: another prompt's, and an older one."""
    data = entry_json(store.entry(entry_id, slug), store.current(slug), store, prose=False)
    lines = lambda path: (store.file_text(store.current(slug).id, path) or "").splitlines()  # noqa: E731
    built = prompts.build(data, lines)
    assert built is not None
    summary = {**data["analysis"]["summary"], "text": text}
    for hash_, model, at, said in (
        (built.hash, "model-a", "2026-12-02T00:00:00+00:00", text),
        (built.hash, "model-b", "2026-12-01T00:00:00+00:00", "older"),
        ("another-prompt", "model-a", "2026-12-03T00:00:00+00:00", "stale facts"),
    ):
        record = {
            "prompt_hash": hash_,
            "model": model,
            "written_at": at,
            "accepted": {"summary": {**summary, "text": said}},
        }
        prose.save(store.conn, slug, entry_id, record)


def test_every_error_page_of_a_real_package_on_postgres_is_the_page_on_sqlite(
    tmp_path: Path, pg_url: str
) -> None:
    """click indexed into both stores: every error page, HTML and JSON, with a
    site chosen and values filled, and one with a model's checked prose, is
    the same byte for byte, rendered with no page cache. On PostgreSQL a page
    reads the entry, its sites, snapshot, analysis and prose in one statement,
    and its related entries in one more."""
    lite = click_store(tmp_path / "db.sqlite")
    pg = PostgresStore(pg_url)
    index("pkg:click", pg, jobs=1)
    slug = "pallets/click"
    snap = lite.current(slug)
    with_summary = [
        e.id
        for e in lite.entries(repo=slug)
        if ((lite.analysis(snap.id, e.id) or {}).get("analysis") or {}).get("summary")
    ]
    assert with_summary
    for store in (lite, pg):
        _prose_for(store, slug, with_summary[0], "Written by the model, for this test.")
    urls = []
    for e in lite.entries(repo=slug, include_test_only=True):
        urls += [f"/{slug}/errors/{e.id}", f"/{slug}/errors/{e.id}.json", f"/api/errors/{e.id}"]
        last = e.sites[-1]
        urls += [f"/{slug}/errors/{e.id}?site={last.path}:{last.line}&v.x=42"]
    pages = []
    for store in (lite, pg):
        app = create_app(store, cache_size=0)
        with TestClient(app) as client:
            pages.append({u: (r.status_code, r.content) for u in urls if (r := client.get(u))})
        app.state.stores.close()
    assert len(urls) > 400
    for u in urls:
        assert pages[1][u] == pages[0][u], u
    shown = pages[0][f"/api/errors/{with_summary[0]}"][1].decode()
    assert "Written by the model, for this test." in shown and "stale facts" not in shown
    assert sum(b'"related":[{' in body for _, body in pages[0].values()) >= 3

    counted = _Counted(pg.conn)
    pg.conn = counted  # type: ignore[assignment]
    for e in lite.entries(repo=slug)[:40]:
        counted.run.clear()
        data = ctxs.error_context(pg, slug, e.id)
        assert len(counted.run) == (2 if data["related"] else 1), (e.id, counted.run)
    pg.conn = counted.conn
    pg.close()
    lite.close()
