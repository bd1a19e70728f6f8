"""The ``errordex`` command: parse options, call the library, print.

Library errors (``errordex.errors.ErrordexError``) become one clear line on
stderr and the exit code named in ``errors.py``; a traceback means a bug.
"""

from __future__ import annotations

import errno
import json
import os
import re
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

import click
from rich.console import Console
from rich.markup import escape

from errordex import __version__, plugins
from errordex.errors import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    EXIT_NOT_FOUND,
    EXIT_STORE,
    ErrordexError,
    InputError,
)
from errordex.store import open_store
from errordex.store.base import Store
from errordex.visible import visible_controls

P = ParamSpec("P")
R = TypeVar("R")

err_console = Console(stderr=True)


def friendly(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn library errors into one line and a meaningful exit code."""

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            try:
                return fn(*args, **kwargs)
            finally:
                sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        except BrokenPipeError:
            # the reader left (`errordex show ID | head -1`): stop quietly, as
            # cat does, and keep the interpreter's last flush from failing again
            _stdout_to_devnull()
            sys.exit(EXIT_BROKEN_PIPE)
        except OSError as exc:
            # the library turns a full disk under its own files into DiskFull;
            # one that reaches here is the output's (`errordex list > /dev/full`)
            if exc.errno not in _OUTPUT_FULL:
                raise
            _stdout_to_devnull()
            err_console.print(
                f"[bold red]error:[/] cannot write the output: {escape(exc.strerror or str(exc))}",
                highlight=False,
                soft_wrap=True,
            )
            sys.exit(EXIT_STORE)
        except ErrordexError as exc:
            # one line, unwrapped and as written (a path may hold "[", which
            # rich would take for markup); the hint names a command, so only here
            message = f"{exc} ({exc.hint})" if exc.hint else str(exc)
            err_console.print(
                f"[bold red]error:[/] {escape(visible_controls(message))}",
                highlight=False,
                soft_wrap=True,
            )
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            err_console.print(
                "[yellow]interrupted[/]: nothing was written; the previous snapshot is intact"
            )
            # The write is rolled back by now. Exit at once: the interpreter's own
            # exit joins the worker pools' threads and processes, and that join
            # could wait forever when only this process got the SIGINT.
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(EXIT_INTERRUPTED)

    return wrapper


#: write errors that mean the output's disk is full, not a bug
_OUTPUT_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def _stdout_to_devnull() -> None:
    """Point stdout at /dev/null (the recipe of Python's docs on SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor (a test runner's stdout)
        pass


def _say_empty(store: Store, otherwise: str) -> None:
    """Say why there is nothing to show: nothing is indexed in this database
    yet (the usual surprise: another ERRORDEX_DB), or ``otherwise``."""
    if not store.repos():
        err_console.print(
            f"nothing is indexed in {escape(visible_controls(store.where))} yet:"
            " run `errordex index SOURCE`",
            highlight=False,
            soft_wrap=True,
        )
    elif otherwise:
        err_console.print(escape(visible_controls(otherwise)), highlight=False, soft_wrap=True)


#: C1 control characters, which JSON may hold raw (U+0080 to U+009F; C0 is escaped).
_C1 = re.compile(r"[\x80-\x9f]")


def emit_json(data: Any) -> None:
    """``data`` as JSON, with C1 controls escaped too (``\\u009b`` would be a
    terminal's CSI): the same data, and nothing a terminal obeys."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    click.echo(_C1.sub(lambda m: f"\\u{ord(m[0]):04x}", text))


db_option = click.option(
    "--db",
    envvar="ERRORDEX_DB",
    default=None,
    help="Database: an SQLite path (default under the user data dir) or a postgresql:// URL."
    " Env: ERRORDEX_DB.",
)


def _split_over(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    if value is None:
        return None
    from errordex.parts import parse_size

    try:
        return parse_size(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


split_over_option = click.option(
    "--split-over",
    "split_over",
    envvar="ERRORDEX_SPLIT_OVER",
    metavar="SIZE",
    default=None,
    callback=_split_over,
    help="With the queue: a repository with more source than SIZE (32M, 512K; off: never)"
    " is split into parts of about SIZE that several workers extract at once, merged into"
    " one snapshot (default 32M). Env: ERRORDEX_SPLIT_OVER.",
)


broker_option = click.option(
    "--broker",
    envvar="ERRORDEX_BROKER",
    default=None,
    help="The queue's broker, a Redis URL (default redis://127.0.0.1:6379/0)."
    " Env: ERRORDEX_BROKER.",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="errordex")
def main() -> None:
    """errordex: every error a repository can throw, with its page."""


@main.command()
@click.argument("source")
@click.option("--rev", help="Revision to index (SHA, tag, branch); default HEAD.")
@click.option(
    "--name",
    help="Repository slug owner/name; default from the origin remote. Without a remote on a"
    " forge, a git commit's pages link to it on GitHub (or --forge-url).",
)
@click.option(
    "--forge-url",
    metavar="URL",
    help="The forge the repository is on, for its links: a base address such as"
    " https://gitlab.example.org or https://codeberg.org (default: the origin remote's, else"
    " GitHub for --name).",
)
@click.option(
    "--max-file-bytes",
    type=click.IntRange(min=1),
    default=1_000_000,
    show_default=True,
    help="Skip larger files.",
)
@click.option(
    "--exclude",
    "exclude",
    metavar="PATTERN",
    multiple=True,
    help="Do not index paths matching this gitignore-style pattern, relative to SOURCE"
    " (test/, docs/**, *_pb2.py, /build); !PATTERN keeps what an earlier one left out;"
    " repeatable.",
)
@click.option(
    "--python",
    "interpreter",
    metavar="PATH",
    help="For pkg:NAME: look in this interpreter's environment (its sys.path)"
    " instead of errordex's own.",
)
@click.option(
    "--site-packages",
    "site_packages",
    metavar="DIR",
    multiple=True,
    help="For pkg:NAME: look in this directory instead of errordex's environment; repeatable.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: one per core, at most 4).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the snapshot summary as JSON.")
@click.option(
    "--queue",
    "queued",
    is_flag=True,
    help="Do not index here: send one task to the workers (errordex worker) through the broker.",
)
@split_over_option
@broker_option
@db_option
@friendly
def index(
    source: str,
    rev: str | None,
    name: str | None,
    forge_url: str | None,
    max_file_bytes: int,
    exclude: tuple[str, ...],
    interpreter: str | None,
    site_packages: tuple[str, ...],
    jobs: int | None,
    as_json: bool,
    queued: bool,
    split_over: int | None,
    broker: str | None,
    db: str | None,
) -> None:
    """Index SOURCE: a directory, a git repo (any --rev), a git URL, or pkg:NAME."""
    from pathlib import Path

    from errordex.ingest import IngestOptions
    from errordex.pipeline import index as run_index
    from errordex.termview import index_progress, print_index_summary, stdout_console

    given = click.get_current_context().get_parameter_source("split_over")
    if not queued and given == click.core.ParameterSource.COMMANDLINE:
        raise InputError("--split-over splits the work of the queue's workers: add --queue")
    if queued:
        from errordex.queue import IndexJob
        from errordex.queue.jobs import DEFAULT_SPLIT_OVER

        path = Path(source).expanduser()
        job = IndexJob(
            # a directory as the workers will find it
            str(path.resolve()) if path.is_dir() else source,
            rev=rev,
            name=name,
            exclude=exclude,
            max_file_bytes=max_file_bytes,
            interpreter=interpreter,
            site_packages=site_packages,
            forge_url=forge_url,
            split_over=DEFAULT_SPLIT_OVER if split_over is None else split_over,
        )
        _enqueue([job], broker, db, as_json)
        return
    options = IngestOptions(
        max_file_bytes=max_file_bytes,
        exclude=exclude,
        python=Path(interpreter).expanduser() if interpreter else None,
        site_packages=tuple(Path(d).expanduser() for d in site_packages),
        forge_url=forge_url,
    )
    store = open_store(db, write=True)
    with index_progress(err_console, enabled=not as_json) as progress:
        result = run_index(
            source,
            store,
            rev=rev,
            name=name,
            options=options,
            jobs=jobs,
            progress=progress,
        )
    if as_json:
        snap = result.snapshot
        emit_json(
            {
                "version": 1,
                "repo": snap.repo.slug,
                "commit": snap.commit,
                "commit_kind": snap.commit_kind,
                "commit_date": snap.commit_date,
                "version_label": snap.version_label,
                "stats": snap.stats.to_json(),
                "skipped": [{"path": s.path, "reason": s.reason} for s in result.skips],
            }
        )
    else:
        print_index_summary(stdout_console(), result)


class _KindChoice(click.Choice[str]):
    """The kinds of every registered language, read when ``--kind`` is used
    (not when the CLI is imported)."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        return plugins.kinds()

    @choices.setter
    def choices(self, value: object) -> None:
        pass  # click.Choice sets its own; these are the languages'


@main.command(name="list")
@click.option("--repo", help="Only this repository (owner/name).")
@click.option(
    "--kind",
    type=_KindChoice(),
    help="Only this kind (panic, raise, expect, ...).",
)
@click.option("--grep", "text", help="Only messages containing this text.")
@click.option("--tests", is_flag=True, help="Include messages thrown only in test code.")
@click.option("--limit", type=click.IntRange(min=0), default=None, help="At most this many.")
@click.option("--json", "as_json", is_flag=True, help="Print entries as JSON.")
@db_option
@friendly
def list_(
    repo: str | None,
    kind: str | None,
    text: str | None,
    tests: bool,
    limit: int | None,
    as_json: bool,
    db: str | None,
) -> None:
    """List the indexed errors."""
    from errordex.termview import print_entry_table, stdout_console
    from errordex.views import entry_json, in_catalog_order

    store = open_store(db)
    if repo:
        store.current(repo)  # a clear error for an unknown repo
    # in the catalog's order, for users: what public API reaches first
    entries = in_catalog_order(
        store, store.entries(repo=repo, kind=kind, text=text, include_test_only=tests)
    )[:limit]
    if as_json:
        snaps = {s.repo.slug: s.snapshot for s in store.repos()}
        emit_json([entry_json(e, snaps[e.repo], store) for e in entries])
        return
    total = store.count_entries(repo=repo, kind=kind, text=text, include_test_only=tests)
    if total == 0:
        _say_empty(store, "no errors match these filters")
        return
    # several repositories indexed: say which one each entry is in
    several = repo is None and len(store.repos()) > 1
    print_entry_table(stdout_console(), entries, total, repos=several)


@main.command()
@click.argument("entry_id", metavar="ID")
@click.option("--repo", help="Only this repository (when two repositories share an id).")
@click.option("--json", "as_json", is_flag=True, help="Print the entry as JSON.")
@db_option
@friendly
def show(entry_id: str, repo: str | None, as_json: bool, db: str | None) -> None:
    """Show one error: its message and every site with a snippet.

    ID is an entry's id, or its first 4 or more hex digits when no other id
    starts with them.
    """
    from errordex.termview import print_entry, stdout_console
    from errordex.views import entry_json, resolve_id

    store = open_store(db)
    entry_id = resolve_id(store, entry_id, repo)
    entry = store.entry(entry_id, repo)
    snap = store.entry_snapshot(entry_id, repo)
    data = entry_json(entry, snap, store, with_snippets=True)
    if as_json:
        emit_json(data)
    else:
        print_entry(stdout_console(), data)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@db_option
@friendly
def stats(as_json: bool, db: str | None) -> None:
    """Counts per indexed repository."""
    from errordex.termview import print_stats, stdout_console

    store = open_store(db)
    rows = [
        {
            "repo": r.repo.slug,
            "commit": r.snapshot.commit,
            "commit_kind": r.snapshot.snapshot.commit_kind,
            "version_label": r.snapshot.snapshot.version_label,
            "indexed_at": r.snapshot.snapshot.indexed_at,
            "entries": r.entries,
            **r.snapshot.snapshot.stats.to_json(),
        }
        for r in store.repos()
    ]
    if as_json:
        emit_json({"version": 1, "database": store.where, "repos": rows})
    elif not rows:
        _say_empty(store, "")
    else:
        print_stats(stdout_console(), rows, store.where)


def _llm_options(fn: Callable[P, R]) -> Callable[P, R]:
    """--llm-url/--llm-model/--llm-key; each falls back to its ERRORDEX_LLM_*
    variable, then to the config file's [llm] table (``errordex.llm.config``)."""
    for opt in reversed(
        (
            click.option(
                "--llm-url", help="Base URL of an OpenAI-compatible API. Env: ERRORDEX_LLM_URL."
            ),
            click.option("--llm-model", help="The model to ask. Env: ERRORDEX_LLM_MODEL."),
            click.option("--llm-key", help="API key, if it needs one. Env: ERRORDEX_LLM_KEY."),
        )
    ):
        fn = opt(fn)
    return fn


def _llm_config(url: str | None, model: str | None, key: str | None) -> Any:
    try:
        from errordex.llm import config
    except ImportError as exc:  # pydantic reads the config file and the model's JSON
        raise InputError(f"the LLM writer needs {exc.name}: pip install 'errordex[llm]'") from None
    return config.required(config.load(url, model, key))


@main.command()
@click.argument("text", required=False)
@click.option("--repo", help="Only match errors of this repository.")
@click.option(
    "--limit", type=click.IntRange(min=1), default=5, show_default=True, help="Matches per error."
)
@click.option("--json", "as_json", is_flag=True, help="Print ranked matches as JSON.")
@click.option(
    "--llm",
    is_flag=True,
    help="Have the model write the page of each error found (streamed; every section is "
    "checked before it is shown, and kept in the store).",
)
@_llm_options
@db_option
@friendly
def explain(
    text: str | None,
    repo: str | None,
    limit: int,
    as_json: bool,
    llm: bool,
    llm_url: str | None,
    llm_model: str | None,
    llm_key: str | None,
    db: str | None,
) -> None:
    """Find the page for a pasted error: a traceback, a panic or one line.

    TEXT is the error text; with no TEXT or with "-", it is read from stdin.
    """
    from errordex.explain import explain_text
    from errordex.termview import print_explanations, stdout_console

    if text is None or text == "-":
        if sys.stdin.isatty() and text is None:
            raise click.UsageError(
                "paste the error as TEXT, or pipe it in: errordex explain - < err.txt"
            )
        text = sys.stdin.buffer.read().decode("utf-8", "replace")
    store = open_store(db)
    if repo:
        store.current(repo)  # a clear error for an unknown repo
    result = explain_text(store, text, repo=repo, limit=limit)
    if llm:
        from errordex.writeview import write_live

        config = _llm_config(llm_url, llm_model, llm_key)
        writer = open_store(db, write=True)
        from errordex.llm.batch import write_entry

        answers = {
            (p["answer"]["repo"], p["answer"]["id"])
            for p in result["parts"]
            if p["answer"] is not None and p["answer"]["kind"] == "entry"
        }
        for slug, entry_id in sorted(answers):
            with write_live(err_console, config.model, enabled=not as_json) as (on_text, on_retry):
                record = write_entry(writer, config, slug, entry_id, on_text, on_retry)
            if record is not None:
                _say_written(record)
        writer.close()
        result = explain_text(store, text, repo=repo, limit=limit)
    if as_json:
        emit_json(result)
    else:
        print_explanations(stdout_console(), result)
    # an answer (an entry, or the location the runtime raised it at) is found too
    if not any(p["answer"] is not None or p["found"] for p in result["parts"]):
        sys.exit(EXIT_NOT_FOUND)


def _say_written(record: dict[str, Any]) -> None:
    """One line on stderr: how many sections of the model's passed, and why
    the others did not (the page shows the static text for those)."""
    ok, bad = record["accepted"], record["rejected"]
    head = (
        f"{record['model']} wrote {len(ok)} of {len(ok) + len(bad)} sections that passed the checks"
    )
    if bad:
        key, why = next(iter(bad.items()))
        head += f"; static text kept for {', '.join(bad)} ({key}: {why})"
    err_console.print(escape(visible_controls(head)), highlight=False, soft_wrap=True)


base_url_option = click.option(
    "--base-url",
    envvar="ERRORDEX_BASE_URL",
    help="The site's public URL: canonical links and sitemap.xml are built on it "
    "(without it there is no sitemap). Env: ERRORDEX_BASE_URL.",
)
report_url_option = click.option(
    "--report-url",
    envvar="ERRORDEX_REPORT_URL",
    help="Where 'Report a wrong page' opens a new issue, with a title and body "
    "(default: errordex's own tracker). Env: ERRORDEX_REPORT_URL.",
)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: one per CPU).",
)
@base_url_option
@report_url_option
@db_option
@friendly
def serve(
    host: str,
    port: int,
    workers: int | None,
    base_url: str | None,
    report_url: str | None,
    db: str | None,
) -> None:
    """Serve the web site and the JSON API."""
    from errordex.web.server import serve as run_server

    run_server(
        open_store(db),
        host=host,
        port=port,
        workers=workers,
        base_url=base_url,
        report_url=report_url,
    )


