"""The ASGI app: HTML pages, their JSON twins and the JSON API.

Each route calls one context builder (``web.context``) and renders the dict
either as HTML (Jinja2, autoescaped) or as JSON. Every error, HTML or JSON,
comes from one place (``error_response``); JSON errors have one shape::

    {"ok": false, "error": "no error with id '…'", "status": 404}

SQLite connections are not shared between threads: sync work runs in the
threadpool, and each thread opens its own read connection (``ThreadStores``).
Rendered pages are cached in memory and the cache is dropped as soon as
another connection commits (a re-index), which ``PRAGMA data_version`` tells.

What a client sends is bounded before it is read: headers (``HeadLimit``,
431), the URL (414) and the paste a form posts (``read_capped``, 413). No
header shapes a page, so none is part of a cache key.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import parse_qsl

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from errordex import __version__
from errordex.errors import NotFound, StoreError
from errordex.store.base import Store
from errordex.views import SCHEMA_VERSION
from errordex.web import context as ctxs
from errordex.web.pages import Pages
from errordex.web.urls import Urls, site_base

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).parent / "static"

#: No inline script or style anywhere; JSON-LD blocks are data, not script.
CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """Adds the security headers to every response (pure ASGI: no buffering)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


#: the most a request's headers may hold, the same as uvicorn's h11 default;
#: httptools has no limit, and 400 requests with a 1 MB Host each took a worker
#: from 335 to 721 MB while the cache was keyed on the Host
MAX_HEADER_BYTES = 16 * 1024
#: the most a request's path and query may hold: a pasted traceback of
#: ``MAX_QUERY`` characters, percent-encoded
MAX_TARGET_BYTES = 4 * ctxs.MAX_QUERY + 1024


class HeadLimit:
    """Answers 431 to a request whose headers hold more than ``MAX_HEADER_BYTES``,
    and 414 to one whose path and query hold more than ``MAX_TARGET_BYTES``,
    before anything else reads them."""

    def __init__(self, app: ASGIApp, refuse: Callable[[Scope, int, str], Response]) -> None:
        self.app = app
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal: tuple[int, str] | None = None
            target = len(scope.get("raw_path") or b"") + len(scope.get("query_string", b""))
            if sum(len(k) + len(v) + 4 for k, v in scope["headers"]) > MAX_HEADER_BYTES:
                refusal = 431, f"request header fields too large (over {MAX_HEADER_BYTES} bytes)"
            elif target > MAX_TARGET_BYTES:
                refusal = 414, f"URL too long (over {MAX_TARGET_BYTES} bytes)"
            if refusal is not None:
                refused = self.refuse(scope, *refusal)
                # closed at once: a kept-alive connection would hold the head till it times out
                refused.headers["connection"] = "close"
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)


def cache_key(scope: Scope) -> str:
    """The cache key of a request: its path and query only. Nothing the client
    sends in a header shapes a page (links are relative or built on the
    configured base URL), so a forged Host can neither poison nor grow the cache."""
    query = scope.get("query_string", b"").decode("latin-1")
    return f"{scope.get('root_path', '')}{scope['path']}?{query}"


