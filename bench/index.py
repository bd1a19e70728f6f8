"""Indexing speed against two baselines on the same files, in the same run.

    .venv/bin/python bench/index.py [--corpus stdlib|crates|all] [--jobs N]

Corpora: the standard library of the running interpreter (without
site-packages) and every Rust crate under /usr/share/cargo/registry (Debian's
librust-*-dev packages). For each corpus it prints files/s, MB/s and peak
memory of a full index into a fresh SQLite file, and the ratio of that time to
(a) tree-sitter parse-only of the same files and (b) ripgrep for the throw
patterns over the same files. Ratios, not seconds, are the figures to
compare: the machine is noisy.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from tree_sitter import Language, Parser

from errordex.ingest import IngestOptions, SourceFile, open_source
from errordex.pipeline import index, wanted
from errordex.store.sqlite import SqliteStore

CRATES = Path("/usr/share/cargo/registry")
RG_PATTERNS = {
    "python": r"raise [A-Za-z_][\w.]*|assert .*,",
    "rust": r"(panic|unimplemented|todo|unreachable|bail|anyhow|ensure|assert\w*)!\(|\.expect\(|#\[error\(|Err\(",
}


def _languages() -> dict[str, Language]:
    import tree_sitter_python
    import tree_sitter_rust

    return {
        ".py": Language(tree_sitter_python.language()),
        ".rs": Language(tree_sitter_rust.language()),
    }


def corpus_files(spec: str, keep: object) -> list[SourceFile]:
    src = open_source(spec, options=IngestOptions(wanted=keep))  # type: ignore[arg-type]
    return [f for f in src.files() if isinstance(f, SourceFile)]


def parse_only(files: list[SourceFile]) -> float:
    langs = _languages()
    parsers = {ext: Parser(lang) for ext, lang in langs.items()}
    t0 = time.perf_counter()
    for f in files:
        p = parsers.get(Path(f.path).suffix)
        if p is not None:
            p.parse(f.data)
    return time.perf_counter() - t0


def ripgrep(root: Path, files: list[SourceFile], language: str) -> float | None:
    rg = shutil.which("rg")
    if rg is None:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".lst", delete=False) as lst:
        lst.write("\n".join(f.path for f in files))
    t0 = time.perf_counter()
    # xargs keeps the command line short; rg itself is multi-threaded.
    subprocess.run(
        f"xargs -a {lst.name} -d '\\n' {rg} -c --no-messages -e '{RG_PATTERNS[language]}' >/dev/null",
        shell=True,
        cwd=root,
        check=False,
    )
    elapsed = time.perf_counter() - t0
    os.unlink(lst.name)
    return elapsed


def peak_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, kids) / 1024


def run(name: str, root: Path, keep: object, language: str, jobs: int) -> None:
    files = corpus_files(str(root), keep)
    nbytes = sum(len(f.data) for f in files if Path(f.path).suffix in (".py", ".rs"))
    print(f"\n== {name}: {root} ({len(files)} files, {nbytes / 1e6:.1f} MB of source)")
    t_parse = parse_only(files)
    t_rg = ripgrep(root, files, language)
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "bench.db")
        opts = IngestOptions(wanted=keep)  # type: ignore[arg-type]
        rss0 = peak_mb()
        t0 = time.perf_counter()
        result = index(str(root), store, options=opts, name=f"bench/{name}", jobs=jobs)
        t_index = time.perf_counter() - t0
        st = result.snapshot.stats
    print(
        f"  index (jobs={jobs}): {t_index:.2f}s  {st.files_parsed / t_index:.0f} files/s"
        f"  {nbytes / 1e6 / t_index:.2f} MB/s  sites={st.sites} entries={st.entries}"
    )
    print(f"  peak RSS: {peak_mb():.0f} MB (before index: {rss0:.0f} MB)")
    print(f"  tree-sitter parse-only (1 core): {t_parse:.2f}s  {nbytes / 1e6 / t_parse:.2f} MB/s")
    print(f"  ratio index / parse-only: {t_index / t_parse:.2f}x")
    if t_rg is not None:
        print(
            f"  ripgrep throw patterns: {t_rg:.2f}s  ratio index / ripgrep: {t_index / t_rg:.1f}x"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", choices=["stdlib", "crates", "all"], default="all")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    if args.corpus in ("stdlib", "all"):
        stdlib = Path(sysconfig.get_paths()["stdlib"])

        def keep_stdlib(p: str) -> bool:
            return wanted(p) and not p.startswith(("site-packages/", "test/", "idlelib/"))

        run("stdlib", stdlib, keep_stdlib, "python", args.jobs)
    if args.corpus in ("crates", "all"):
        if not CRATES.is_dir():
            sys.exit(f"no {CRATES}: install Debian's librust-*-dev packages (make test does)")
        run("crates", CRATES, wanted, "rust", args.jobs)


if __name__ == "__main__":
    main()