@main.command()
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--repo", help="Only this repository.")
@base_url_option
@report_url_option
@click.option(
    "--force",
    is_flag=True,
    help="Write into a directory that is not empty and holds no errordex export "
    "(nothing of its own is removed).",
)
@db_option
@friendly
def export(
    directory: str,
    repo: str | None,
    base_url: str | None,
    report_url: str | None,
    force: bool,
    db: str | None,
) -> None:
    """Write a static site (HTML + JSON + dump.jsonl) to DIRECTORY.

    Exporting again into the same DIRECTORY removes the files of the previous
    export that are not written again, and nothing else."""
    from pathlib import Path

    from errordex.web.export import export_site

    store = open_store(db)
    try:
        result = export_site(
            store, Path(directory), repo=repo, base_url=base_url, report_url=report_url, force=force
        )
    except OSError as exc:
        where = exc.filename or directory
        raise InputError(f"cannot write the site to {where}: {exc.strerror or exc}") from None
    removed = f"; removed {result.removed} files of the previous export" if result.removed else ""
    click.echo(
        f"wrote {result.pages} pages and {result.entries} entries to"
        f" {visible_controls(directory)}{removed}"
    )
    for note in result.notes:
        err_console.print(escape(visible_controls(note)), highlight=False, soft_wrap=True)


