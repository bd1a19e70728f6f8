"""A real uvicorn server: concurrent requests on the threadpool."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from urllib.error import HTTPError

import pytest

from errordex.errors import InputError
from errordex.store.sqlite import SqliteStore
from errordex.web.server import check_can_listen, default_workers, serve
from tests.web.conftest import LiveServer, live_server


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return int(r.status), bytes(r.read())
    except HTTPError as e:
        return e.code, e.read()


def test_concurrent_requests_get_the_same_pages_as_sequential(store: SqliteStore) -> None:
    with live_server(store, cache_size=0) as server:  # every request renders
        check_concurrent(server, store)


def check_concurrent(server: LiveServer, store: SqliteStore) -> None:
    ids = [e.id for e in store.entries(repo="acme/widgets")]
    urls = [f"{server.url}/acme/widgets/errors/{i}" for i in ids]
    urls += [f"{server.url}/api/errors/{i}" for i in ids]
    urls += [f"{server.url}/acme/widgets?page={p}" for p in (1, 2)]
    urls += [f"{server.url}/search?q=filler+error+number+{n}" for n in range(10)]
    expected = {u: fetch(u) for u in urls}
    with ThreadPoolExecutor(max_workers=16) as pool:
        got = list(pool.map(fetch, urls * 3))
    assert got == [expected[u] for u in urls * 3]
    assert all(status == 200 for status, _ in got)


def test_served_404_has_the_error_shape(server: LiveServer) -> None:
    status, body = fetch(f"{server.url}/api/errors/ffffffffffffffff")
    assert status == 404 and b'"ok":false' in body


SERVE_CLI = "from errordex.cli import main; main()"


def test_serve_with_two_worker_processes(store: SqliteStore) -> None:
    """``errordex serve --workers 2``: each worker opens the database itself and
    serves the same pages as the in-process app."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "ERRORDEX_DB": str(store.path)}
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE_CLI, "serve", "--port", str(port), "--workers", "2"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
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
        ids = [e.id for e in store.entries(repo="acme/widgets")][:10]
        urls = [f"{url}/acme/widgets/errors/{i}" for i in ids] + [f"{url}/acme/widgets"]
        with ThreadPoolExecutor(max_workers=8) as pool:
            got = list(pool.map(fetch, urls * 4))
        assert all(status == 200 for status, _ in got)
        assert got[: len(urls)] == got[len(urls) : 2 * len(urls)]
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def test_default_workers_is_the_cpu_count() -> None:
    assert 1 <= default_workers() <= (os.cpu_count() or 1)


def test_serve_on_a_port_in_use_is_one_clear_error(store: SqliteStore) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(InputError, match=rf"^cannot listen on 127.0.0.1:{port}: .*in use"):
            serve(store, port=port, workers=1)
    # free again: the check itself holds nothing
    check_can_listen("127.0.0.1", port)


def test_serve_on_a_host_that_is_not_this_machine_is_one_clear_error() -> None:
    with pytest.raises(InputError, match=r"^--host 'no\.such\.host\.invalid'"):
        check_can_listen("no.such.host.invalid", 8000)


def test_a_catalog_asked_for_by_many_threads_at_once_is_worked_out_once(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from errordex.web import context

    calls: list[int] = []

    def slow(real: Callable[[int], list[str]]) -> Callable[[int], list[str]]:
        def catalog_order(snapshot_id: int) -> list[str]:
            calls.append(snapshot_id)
            time.sleep(0.3)
            return real(snapshot_id)

        return catalog_order

    snap = store.current("acme/widgets")
    stores = [store.for_thread() for _ in range(8)]  # read connections of their own
    for s in stores:
        monkeypatch.setattr(s, "catalog_order", slow(s.catalog_order))
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda s: context._catalog(s, snap).order, stores))
    assert len(calls) == 1
    assert all(order == got[0] for order in got)
