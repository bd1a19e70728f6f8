"""The ``errordex`` command: parse options, call the library, print.

Library errors (``errordex.errors.ErrordexError``) become one clear line on
stderr and the exit code named in ``errors.py``; a traceback means a bug.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

import click
from rich.console import Console
from rich.markup import escape

from errordex import __version__, plugins
from errordex.errors import EXIT_INTERRUPTED, EXIT_NOT_FOUND, ErrordexError, InputError
from errordex.store import open_store
from errordex.store.sqlite import SqliteStore

P = ParamSpec("P")
R = TypeVar("R")

err_console = Console(stderr=True)


def friendly(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn library errors into one line and a meaningful exit code."""

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except ErrordexError as exc:
            # one line, unwrapped and as written (a path may hold "[", which
            # rich would take for markup)
            err_console.print(
                f"[bold red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True
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


def _say_empty(store: SqliteStore, otherwise: str) -> None:
    """Say why there is nothing to show: nothing is indexed in this database
    yet (the usual surprise: another ERRORDEX_DB), or ``otherwise``."""
    if not store.repos():
        err_console.print(
            f"nothing is indexed in {escape(str(store.path))} yet: run `errordex index SOURCE`",
            highlight=False,
            soft_wrap=True,
        )
    elif otherwise:
        err_console.print(escape(otherwise), highlight=False, soft_wrap=True)


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


db_option = click.option(
    "--db",
    envvar="ERRORDEX_DB",
    default=None,
    help="Database: an SQLite path (default under the user data dir). Env: ERRORDEX_DB.",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="errordex")
def main() -> None:
    """errordex: every error a repository can throw, with its page."""


@main.command()
@click.argument("source")
@click.option("--rev", help="Revision to index (SHA, tag, branch); default HEAD.")
@click.option("--name", help="Repository slug owner/name; default from the origin remote.")
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
    " (test/, docs/**, *_pb2.py, /build); repeatable.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: one per core).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the snapshot summary as JSON.")
@db_option
@friendly
def index(
    source: str,
    rev: str | None,
    name: str | None,
    max_file_bytes: int,
    exclude: tuple[str, ...],
    jobs: int | None,
    as_json: bool,
    db: str | None,
) -> None:
    """Index SOURCE: a directory, a git repo (any --rev), a git URL, or pkg:NAME."""
    from errordex.ingest import IngestOptions
    from errordex.pipeline import index as run_index
    from errordex.termview import index_progress, print_index_summary

    options = IngestOptions(max_file_bytes=max_file_bytes, exclude=exclude)
    store = open_store(db)
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
                "commit_date": snap.commit_date,
                "version_label": snap.version_label,
                "stats": snap.stats.to_json(),
                "skipped": [{"path": s.path, "reason": s.reason} for s in result.skips],
            }
        )
    else:
        print_index_summary(Console(), result)


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
    from errordex.termview import print_entry_table
    from errordex.views import entry_json

    store = open_store(db)
    if repo:
        store.current(repo)  # a clear error for an unknown repo
    entries = store.entries(repo=repo, kind=kind, text=text, include_test_only=tests, limit=limit)
    if as_json:
        snaps = {s.repo.slug: s.snapshot for s in store.repos()}
        emit_json([entry_json(e, snaps[e.repo], store) for e in entries])
        return
    total = store.count_entries(repo=repo, kind=kind, text=text, include_test_only=tests)
    if total == 0:
        _say_empty(store, "no errors match these filters")
        return
    print_entry_table(Console(), entries, total)


@main.command()
@click.argument("entry_id")
@click.option("--repo", help="Disambiguate when two repos share an id.")
@click.option("--json", "as_json", is_flag=True, help="Print the entry as JSON.")
@db_option
@friendly
def show(entry_id: str, repo: str | None, as_json: bool, db: str | None) -> None:
    """Show one error: its message and every site with a snippet."""
    from errordex.termview import print_entry
    from errordex.views import entry_json

    store = open_store(db)
    entry = store.entry(entry_id, repo)
    snap = store.entry_snapshot(entry_id, repo)
    data = entry_json(entry, snap, store, with_snippets=True)
    if as_json:
        emit_json(data)
    else:
        print_entry(Console(), data)