@main.command()
@click.option("--repo", help="Only this repository (default: every indexed one).")
@click.option("--limit", type=click.IntRange(min=0), default=None, help="At most this many pages.")
@click.option(
    "--only-missing",
    is_flag=True,
    help="Skip the pages that already have prose written from their current facts.",
)
@click.option("--concurrency", type=click.IntRange(1, 64), help="Requests in flight (2).")
@click.option(
    "--rpm",
    type=click.FloatRange(min=0, min_open=True),
    help="At most this many requests started a minute (no limit).",
)
@click.option(
    "--budget", type=click.IntRange(min=1), help="Stop after this many tokens (no limit)."
)
@click.option(
    "--timeout", type=click.FloatRange(min=0, min_open=True), help="Seconds per request (120)."
)
@click.option("--retries", type=click.IntRange(0, 10), help="Retries per request (3).")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@_llm_options
@db_option
@friendly
def write(
    repo: str | None,
    limit: int | None,
    only_missing: bool,
    concurrency: int | None,
    rpm: float | None,
    budget: int | None,
    timeout: float | None,
    retries: int | None,
    as_json: bool,
    llm_url: str | None,
    llm_model: str | None,
    llm_key: str | None,
    db: str | None,
) -> None:
    """Have a model write the pages' prose from their facts, and check it.

    Every section is checked against the indexed commit (as `verify` does,
    and more); one that fails keeps the static text, with the reason in its
    JSON. Prose is kept by the prompt's hash and the model: pages whose facts
    did not change are not asked again. The web site shows what was written,
    and never asks the model itself."""
    from errordex.llm.batch import write_pages
    from errordex.llm.config import with_overrides
    from errordex.termview import stdout_console
    from errordex.writeview import print_write_summary, write_progress

    config = with_overrides(
        _llm_config(llm_url, llm_model, llm_key),
        concurrency=concurrency,
        requests_per_minute=rpm,
        token_budget=budget,
        timeout=timeout,
        retries=retries,
    )
    store = open_store(db, write=True)
    if repo:
        store.current(repo)  # a clear error for an unknown repo
    with write_progress(err_console, config.model, enabled=not as_json) as on_progress:
        progress = write_pages(
            store,
            config,
            repo=repo,
            limit=limit,
            only_missing=only_missing,
            on_progress=on_progress,
        )
    if as_json:
        emit_json({"version": 1, "model": config.model, **progress.to_json()})
    else:
        print_write_summary(stdout_console(), progress, config.model)


