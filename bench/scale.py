"""Indexing many repositories: the queue (Celery on Redis) against one process.

Indexes every distribution installed in this venv (``pkg:NAME``; 50 or more)
four ways, each into a fresh SQLite store, in the same run:

- ``errordex index pkg:NAME`` once per package, one after the other (what a
  shell loop does; each pays the interpreter's start): the baseline;
- the same in one process (``errordex.pipeline.index``, one job each), timing
  each snapshot's write (``SnapshotWriter.finish``): the per-snapshot write cost;
- ``errordex crawl`` of the list through a real redis-server (started here on
  a free port) with 1, then 2 ``errordex worker`` processes (concurrency 1 each);
- with ``--postgres``, the same crawls into a throwaway PostgreSQL server
  (Debian's, started as the tests start it: ``tests/pgserver.py``).

The workers time, in their own processes, each snapshot's write (the
writer's ``finish``: the transaction that makes it current, under the
store's lock, so one at a time across all workers), what the PostgreSQL
writer streams before it (COPY into its temporary tables, in parallel), and
each task record's change (``tasks.start``/``finish``: a short transaction
under the records' lock, also one at a time). That is the write cost per
snapshot in the queue path, for SQLite and PostgreSQL side by side.

Reports MB/s of source parsed and repositories/min for each, their ratios to
the baseline, and a paper estimate for the top 5,000 PyPI packages on N
workers from the measured per-worker throughput and write cost, with what
bounds it at each N: the workers, the database (the writes one at a time),
the queue (Redis sends each message from one thread) or git (the clones
share one network link: an assumed bandwidth, as nothing here reaches a forge).

``--split`` measures one big repository instead (the stdlib by default, or
``--tree DIR``): ``errordex index`` in one process, then through the queue
on 2 workers in 1 part and in 2 parts (``--split-over``), in turn for
``--rounds`` rounds, and checks that the split snapshot is the one
process's, table by table.

    python bench/scale.py                 # every installed distribution
    python bench/scale.py --limit 50 --postgres --json
    python bench/scale.py --split [--tree DIR] [--rounds N] [--json]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import resource
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from errordex.store.writer import SnapshotWriter

ERRORDEX = str(Path(sys.executable).with_name("errordex"))
#: the packages of the paper estimate
TOP_PYPI = 5000
#: the paper estimate's network for the clones, MB/s (an assumption: a 1 Gbit/s link)
CLONE_MB_PER_S = 100.0

#: messages sent to time Redis's cost per task (a connection's start amortised)
PUBLISHED = 1000

#: ``errordex worker`` with its writes timed: the writers' and the task
#: records' methods append "KIND SECONDS" lines to $ERRORDEX_BENCH_TIMES
#: (patched before the worker forks its processes, which inherit it)
TIMED_WORKER = """
import os, sys, time
from errordex.store import postings, tasks
from errordex.store.writer import SnapshotWriter
from errordex.store.postgres.writer import PgSnapshotWriter

out = os.environ["ERRORDEX_BENCH_TIMES"]

def timed(owner, name, kind):
    fn = getattr(owner, name)
    def wrapper(*args, **kwargs):
        t = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            with open(out, "a") as f:
                f.write(f"{kind} {time.perf_counter() - t:.6f}\\n")
    setattr(owner, name, wrapper)

for writer in (SnapshotWriter, PgSnapshotWriter):
    timed(writer, "finish", "write")
    for name in ("__init__", "add_compressed", "add_analyses", "add_entry_rows", "add_idents"):
        timed(writer, name, "stream")
for name in ("start", "finish"):
    timed(tasks, name, "record")
timed(postings, "sync", "postings")  # inside the write, under the lock

from errordex.cli import main
sys.argv = ["errordex", *sys.argv[1:]]
main()
"""


def installed(limit: int | None) -> list[str]:
    """``pkg:NAME`` of each distribution installed here, but errordex."""
    names = sorted(
        {
            d.metadata["Name"].lower()
            for d in importlib.metadata.distributions()
            if d.metadata["Name"] and d.metadata["Name"].lower() != "errordex"
        }
    )
    return [f"pkg:{n}" for n in names[:limit]]


def query(db: Path | str, sql: str) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` in an SQLite file or a PostgreSQL database (a URL)."""
    if isinstance(db, str):
        import psycopg

        with psycopg.connect(db) as pg:
            return pg.execute(sql).fetchall()
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


