"""Run the web app with uvicorn (``errordex serve``).

Rendering a page is CPU work under the GIL, so one process uses one core:
``workers`` > 1 starts that many uvicorn worker processes on the same socket,
each opening its own connections to the database (nothing SQLite is shared
across a fork) and keeping its own page cache.
"""

from __future__ import annotations

import errno
import os
import socket

import uvicorn
from fastapi import FastAPI

from errordex.errors import InputError
from errordex.store import open_store
from errordex.store.base import Store
from errordex.web.app import create_app
from errordex.web.context import report_target
from errordex.web.urls import site_base

#: how the supervisor tells each worker process what to serve
DB_ENV = "ERRORDEX_SERVE_DB"
CACHE_ENV = "ERRORDEX_SERVE_CACHE"
BASE_URL_ENV = "ERRORDEX_SERVE_BASE_URL"
REPORT_URL_ENV = "ERRORDEX_SERVE_REPORT_URL"
DEFAULT_CACHE = 50_000


def default_workers() -> int:
    """One worker per CPU this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


def check_can_listen(host: str, port: int) -> None:
    """Raise ``InputError`` when ``host:port`` cannot be listened on (a port
    in use, a host that is not this machine's), before uvicorn would log it
    and exit: the socket is bound as uvicorn binds it, then closed."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        raise InputError(f"--host {host!r}: {exc.strerror}") from None
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as exc:
            hint = (
                " (another server? choose another --port)" if exc.errno == errno.EADDRINUSE else ""
            )
            raise InputError(f"cannot listen on {host}:{port}: {exc.strerror}{hint}") from None


def worker_app() -> FastAPI:
    """The app of one worker process (a uvicorn factory): its own store."""
    store = open_store(os.environ[DB_ENV])
    return create_app(
        store,
        cache_size=int(os.environ.get(CACHE_ENV, DEFAULT_CACHE)),
        base_url=os.environ.get(BASE_URL_ENV) or None,
        report_url=os.environ.get(REPORT_URL_ENV) or None,
    )


def serve(
    store: Store,
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int | None = None,
    cache_size: int = DEFAULT_CACHE,
    base_url: str | None = None,
    report_url: str | None = None,
) -> None:
    """Serve ``store`` until interrupted, with ``workers`` processes (default: one
    per CPU). Sync work runs in each process's threadpool, each thread with its
    own SQLite connection. ``base_url`` and ``report_url``: see ``create_app``."""
    if base_url:  # a bad URL is one clear error before anything starts
        site_base(base_url)
    report_target(report_url)
    check_can_listen(host, port)
    workers = default_workers() if workers is None else max(1, workers)
    if workers == 1:
        app = create_app(store, cache_size=cache_size, base_url=base_url, report_url=report_url)
        uvicorn.run(app, host=host, port=port, log_level="info", access_log=False)
        return
    os.environ[DB_ENV] = store.url
    os.environ[CACHE_ENV] = str(cache_size)
    os.environ[BASE_URL_ENV] = base_url or ""
    os.environ[REPORT_URL_ENV] = report_url or ""
    store.close()  # the workers open their own connections
    uvicorn.run(
        "errordex.web.server:worker_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level="info",
        access_log=False,
    )
