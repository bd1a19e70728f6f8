"""Scale benchmark of the matcher: a million templates, a thousand queries.

    .venv/bin/python bench/match_scale.py                 # 1,000,000 templates in memory
    .venv/bin/python bench/match_scale.py --store 200000  # and an SQLite store of 200,000
    .venv/bin/python bench/match_scale.py --store 1000000 --store-path /tmp/m.sqlite  # kept

Templates: the real ones that errordex's extractors find in the CPython
standard library, the installed Python packages (the venv's and Debian's)
and the Rust crates under /usr/share/cargo/registry,
plus synthetic variations of them (one or two words of the literal text
replaced by other words of the corpus) up to ``--n``. Queries: templates
drawn at random, formatted with values that suit each placeholder's kind.

It prints the build time, the peak memory, the query latency (p50, p99)
of candidate retrieval alone and of ``rank`` (retrieval and verification), and
how often the template a query was made from comes back first / in the top 5
(a template with the same normalized key counts: the text cannot tell them
apart). For the store (one snapshot per synthetic repository, 1,000 of them,
as ``errordex index`` would write them) it also prints its size on disk, with
the matcher's postings and FTS5 apart, and a cold query: a new connection's
first ``rank``. A store reused with ``--store-path`` is migrated when opened
(m003 builds the postings of a store written before it).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import re
import resource
import sqlite3
import statistics
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from errordex.extract import extractor_for
from errordex.match.compile import HoleKind, hole_kind
from errordex.match.explain import rank
from errordex.match.index import CandidateSource, MemoryIndex
from errordex.model import ErrorEntry, Repo, Snapshot, ThrowSite
from errordex.store.candidates import StoreIndex
from errordex.store.sqlite import SqliteStore
from errordex.store.writer import SnapshotData
from errordex.template import Part, Template, Text

CACHE = Path(tempfile.gettempdir()) / "errordex-bench-templates.json"
Row = tuple[str, str, Template, tuple[str, ...], tuple[str, ...]]


def _extract(path: str) -> list[tuple[str, dict[str, object], str | None]]:
    ex = extractor_for(path)
    if ex is None:
        return []
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        sites = ex[1](path, text).sites
    except Exception:  # a corpus file the extractor chokes on: not this benchmark's business
        return []
    return [
        (s.path, s.template.to_json(), s.exception_type)
        for s in sites
        if not s.template.dynamic and not s.template.is_empty
    ]


def harvest() -> list[tuple[str, Template, str | None]]:
    """Real templates from the stdlib and the cargo registry (cached in /tmp)."""
    if CACHE.exists():
        data = json.loads(CACHE.read_text())
    else:
        std = sysconfig.get_paths()["stdlib"]
        files = [p for p in glob.glob(std + "/**/*.py", recursive=True) if "site-packages" not in p]
        for lib in (
            *sysconfig.get_paths()["purelib"].split(os.pathsep),
            "/usr/lib/python3/dist-packages",
        ):
            files += [
                p for p in glob.glob(lib + "/**/*.py", recursive=True) if "/errordex/" not in p
            ]
        files += glob.glob("/usr/share/cargo/registry/*/src/**/*.rs", recursive=True)
        with ProcessPoolExecutor(max_workers=2) as pool:
            data = [row for rows in pool.map(_extract, files, chunksize=32) for row in rows]
        CACHE.write_text(json.dumps(data))
    seen: set[str] = set()
    out: list[tuple[str, Template, str | None]] = []
    for path, tjson, etype in data:
        t = Template.from_json(tjson)
        if t.key() in seen:
            continue
        seen.add(t.key())
        out.append((path, t, etype))
    return out


_WORD = re.compile(r"[A-Za-z]{3,}")


def variations(
    real: list[tuple[str, Template, str | None]], n: int, rng: random.Random
) -> Iterator[Row]:
    """The real templates, then word-substituted copies of them, n rows in all."""
    vocab = sorted({w for _, t, _ in real for w in _WORD.findall(t.literal_text())})
    for i, (path, t, etype) in enumerate(real[:n]):
        yield (f"{i:016x}", "real/corpus", t, (etype,) if etype else (), (path,))
    i = len(real)
    while i < n:
        path, t, etype = real[rng.randrange(len(real))]
        texts = [k for k, p in enumerate(t.parts) if isinstance(p, Text) and _WORD.search(p.text)]
        if not texts:
            continue
        parts: list[Part] = list(t.parts)
        for _ in range(rng.choice((1, 1, 2))):
            k = rng.choice(texts)
            old = parts[k]
            assert isinstance(old, Text)
            words = list(_WORD.finditer(old.text))
            w = rng.choice(words)
            new = old.text[: w.start()] + rng.choice(vocab) + old.text[w.end() :]
            parts[k] = Text(new)
        repo = f"synth/r{i % 1000}"
        yield (
            f"{i:016x}",
            repo,
            Template(t.syntax, tuple(parts), t.dynamic),
            (etype,) if etype else (),
            (path,),
        )
        i += 1


_VALUES: dict[HoleKind, list[str]] = {
    "text": ["foo", "my_crate::Thing", "/tmp/x y", "config.toml", "bar baz qux", "42"],
    "path": ["/home/u/project/src/main.rs", "data/input.csv", "C:\\Temp\\x.txt"],
    "int": ["0", "7", "-3", "65536", "12345678"],
    "float": ["0.5", "3.14", "1e-05", "-2.00"],
    "hex": ["0x1f", "deadbeef", "ff"],
    "repr": ["'abc'", '"value"', "Some(3)", "Foo { a: [1, 2] }", "[1, 2, 3]", "None"],
    "quoted": ['"name"', '"a b"'],
}


def format_template(t: Template, rng: random.Random) -> str:
    return "".join(
        p.text if isinstance(p, Text) else rng.choice(_VALUES[hole_kind(p)]) for p in t.parts
    )


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def measure(name: str, source: CandidateSource, queries: list[tuple[str, Row]]) -> None:
    t_cand: list[float] = []
    t_rank: list[float] = []
    top1 = top5 = 0
    for message, row in queries:
        etype = row[3][0] if row[3] else None
        t0 = time.perf_counter()
        source.candidates(message, etype, 40)
        t1 = time.perf_counter()
        got = rank(message, source, exception_type=etype, limit=5)
        t2 = time.perf_counter()
        t_cand.append((t1 - t0) * 1000)
        t_rank.append((t2 - t1) * 1000)
        key = row[2].key()
        hits = [m for m in got if m.exact and (m.entry_id == row[0] or _key(m.message, row) == key)]
        if got and hits and hits[0] is got[0]:
            top1 += 1
        if hits:
            top5 += 1
    n = len(queries)
    print(
        f"{name}: candidates p50 {statistics.median(t_cand):.2f} ms, p99 {pct(t_cand, 0.99):.2f} ms;"
        f" rank p50 {statistics.median(t_rank):.2f} ms, p99 {pct(t_rank, 0.99):.2f} ms,"
        f" max {max(t_rank):.1f} ms; top-1 {top1 / n:.1%}, top-5 {top5 / n:.1%} of {n} queries"
    )


def _key(display: str, row: Row) -> str:
    # the display form of an entry with the same key differs only in its specs
    return row[2].key() if display == row[2].display() else display


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build_store(path: Path, rows: list[Row]) -> SqliteStore:
    store = SqliteStore(path)
    by_repo: dict[str, list[ErrorEntry]] = {}
    for entry_id, repo, t, types, paths in rows:
        site = ThrowSite(paths[0], 1, 1, 1, "rust", "panic", t, types[0] if types else None)
        by_repo.setdefault(repo, []).append(
            ErrorEntry(entry_id, repo, t, ("panic",), types, (site,))
        )
    for repo, entries in by_repo.items():
        snap = Snapshot(Repo(repo), "c" * 40, None, "t", "bench")
        store.save(SnapshotData(snap, None, entries, [], [], [], {}))
    return store


def table_sizes(store: SqliteStore) -> str:
    """MB of the matcher's tables (postings and docs) and of FTS5, when SQLite has dbstat."""
    try:
        rows = store.conn.execute(
            "SELECT name, sum(pgsize) FROM dbstat WHERE name LIKE 'match_%'"
            " OR name LIKE 'entries_fts%' GROUP BY name"
        ).fetchall()
    except sqlite3.OperationalError:
        return "no dbstat"
    size: dict[str, float] = {}
    for name, n in rows:
        group = "postings" if name.startswith("match_") else "fts5"
        size[group] = size.get(group, 0.0) + n / 1e6
    return ", ".join(f"{k} {v:,.0f} MB" for k, v in sorted(size.items()))


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--n", type=int, default=1_000_000, help="templates in the memory index")
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--store", type=int, default=0, help="also build an SQLite store of this many")
    ap.add_argument(
        "--store-path",
        type=Path,
        help="keep the store here; an existing file is reused (same --n, --store and --seed)",
    )
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    t0 = time.perf_counter()
    real = harvest()
    print(f"harvested {len(real):,} distinct real templates in {time.perf_counter() - t0:.1f} s")

    t0 = time.perf_counter()
    rows = list(variations(real, args.n, rng))
    idx = MemoryIndex.build(rows)
    idx.candidates("warm up", None, 1)  # freezes the postings
    print(
        f"MemoryIndex of {len(idx):,} templates built in {time.perf_counter() - t0:.1f} s; peak RSS {peak_mb():,.0f} MB"
    )

    picks = [rows[rng.randrange(len(rows))] for _ in range(args.queries)]
    queries = [(format_template(r[2], rng), r) for r in picks]
    measure("memory", idx, queries)

    if args.store:
        with tempfile.TemporaryDirectory() as d:
            path = args.store_path or Path(d) / "bench.sqlite"
            t0 = time.perf_counter()
            if path.exists():
                store = SqliteStore(path)  # migrates an older store
                print(
                    f"SQLite store reused from {path}; opened in {time.perf_counter() - t0:.1f} s"
                )
            else:
                store = build_store(path, rows[: args.store])
                print(
                    f"SQLite store of {args.store:,} entries built in {time.perf_counter() - t0:.1f} s"
                )
            store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            print(f"  {os.path.getsize(path) / 1e6:,.0f} MB; {table_sizes(store)}")
            sq = [(m, r) for m, r in queries if int(r[0], 16) < args.store]
            sq += [
                (format_template(r[2], rng), r)
                for r in (rows[rng.randrange(args.store)] for _ in range(args.queries - len(sq)))
            ]
            store.close()
            # a new process's first query: open the store, ask once
            t0 = time.perf_counter()
            store = SqliteStore(path)
            t1 = time.perf_counter()
            message, row = sq[0]
            rank(message, StoreIndex(store), exception_type=row[3][0] if row[3] else None, limit=5)
            t2 = time.perf_counter()
            print(f"  cold: open {(t1 - t0) * 1000:.1f} ms, first query {(t2 - t1) * 1000:.1f} ms")
            measure("sqlite", StoreIndex(store), sq)
            store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
