"""The index pipeline: ingest -> extract -> group -> store.

``index()`` is what ``errordex index`` runs. It reports progress through a
callback and never prints. File texts go to the store as workers return
them, and sites (``SiteGroups``), most of each file's evidence and call
texts wait in unlinked temp files, so memory grows little with the size of
the repository (what stays is the lookups across files: names, call
edges, tests). The snapshot is written in one transaction at the end, so
an interrupted run leaves the previous snapshot as it was.
"""

from __future__ import annotations

import ctypes
import errno
import gc
import multiprocessing
import os
import pickle
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from errordex import __version__, plugins
from errordex.analysis import FileEvidence, facts_json, prose, referenced_paths, scan
from errordex.analysis.analyse import analyse_some
from errordex.analysis.evidence import TestExpect
from errordex.analysis.index import CrossFile, CrossPart, Index, cross_part, useful_calls
from errordex.errors import DiskFull
from errordex.extract import extractor_for, parser_for
from errordex.extract.common import is_test_path
from errordex.forward import (
    COLLECT,
    KEPT,
    RETYPED,
    collected_classes,
    collected_sites,
    forwarded_sites,
    with_subclasses,
)
from errordex.ingest import IngestOptions, Source, SourceFile, open_source
from errordex.ingest.filters import declared_text
from errordex.language import Language
from errordex.model import (
    ClassDef,
    ErrorEntry,
    Extraction,
    Forwarder,
    MessageCall,
    Package,
    Repo,
    Skip,
    Snapshot,
    SnapshotStats,
    ThrowSite,
)
from errordex.scratch.sitegroups import PickledSite, SiteGroups, pickled_site
from errordex.scratch.spill import Spill
from errordex.store.base import Store
from errordex.store.rows import EntryRows
from errordex.store.writer import SnapshotData, analysis_blob, compress

#: progress(files_seen, bytes_parsed, path): ``path`` is the file just read, or,
#: once every file is read, what the run does next ("analysing errors: 512 of 3,017")
ProgressFn = Callable[[int, int, str], None]

#: a batch of files sent to a worker: this many at most, and no more source
#: than ``_BATCH_BYTES`` (past one file), so the results in flight stay small
_BATCH = 64
_BATCH_BYTES = 1 << 20
#: batches absorbed between two ``_trim_heap``
_TRIM_EVERY = 16
#: identifiers held before they are handed to the store (crates have 161k)
IDENTS_HELD = 16_384
#: files whose evidence each analysis process keeps loaded (an LRU): 1024
#: held 14 MB more per process on 13k files of crates than 128 did, for no
#: less CPU; the stdlib reads 642 files with 256 (373 with 512, 2167 with 128)
EVIDENCE_CACHE_FILES = 256


@dataclass(frozen=True)
class IndexResult:
    snapshot_id: int
    snapshot: Snapshot
    skips: list[Skip]


@dataclass
class _Collected:
    #: every site, grouped by key on disk
    sites: SiteGroups
    classes: list[ClassDef] = field(default_factory=list)
    packages: list[Package] = field(default_factory=list)
    skips: list[Skip] = field(default_factory=list)
    #: ``compress``-ed texts of files to store, not yet handed to the store
    blobs: dict[str, bytes] = field(default_factory=dict)
    #: every path whose text is stored (or pending in ``blobs``)
    kept: set[str] = field(default_factory=set)
    #: what the analysis reads across files, gathered as files arrive
    cross: CrossFile = field(default_factory=CrossFile)
    #: the rest of each file's evidence, on disk until the analysis reads it by path
    evidence: Spill[FileEvidence] = field(default_factory=Spill)
    #: identifiers in the parsed code (for `errordex verify`) not yet handed to the store
    idents: set[str] = field(default_factory=set)
    #: each file's ``Forwarding``, on disk until _add_forwarded joins them
    forwarding: Spill[Forwarding] = field(default_factory=Spill)
    seen: int = 0
    parsed: int = 0
    manifests: int = 0
    docs: int = 0
    bytes_parsed: int = 0


