"""Load test of the web app on loopback.

Builds a store of >= 10,000 entries (the real sites of the installed click
package, indexed, plus synthetic variations of their messages at the same
places), starts ``errordex serve``'s app under uvicorn in a subprocess, and
drives it with wrk (or, without wrk, a small asyncio client) at 50
connections. Reports requests/s, p50 and p99 for:

- the error page (a random one of all entries per request),
- the catalog (random pages, some filtered),
- the search (real messages with made-up values),
- a static file of the same size as an error page, from the same server
  (the baseline: what uvicorn + Starlette cost with no work at all).

Each scenario runs against a server with the page cache off ("cold": every
request renders) in one worker process and in ``--workers`` processes (default:
one per CPU, like ``errordex serve``), then with the page cache on (the
default), all against the same-size static file baseline. Before a cold run,
400 random requests per worker process fill what a server keeps besides its
pages (the highlighted source files, the catalogs): without them the p99 was
the wait of the first 50 requests while a fresh process lexed click's files.

    python bench/web.py                     # 10,000+ entries, 10 s per scenario
    python bench/web.py --seconds 5 --entries 20000
    python bench/web.py --postgres          # the same on SQLite and on PostgreSQL

``--postgres`` builds the same store in a throwaway PostgreSQL server too
(Debian's, started as the tests start it: ``tests/pgserver.py``) and runs
every scenario on both, each mode on SQLite then on PostgreSQL (back to
back, so the two see the same load), then prints PostgreSQL's error page
p99 against SQLite's (issue 19: within 2x at 50 connections).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from errordex.group import group
from errordex.model import ThrowSite
from errordex.pipeline import index
from errordex.store import open_store
from errordex.store.writer import SnapshotData
from errordex.template import Text
from errordex.web.server import default_workers

SLUG = "bench/click-variants"
CONNECTIONS = 50
#: requests per worker process before a cold run is measured (see main)
COLD_WARM = 400
TARGET_P99_MS = 25.0


def build_store(db: str, entries: int) -> int:
    """Index click, then add variations of its messages until ``entries``."""
    store = open_store(db, write=True)
    index("pkg:click", store, jobs=1)
    snap = store.current("pallets/click")
    real = store.entries(repo="pallets/click")
    sites = [s for e in real for s in e.sites if not s.template.dynamic]
    # entries() may order equal messages either way; an ngettext pair shares a line
    sites.sort(key=lambda s: (s.path, s.line, s.column, s.template.key()))
    files = {p: store.file_text(snap.id, p) for p in {s.path for s in sites}}
    texts = {p: t for p, t in files.items() if t is not None}
    variant_sites: list[ThrowSite] = []
    rng = random.Random(19)  # the same store on every backend
    n = 0
    words = ["config", "stream", "option", "argument", "context", "command", "group", "value"]
    while n < entries:
        for s in sites:
            prefix = f"{rng.choice(words)} {n}: "
            parts = (Text(prefix), *s.template.parts)
            variant_sites.append(replace(s, template=replace(s.template, parts=parts)))
            n += 1
    data = SnapshotData(
        snapshot=replace(snap.snapshot, repo=replace(snap.repo, slug=SLUG)),
        forge_ref=snap.forge_ref,
        entries=group(SLUG, variant_sites),
        packages=[],
        classes=[],
        skips=[],
        files=texts,
    )
    store.save(data)
    total = store.count_entries()
    store.close()
    return total


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


SERVE = """
import os, sys
from pathlib import Path
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from errordex.store import open_store
from errordex.web.app import create_app

def make():
    app = create_app(open_store(os.environ["BENCH_DB"]), cache_size=int(os.environ["BENCH_CACHE"]))
    # before the /{owner}/{repo} routes, like the app's own /static
    app.router.routes.insert(0, Mount("/bench-static", StaticFiles(directory=os.environ["BENCH_STATIC"])))
    return app