class CachedPages:
    """Answers a GET from the page cache before routing (the hot path); a miss
    goes on to the app, which renders and fills the cache."""

    def __init__(self, app: ASGIApp, cache: PageCache, stores: ThreadStores) -> None:
        self.app = app
        self.cache = cache
        self.stores = stores

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET" or self.cache.size <= 0:
            await self.app(scope, receive, send)
            return
        try:
            version = self.stores.get().data_version()
        except StoreError:  # the app answers (a 503 in the error shape)
            version = None
        hit = None if version is None else self.cache.get(cache_key(scope), version)
        if hit is None:
            await self.app(scope, receive, send)
            return
        etag = hit.etag.encode()
        if any(k == b"if-none-match" and v == etag for k, v in scope["headers"]):
            await send({"type": "http.response.start", "status": 304, "headers": [(b"etag", etag)]})
            await send({"type": "http.response.body", "body": b""})
            return
        headers = [
            (b"content-type", hit.media_type.encode()),
            (b"content-length", str(len(hit.body)).encode()),
            (b"etag", etag),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": hit.body})


class ThreadStores:
    """One store per thread (``Store.for_thread``): SQLite's connections are
    its own (WAL mode: readers do not block each other or a writer)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._local = threading.local()
        self._local.store = store  # the creating thread keeps the caller's store
        self._lock = threading.Lock()
        self._opened: list[Store] = []

    def get(self) -> Store:
        store: Store | None = getattr(self._local, "store", None)
        if store is None:
            store = self._store.for_thread()
            self._local.store = store
            with self._lock:
                self._opened.append(store)
        return store

    def close(self) -> None:
        """Close the connections the threads opened (after the server stopped)."""
        with self._lock:
            for s in self._opened:
                s.close()
            self._opened.clear()


@dataclass(frozen=True)
class Rendered:
    body: bytes
    media_type: str
    etag: str


class PageCache:
    """An LRU of rendered responses, bounded in count and in bytes (keys and
    bodies both count), valid for one ``data_version`` of the store (any commit
    by another connection clears it)."""

    #: what an entry costs beyond its key and body: the dict slot, the Rendered,
    #: its ETag and media type (measured with sys.getsizeof: about 400 bytes)
    ENTRY_OVERHEAD = 512

    def __init__(self, size: int, max_bytes: int = 128 * 2**20) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.bytes = 0
        self._data: OrderedDict[str, Rendered] = OrderedDict()
        self._version: int | None = None
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._data)

    @classmethod
    def cost(cls, key: str, value: Rendered) -> int:
        """The bytes ``key`` and ``value`` are accounted for."""
        return len(key) + len(value.body) + cls.ENTRY_OVERHEAD

    def get(self, key: str, version: int) -> Rendered | None:
        with self._lock:
            if version != self._version:
                self._data.clear()
                self.bytes = 0
                self._version = version
                return None
            hit = self._data.get(key)
            if hit is not None:
                self._data.move_to_end(key)
            return hit

    def put(self, key: str, version: int, value: Rendered) -> None:
        cost = self.cost(key, value)
        if self.size <= 0 or cost > self.max_bytes // 8:
            return
        with self._lock:
            if version != self._version:
                return
            old = self._data.pop(key, None)
            self.bytes += cost - (self.cost(key, old) if old else 0)
            self._data[key] = value
            while len(self._data) > self.size or self.bytes > self.max_bytes:
                dropped_key, dropped = self._data.popitem(last=False)
                self.bytes -= self.cost(dropped_key, dropped)


# Query parameters, validated by FastAPI (a bad value is a 422 in the one error shape).
Page = Annotated[int, Query(ge=1, le=100_000)]
PerPage = Annotated[int, Query(ge=1, le=ctxs.MAX_PER_PAGE)]
Filter = Annotated[str | None, Query(max_length=ctxs.MAX_FILTER)]
Text = Annotated[str, Query(max_length=ctxs.MAX_QUERY)]


#: the most ``POST /explain`` reads: a form with ``MAX_QUERY`` characters of
#: paste, percent-encoded
MAX_PASTE_BYTES = 4 * ctxs.MAX_QUERY


async def read_capped(request: Request, cap: int) -> bytes | None:
    """The request's body, or None when it is longer than ``cap`` bytes: refused
    by its Content-Length before a byte is read, else as soon as the stream
    passes the cap (a 300 MB body took the server from 70 to 581 MB)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > cap):
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > cap:
            return None
    return bytes(body)


def _is_json_path(path: str) -> bool:
    return path.startswith("/api/") or path.endswith(".json")


def _rendered(body: bytes, media_type: str) -> Rendered:
    return Rendered(body, media_type, '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"')