def wanted(path: str) -> bool:
    """Files the pipeline reads: source files with an extractor, manifests,
    and prose docs (README, ``docs/``)."""
    return (
        extractor_for(path) is not None
        or plugins.manifest_for(path) is not None
        or prose.is_doc(path)
    )


def decode(data: bytes) -> str | None:
    """Text of a source file, or None when it is not text we should parse."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        declared = declared_text(data)
        if declared is not None:
            return declared
        text = data.decode("utf-8", "replace")
        # A few stray bytes (a Latin-1 comment) are fine; mostly-garbage is not source.
        return text if text.count("\ufffd") <= max(8, len(data) // 100) else None


#: what a worker sends back for one file's evidence: the part lookups across
#: files read, and the rest pickled (it goes to disk as it is)
Found = tuple[CrossPart, bytes]
#: what ``forwarded_sites`` reads of one file: its forwarders, message calls
#: and functions' qualified names
Forwarding = tuple[tuple[Forwarder, ...], tuple[MessageCall, ...], tuple[str, ...]]
#: a worker's result for one file: path, size, (extraction without its sites
#: and ``Forwarding``, its sites as ``pickled_site`` gives them, its text
#: ``compress``-ed or b"" for a file without sites, the ``Forwarding``
#: pickled or b"" when it is empty) or why it was skipped, evidence
Extracted = tuple[
    str, int, tuple[Extraction, tuple[PickledSite, ...], bytes, bytes] | Skip, Found | None
]
#: a worker's results for a batch of files, and their identifiers, each once
Batch = tuple[list[Extracted], tuple[str, ...]]


def _extract_batch(batch: list[tuple[str, bytes]]) -> Batch:
    out: list[Extracted] = []
    idents: set[str] = set()
    for p, d in batch:
        res, ev = _extract_and_scan(p, d)
        found = None
        if ev is not None:
            # Split and pickled here, so the index process (one, where the
            # workers are several) only files the parts away.
            part, rest = cross_part(ev)
            found = part, pickle.dumps(rest, pickle.HIGHEST_PROTOCOL)
            # The files of a batch share many names, so each goes back once
            # (the crates: 478k -> 231k; a batch of linux-raw-sys 72k -> 10k).
            idents.update(ev.idents)
        if not isinstance(res, Skip):
            extraction, text = res
            forwarding = b""
            if extraction.forwarders or extraction.calls or extraction.functions:
                # It waits on disk until every file is read (Python repos: 3-10 MB held).
                fw: Forwarding = (extraction.forwarders, extraction.calls, extraction.functions)
                forwarding = pickle.dumps(fw, pickle.HIGHEST_PROTOCOL)
                extraction = replace(extraction, forwarders=(), calls=(), functions=())
            blob = compress(text) if text else b""
            # Each site on its own, so the index process files it on disk unread.
            test_file = is_test_path(p)
            sites = tuple(
                pickled_site(replace(s, in_test=True) if test_file and not s.in_test else s)
                for s in extraction.sites
            )
            extraction = replace(extraction, sites=())
            out.append((p, len(d), (extraction, sites, blob, forwarding), found))
        else:
            out.append((p, len(d), res, found))
    return out, tuple(idents)


def _extract_and_scan(
    path: str, data: bytes
) -> tuple[tuple[Extraction, str] | Skip, FileEvidence | None]:
    """Extract one file and scan it for analysis evidence, from one parse
    (runs in a worker process)."""
    found = parser_for(path)
    if found is None:
        return Skip(path, "no extractor"), None
    text = decode(data)
    if text is None:
        return Skip(path, "not UTF-8"), None
    language, extract, parse = found
    try:
        tree = parse(text)
        extraction = extract(path, text, tree)
    except RecursionError:
        return Skip(path, "too deeply nested to parse"), None
    # Calls the analysis can never use are dropped here, before they are pickled and
    # kept; and only a file with sites has its text stored (others are read again
    # if an analysis points at them), so only that text goes back.
    return (extraction, text if extraction.sites else ""), useful_calls(
        scan(path, text, language, tree)
    )


def _exit_with_parent(parent: int) -> None:
    """A worker ends when the index process does (kill -9 included); an
    orphaned worker would wait on its queue forever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