if __name__ == "__main__":
    import uvicorn
    uvicorn.run(
        "bench_serve:make", factory=True, app_dir=os.path.dirname(__file__),
        host="127.0.0.1", port=int(sys.argv[1]), workers=int(sys.argv[2]),
        log_level="warning", access_log=False, timeout_graceful_shutdown=2,
    )
"""


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    url: str

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def start_server(db: str, cache: int, static: Path, workers: int) -> Server:
    """``errordex serve --workers N`` in a subprocess (the same uvicorn setup: a
    factory per worker process, each with its own store), plus a static mount."""
    port = free_port()
    script = static.parent / "bench_serve.py"
    script.write_text(SERVE)
    env = {
        **os.environ,
        "BENCH_DB": db,
        "BENCH_CACHE": str(cache),
        "BENCH_STATIC": str(static),
    }
    proc = subprocess.Popen([sys.executable, str(script), str(port), str(workers)], env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(url + "/robots.txt", timeout=1).read()
            return Server(proc, url)
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.1)


@dataclass
class Result:
    name: str
    requests: int
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int
    #: CPU time the server processes spent per request (user + system): what a
    #: request costs, whatever else the machine runs; None where /proc is absent
    cpu_ms: float | None = None


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            with contextlib.suppress(OSError):
                todo += [int(c) for c in (task / "children").read_text().split()]
    return out


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of ``pid`` and its live descendants (Linux)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0
    try:
        for p in _descendants(pid):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    except (OSError, ValueError, IndexError):
        return None
    return total / tick


_UNIT = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _ms(text: str) -> float:
    m = re.match(r"([\d.]+)(us|ms|s)", text)
    assert m, text
    return float(m.group(1)) * _UNIT[m.group(2)]


def run_wrk(name: str, base: str, paths: list[str], seconds: int, work: Path) -> Result:
    """wrk with a Lua script that picks a random path per request."""
    listing = work / f"{name}.paths"
    listing.write_text("\n".join(paths) + "\n")
    script = work / f"{name}.lua"
    script.write_text(
        f"""