def create_app(
    store: Store,
    cache_size: int = 50_000,
    base_url: str | None = None,
    report_url: str | None = None,
) -> FastAPI:
    """The web app over ``store``. Up to ``cache_size`` rendered pages (and 128 MB)
    are kept in memory; 0 turns the cache off.

    ``base_url`` is the site's public URL (``urls.site_base``): canonical links
    and the sitemap are built on it. Without it canonical links are relative and
    there is no sitemap; the Host header is never used. ``report_url`` is where
    "Report a wrong page" files an issue (default: errordex's own tracker).
    """
    site_url = site_base(base_url) if base_url else None
    report_to = ctxs.report_target(report_url)
    stores = ThreadStores(store)
    cache = PageCache(cache_size)
    app = FastAPI(
        title="errordex",
        version=__version__,
        description="The errors a repository can throw, one page each. JSON schema version "
        f"{SCHEMA_VERSION}; every error response is "
        '`{"ok": false, "error": "...", "status": N}`.',
        openapi_url="/openapi.json",
        docs_url=None,  # the Swagger page needs inline scripts and a CDN
        redoc_url=None,
    )
    app.state.stores = stores
    app.state.cache = cache

    def pages_at(scope: Scope) -> Pages:
        root = scope.get("root_path", "").rstrip("/") + "/"
        return Pages(Urls(root), site=site_url or root)

    def pages_for(request: Request) -> Pages:
        return pages_at(request.scope)

    def error_response(scope: Scope, status: int, message: str) -> Response:
        """Every error, HTML or JSON (the one shape), by the path asked for."""
        if _is_json_path(scope["path"]):
            return JSONResponse({"ok": False, "error": message, "status": status}, status)
        html = pages_at(scope).error(status, message)
        return Response(html, status, media_type="text/html; charset=utf-8")

    def _error(request: Request, status: int, message: str) -> Response:
        return error_response(request.scope, status, message)

    app.add_middleware(CachedPages, cache=cache, stores=stores)
    app.add_middleware(HeadLimit, refuse=error_response)
    app.add_middleware(SecurityHeaders)

    async def cached(
        request: Request, build: Callable[[Store], Rendered], cache_it: bool = True
    ) -> Response:
        """Serve ``build(store)`` from the cache or the threadpool, with an ETag."""
        key = cache_key(request.scope)
        version = stores.get().data_version()
        hit = cache.get(key, version) if cache_it else None
        if hit is None:
            hit = await run_in_threadpool(lambda: build(stores.get()))
            if cache_it:
                cache.put(key, version, hit)
        if request.headers.get("if-none-match") == hit.etag:
            return Response(status_code=304, headers={"etag": hit.etag})
        return Response(hit.body, media_type=hit.media_type, headers={"etag": hit.etag})

    def as_json(ctx: Mapping[str, Any]) -> Rendered:
        body = json.dumps(ctx, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return _rendered(body.encode("utf-8"), "application/json")

    def as_html(html: str) -> Rendered:
        return _rendered(html.encode("utf-8"), "text/html; charset=utf-8")

    # -- errors ------------------------------------------------------------

    @app.exception_handler(NotFound)
    async def not_found(request: Request, exc: NotFound) -> Response:
        return _error(request, 404, str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        message = str(exc.detail) if exc.status_code != 404 else "page not found"
        return _error(request, exc.status_code, message)

    @app.exception_handler(RequestValidationError)
    async def bad_params(request: Request, exc: RequestValidationError) -> Response:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'request'}: {e.get('msg')}"
            for e in exc.errors()
        )
        return _error(request, 422, f"invalid parameters: {problems}")

    @app.exception_handler(StoreError)
    @app.exception_handler(sqlite3.DatabaseError)
    async def store_unreadable(request: Request, exc: Exception) -> Response:
        # a damaged or vanished store: the operator's to fix (the log says
        # how); the visitor is told it is not their request, and no path
        log.error("the store cannot be read while serving %s: %s", request.url.path, exc)
        return _error(request, 503, "the error database cannot be read right now")

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception) -> Response:
        log.exception("error while serving %s", request.url.path)
        return _error(request, 500, "internal server error")

    # -- pages and their JSON twins ------------------------------------------

    def _none(value: str | None) -> str | None:
        return value.strip() or None if value else None

    @app.get("/", include_in_schema=False)
    async def home(request: Request) -> Response:
        pages = pages_for(request)
        return await cached(request, lambda s: as_html(pages.home(ctxs.home_context(s))))

    @app.get("/index.json", summary="The indexed repositories (home page data)")
    async def home_json(request: Request) -> Response:
        return await cached(request, lambda s: as_json(ctxs.home_context(s)))

    @app.get("/api/repos", summary="The indexed repositories, with their entry counts")
    async def api_repos(request: Request) -> Response:
        return await cached(request, lambda s: as_json(ctxs.home_context(s)))

    def _search(request: Request, q: str, html: bool) -> Callable[[Store], Rendered]:
        pages = pages_for(request)

        def build(s: Store) -> Rendered:
            ctx = ctxs.search_context(s, q)
            return as_html(pages.search(ctx)) if html else as_json(ctx)

        return build

    @app.get("/search", include_in_schema=False)
    async def search(request: Request, q: Text = "") -> Response:
        return await cached(request, _search(request, q, html=True))

    @app.get("/search.json", summary="Search (the JSON twin of /search)")
    async def search_json(request: Request, q: Text = "") -> Response:
        return await cached(request, _search(request, q, html=False))

    @app.get("/api/search", summary="Rank the errors that match pasted text")
    async def api_search(request: Request, q: Text = "") -> Response:
        return await cached(request, _search(request, q, html=False))

    @app.post("/explain", include_in_schema=False)
    async def explain(request: Request) -> Response:
        """The paste box posts here when the text is too long for a URL."""
        body = await read_capped(request, MAX_PASTE_BYTES)
        if body is None:
            refused = _error(request, 413, "the pasted text is too long")
            refused.headers["connection"] = "close"  # the rest of the body is not read
            return refused
        form = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
        q = form.get("q", "")[: ctxs.MAX_QUERY]
        pages = pages_for(request)
        ctx = await run_in_threadpool(lambda: ctxs.search_context(stores.get(), q))
        best = ctxs.sole_match(ctx)
        if best is not None:  # the answer is an entry: go to its page, with the values
            url = pages.urls.error(best["repo"], best["id"], best["values"])
            if best.get("site"):  # and the site the traceback shows, first on the page
                url += ("&" if "?" in url else "?") + ctxs.site_query(best["site"])
            if best.get("your_call"):  # and where the stack went into the library
                url += ("&" if "?" in url else "?") + ctxs.call_query(best["your_call"])
            return RedirectResponse(url, status_code=303)
        if len(q) <= 1500:
            return RedirectResponse(pages.urls.search(q), status_code=303)
        html = pages.search(ctx)
        return Response(html, media_type="text/html; charset=utf-8")

    def _catalog(
        request: Request,
        owner: str,
        repo: str,
        html: bool,
        kind: str | None,
        path: str | None,
        q: str | None,
        page: int,
        per_page: int,
    ) -> Callable[[Store], Rendered]:
        pages = pages_for(request)
        slug = f"{owner}/{repo}"

        def build(s: Store) -> Rendered:
            ctx = ctxs.catalog_context(
                s, slug, _none(kind), _none(path), _none(q), page=page, per_page=per_page
            )
            return as_html(pages.catalog(ctx)) if html else as_json(ctx)

        return build

    @app.get(
        "/api/repos/{owner}/{repo}/errors", summary="One page of a repository's errors, filtered"
    )
    async def api_repo_errors(
        request: Request,
        owner: str,
        repo: str,
        kind: Filter = None,
        path: Filter = None,
        q: Filter = None,
        page: Page = 1,
        per_page: PerPage = ctxs.PER_PAGE,
    ) -> Response:
        return await cached(
            request, _catalog(request, owner, repo, False, kind, path, q, page, per_page)
        )

    def _error_page(
        request: Request, slug: str | None, entry_id: str, html: bool
    ) -> Callable[[Store], Rendered]:
        pages = pages_for(request)
        values = ctxs.clean_values(request.query_params)
        site = ctxs.clean_site(request.query_params)
        call = ctxs.clean_call(request.query_params)

        def build(s: Store) -> Rendered:
            ctx = ctxs.error_context(
                s, slug, entry_id, values, site, report_to=report_to, call=call
            )
            if not html:
                return as_json(ctx)
            return as_html(pages.error_page(ctx, ctxs.file_reader(s, ctx["repo"])))

        return build

    @app.get("/api/errors/{entry_id}", summary="One error: the public JSON contract")
    async def api_error(request: Request, entry_id: str) -> Response:
        return await cached(request, _error_page(request, None, entry_id, html=False))

    @app.get("/sitemap.xml", include_in_schema=False)
    async def sitemap(request: Request) -> Response:
        pages = pages_for(request)

        if not pages.absolute:
            return _error(request, 404, "no sitemap: the site's public URL is not configured")

        def build(s: Store) -> Rendered:
            return _rendered((pages.sitemap(s) or "").encode(), "application/xml")

        return await cached(request, build)

    @app.get("/robots.txt", include_in_schema=False)
    async def robots(request: Request) -> Response:
        body = pages_for(request).robots().encode()
        return Response(body, media_type="text/plain; charset=utf-8")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/{owner}/{repo}.json", summary="The catalog of a repository (JSON twin)")
    async def catalog_json(
        request: Request,
        owner: str,
        repo: str,
        kind: Filter = None,
        path: Filter = None,
        q: Filter = None,
        page: Page = 1,
        per_page: PerPage = ctxs.PER_PAGE,
    ) -> Response:
        return await cached(
            request, _catalog(request, owner, repo, False, kind, path, q, page, per_page)
        )

    @app.get("/{owner}/{repo}", include_in_schema=False)
    async def catalog(
        request: Request,
        owner: str,
        repo: str,
        kind: Filter = None,
        path: Filter = None,
        q: Filter = None,
        page: Page = 1,
        per_page: PerPage = ctxs.PER_PAGE,
    ) -> Response:
        return await cached(
            request, _catalog(request, owner, repo, True, kind, path, q, page, per_page)
        )

    @app.get("/{owner}/{repo}/errors/{entry_id}.json", summary="One error (JSON twin of its page)")
    async def error_json(request: Request, owner: str, repo: str, entry_id: str) -> Response:
        return await cached(request, _error_page(request, f"{owner}/{repo}", entry_id, False))

    @app.get("/{owner}/{repo}/errors/{entry_id}", include_in_schema=False)
    async def error_page(request: Request, owner: str, repo: str, entry_id: str) -> Response:
        return await cached(request, _error_page(request, f"{owner}/{repo}", entry_id, True))

    return app