def store_totals(db: Path | str) -> tuple[int, int]:
    """(snapshots, bytes parsed) in a store."""
    rows = query(db, "SELECT stats FROM snapshots")
    return len(rows), sum(json.loads(r[0]).get("bytes_parsed", 0) for r in rows)


def timings(path: Path) -> dict[str, list[float]]:
    """The workers' timings (``TIMED_WORKER``), by kind."""
    out: dict[str, list[float]] = {"write": [], "stream": [], "record": [], "postings": []}
    if path.exists():
        for line in path.read_text().splitlines():
            kind, seconds = line.split()
            out[kind].append(float(seconds))
    return out


def run_cli_loop(sources: list[str], db: Path) -> float:
    started = time.perf_counter()
    for src in sources:
        subprocess.run(
            [ERRORDEX, "index", src, "--db", str(db), "--json"],
            check=False,
            capture_output=True,
        )
    return time.perf_counter() - started


def run_in_process(sources: list[str], db: Path) -> tuple[float, list[float]]:
    """Index each in this process (one job each); the seconds of each
    snapshot's write."""
    writes: list[float] = []
    finish = SnapshotWriter.finish

    def timed(self: SnapshotWriter, data: Any) -> int:
        t = time.perf_counter()
        try:
            return finish(self, data)
        finally:
            writes.append(time.perf_counter() - t)

    store = SqliteStore(db)
    SnapshotWriter.finish = timed  # type: ignore[method-assign]
    started = time.perf_counter()
    try:
        for src in sources:
            try:
                index(src, store, jobs=1)
            except Exception as exc:
                print(f"  {src}: {exc}", file=sys.stderr)
    finally:
        SnapshotWriter.finish = finish  # type: ignore[method-assign]
        store.close()
    return time.perf_counter() - started, writes


def cpu_seconds() -> float:
    """CPU time of this process and its waited-for children (the machine
    is shared: wall time depends on the others' load, CPU time less)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def queue_workers(db: Path | str, workers: int, work: Path) -> Iterator[dict[str, str]]:
    """A redis-server on a free port and ``workers`` worker processes
    (concurrency 1 each, their writes timed: ``TIMED_WORKER``) on the store
    ``db`` (an SQLite file, or a PostgreSQL URL), ready; their environment."""
    port = free_port()
    tag = f"{'pg' if isinstance(db, str) else 'sqlite'}-{workers}-{time.monotonic_ns()}"
    rdir = work / f"redis-{tag}"
    rdir.mkdir()
    times = work / f"times-{tag}.txt"
    redis = subprocess.Popen(
        [shutil.which("redis-server") or "redis-server", "--port", str(port), "--bind",
         "127.0.0.1", "--dir", str(rdir), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    broker = f"redis://127.0.0.1:{port}/0"
    env = {
        **os.environ,
        "ERRORDEX_DB": str(db),
        "ERRORDEX_BROKER": broker,
        "ERRORDEX_BENCH_TIMES": str(times),
    }
    procs: list[subprocess.Popen[bytes]] = []
    try:
        time.sleep(0.5)
        logs = []
        for i in range(workers):
            log = rdir / f"worker-{i}.log"
            logs.append(log)
            with log.open("wb") as out:
                procs.append(
                    subprocess.Popen(
                        [sys.executable, "-c", TIMED_WORKER, "worker", "--concurrency", "1"],
                        env=env,
                        stdout=out,
                        stderr=subprocess.STDOUT,
                    )
                )
        # ready: each worker's store is open and it waits on the queue
        deadline = time.monotonic() + 60
        while not all(" ready." in log.read_text(errors="replace") for log in logs):
            if time.monotonic() > deadline:
                raise SystemExit("the workers did not start: see " + str(work))
            time.sleep(0.1)
        yield env
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
        redis.terminate()
        redis.wait()


def wait_queue(db: Path | str) -> None:
    """Until no task of the store is queued or running."""
    while True:
        left = query(db, "SELECT count(*) FROM queue_tasks WHERE state IN ('queued', 'running')")
        if left[0][0] == 0:
            return
        time.sleep(0.1)


def run_queue(sources: list[str], db: Path | str, workers: int, work: Path) -> dict[str, Any]:
    """Crawl ``sources`` with ``workers`` worker processes into ``db`` (an
    SQLite file, or a PostgreSQL URL); wall time from the crawl to the last
    task's end (the workers are ready before), and the workers' timings."""
    with queue_workers(db, workers, work) as env:
        listing = work / "sources.txt"
        listing.write_text("\n".join(sources) + "\n")
        started = time.perf_counter()
        subprocess.run([ERRORDEX, "crawl", str(listing)], env=env, check=True, capture_output=True)
        wait_queue(db)
        wall = time.perf_counter() - started
        publish = time_publish(env["ERRORDEX_BROKER"], PUBLISHED)
    states = dict(query(db, "SELECT state, count(*) FROM queue_tasks GROUP BY state"))
    task_seconds = query(
        db, "SELECT coalesce(sum(seconds), 0) FROM queue_tasks WHERE state = 'done'"
    )[0][0]
    return {
        "wall": wall,
        "states": states,
        "task_seconds": float(task_seconds),
        "times": timings(Path(env["ERRORDEX_BENCH_TIMES"])),
        "publish_seconds": publish,
    }


#: as bench/index.py: the stdlib without site-packages, its tests and idlelib
STDLIB_EXCLUDE = ("/site-packages/", "/test/", "/idlelib/")
#: a split snapshot's tables that must be the one process's, row for row
SPLIT_TABLES = ("entries", "sites", "files", "analyses", "packages", "classes", "skips")


def _rows(db: Path) -> dict[str, int]:
    """A hash of each table of ``SPLIT_TABLES``' rows, in order."""
    with sqlite3.connect(db) as conn:
        return {
            t: hash(tuple(conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()))
            for t in SPLIT_TABLES
        }