@main.command()
@click.option("--repo", help="Only this repository (default: every indexed one).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@db_option
@friendly
def verify(repo: str | None, as_json: bool, db: str | None) -> None:
    """Check every stored analysis: lines, identifiers and features exist at the commit."""
    from errordex.analysis.verify import Verifier
    from errordex.errors import EXIT_UNGROUNDED
    from errordex.llm.prose import prose_entries
    from errordex.views import entry_json

    store = open_store(db)
    store.check()  # verify checks the pages too (quick_check reads the file once)
    snaps = [store.current(repo)] if repo else [r.snapshot for r in store.repos()]
    reports = []
    for snap in snaps:
        line_counts: dict[str, int | None] = {}

        def lines_of(
            path: str, sid: int = snap.id, cache: dict[str, int | None] = line_counts
        ) -> int | None:
            if path not in cache:
                text = store.file_text(sid, path)
                cache[path] = None if text is None else len(text.splitlines())
            return cache[path]

        checker = Verifier(lines_of, store.idents(snap.id), store.packages(snap.id))
        langs = {
            e.id: (e.catalog_sites[0].language if e.catalog_sites else "")
            for e in store.entries(repo=snap.repo.slug)
        }
        # a page with a model's prose is checked as it is shown
        written = prose_entries(store.conn, snap.repo.slug)
        by_id = {e.id: e for e in store.entries(repo=snap.repo.slug)} if written else {}
        for entry_id, data in store.analyses(snap.id):
            if entry_id in written and entry_id in by_id:
                shown = entry_json(by_id[entry_id], snap, store)["analysis"]
                if (shown or {}).get("provenance", {}).get("kind") == "llm":
                    checker.report.prose += 1
                data = {**data, "analysis": shown}
            checker.check(entry_id, data, langs.get(entry_id, ""))
        reports.append((snap.repo.slug, checker.report))
    bad = sum(len(r.problems) for _, r in reports)
    if as_json:
        emit_json({"version": 1, "repos": [{"repo": s, **r.to_json()} for s, r in reports]})
    elif not reports:
        _say_empty(store, "")
    else:
        for slug, r in reports:
            click.echo(
                f"{visible_controls(slug)}: {r.entries} analyses, {r.lines} lines,"
                f" {r.identifiers} identifiers, {r.features} features checked"
                + (f" ({r.prose} pages with a model's prose)" if r.prose else "")
                + f"; {len(r.problems)} ungrounded"
            )
            for p in r.problems:
                click.echo(visible_controls(f"  {p.entry_id} {p.kind}: {p.detail}"))
    if bad:
        sys.exit(EXIT_UNGROUNDED)


def _enqueue(jobs: list[Any], broker: str | None, db: str | None, as_json: bool) -> None:
    """Send ``jobs`` (``IndexJob``) to the workers and say what was sent."""
    from errordex.queue import enqueue

    store = open_store(db, write=True)
    sent = enqueue(store, jobs, broker)
    if as_json:
        emit_json(
            {
                "version": 1,
                "broker": sent.broker,
                "database": store.where,
                "tasks": [{"task_id": tid, **job.to_json()} for tid, job in sent.tasks],
            }
        )
        return
    n = len(sent.tasks)
    click.echo(f"queued {n} task{'s' if n != 1 else ''} on {sent.broker}")
    for tid, job in sent.tasks:
        click.echo(visible_controls(f"  {tid}  {job.label}"))
    err_console.print(
        "progress: `errordex queue status`", highlight=False, soft_wrap=True, style="dim"
    )


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the tasks sent as JSON.")
@split_over_option
@broker_option
@db_option
@friendly
def crawl(
    file: str, as_json: bool, split_over: int | None, broker: str | None, db: str | None
) -> None:
    """Send one index task per source listed in FILE to the workers.

    FILE has one source a line: pkg:NAME, a git URL or a directory, with an
    optional @REV and --name owner/repo; # starts a comment. A bad line is
    reported with its number, and then nothing is sent. "-" reads stdin.
    """
    from pathlib import Path

    from errordex.queue.crawlfile import parse

    if file == "-":
        text, base = sys.stdin.read(), Path.cwd()
    else:
        try:
            text = Path(file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8 text"
            raise InputError(f"cannot read the crawl file {file}: {why}") from None
        base = Path(file).resolve().parent
    jobs = parse(text, file, base)
    if split_over is not None:
        from dataclasses import replace

        jobs = [replace(j, split_over=split_over) for j in jobs]
    _enqueue(jobs, broker, db, as_json)


@main.command()
@click.option(
    "--concurrency",
    "-c",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes, each running one task at a time.",
)
@click.option(
    "--max-tasks-per-child",
    type=click.IntRange(min=1),
    default=None,
    help="Replace a process after this many tasks.",
)
@click.option(
    "--max-memory-per-child",
    type=click.IntRange(min=1),
    default=None,
    metavar="KB",
    help="Replace a process whose resident memory grew past this many KB (after its task).",
)
@click.option(
    "--soft-time-limit",
    type=click.FloatRange(min=0.1),
    default=900,
    show_default=True,
    help="Seconds a task may run; then it is stopped and recorded as failed.",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0.1),
    default=None,
    help="Seconds after which the process running a task is killed (default: the soft limit + 60).",
)
@click.option(
    "--max-attempts",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Times the process running a task may die (kill -9, a crash) before the task is"
    " recorded as failed.",
)
@click.option(
    "--store-timeout",
    type=click.FloatRange(min=0),
    default=600,
    show_default=True,
    help="Seconds a write waits for another worker's write to the store; then the task is"
    " retried later, with backoff.",
)
@click.option("--loglevel", default="INFO", show_default=True, help="Celery's log level.")
@broker_option
@db_option
@friendly
def worker(
    concurrency: int,
    max_tasks_per_child: int | None,
    max_memory_per_child: int | None,
    soft_time_limit: float,
    time_limit: float | None,
    max_attempts: int,
    store_timeout: float,
    loglevel: str,
    broker: str | None,
    db: str | None,
) -> None:
    """Run a Celery worker that indexes the tasks sent by crawl and index --queue."""
    from errordex.queue.app import WorkerSettings, broker_url, run_worker

    if time_limit is not None and time_limit <= soft_time_limit:
        raise InputError("--time-limit must be longer than --soft-time-limit")
    settings = WorkerSettings(
        db=db,
        concurrency=concurrency,
        max_tasks_per_child=max_tasks_per_child,
        max_memory_per_child=max_memory_per_child,
        soft_time_limit=soft_time_limit,
        time_limit=time_limit if time_limit is not None else soft_time_limit + 60,
        max_attempts=max_attempts,
        store_timeout=store_timeout,
        loglevel=loglevel,
    )
    run_worker(broker_url(broker), settings)


@main.group()
def queue() -> None:
    """The distributed queue's tasks: status, requeue."""


@queue.command(name="status")
@click.option("--json", "as_json", is_flag=True, help="Print the counts and failures as JSON.")
@click.option(
    "--limit", type=click.IntRange(min=0), default=None, help="Show at most this many failures."
)
@db_option
@friendly
def queue_status(as_json: bool, limit: int | None, db: str | None) -> None:
    """Tasks per state (queued, running, done, skipped, failed), and each failure's reason."""
    from errordex.queue import status

    store = open_store(db)
    st = status(store, failures=limit)
    if as_json:
        emit_json({**st.to_json(), "database": store.where})
        return
    click.echo(
        "  ".join(f"{state} {n}" for state, n in st.counts.items())
        + f"  (total {sum(st.counts.values())})"
    )
    for r in st.running:
        if r.parts:  # split: its parts say where it is
            on = f", on {r.worker}" if r.worker else ""
            click.echo(visible_controls(f"running  {r.task_id}  {r.label}: {r.reason}{on}"))
            for p in st.parts.get(r.task_id, ()):
                where = f" on {p.worker}" if p.state == "running" else ""
                took = f" in {p.seconds:g}s" if p.state == "done" and p.seconds else ""
                click.echo(
                    visible_controls(
                        f"  part {(p.part or 0) + 1} of {p.parts}  {p.task_id}  {p.state}{took}"
                        f"{where}, attempt {p.attempts}"
                    )
                )
            continue
        click.echo(
            visible_controls(
                f"running  {r.task_id}  {r.source}  attempt {r.attempts} on {r.worker}"
            )
        )
    for r in st.retrying:
        click.echo(
            visible_controls(f"queued   {r.task_id}  {r.label}: attempt {r.attempts}, {r.reason}")
        )
    for r in st.failures:
        label = f"{r.source}@{r.rev}" if r.rev else r.source
        click.echo(visible_controls(f"failed   {r.task_id}  {label}: {r.reason}"))


@queue.command(name="requeue")
@broker_option
@db_option
@friendly
def queue_requeue(broker: str | None, db: str | None) -> None:
    """Send again the tasks recorded as queued (after the broker lost its messages)."""
    from errordex.queue import requeue

    store = open_store(db, write=True)
    sent = requeue(store, broker)
    click.echo(f"sent {len(sent.tasks)} queued tasks again on {sent.broker}")


if __name__ == "__main__":  # pragma: no cover
    main()
