"""A real uvicorn server: concurrent requests on the threadpool."""

from __future__ import annotations

import urllib.request
from concurrent.futures import ThreadPoolExecutor
from urllib.error import HTTPError

from errordex.store.sqlite import SqliteStore
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