@main.command()
@click.option("--json", "as_json", is_flag=True)
@db_option
@friendly
def stats(as_json: bool, db: str | None) -> None:
    """Counts per indexed repository."""
    from errordex.termview import print_stats

    store = open_store(db)
    rows = [
        {
            "repo": r.repo.slug,
            "commit": r.snapshot.commit,
            "version_label": r.snapshot.snapshot.version_label,
            "indexed_at": r.snapshot.snapshot.indexed_at,
            "entries": r.entries,
            **r.snapshot.snapshot.stats.to_json(),
        }
        for r in store.repos()
    ]
    if as_json:
        emit_json({"version": 1, "database": str(store.path), "repos": rows})
    elif not rows:
        _say_empty(store, "")
    else:
        print_stats(Console(), rows, str(store.path))


@main.command()
@click.argument("text", required=False)
@click.option("--repo", help="Only match errors of this repository.")
@click.option(
    "--limit", type=click.IntRange(min=1), default=5, show_default=True, help="Matches per error."
)
@click.option("--json", "as_json", is_flag=True, help="Print ranked matches as JSON.")
@db_option
@friendly
def explain(text: str | None, repo: str | None, limit: int, as_json: bool, db: str | None) -> None:
    """Find the page for a pasted error: a traceback, a panic or one line.

    TEXT is the error text; with no TEXT or with "-", it is read from stdin.
    """
    from errordex.explain import explain_text
    from errordex.termview import print_explanations

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
    if as_json:
        emit_json(result)
    else:
        print_explanations(Console(), result)
    # an answer (an entry, or the location the runtime raised it at) is found too
    if not any(p["answer"] is not None or p["found"] for p in result["parts"]):
        sys.exit(EXIT_NOT_FOUND)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: one per CPU).",
)
@db_option
@friendly
def serve(host: str, port: int, workers: int | None, db: str | None) -> None:
    """Serve the web site and the JSON API."""
    from errordex.web.server import serve as run_server

    run_server(open_store(db), host=host, port=port, workers=workers)


@main.command()
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--repo", help="Only this repository.")
@click.option(
    "--base-url",
    envvar="ERRORDEX_BASE_URL",
    help="Absolute URL the site will be published at (for canonical links and the sitemap).",
)
@db_option
@friendly
def export(directory: str, repo: str | None, base_url: str | None, db: str | None) -> None:
    """Write a static site (HTML + JSON + dump.jsonl) to DIRECTORY."""
    from pathlib import Path

    from errordex.web.export import export_site

    store = open_store(db)
    try:
        result = export_site(store, Path(directory), repo=repo, base_url=base_url)
    except OSError as exc:
        where = exc.filename or directory
        raise InputError(f"cannot write the site to {where}: {exc.strerror or exc}") from None
    Console().print(
        f"wrote {result.pages} pages and {result.entries} entries to {escape(directory)}",
        highlight=False,
    )


@main.command()
@click.option("--repo", help="Only this repository (default: every indexed one).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@db_option
@friendly
def verify(repo: str | None, as_json: bool, db: str | None) -> None:
    """Check every stored analysis: lines, identifiers and features exist at the commit."""
    from errordex.analysis.verify import Verifier
    from errordex.errors import EXIT_UNGROUNDED

    store = open_store(db)
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
        for entry_id, data in store.analyses(snap.id):
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
                f"{slug}: {r.entries} analyses, {r.lines} lines, {r.identifiers} identifiers,"
                f" {r.features} features checked; {len(r.problems)} ungrounded"
            )
            for p in r.problems:
                click.echo(f"  {p.entry_id} {p.kind}: {p.detail}")
    if bad:
        sys.exit(EXIT_UNGROUNDED)


if __name__ == "__main__":  # pragma: no cover
    main()