local paths = {{}}
for line in io.lines("{listing}") do paths[#paths + 1] = line end
math.randomseed(os.time())
request = function()
  return wrk.format("GET", paths[math.random(#paths)])
end
"""
    )
    out = subprocess.run(
        ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency", "-s", str(script), base],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    p50 = re.search(r"^\s+50%\s+(\S+)", out, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.M)
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    total = re.search(r"(\d+) requests in", out)
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    # "Socket errors: connect 0, read 0, write 0, timeout 12" (wrk's timeout is 2 s)
    errs = re.search(r"Socket errors: (.*)", out)
    n_errors = int(bad.group(1)) if bad else 0
    if errs:
        n_errors += sum(int(n) for n in re.findall(r"\d+", errs.group(1)))
    assert p50 and p99 and rps and total, out
    return Result(
        name,
        int(total.group(1)),
        float(rps.group(1)),
        _ms(p50.group(1)),
        _ms(p99.group(1)),
        n_errors,
    )


async def _client(
    host: str, port: int, paths: list[str], until: float, lat: list[float], errors: list[int]
) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    while time.perf_counter() < until:
        path = random.choice(paths)
        t0 = time.perf_counter()
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = int(re.search(rb"content-length: (\d+)", head, re.I).group(1))  # type: ignore[union-attr]
        await reader.readexactly(length)
        lat.append(time.perf_counter() - t0)
        if status >= 400:
            errors.append(status)
    writer.close()


def run_asyncio(name: str, base: str, paths: list[str], seconds: int) -> Result:
    """Fallback load generator (slower than wrk: it shares the CPU with the server)."""
    host, port = base.removeprefix("http://").split(":")
    lat: list[float] = []
    errors: list[int] = []

    async def main() -> None:
        until = time.perf_counter() + seconds
        await asyncio.gather(
            *(_client(host, int(port), paths, until, lat, errors) for _ in range(CONNECTIONS))
        )

    t0 = time.perf_counter()
    asyncio.run(main())
    elapsed = time.perf_counter() - t0
    lat.sort()
    return Result(
        name,
        len(lat),
        len(lat) / elapsed,
        lat[len(lat) // 2] * 1000,
        lat[int(len(lat) * 0.99)] * 1000,
        len(errors),
    )


def warm(base: str, paths: list[str]) -> None:
    """Request every path once (fills the page cache)."""

    def get(path: str) -> None:
        urllib.request.urlopen(base + path, timeout=60).read()

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(get, paths))


def scenarios(db: str) -> dict[str, list[str]]:
    store = open_store(db)
    slugs = {r.repo.slug: r for r in store.repos()}
    errors = [
        f"/{slug}/errors/{i}" for slug, r in slugs.items() for i in store.entry_ids(r.snapshot.id)
    ]
    pages = max(1, slugs[SLUG].entries // 50)
    catalog = [f"/{SLUG}?page={p}" for p in range(1, pages + 1)]
    catalog += [f"/{SLUG}?kind=raise&page={p}" for p in range(1, 20)]
    catalog += [f"/{SLUG}?path=click/core.py&page={p}" for p in range(1, 10)]
    messages = [e.message for e in store.entries(repo="pallets/click") if e.template.holes]
    search = []
    for m in messages:
        filled = re.sub(r"\{[^}]*\}|%[sdr]", "42", m)
        search.append("/search?q=" + urllib.parse.quote(f"ValueError: {filled}"))
    store.close()
    return {"error page": errors, "catalog": catalog, "search": search}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--entries", type=int, default=10_000)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument(
        "--workers",
        type=int,
        default=default_workers(),
        help="uvicorn worker processes of the multi-process runs (default: one per CPU)",
    )
    ap.add_argument(
        "--postgres",
        action="store_true",
        help="run every scenario on a throwaway PostgreSQL server too (Debian's postgresql)",
    )
    ap.add_argument(
        "--only-postgres",
        action="store_true",
        help="with --postgres: skip the SQLite runs",
    )
    ap.add_argument(
        "--scenario",
        action="append",
        choices=["error page", "catalog", "search"],
        help="only this scenario (repeatable; default: all three)",
    )
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args()
    # (page cache size, worker processes): every request renders, then the default
    modes = [(0, 1), (0, args.workers), (50_000, 1), (50_000, args.workers)]
    if args.workers == 1:
        modes = [(0, 1), (50_000, 1)]
    work = Path(tempfile.mkdtemp(prefix="errordex-bench-"))
    pg = None
    try:
        backends = [("sqlite", str(work / "db.sqlite"))]
        if args.postgres:
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
            from tests.pgserver import PgServer

            pg = PgServer.start()
            backends.append(("postgresql", pg.create_database("bench_web")))
        total = 0
        for backend, db in backends:
            t0 = time.perf_counter()
            total = build_store(db, args.entries)
            print(
                f"{backend} store: {total} entries in {time.perf_counter() - t0:.1f}s",
                file=sys.stderr,
            )
        every_paths = {
            db: {k: v for k, v in scenarios(db).items() if k in (args.scenario or [k])}
            for _, db in backends
        }
        if args.only_postgres:
            backends = backends[1:]
        static = work / "static"
        static.mkdir()
        sample = urllib.parse.quote(every_paths[backends[0][1]]["error page"][0])
        use_wrk = shutil.which("wrk") is not None
        results: list[tuple[str, Result]] = []
        size = 0
        # each mode on every backend back to back: the p99s compared see the same load
        for cache, workers in modes:
            for backend, db in backends:
                paths = every_paths[db]
                label = f"{backend}, {'cold' if cache == 0 else 'page cache'}, {workers}w"
                server = start_server(db, cache, static, workers)
                try:
                    if not size:
                        size = len(urllib.request.urlopen(server.url + sample).read())
                        page = os.urandom(size // 2).hex().encode()[:size]
                        (static / "page.html").write_bytes(page)
                    t0 = time.perf_counter()
                    every = [u for plist in paths.values() for u in plist]
                    if cache:
                        # each worker process has its own cache and the kernel picks the
                        # worker per connection: request every path 2 x workers times
                        warm(server.url, every * (2 * workers if workers > 1 else 1))
                    else:
                        # no page cache, but a server that has run a while: its highlighted
                        # files and catalogs are kept (a fresh one lexes each file first)
                        warm(
                            server.url,
                            random.Random(19).sample(every, min(COLD_WARM, len(every))) * workers,
                        )
                    print(f"warm-up: {time.perf_counter() - t0:.1f}s", file=sys.stderr)
                    runs = {**paths, "static file (baseline)": ["/bench-static/page.html"]}
                    for name, plist in runs.items():
                        cpu0 = cpu_seconds(server.proc.pid)
                        if use_wrk:
                            r = run_wrk(name.split()[0], server.url, plist, args.seconds, work)
                        else:
                            r = run_asyncio(name, server.url, plist, args.seconds)
                        cpu1 = cpu_seconds(server.proc.pid)
                        if cpu0 is not None and cpu1 is not None and r.requests:
                            r = replace(r, cpu_ms=(cpu1 - cpu0) * 1000 / r.requests)
                        results.append((label, replace(r, name=name)))
                        print(f"{label:34} {name:24} done", file=sys.stderr)
                finally:
                    server.stop()
        order = [b for b, _ in backends]
        results.sort(key=lambda r: order.index(r[0].split(",")[0]))  # stable: modes in order
        report(results, args, total, size, use_wrk)
    finally:
        if pg is not None:
            pg.stop()
        shutil.rmtree(work, ignore_errors=True)


def report(
    results: list[tuple[str, Result]], args: argparse.Namespace, total: int, size: int, wrk: bool
) -> None:
    tool = "wrk -t2 -c50" if wrk else "asyncio client, 50 connections"
    if args.json:
        print(json.dumps([{"server": lbl, **vars(r)} for lbl, r in results], indent=1))
        return
    print(
        f"\n{total} entries, {args.seconds}s per run, {tool}, loopback, "
        f"{default_workers()} CPUs; Nw = N uvicorn worker processes; cold = no page cache"
    )
    print(f"error page size: {size} bytes (the static baseline file is the same size)\n")
    print(
        f"{'server':34} {'scenario':24} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6}"
        f" {'CPU ms/req':>10}"
    )
    for label, r in results:
        cpu = f"{r.cpu_ms:10.2f}" if r.cpu_ms is not None else f"{'-':>10}"
        print(
            f"{label:34} {r.name:24} {r.rps:9.0f} {r.p50_ms:8.2f} {r.p99_ms:8.2f} {r.errors:6}"
            f" {cpu}"
        )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\nload average at the end: {load:.1f} on {os.cpu_count()} CPUs (wrk and anything"
        " else running share them). CPU ms/req is the server's own CPU time per request."
    )
    print()
    p99 = {lbl: r.p99_ms for lbl, r in results if r.name == "error page"}
    for lbl, ms in p99.items():
        ok = "meets" if ms <= TARGET_P99_MS else "misses"
        print(f"error page p99, {lbl}: {ms:.1f} ms ({ok} {TARGET_P99_MS} ms)")
    for lbl, ms in p99.items():
        base = p99.get(lbl.replace("postgresql", "sqlite", 1))
        if lbl.startswith("postgresql") and base:
            ok = "within" if ms <= 2 * base else "NOT within"
            print(
                f"error page p99, {lbl.removeprefix('postgresql, ')}: PostgreSQL {ms:.1f} ms"
                f" / SQLite {base:.1f} ms = {ms / base:.2f}x ({ok} 2x)"
            )


if __name__ == "__main__":
    main()