@contextmanager
def _workers(
    jobs: int, context: multiprocessing.context.BaseContext | None = None
) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``jobs`` worker processes that end with this one. When the
    run stops early (Ctrl-C, an error) the workers are killed rather than
    waited for: the pool's own shutdown could wait forever on workers that
    never got their stop (seen when only this process got the SIGINT)."""
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=context,
        initializer=_exit_with_parent,
        initargs=(os.getpid(),),
    )
    try:
        yield pool
    except BaseException:
        # The executor has no public way to stop its processes at once.
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


@dataclass(frozen=True, slots=True)
class ReadManifest:
    """A manifest (``Cargo.toml``), read as it comes: its package and evidence
    (None: its language reads no manifests)."""

    path: str
    package: Package | None
    evidence: FileEvidence | None


@dataclass(frozen=True, slots=True)
class ReadDoc:
    """A prose doc (a README), read as it comes; no evidence when it is not text."""

    path: str
    evidence: FileEvidence | None


#: a step of reading a source, in file order: a batch of files to extract,
#: or one file dealt with there and then (skipped, a manifest, a doc)
Step = list[tuple[str, bytes]] | Skip | ReadManifest | ReadDoc
#: a step once its batch is extracted (what a part of a split index keeps)
ExtractedStep = Batch | Skip | ReadManifest | ReadDoc


def _steps(source: Source) -> Iterator[Step]:
    """Every file of ``source`` once, in its order: each a skip, a manifest
    or doc read at once, or in a batch of files to extract."""
    batch: list[tuple[str, bytes]] = []
    size = 0
    for item in source.files():
        if not _printable_path(item.path):
            # A file name that is not UTF-8 cannot be shown, linked or stored as text.
            shown = item.path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            yield Skip(shown, "file name is not UTF-8")
            continue
        if isinstance(item, Skip):
            yield item
            continue
        assert isinstance(item, SourceFile)
        lang = plugins.manifest_for(item.path)
        if lang is not None:
            yield _read_manifest(item, lang)
            continue
        if extractor_for(item.path) is None and prose.is_doc(item.path):
            text = decode(item.data)
            doc = None
            if text is not None:
                doc = FileEvidence(
                    item.path,
                    "",
                    text.count("\n") + 1,
                    tests=doc_examples(item.path, text),
                    prose=prose.lines(text),
                )
            yield ReadDoc(item.path, doc)
            continue
        batch.append((item.path, item.data))
        size += len(item.data)
        if len(batch) >= _BATCH or size >= _BATCH_BYTES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def doc_examples(path: str, text: str) -> tuple[TestExpect, ...]:
    """The examples a prose doc shows an error raised in, as each language reads them."""
    return tuple(
        t
        for lang in plugins.languages().values()
        if lang.project.doc_examples is not None
        for t in lang.project.doc_examples(path, text)
    )


def _batches(source: Source, into: _Collected) -> Iterator[list[tuple[str, bytes]]]:
    """The batches of files to extract; the other files go into ``into`` at once."""
    for step in _steps(source):
        if isinstance(step, list):
            into.seen += len(step)
            yield step
        else:
            _apply(step, into)


def _apply(step: Skip | ReadManifest | ReadDoc, into: _Collected) -> None:
    into.seen += 1
    if isinstance(step, Skip):
        into.skips.append(step)
    elif isinstance(step, ReadManifest):
        into.manifests += 1
        if step.package is not None:
            into.packages.append(step.package)
        if step.evidence is not None:
            # A workspace's root manifest declares no package, but the versions its
            # members inherit (``version.workspace = true``).
            _add_evidence(step.path, step.evidence, into)
    else:
        into.docs += 1
        if step.evidence is not None:
            _add_evidence(step.path, step.evidence, into)


def extracted_steps(source: Source) -> Iterator[ExtractedStep]:
    """``_steps`` with each batch extracted, in this process: one part of a
    split index (``errordex.parts``), replayed by ``index_extracted``."""
    for step in _steps(source):
        yield _extract_batch(step) if isinstance(step, list) else step


def _trim_heap() -> None:
    """Hand the heap's free memory back to the system. glibc keeps what a
    process frees for its next allocations; after extraction that is about
    a seventh of the index process (8 of 56 MB on site-packages), which the
    analysis workers forked later would start with too. Elsewhere, nothing."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)