def _stamp(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


def run_split(tree: Path, exclude: tuple[str, ...], rounds: int, work: Path) -> dict[str, Any]:
    """``tree`` indexed in one process, then through the queue on 2 workers
    in 1 part and in 2 parts, ``rounds`` times each, in turn."""
    excludes = [a for p in exclude for a in ("--exclude", p)]
    args = [str(tree), "--name", "bench/split", *excludes]
    runs: dict[str, list[dict[str, Any]]] = {"one process": [], "1 part": [], "2 parts": []}
    ref = work / "one.db"
    cpu = cpu_seconds()
    started = time.perf_counter()
    subprocess.run([ERRORDEX, "index", *args, "--db", str(ref)], check=True, capture_output=True)
    runs["one process"].append({"wall": time.perf_counter() - started, "cpu": cpu_seconds() - cpu})
    with sqlite3.connect(ref) as conn:
        stats = json.loads(conn.execute("SELECT stats FROM snapshots").fetchone()[0])
    nbytes = int(stats["bytes_parsed"])
    expected = _rows(ref)
    for r in range(rounds):
        for parts in (1, 2):
            db = work / f"split-{parts}-{r}.db"
            # 1 part: never split; 2: the source is over 1 and under 2 times this
            over = "off" if parts == 1 else str(int(nbytes * 0.6))
            cpu = cpu_seconds()
            with queue_workers(db, 2, work) as env:
                started = time.perf_counter()
                subprocess.run(
                    [ERRORDEX, "index", *args, "--queue", "--split-over", over],
                    env=env,
                    check=True,
                    capture_output=True,
                )
                wait_queue(db)
                wall = time.perf_counter() - started
            with sqlite3.connect(db) as conn:
                conn.row_factory = sqlite3.Row
                recs = [dict(x) for x in conn.execute("SELECT * FROM queue_tasks")]
            [task] = [x for x in recs if x["parent"] is None]
            took = sorted(
                (x for x in recs if x["parent"] is not None), key=lambda x: int(x["part"])
            )
            runs[f"{parts} part{'s' if parts > 1 else ''}"].append(
                {
                    "wall": wall,
                    "cpu": cpu_seconds() - cpu,
                    "state": task["state"],
                    "parts": [x["seconds"] for x in took],
                    # from the last part's end to the snapshot's
                    "merge": (
                        _stamp(task["finished_at"]) - max(_stamp(x["finished_at"]) for x in took)
                        if took
                        else None
                    ),
                    "workers": len({x["worker"] for x in took}),
                    "same": _rows(db) == expected,
                }
            )
            print(f"round {r + 1}, {parts} part(s): {wall:.1f}s", file=sys.stderr)
            db.unlink()
    one, two = runs["1 part"], runs["2 parts"]
    ratios = [b["wall"] / a["wall"] for a, b in zip(one, two, strict=True)]
    return {
        "version": 1,
        "tree": str(tree),
        "mb": round(nbytes / 1e6, 2),
        "files": stats["files_parsed"],
        "cpus": os.cpu_count(),
        "load": os.getloadavg()[0],
        "runs": runs,
        "ratio_2_parts_to_1_median": round(statistics.median(ratios), 3),
        "ratio_2_parts_to_1_best": round(
            min(b["wall"] for b in two) / min(a["wall"] for a in one), 3
        ),
        "same_snapshot": all(x["same"] for x in one + two),
    }


def print_split(r: dict[str, Any]) -> None:
    print(f"{r['tree']}: {r['files']} files, {r['mb']} MB; {r['cpus']} CPUs (load {r['load']:.1f})")
    print(f"{'run':<14} {'wall s (each round)':<28} {'CPU s':>7}  parts s / merge s")
    for name, rs in r["runs"].items():
        walls = " ".join(f"{x['wall']:.1f}" for x in rs)
        cpus = statistics.median(x["cpu"] for x in rs)
        extra = ""
        if rs and rs[0].get("parts"):
            extra = "; ".join(
                f"{'+'.join(f'{p:.1f}' for p in x['parts'])} / {x['merge']:.1f}" for x in rs
            )
        print(f"{name:<14} {walls:<28} {cpus:>7.1f}  {extra}")
    print(
        f"2 parts on 2 workers / 1 part: {r['ratio_2_parts_to_1_median']:.2f} (median of rounds),"
        f" {r['ratio_2_parts_to_1_best']:.2f} (best of each); the same snapshot:"
        f" {r['same_snapshot']}"
    )


def time_publish(broker: str, n: int) -> float:
    """Seconds to send one task message through this Redis (``n`` sent on one
    connection to a queue no worker reads, then dropped): the queue's own
    cost per task, which one Redis thread pays for every worker."""
    from errordex.queue import app as celery_app

    app = celery_app.make_app(broker)
    celery_app.ping(app, broker)  # connected before the clock starts
    started = time.perf_counter()
    with app.producer_or_acquire() as producer:
        for i in range(n):
            app.send_task(
                "errordex.bench.noop",
                args=[{"source": f"pkg:p{i}"}],
                queue="errordex-bench",
                producer=producer,
            )
    seconds = (time.perf_counter() - started) / max(1, n)
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge("errordex-bench")
    return seconds


def mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def p90(xs: list[float]) -> float:
    return sorted(xs)[int(0.9 * (len(xs) - 1))] if xs else 0.0


def write_costs(r: dict[str, Any], snaps: int) -> dict[str, float]:
    """Per snapshot, from a queue run's timings: the write under the store's
    lock (mean, p90; the postings' share of it), what was streamed before
    it, and the task records' changes (two per task)."""
    t = r["times"]
    n = max(1, snaps)
    return {
        "write_mean": round(mean(t["write"]), 4),
        "write_p90": round(p90(t["write"]), 4),
        "postings_mean": round(mean(t["postings"]), 4),
        "stream_per_snapshot": round(sum(t["stream"]) / n, 4),
        "records_per_task": round(sum(t["record"]) / max(1, len(t["record"]) // 2), 4),
        "publish_per_task": round(r["publish_seconds"], 5),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--limit", type=int, default=None, help="At most this many packages.")
    ap.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    ap.add_argument(
        "--split", action="store_true", help="One big repository in 1 part and in 2 parts."
    )
    ap.add_argument("--tree", type=Path, default=None, help="With --split: (default the stdlib).")
    ap.add_argument("--rounds", type=int, default=2, help="With --split: rounds of each (2).")
    ap.add_argument(
        "--postgres",
        action="store_true",
        help="Crawl into a throwaway PostgreSQL server too (1 and 2 workers).",
    )
    args = ap.parse_args()
    if args.split:
        if args.postgres:
            ap.error(
                "--split measures SQLite stores: --postgres is for the installed distributions"
            )
        run_split_report(args)
        return
    pg = None
    if args.postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests.pgserver import PgServer

        pg = PgServer.start()
    try:
        run(args, pg)
    finally:
        if pg is not None:
            pg.stop()


def run_split_report(args: argparse.Namespace) -> None:
    tree = args.tree or Path(sysconfig.get_paths()["stdlib"])
    work = Path(tempfile.mkdtemp(prefix="errordex-split-"))
    try:
        got = run_split(tree, () if args.tree else STDLIB_EXCLUDE, args.rounds, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        print(json.dumps(got, indent=2))
    else:
        print_split(got)


def run(args: argparse.Namespace, pg: Any) -> None:
    sources = installed(args.limit)
    print(f"{len(sources)} installed distributions", file=sys.stderr)
    work = Path(tempfile.mkdtemp(prefix="errordex-scale-"))
    results: dict[str, dict[str, Any]] = {}
    try:
        db = work / "cli.db"
        cpu = cpu_seconds()
        wall = run_cli_loop(sources, db)
        results["cli loop"] = {"wall": wall, "db": db, "cpu": cpu_seconds() - cpu}
        print(f"cli loop: {wall:.1f}s", file=sys.stderr)

        db = work / "inproc.db"
        cpu = cpu_seconds()
        wall, writes = run_in_process(sources, db)
        results["one process"] = {"wall": wall, "db": db, "cpu": cpu_seconds() - cpu}
        print(f"one process: {wall:.1f}s", file=sys.stderr)

        for n in (1, 2):
            db = work / f"queue{n}.db"
            cpu = cpu_seconds()
            got = run_queue(sources, db, n, work)
            results[f"queue, {n} worker{'s' if n > 1 else ''}"] = {
                **got,
                "db": db,
                # with the workers' start and stop, and redis-server's
                "cpu": cpu_seconds() - cpu,
            }
            print(f"queue with {n}: {got['wall']:.1f}s {got['states']}", file=sys.stderr)
        if pg is not None:
            for n in (1, 2):
                url = pg.create_database(f"scale_{n}")
                cpu = cpu_seconds()
                got = run_queue(sources, url, n, work)
                results[f"queue PG, {n} worker{'s' if n > 1 else ''}"] = {
                    **got,
                    "db": url,
                    # the server's own CPU is not counted (it is not our child)
                    "cpu": cpu_seconds() - cpu,
                }
                print(f"queue PG with {n}: {got['wall']:.1f}s {got['states']}", file=sys.stderr)

        rows = []
        base = results["cli loop"]
        base_snaps, base_bytes = store_totals(base["db"])
        base_mbs = base_bytes / 1e6 / base["wall"]
        for name, r in results.items():
            snaps, nbytes = store_totals(r["db"])
            mbs = nbytes / 1e6 / r["wall"]
            rpm = snaps / r["wall"] * 60
            rows.append(
                {
                    "run": name,
                    "repositories": snaps,
                    "mb": round(nbytes / 1e6, 2),
                    "seconds": round(r["wall"], 2),
                    "mb_per_s": round(mbs, 3),
                    "repos_per_min": round(rpm, 1),
                    "vs_cli_loop": round(mbs / base_mbs, 2),
                    "cpu_seconds": round(r["cpu"], 1),
                    "mb_per_cpu_s": round(nbytes / 1e6 / r["cpu"], 3),
                    **({"states": r["states"]} if "states" in r else {}),
                }
            )
        mb_per_repo = base_bytes / 1e6 / max(1, base_snaps)
        # the write cost per snapshot in the queue path, for each store (one
        # worker: no write waits on another's), and the paper estimate from it
        stores: dict[str, dict[str, Any]] = {}
        for store, key in (("SQLite", "queue, 1 worker"), ("PostgreSQL", "queue PG, 1 worker")):
            if key not in results:
                continue
            one = next(r for r in rows if r["run"] == key)
            costs = write_costs(results[key], one["repositories"])
            per_task = one["seconds"] / max(1, one["repositories"])
            per_task_cpu = one["cpu_seconds"] / max(1, one["repositories"])
            serial = costs["write_mean"] + costs["records_per_task"]
            stores[store] = {
                **costs,
                "seconds_per_task": round(per_task, 3),
                "cpu_seconds_per_task": round(per_task_cpu, 3),
                "database_seconds_per_task": round(serial, 4),
                # from this many workers on, the writes one at a time bound the run
                "database_bound_from_workers": round(per_task_cpu / serial) if serial else None,
                "estimate_top_pypi": paper_estimate(
                    per_task_cpu, serial, costs["publish_per_task"], mb_per_repo
                ),
            }
        report = {
            "version": 2,
            "packages": len(sources),
            "cpus": os.cpu_count(),
            "runs": rows,
            "in_process_write_seconds_mean": round(mean(writes), 4),
            "in_process_write_seconds_p90": round(p90(writes), 4),
            "mb_per_repository": round(mb_per_repo, 3),
            "clone_mb_per_s_assumed": CLONE_MB_PER_S,
            "stores": stores,
        }
        if args.json:
            print(json.dumps(report, indent=2))
        else:
            print_report(report)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def paper_estimate(
    per_task: float, database: float, queue: float, mb_per_repo: float
) -> list[dict[str, Any]]:
    """Hours for ``TOP_PYPI`` packages of this mean size on N workers, and
    what bounds them. Each worker does a task in ``per_task`` seconds (a core
    of its own); the database takes ``database`` seconds of each task one at
    a time, whatever N (the snapshot's write under the store's lock, and the
    task records' changes under theirs); Redis sends each message in
    ``queue`` seconds from one thread; the clones share one network link of
    ``CLONE_MB_PER_S`` (a shallow clone taken as big as the source parsed)."""
    out = []
    for n in (1, 2, 8, 32, 64, 256, 1024):
        bounds = {
            "the workers": TOP_PYPI * per_task / n,
            "the database": TOP_PYPI * database,
            "the queue": TOP_PYPI * queue,
            "git": TOP_PYPI * mb_per_repo / CLONE_MB_PER_S,
        }
        bound = max(bounds, key=lambda k: bounds[k])
        out.append(
            {
                "workers": n,
                "hours": round(bounds[bound] / 3600, 2),
                "bound_by": bound,
                "seconds": {k: round(v, 1) for k, v in bounds.items()},
                "mb": round(TOP_PYPI * mb_per_repo),
            }
        )
    return out


def print_report(r: dict[str, Any]) -> None:
    print(f"{r['packages']} installed distributions, {r['cpus']} CPUs")
    print(
        f"{'run':<22} {'repos':>5} {'MB':>7} {'s':>7} {'MB/s':>6} {'repos/min':>9} {'ratio':>6}"
        f" {'CPU s':>7} {'MB/CPU s':>8}"
    )
    for row in r["runs"]:
        print(
            f"{row['run']:<22} {row['repositories']:>5} {row['mb']:>7.1f} {row['seconds']:>7.1f}"
            f" {row['mb_per_s']:>6.2f} {row['repos_per_min']:>9.1f} {row['vs_cli_loop']:>5.2f}x"
            f" {row['cpu_seconds']:>7.1f} {row['mb_per_cpu_s']:>8.2f}"
            + (f"  {row['states']}" if "states" in row else "")
        )
    print(
        f"snapshot write in one process (SQLite): mean {r['in_process_write_seconds_mean'] * 1000:.1f}"
        f" ms, p90 {r['in_process_write_seconds_p90'] * 1000:.1f} ms;"
        f" {r['mb_per_repository']:.2f} MB per repository on average"
    )
    stores = r["stores"]
    print("\nper snapshot in the queue path (one worker), measured in the workers:")
    print(f"  {'':<44}" + "".join(f"{name:>12}" for name in stores))
    for key, label, unit in (
        ("write_mean", "write under the store's lock, mean", 1000),
        ("write_p90", "  p90", 1000),
        ("postings_mean", "  of which the matcher's postings, mean", 1000),
        ("stream_per_snapshot", "streamed before it (in parallel)", 1000),
        ("records_per_task", "task records' changes (one at a time)", 1000),
        ("database_seconds_per_task", "database, one at a time: write + records", 1000),
        ("publish_per_task", "Redis: one message sent", 1000),
        ("cpu_seconds_per_task", "a task in all, CPU", 1000),
        ("seconds_per_task", "a task in all, wall (shared machine)", 1000),
    ):
        print(f"  {label:<44}" + "".join(f"{stores[name][key] * unit:>9.1f} ms" for name in stores))
    for name, st in stores.items():
        print(
            f"\npaper estimate, top {TOP_PYPI} PyPI packages of that mean size on {name}"
            f" (a core per worker; clones on an assumed {r['clone_mb_per_s_assumed']:g} MB/s):"
        )
        for e in st["estimate_top_pypi"]:
            secs = e["seconds"]
            print(
                f"  {e['workers']:>5} workers: {e['hours']:>7.2f} h, bound by {e['bound_by']:<12}"
                f" (workers {secs['the workers'] / 3600:.2f} h, database"
                f" {secs['the database'] / 3600:.2f} h, queue {secs['the queue'] / 3600:.3f} h,"
                f" git {secs['git'] / 3600:.3f} h)"
            )
        print(
            f"  the database bounds the run from about {st['database_bound_from_workers']} workers"
        )


if __name__ == "__main__":
    main()
