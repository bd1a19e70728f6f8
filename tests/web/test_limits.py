"""What a hostile client can make the server hold: the page cache and request
bodies stay bounded. Measured by what the server accounts and answers, against
a real uvicorn server over a raw socket (no timing)."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator

import pytest
from fastapi import FastAPI

from errordex.store.sqlite import SqliteStore
from errordex.web.app import PageCache, Rendered
from errordex.web.context import MAX_QUERY
from tests.web.conftest import LiveServer, live_server

#: a socket read that waits longer than this means the server is waiting for us
PATIENCE = 20


def cache_of(server: LiveServer) -> PageCache:
    app = server.server.config.app
    assert isinstance(app, FastAPI)
    cache: PageCache = app.state.cache
    return cache


def held_bytes(cache: PageCache) -> int:
    """What the cache really holds in keys and bodies, whatever it accounts."""
    return sum(len(k) + len(v.body) for k, v in cache._data.items())


def exchange(server: LiveServer, head: bytes, body: bytes = b"") -> bytes:
    """Send ``head`` (and ``body``) on a new connection; the reply's head and body."""
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=PATIENCE) as sock:
        sock.sendall(head + body)
        reply = b""
        while True:
            top, found, rest = reply.partition(b"\r\n\r\n")
            length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", top)
            if found and length and len(rest) >= int(length[1]):
                return reply
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                return reply
            if not chunk:
                return reply
            reply += chunk


def status_of(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/1.1 ") else 0


@pytest.fixture
def small_cache_server(store: SqliteStore) -> Iterator[LiveServer]:
    with live_server(store) as s:
        cache_of(s).max_bytes = 2 * 2**20
        yield s


def test_cache_stays_under_its_limit_after_400_huge_distinct_hosts(
    small_cache_server: LiveServer,
) -> None:
    server = small_cache_server
    statuses = set()
    for i in range(400):
        host = f"h{i}.".encode() + b"x" * 2**20
        reply = exchange(server, b"GET /acme/widgets HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
        statuses.add(status_of(reply))
    cache = cache_of(server)
    assert held_bytes(cache) <= cache.bytes <= cache.max_bytes
    assert statuses == {431}


def test_distinct_hosts_share_one_cache_entry(server: LiveServer) -> None:
    for i in range(400):
        host = f"h{i}.".encode() + b"x" * 8000
        reply = exchange(server, b"GET /acme/widgets HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
        assert status_of(reply) == 200
        assert b"xxxxxxxx" not in reply  # no Host reaches a page
    assert len(cache_of(server)) == 1


def test_page_cache_counts_keys_toward_its_byte_limit() -> None:
    cache = PageCache(size=100_000, max_bytes=2**20)
    cache.get("", 1)  # at data_version 1
    page = Rendered(b"<p>small</p>", "text/html", '"etag"')
    for i in range(400):
        cache.put(f"/search?q={i}{'x' * 50_000}", 1, page)
    assert held_bytes(cache) <= cache.bytes <= cache.max_bytes
    assert 0 < len(cache) < 400


def test_explain_refuses_a_300_mb_body_by_its_content_length_before_reading_it(
    server: LiveServer,
) -> None:
    # only the head is sent: a server that read the body first would wait forever
    head = (
        b"POST /explain HTTP/1.1\r\nHost: x\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n"
        b"Content-Length: 300000000\r\n\r\n"
    )
    reply = exchange(server, head, b"q=" + b"x" * 1000)
    assert status_of(reply) == 413
    assert b"connection: close" in reply.lower()


def test_explain_cuts_a_chunked_body_at_the_cap(server: LiveServer) -> None:
    # chunks past the cap and no last chunk: the answer comes at the cap
    chunk = b"x" * 16384
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(12))
    assert len(chunk) * 12 > 4 * MAX_QUERY  # the cap
    head = (
        b"POST /explain HTTP/1.1\r\nHost: x\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    reply = exchange(server, head, b"5\r\nq=abc\r\n" + chunks)
    assert status_of(reply) == 413


def test_explain_still_takes_a_paste_without_content_length(server: LiveServer) -> None:
    body = b"q=ValueError%3A+value+must+be+positive%2C+got+-1"
    head = (
        b"POST /explain HTTP/1.1\r\nHost: x\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    reply = exchange(server, head, b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
    assert status_of(reply) == 303 and b"location: /acme/widgets/errors/" in reply.lower()


def test_oversized_headers_are_refused_with_431_in_the_error_shape(server: LiveServer) -> None:
    big = b"X-Junk: " + b"j" * 20_000 + b"\r\n"
    reply = exchange(server, b"GET /api/repos HTTP/1.1\r\nHost: x\r\n" + big + b"\r\n")
    assert status_of(reply) == 431
    assert b'"ok":false' in reply and b'"status":431' in reply
    # closed, not kept alive holding the head (uvicorn keeps a connection 5 s)
    assert b"connection: close" in reply.lower()