def _printable_path(path: str) -> bool:
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _read_manifest(item: SourceFile, lang: Language) -> ReadManifest:
    if lang.project.read_manifest is None:
        return ReadManifest(item.path, None, None)
    text = item.data.decode("utf-8", "replace")
    pkg, evidence = lang.project.read_manifest(item.path, text)
    return ReadManifest(item.path, pkg, evidence)


def _add_evidence(path: str, ev: FileEvidence, into: _Collected) -> None:
    # A file's identifiers go to one set for the snapshot (the analysis never
    # reads them); what lookups across files need stays in memory, compact,
    # and the rest of the evidence waits on disk.
    into.idents.update(ev.idents)
    into.evidence.put(path, into.cross.add(ev))


def _absorb(batch: Batch, into: _Collected) -> None:
    results, idents = batch
    into.idents.update(idents)
    for path, size, res, found in results:
        if found is not None:
            part, rest = found
            into.cross.add_part(part)
            into.evidence.put_pickled(path, rest)
        if isinstance(res, Skip):
            into.skips.append(res)
            continue
        extraction, sites, blob, forwarding = res
        into.parsed += 1
        into.bytes_parsed += size
        if sites:
            for site in sites:
                into.sites.add_pickled(*site)
            into.blobs[path] = blob
            into.kept.add(path)
        into.classes.extend(extraction.classes)
        if forwarding:
            into.forwarding.put_pickled(path, forwarding)


def _package_placer(packages: list[Package]) -> Callable[[ThrowSite], ThrowSite]:
    """What gives a site its package: the one whose root is the longest
    prefix of its path."""
    roots = sorted(packages, key=lambda p: len(p.root), reverse=True)
    # A root is a prefix of a path up to one of its slashes: each is looked
    # up by that prefix (the first in ``roots`` order of those that are),
    # rather than every root tried on every site (the crates: 425 roots,
    # 17k sites read twice). An empty root is every path's.
    first: dict[str, int] = {}
    anywhere: int | None = None
    for i, p in enumerate(roots):
        if not p.root:
            anywhere = i if anywhere is None else anywhere
        else:
            first.setdefault(p.root.rstrip("/"), i)
    owners: dict[str, str | None] = {}

    def owner(path: str) -> str | None:
        if path in owners:
            return owners[path]
        found = [] if anywhere is None else [anywhere]
        at = path.find("/")
        while at >= 0:
            i = first.get(path[:at])
            if i is not None:
                found.append(i)
            at = path.find("/", at + 1)
        name = owners[path] = roots[min(found)].name if found else None
        return name

    def assigned(s: ThrowSite) -> ThrowSite:
        if s.package:
            return s
        name = owner(s.path)
        # the same site when nothing changes (a copy of every site would double their memory)
        return s if name == s.package else replace(s, package=name)

    return assigned


def _reexporting(ix: Index) -> set[str]:
    """The package files (Python ``__init__.py``, a crate's root) whose
    re-exports the index read, and the module files they re-export from
    (``fastapi/param_functions.py`` of ``fastapi.Path``), which define what
    a user calls by the exported name."""
    paths = set(ix.paths)
    inits = {v[0] for v in ix.exports.values()} | {v[0] for v in ix.root_exports.values()}
    modules = {f"{module}.py" for module, _ in ix.exports} & paths
    return inits | modules


def _keep_files(source: Source, paths: set[str], got: _Collected, store: StoreFilesFn) -> None:
    """Hand the texts of ``paths`` not kept yet to ``store``, a batch at a time."""
    blobs: list[tuple[str, bytes]] = []
    for path in sorted(paths - got.kept):
        data = source.read(path)
        text = decode(data) if data is not None else None
        if text is not None:
            blobs.append((path, compress(text)))
            got.kept.add(path)
        if len(blobs) >= _BATCH:
            store(blobs)
            blobs = []
    if blobs:
        store(blobs)


