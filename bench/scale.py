"""Indexing many repositories: the queue (Celery on Redis) against one process.

Indexes every distribution installed in this venv (``pkg:NAME``; 50 or more)
four ways, each into a fresh SQLite store, in the same run:

- ``errordex index pkg:NAME`` once per package, one after the other (what a
  shell loop does; each pays the interpreter's start): the baseline;
- the same in one process (``errordex.pipeline.index``, one job each), timing
  each snapshot's write (``SnapshotWriter.finish``): the per-snapshot write cost;
- ``errordex crawl`` of the list through a real redis-server (started here on
  a free port) with 1, then 2 ``errordex worker`` processes (concurrency 1 each).

Reports MB/s of source parsed and repositories/min for each, their ratios to
the baseline, and a paper estimate for the top 5,000 PyPI packages on N
workers from the measured per-worker throughput and write cost.

``--split`` measures one big repository instead (the stdlib by default, or
``--tree DIR``): ``errordex index`` in one process, then through the queue
on 2 workers in 1 part and in 2 parts (``--split-over``), in turn for
``--rounds`` rounds, and checks that the split snapshot is the one
process's, table by table.

    python bench/scale.py                 # every installed distribution
    python bench/scale.py --limit 50 --json
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


def store_totals(db: Path) -> tuple[int, int]:
    """(snapshots, bytes parsed) in a store."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT stats FROM snapshots").fetchall()
    return len(rows), sum(json.loads(r[0]).get("bytes_parsed", 0) for r in rows)


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
def queue_workers(db: Path, workers: int, work: Path) -> Iterator[dict[str, str]]:
    """A redis-server on a free port and ``workers`` worker processes
    (concurrency 1 each) on the store ``db``, ready; their environment."""
    port = free_port()
    rdir = work / f"redis-{time.monotonic_ns()}"
    rdir.mkdir()
    redis = subprocess.Popen(
        [shutil.which("redis-server") or "redis-server", "--port", str(port), "--bind",
         "127.0.0.1", "--dir", str(rdir), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    env = {**os.environ, "ERRORDEX_DB": str(db), "ERRORDEX_BROKER": f"redis://127.0.0.1:{port}/0"}
    procs: list[subprocess.Popen[bytes]] = []
    try:
        time.sleep(0.5)
        logs = []
        for i in range(workers):
            log = rdir / f"worker-{workers}-{i}.log"
            logs.append(log)
            with log.open("wb") as out:
                procs.append(
                    subprocess.Popen(
                        [ERRORDEX, "worker", "--concurrency", "1", "--loglevel", "INFO"],
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


def wait_queue(db: Path) -> None:
    """Until no task of the store is queued or running."""
    while True:
        with sqlite3.connect(db) as conn:
            left = conn.execute(
                "SELECT count(*) FROM queue_tasks WHERE state IN ('queued', 'running')"
            ).fetchone()[0]
        if left == 0:
            return
        time.sleep(0.1)


def run_queue(sources: list[str], db: Path, workers: int, work: Path) -> dict[str, Any]:
    """Crawl ``sources`` with ``workers`` worker processes; wall time from
    the crawl to the last task's end (the workers are ready before)."""
    with queue_workers(db, workers, work) as env:
        listing = work / "sources.txt"
        listing.write_text("\n".join(sources) + "\n")
        started = time.perf_counter()
        subprocess.run([ERRORDEX, "crawl", str(listing)], env=env, check=True, capture_output=True)
        wait_queue(db)
        wall = time.perf_counter() - started
    with sqlite3.connect(db) as conn:
        states = dict(conn.execute("SELECT state, count(*) FROM queue_tasks GROUP BY state"))
        task_seconds = conn.execute(
            "SELECT coalesce(sum(seconds), 0) FROM queue_tasks WHERE state = 'done'"
        ).fetchone()[0]
    return {"wall": wall, "states": states, "task_seconds": task_seconds}


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--limit", type=int, default=None, help="At most this many packages.")
    ap.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    ap.add_argument(
        "--split", action="store_true", help="One big repository in 1 part and in 2 parts."
    )
    ap.add_argument("--tree", type=Path, default=None, help="With --split: (default the stdlib).")
    ap.add_argument("--rounds", type=int, default=2, help="With --split: rounds of each (2).")
    args = ap.parse_args()
    if args.split:
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
        return
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
        write_mean = sum(writes) / len(writes) if writes else 0.0
        writes_sorted = sorted(writes)
        write_p90 = writes_sorted[int(0.9 * (len(writes) - 1))] if writes else 0.0
        one = next(r for r in rows if r["run"] == "queue, 1 worker")
        per_task = one["seconds"] / max(1, one["repositories"])
        mb_per_repo = base_bytes / 1e6 / max(1, base_snaps)
        estimate = paper_estimate(per_task, write_mean, mb_per_repo)
        # the same from CPU time: a worker with a core of its own
        per_task_cpu = one["cpu_seconds"] / max(1, one["repositories"])
        estimate_cpu = paper_estimate(per_task_cpu, write_mean, mb_per_repo)
        report = {
            "version": 1,
            "packages": len(sources),
            "cpus": os.cpu_count(),
            "runs": rows,
            "write_seconds_mean": round(write_mean, 4),
            "write_seconds_p90": round(write_p90, 4),
            "seconds_per_task_one_worker": round(per_task, 3),
            "cpu_seconds_per_task_one_worker": round(per_task_cpu, 3),
            "mb_per_repository": round(mb_per_repo, 3),
            "estimate_top_pypi": estimate,
            "estimate_top_pypi_cpu": estimate_cpu,
        }
        if args.json:
            print(json.dumps(report, indent=2))
        else:
            print_report(report)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def paper_estimate(per_task: float, write: float, mb_per_repo: float) -> list[dict[str, Any]]:
    """Hours for ``TOP_PYPI`` packages of this mean size on N workers: each
    worker does a task in ``per_task`` seconds, and the snapshots' writes
    (``write`` s each) go one at a time into one SQLite file, so the queue
    cannot go faster than one write after another."""
    out = []
    for n in (1, 2, 8, 32, 64, 256):
        compute = TOP_PYPI * per_task / n
        serial_writes = TOP_PYPI * write
        hours = max(compute, serial_writes) / 3600
        out.append(
            {
                "workers": n,
                "hours": round(hours, 2),
                "bound_by": "the store's writes" if serial_writes > compute else "the workers",
                "write_share": round(min(1.0, serial_writes / compute), 3),
                "mb": round(TOP_PYPI * mb_per_repo),
            }
        )
    return out


def print_report(r: dict[str, Any]) -> None:
    print(f"{r['packages']} installed distributions, {r['cpus']} CPUs")
    print(
        f"{'run':<20} {'repos':>5} {'MB':>7} {'s':>7} {'MB/s':>6} {'repos/min':>9} {'ratio':>6}"
        f" {'CPU s':>7} {'MB/CPU s':>8}"
    )
    for row in r["runs"]:
        print(
            f"{row['run']:<20} {row['repositories']:>5} {row['mb']:>7.1f} {row['seconds']:>7.1f}"
            f" {row['mb_per_s']:>6.2f} {row['repos_per_min']:>9.1f} {row['vs_cli_loop']:>5.2f}x"
            f" {row['cpu_seconds']:>7.1f} {row['mb_per_cpu_s']:>8.2f}"
            + (f"  {row['states']}" if "states" in row else "")
        )
    print(
        f"snapshot write (SQLite, one process): mean {r['write_seconds_mean'] * 1000:.1f} ms,"
        f" p90 {r['write_seconds_p90'] * 1000:.1f} ms; one worker: {r['seconds_per_task_one_worker']:.2f}"
        f" s ({r['cpu_seconds_per_task_one_worker']:.2f} CPU s) per repository of"
        f" {r['mb_per_repository']:.2f} MB on average"
    )
    for key, how in (
        ("estimate_top_pypi", "wall time per task, on this shared machine"),
        ("estimate_top_pypi_cpu", "CPU time per task: each worker with a core of its own"),
    ):
        print(f"paper estimate, top {TOP_PYPI} PyPI packages of that mean size ({how}):")
        for e in r[key]:
            print(
                f"  {e['workers']:>4} workers: {e['hours']:>7.2f} h, bound by {e['bound_by']}"
                f" (writes are {e['write_share']:.0%} of the workers' time)"
            )


if __name__ == "__main__":
    main()