#: (Index, entries, repo) of the run, inherited by forked analysis workers
_SHARED: tuple[Index, SiteGroups, Repo] | None = None
_CHUNKS_PER_JOB = 8
#: entries analysed at a time in this process (their sites are read back for it)
_CHUNK_ENTRIES = 512

#: store_analyses(rows): hands (entry id, analysis JSON) rows to the store, in entry order
StoreAnalysesFn = Callable[[Iterable[tuple[str, bytes]]], None]
#: store_rows(rows): hands some entries' rows to the store, in entry order
StoreRowsFn = Callable[[EntryRows], None]


def _analyse_chunk(lo: int, hi: int) -> tuple[list[tuple[str, bytes]], set[str], EntryRows]:
    """Analyses (as stored) of entries[lo:hi], the paths they point at, and
    the rows of those entries (worked out here, beside the analyses, rather
    than in the write at the end, which only one process can do)."""
    assert _SHARED is not None
    ix, groups, repo = _SHARED
    entries = list(groups.entries(lo, hi))
    rows: list[tuple[str, bytes]] = []
    facts: list[str] = []
    # The analysis makes no reference cycles (a collection after the stdlib's
    # finds none), so the collector, which took 12% of its CPU walking the
    # rows made so far, is off until the chunk is done.
    enabled = gc.isenabled()
    gc.disable()
    try:
        for e, a in analyse_some(entries, ix, repo):
            facts.append(facts_json(a.facts))
            rows.append((e.id, analysis_blob({"analysis": a.to_json()}, facts[-1])))
        return rows, referenced_paths(facts), EntryRows.of(entries, firsts=False)
    finally:
        if enabled:
            gc.enable()


def _analyse_all(
    ix: Index,
    entries: SiteGroups,
    repo: Repo,
    jobs: int,
    store: StoreAnalysesFn,
    store_rows: StoreRowsFn,
    done: Callable[[int], None] = lambda n: None,
) -> set[str]:
    """Write every entry's analysis through ``store``, and its rows through
    ``store_rows``, as each chunk of entries is done (``done(entries so
    far)``); return every path they point at. With jobs > 1 (and fork), the chunks go to a pool forked after
    the Index is built, so the workers inherit it instead of unpickling it."""
    global _SHARED
    _SHARED = (ix, entries, repo)
    referenced: set[str] = set()
    n = 0
    try:
        seen: dict[str, set[str]] = {}  # the type names filed so far, per repository
        for rows, paths, entry_rows in _analysed_chunks(len(entries), jobs):
            store(rows)
            entry_rows.file_firsts(seen)
            store_rows(entry_rows)
            referenced |= paths
            n += len(entry_rows.entries)
            done(n)
    finally:
        _SHARED = None
    return referenced


def _analysed_chunks(
    n: int, jobs: int
) -> Iterator[tuple[list[tuple[str, bytes]], set[str], EntryRows]]:
    """``_analyse_chunk`` over entries[0:n], in order, each chunk as it is done."""
    if jobs <= 1 or n < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for lo in range(0, n, _CHUNK_ENTRIES):
            yield _analyse_chunk(lo, min(n, lo + _CHUNK_ENTRIES))
        return
    size = max(1, -(-n // (jobs * _CHUNKS_PER_JOB)))
    bounds = [(lo, min(n, lo + size)) for lo in range(0, n, size)]
    # Frozen objects are left alone by the workers' collector, so
    # their pages stay shared with this process.
    gc.freeze()
    try:
        with _workers(jobs, multiprocessing.get_context("fork")) as pool:
            yield from pool.map(_analyse_chunk, *zip(*bounds, strict=True))
    finally:
        gc.unfreeze()


@dataclass
class _Counts:
    """What the snapshot's stats count of its entries, as they go by once."""

    dynamic_sites: int = 0
    #: entries with a site outside tests
    entries: int = 0

    def of(self, entries: Iterable[ErrorEntry]) -> Iterator[ErrorEntry]:
        for e in entries:
            self.dynamic_sites += sum(1 for s in e.sites if s.template.dynamic)
            self.entries += bool(e.catalog_sites)
            yield e


def _add_forwarded(source: Source, got: _Collected, store: StoreFilesFn) -> None:
    """Add a site at each call that passes message text to a helper that
    raises it (``self.fail(_("..."))``; see ``errordex.forward``)."""
    # Each of the three is a pass over the files read back, one at a time.
    found = got.forwarding
    collecting: list[Forwarder] = []  # kept aside as they go by: not a fourth pass

    def forwarders() -> Iterator[Forwarder]:
        for forwarders, _, _ in found.values():
            for fw in forwarders:
                if fw.name.startswith(COLLECT):
                    collecting.append(fw)
                else:
                    yield fw

    extra = forwarded_sites(
        forwarders(),
        (c for _, calls, _ in found.values() for c in calls),
        got.classes,
        (q for _, _, functions in found.values() for q in functions),
    )
    # errors collected and raised together (``forward.collected_sites``); an
    # error caught and raised again of a class the repository does not define
    # (a builtin ``OSError``) would take every raise of that class, here or not
    own = {c.name for c in got.classes}
    collecting = [
        fw
        for fw in collecting
        if fw.kind not in (RETYPED, KEPT) or fw.name.removeprefix(COLLECT) in own
    ]
    collectors = with_subclasses(collected_classes(collecting), got.classes)
    found.close()
    if collectors:
        extra += collected_sites(got.sites.raising(collectors.keys()), collectors)
    _keep_files(source, {s.path for s in extra}, got, store)
    for site in extra:
        got.sites.add(site)


#: store_files(blobs): hands (path, ``compress``-ed text) to the store as they come
StoreFilesFn = Callable[[Iterable[tuple[str, bytes]]], None]
#: store_idents(names): hands identifiers to the store (a name may come again)
StoreIdentsFn = Callable[[Iterable[str]], None]


def collect(
    source: Source,
    jobs: int = 1,
    progress: ProgressFn | None = None,
    store_files: StoreFilesFn | None = None,
    evidence: Spill[FileEvidence] | None = None,
    store_idents: StoreIdentsFn | None = None,
    sites: SiteGroups | None = None,
    extracted: Iterable[ExtractedStep] | None = None,
) -> _Collected:
    """Extract every file (or take them as ``extracted``, from
    ``extracted_steps``, and read none). With ``store_files``, the texts of files with
    sites are handed over batch by batch and not kept; without it they stay
    in ``blobs``. With ``store_idents``, identifiers are handed over
    whenever ``idents`` holds over ``IDENTS_HELD``, and the rest at the end.
    The evidence read by path goes to ``evidence``, and the sites to
    ``sites`` (new ones if not given)."""
    into = _Collected(
        sites=sites if sites is not None else SiteGroups(source.repo.slug),
        evidence=evidence if evidence is not None else Spill(),
    )
    absorbed = 0
    report = progress or (lambda seen, nbytes, path: None)

    def absorb(batch: Batch) -> None:
        _absorb(batch, into)
        if store_files is not None and into.blobs:
            store_files(into.blobs.items())
            into.blobs.clear()
        if store_idents is not None and len(into.idents) > IDENTS_HELD:
            store_idents(into.idents)
            into.idents.clear()
        # What is kept by now stays to the end: out of the collector's sight,
        # so its collections look at young objects only, not at every site and
        # call edge again (the stdlib's index spent 0.64 s collecting here).
        gc.freeze()
        nonlocal absorbed
        absorbed += 1
        if absorbed % _TRIM_EVERY == 0:
            _trim_heap()

    try:
        if extracted is None:
            _collect(source, into, absorb, report, jobs)
        else:
            _replay(extracted, into, absorb, report)
    finally:
        gc.unfreeze()
    if store_idents is not None and into.idents:
        # the rest, too: the analysis never reads them, and its workers would
        # each start with them (up to IDENTS_HELD names, 1.5 MB)
        store_idents(into.idents)
        into.idents.clear()
    return into


def _collect(
    source: Source,
    into: _Collected,
    absorb: Callable[[Batch], None],
    report: ProgressFn,
    jobs: int,
) -> None:
    batches = _batches(source, into)
    if jobs <= 1:
        for batch in batches:
            absorb(_extract_batch(batch))
            report(into.seen, into.bytes_parsed, batch[-1][0])
        return
    with _workers(jobs) as pool:
        # Keep a bounded number of batches in flight so memory stays flat.
        pending = []
        for batch in batches:
            pending.append(pool.submit(_extract_batch, batch))
            if len(pending) >= jobs * 2:
                absorb(pending.pop(0).result())
                report(into.seen, into.bytes_parsed, batch[-1][0])
        for fut in pending:
            absorb(fut.result())
            report(into.seen, into.bytes_parsed, "")


def _replay(
    steps: Iterable[ExtractedStep],
    into: _Collected,
    absorb: Callable[[Batch], None],
    report: ProgressFn,
) -> None:
    """``_collect`` of files extracted already, in the same order."""
    for step in steps:
        if isinstance(step, tuple):
            into.seen += len(step[0])
            absorb(step)
            report(into.seen, into.bytes_parsed, step[0][-1][0] if step[0] else "")
        else:
            _apply(step, into)


def index(
    spec: str,
    store: Store,
    rev: str | None = None,
    name: str | None = None,
    options: IngestOptions | None = None,
    jobs: int | None = None,
    progress: ProgressFn | None = None,
) -> IndexResult:
    """Index ``spec`` (a directory, a git repository or URL, ``pkg:NAME``) at
    ``rev`` into ``store`` as one snapshot, with ``jobs`` worker processes
    (default: one per core, at most 4). Raises an ``ErrordexError`` for what
    the user can fix: a source that cannot be read, a bad option, a full disk
    (``DiskFull``); the store keeps its previous snapshot then."""
    started = time.perf_counter()
    source = open_for_index(spec, rev=rev, name=name, options=options)
    return index_source(source, store, jobs=jobs, progress=progress, started=started)


def open_for_index(
    spec: str,
    rev: str | None = None,
    name: str | None = None,
    options: IngestOptions | None = None,
) -> Source:
    """Open ``spec`` as ``index`` reads it (only the files worth parsing), to
    look at its repository and commit before ``index_source`` (the queue's
    worker skips a snapshot that is stored already)."""
    opts = options or IngestOptions()
    user_wanted = opts.wanted
    opts = replace(
        opts, wanted=wanted if user_wanted is None else lambda p: wanted(p) and user_wanted(p)
    )
    return open_source(spec, rev=rev, name=name, options=opts)


def index_source(
    source: Source,
    store: Store,
    jobs: int | None = None,
    progress: ProgressFn | None = None,
    started: float | None = None,
) -> IndexResult:
    """Index a source from ``open_for_index``, as ``index`` does."""
    started = time.perf_counter() if started is None else started
    if jobs is None:
        jobs = 1 if (os.cpu_count() or 1) < 2 else min(4, os.cpu_count() or 1)
    with _disk_full_reported(store):
        return _index(source, store, jobs, progress, started)


@contextmanager
def _disk_full_reported(store: Store) -> Iterator[None]:
    """A full disk, under the database or under the run's scratch files, as
    a ``DiskFull`` that says where (the write is rolled back by then)."""
    try:
        yield
    except (OSError, sqlite3.Error) as exc:
        if not _disk_full(exc):
            raise
        raise DiskFull(
            f"no space left on the device ({exc}); nothing was written, the previous"
            f" snapshot is intact. The index writes the database at {store.where} and"
            f" its scratch files in the temp directory ({_temp_dir()}; TMPDIR moves it)"
        ) from None


def _temp_dir() -> str:
    # SQLite's temp files go to $TMPDIR even when Python's fall back to /tmp
    return os.environ.get("TMPDIR") or tempfile.gettempdir()


def _disk_full(exc: OSError | sqlite3.Error) -> bool:
    if isinstance(exc, OSError):
        return exc.errno in (errno.ENOSPC, errno.EDQUOT)
    return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL


def index_extracted(
    source: Source,
    commit: str,
    steps: Iterable[ExtractedStep],
    store: Store,
    progress: ProgressFn | None = None,
    started: float | None = None,
) -> IndexResult:
    """Index ``source`` at ``commit`` as ``index_source`` does, from its files
    extracted already: ``steps``, every file's in the source's order (the
    parts of a split index, ``errordex.parts``, one after the other). Only
    what the analysis needs of the files is read from ``source``."""
    started = time.perf_counter() if started is None else started
    with _disk_full_reported(store):
        return _index(source, store, 1, progress, started, (commit, steps))


def _index(
    source: Source,
    store: Store,
    jobs: int,
    progress: ProgressFn | None,
    started: float,
    extracted: tuple[str, Iterable[ExtractedStep]] | None = None,
) -> IndexResult:
    with (
        store.writer() as writer,
        Spill[FileEvidence]() as evidence,
        SiteGroups(source.repo.slug) as entries,
    ):
        got = collect(
            source,
            jobs=jobs,
            progress=progress,
            store_files=writer.add_compressed,
            evidence=evidence,
            store_idents=writer.add_idents,
            sites=entries,
            extracted=None if extracted is None else extracted[1],
        )
        # (a directory's commit is a hash of its files: read again, but for the parts')
        commit = source.commit if extracted is None else extracted[0]
        _trim_heap()
        report = progress or (lambda seen, nbytes, path: None)

        def say(doing: str) -> None:
            report(got.seen, got.bytes_parsed, doing)

        say("grouping the sites into errors")
        _add_forwarded(source, got, writer.add_compressed)
        entries.settle(*plugins.class_messages(got.classes), place=_package_placer(got.packages))
        counts = _Counts()
        ix = Index(
            got.cross,
            got.packages,
            got.classes,
            counts.of(entries.entries()),
            load=got.evidence.get,
            cache_size=EVIDENCE_CACHE_FILES,
        )
        got.cross = CrossFile()  # the Index holds what it reads
        _trim_heap()
        say(f"analysing errors: 0 of {len(entries):,}")
        referenced = _analyse_all(
            ix,
            entries,
            source.repo,
            jobs,
            writer.add_analyses,
            writer.add_entry_rows,
            lambda n: say(f"analysing errors: {n:,} of {len(entries):,}"),
        )
        # and every package file that re-exports a name: ``explain`` reads a
        # pasted stack's call by the name a user imports it by (``called``)
        referenced |= _reexporting(ix)
        del ix
        # Store every file an analysis points at, so its lines can be shown and verified.
        _keep_files(source, referenced, got, writer.add_compressed)
        stats = SnapshotStats(
            files_seen=got.seen,
            files_parsed=got.parsed,
            manifests_read=got.manifests,
            docs_read=got.docs,
            files_skipped=len(got.skips),
            sites=entries.n_sites,
            dynamic_sites=counts.dynamic_sites,
            entries=counts.entries,
            seconds=time.perf_counter() - started,
            bytes_parsed=got.bytes_parsed,
        )
        snapshot = Snapshot(
            repo=source.repo,
            commit=commit,
            commit_date=source.commit_date,
            indexed_at=datetime.now(UTC).isoformat(timespec="seconds"),
            tool_version=__version__,
            stats=stats,
            version_label=source.version_label,
            commit_kind=source.commit_kind,
        )
        say("writing the snapshot")
        sid = writer.finish(
            SnapshotData(
                snapshot=snapshot,
                forge_ref=source.forge_ref,
                entries=[],  # their rows are handed over
                packages=got.packages,
                classes=got.classes,
                skips=got.skips,
                files={},  # handed over
                idents=got.idents,
            )
        )
    return IndexResult(snapshot_id=sid, snapshot=snapshot, skips=got.skips)
