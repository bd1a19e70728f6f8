"""Terminal rendering for the CLI (rich). Renders the dicts of ``views``."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any, TextIO, cast

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.syntax import Syntax
from rich.table import Table

from errordex import plugins
from errordex.model import ErrorEntry, commit_noun
from errordex.pipeline import IndexResult, ProgressFn
from errordex.runtime import title
from errordex.views import printed_with
from errordex.visible import visible_controls

#: How wide a pipe is: wide enough that no line is wrapped or cut.
PIPE_WIDTH = 1_000_000


class StdoutConsole(Console):
    """A console that reports a closed stdout (``errordex show ID | head -1``)
    as ``BrokenPipeError`` for the CLI to handle, instead of rich's own
    ``SystemExit(1)``: exit 1 means a bug."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


class _Unpadded:
    """A text stream that writes each line without its trailing spaces (rich
    pads a table's cells and a code block's lines to their width)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.pending = ""

    @property
    def encoding(self) -> str:
        return getattr(self.out, "encoding", None) or "utf-8"

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        lines = (self.pending + text).split("\n")
        self.pending = lines.pop()
        if lines:
            self.out.write("".join(line.rstrip(" ") + "\n" for line in lines))
        return len(text)

    def flush(self) -> None:
        if self.pending:
            self.out.write(self.pending)
            self.pending = ""
        self.out.flush()


def visible_data(value: Any) -> Any:
    """``value`` (JSON-shaped: dicts, lists, strings) with the control
    characters of every string, key or value, made visible (``\\x1b``): what
    a repository or a paste holds is shown, never obeyed by the terminal."""
    if isinstance(value, str):
        return visible_controls(value)
    if isinstance(value, dict):
        return {visible_data(k): visible_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [visible_data(v) for v in value]
    return value


def stdout_console() -> Console:
    """The console a command prints to. On a terminal, rich as usual. In a pipe
    or a file, nothing is wrapped (a code line or a message stays one line,
    whatever ``COLUMNS`` says) and no line ends in spaces."""
    console = StdoutConsole()
    if console.is_terminal:
        return console
    return StdoutConsole(
        file=cast(IO[str], _Unpadded(sys.stdout)), width=PIPE_WIDTH, soft_wrap=True
    )


@contextmanager
def index_progress(console: Console, enabled: bool = True) -> Iterator[ProgressFn | None]:
    if not enabled or not console.is_terminal:
        yield None  # no bar in logs and pipes: it would only leave blank lines
        return
    columns = (
        SpinnerColumn(),
        TextColumn("indexing"),
        BarColumn(bar_width=None),
        TextColumn("{task.fields[files]} files · {task.fields[mb]:.1f} MB parsed"),
        TimeElapsedColumn(),
        TextColumn("[dim]{task.fields[path]}"),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("index", total=None, files=0, mb=0.0, path="")

        def update(seen: int, nbytes: int, path: str) -> None:
            bar.update(task, files=seen, mb=nbytes / 1e6, path=escape(visible_controls(path[-50:])))

        yield update


def print_index_summary(console: Console, result: IndexResult) -> None:
    snap = result.snapshot
    st = snap.stats
    label = visible_controls(f" ({snap.version_label})" if snap.version_label else "")
    slug = visible_controls(snap.repo.slug)
    at = f"{snap.commit_noun} {snap.short}" if snap.commit_kind == "content" else snap.short
    console.print(f"[bold]{escape(slug)}[/] @ {at}{escape(label)}")
    manifests = f", {st.manifests_read} manifests read" if st.manifests_read else ""
    manifests += f", {st.docs_read} docs read" if st.docs_read else ""
    console.print(
        f"  files: {st.files_seen} seen: {st.files_parsed} parsed{manifests},"
        f" {st.files_skipped} skipped  ·  {st.bytes_parsed / 1e6:.1f} MB"
    )
    console.print(
        f"  sites: {st.sites} ({st.dynamic_sites} with a message built at run time)"
        f"  ·  entries: {st.entries}  ·  {st.seconds:.1f}s"
    )
    reasons: dict[str, int] = {}
    for s in result.skips:
        key = s.reason.split(" (")[0]
        reasons[key] = reasons.get(key, 0) + 1
    if reasons:
        parts = ", ".join(f"{n} {r}" for r, n in sorted(reasons.items(), key=lambda kv: -kv[1]))
        console.print(f"  skipped: {escape(visible_controls(parts))}")


def print_entry_table(
    console: Console, entries: list[ErrorEntry], total: int, repos: bool = False
) -> None:
    """One row per entry: the message, and under it the kind and where it is
    first thrown (so long messages and paths read whole at 80 columns).
    ``repos``: a column says which repository each entry is in."""
    table = Table(show_edge=False, pad_edge=False, box=None)
    table.add_column("id", style="cyan", no_wrap=True)
    if repos:
        table.add_column("repo", no_wrap=True)
    table.add_column("sites", justify="right", no_wrap=True)
    table.add_column("message  [dim]kind · first site[/]", overflow="fold")
    for e in entries:
        sites = e.catalog_sites or e.sites
        first = visible_controls(f"{sites[0].path}:{sites[0].line}" if sites else "")
        kind = visible_controls("/".join(e.exception_types[:1] or e.kinds[:1]))
        message = visible_controls(title(e))
        where = (
            escape(first) if kind == message else f"[magenta]{escape(kind)}[/] · {escape(first)}"
        )
        cells = [e.id, escape(visible_controls(e.repo))] if repos else [e.id]
        table.add_row(*cells, str(len(sites)), f"{escape(message)}\n[dim]{where}[/]")
    console.print(table)
    if total > len(entries):
        console.print(f"[dim]{len(entries)} of {total} shown[/]")


def print_entry(
    console: Console, data: dict[str, Any], site: dict[str, Any] | None = None, yours: str = ""
) -> None:
    """One entry's page. ``site``: the site the pasted error came from,
    printed first and labelled ``yours`` ("your panic")."""
    data = visible_data(data)
    site = visible_data(site)
    kind = " / ".join(data["exception_types"] or data["kinds"])
    console.print(f"[dim]{escape(data['repo'])} · {escape(kind)}[/]")
    console.print(f"[bold]{escape(data['title'])}[/]")
    noun = commit_noun(data.get("commit_kind", "git"))
    console.print(f"[dim]id {data['id']} · {noun} {data['commit'][:10]}[/]\n")
    analysis = data.get("analysis") or {}
    if analysis.get("summary"):
        console.print(f"[bold]{escape(analysis.get('question', ''))}[/]")
        _print_section_body(console, analysis["summary"])
        console.print()
    console.print("[bold underline]Error message[/]")
    shown = data["message"] or _no_message(data)
    console.print(f"  template: {escape(shown)}")
    if data["template"]["dynamic"]:
        console.print(
            "  [yellow]the message is built at run time; the source does not fix its text[/]"
        )
    filled = printed_with(data, data.get("values") or {})
    console.print("  at run time, with your values:" if filled else "  at run time:")
    for line in (filled or data["printed"]).splitlines():
        console.print(f"    {escape(line)}", highlight=False)
    console.print()
    sites = data["sites"]
    mine = [s for s in sites if site and (s["path"], s["line"]) == (site["path"], site["line"])]
    console.print(f"[bold underline]Source[/] ({len(sites)} site{'s' if len(sites) != 1 else ''})")
    for s in mine + [s for s in sites if s not in mine]:
        where = f"{s['path']}:{s['line']}"
        sym = f" in {s['symbol']}" if s.get("symbol") else ""
        via = _via(s.get("via"))
        label = f"  [green]← {escape(yours)}[/]" if s in mine and yours else ""
        console.print(
            f"\n{'Defined' if s.get('defines') else 'Thrown'} at [bold]{escape(where)}[/]{escape(sym)}{escape(via)}"
            f"  [dim]({escape(s['kind'])})[/]{label}"
        )
        for g in s.get("guards", []):
            console.print(
                f"  [dim]guard[/] {escape(g['kind'])}: {escape(g['text'])}  [dim]line {g['line']}[/]"
            )
        snip = s.get("snippet")
        if s.get("same_code_as"):
            console.print(f"  [dim]The same throwing code as at {escape(s['same_code_as'])}.[/]")
        elif snip:
            code = "\n".join(snip["lines"])
            console.print(
                Syntax(
                    code,
                    plugins.lexer(s["language"]),
                    line_numbers=True,
                    start_line=snip["start"],
                    highlight_lines=set(range(snip["mark"][0], snip["mark"][1] + 1)),
                    word_wrap=not console.soft_wrap,
                )
            )
        if s.get("url"):
            console.print(f"  [link={s['url']}]{escape(s['url'])}[/link]")
    for key, heading in _SECTIONS:
        body = analysis.get(key)
        if body:
            console.print(f"\n[bold underline]{heading}[/]")
            _print_section_body(console, body, numbered=key == "solutions")
    related = data.get("related") or []
    if related:
        console.print("\n[bold underline]Related errors[/]")
        for r in related:
            # one line each: a message of several lines by its title
            shown = " ".join((r.get("title") or r["message"]).split()) or "(an empty message)"
            console.print(f"  • {escape(shown)}  [dim]{r['id']}[/]", highlight=False)
    if analysis:
        kind = (analysis.get("provenance") or {}).get("kind", "static")
        label = "Static analysis" if kind == "static" else "AI-assisted analysis"
        console.print(f"\n[dim]{label} of {escape(data['repo'])}@{data['commit'][:7]}[/]")
        from errordex.llm.prose import note

        said = note(analysis)
        if said:
            console.print(f"[dim]{escape(visible_controls(said))}[/]", highlight=False)
    tests = data.get("test_sites") or []
    if tests:
        console.print(f"\n[dim]also thrown in test code at {len(tests)} place(s)[/]")


def _via(via: Any) -> str:
    """The " — raised by ParamType.fail at click/types.py:222" of a forwarded site."""
    if not isinstance(via, str) or not via.strip():
        return ""
    m = re.fullmatch(r"(.+?:\d+) (\S+)", via.strip())
    return f" — raised by {m[2]} at {m[1]}" if m else f" — raised at {via.strip()}"


_SECTIONS = (
    ("meaning", "What it means"),
    ("solutions", "Solutions"),
    ("example_fix", "Example fix"),
    ("defensive_patterns", "Defensive patterns"),
    ("prevention", "Prevention"),
    ("trigger", "When it happens"),
    ("situations", "Common situations"),
    ("reproductions", "Tests that reproduce it"),
)


def _no_message(data: dict[str, Any]) -> str:
    """What stands for a message the source does not write: a bare Rust
    ``panic!()``/``todo!()`` prints the runtime's text, a bare ``raise X`` the
    type alone."""
    sites = data.get("sites") or []
    lang = plugins.find(sites[0].get("language")) if sites else None
    if lang is not None and lang.runtime.bare_messages and data.get("runtime_message"):
        return f"(none in the source: {lang.runtime.title} prints “{data['runtime_message']}”)"
    return "(no message: the exception type alone)"


def _print_section_body(console: Console, body: Any, numbered: bool = False) -> None:
    """A section of the analysis: text, code, before/after, its evidence."""
    if isinstance(body, list):
        for i, item in enumerate(body, 1):
            if numbered and isinstance(item, dict) and "text" in item:
                item = {**item, "text": f"{i}. {item['text']}"}
            _print_section_body(console, item)
        return
    if isinstance(body, str):
        console.print(f"  {escape(body)}", highlight=False)
        return
    if not isinstance(body, dict):
        return
    if body.get("title"):
        strategy = f" [dim]({escape(body['strategy'])})[/]" if body.get("strategy") else ""
        console.print(f"  [bold]{escape(body['title'])}[/]{strategy}")
    if body.get("text"):
        console.print(f"  {escape(body['text'])}", highlight=False)
    for label in ("before", "after", "block", "code"):
        block = body.get(label)
        if isinstance(block, dict) and block.get("code"):
            if label in ("before", "after"):
                console.print(f"  [dim]{label}:[/]")
            console.print(
                Syntax(
                    block["code"], block.get("language", "text"), word_wrap=not console.soft_wrap
                )
            )
        elif isinstance(block, str) and label == "code":
            console.print(Syntax(block, "text", word_wrap=not console.soft_wrap))
    if body.get("evidence"):
        console.print(f"  [dim]evidence: {escape(', '.join(body['evidence'][:6]))}[/]")


def print_stats(console: Console, rows: list[dict[str, Any]], db: str) -> None:
    rows, db = visible_data(rows), visible_controls(db)
    table = Table(box=None, show_edge=False)
    for col in ("repo", "commit", "entries", "sites", "files", "skipped", "seconds"):
        table.add_column(col)
    for r in rows:
        table.add_row(
            escape(r["repo"]),
            r["commit"][:10] + ("*" if r.get("commit_kind") == "content" else ""),
            str(r["entries"]),
            str(r["sites"]),
            str(r["files_parsed"]),
            str(r["files_skipped"]),
            f"{r['seconds']:.1f}",
        )
    console.print(table)
    if any(r.get("commit_kind") == "content" for r in rows):
        console.print("[dim]* a content hash of the files read, not a git commit[/]")
    console.print(f"[dim]database: {escape(db)}[/]")


#: what an error without text shows: a traceback cut before its last line
_NO_MESSAGE = "[italic](no exception line: the paste ends before it; only its frames are read)[/]"


def _shown_parts(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The parts worth a reader's time: a wrapped part (Go's ``b: c`` of
    ``a: b: c``) only when it has an answer another part has not given, or
    when no part has one."""
    answered = any(p.get("answer") for p in parts)
    seen: set[tuple[str, str]] = set()
    out: list[dict[str, Any]] = []
    for p in parts:
        answer = p.get("answer")
        key = (answer["repo"], answer["id"]) if answer and answer["kind"] == "entry" else None
        if p.get("relation") == "wrapped" and ((answered and not answer) or key in seen):
            continue
        if key is not None:
            seen.add(key)
        out.append(p)
    return out


def print_explanations(console: Console, result: dict[str, Any]) -> None:
    result = visible_data(result)
    parts = _shown_parts(result["parts"])
    if not parts:
        console.print(
            "[yellow]no error found in the text[/]: paste a traceback, a panic or one message line"
        )
        return
    for i, part in enumerate(parts, 1):
        head = f"{part['exception_type']}: " if part.get("exception_type") else ""
        label = f"error {i} of {len(parts)}" if len(parts) > 1 else "error"
        console.print(
            f"[dim]{label}{' (' + part['relation'] + ')' if part.get('relation') else ''}:[/] "
            f"{escape(head + part['message']) or _NO_MESSAGE}",
            highlight=False,
        )
        matches = part["matches"]
        answer = part.get("answer")
        yours = f"your {plugins.error_word(part.get('language'))}"
        if answer and answer["kind"] == "entry":
            best = matches[0]
            console.print(f"[green]best match[/] (score {best['score']:.2f})")
            site = best.get("site")
            if site:
                sym = f" in {site['symbol']}" if site.get("symbol") else ""
                console.print(f"  {yours}: {escape(site['path'])}:{site['line']}{escape(sym)}")
            elif (part.get("raised_in") or {}).get("other_version"):
                _print_moved(console, part["raised_in"], answer)
            called = best.get("your_call")
            if called:
                came = called["caller"]
                said = f": {called['code']}" if called.get("code") else ""
                fn = f" ({called['function']})" if called.get("function") else ""
                who = f"called by {came['repo']}" if came.get("repo") else "your call"
                into = f"{called['path']}:{called['line']}{fn}"
                via = called.get("via") or {}
                if via.get("name"):  # the public function it called, as a user names it
                    into = f"{via['name']} ({via['path']}:{via['line']})"
                console.print(
                    f"  {who}: {escape(came['path'])}:{came['line']}{escape(said)}"
                    f" → {escape(into)}",
                    highlight=False,
                )
            if len(best.get("chain") or ()) > 1:
                console.print(f"  wrapped: {escape(' → '.join(best['chain']))}")
            wraps = best.get("wraps")
            if wraps:
                kind = "/".join(wraps["exception_types"]) or "error"
                console.print(
                    f"  raises again the text of {escape(wraps['repo'])}'s {escape(kind)}:"
                    f" {escape(wraps['message'])!r} ({escape(', '.join(wraps['sites']))})"
                )
            if best["values"]:
                vals = ", ".join(f"{k} = {v}" for k, v in best["values"].items())
                console.print(f"  your values: {escape(vals)}")
            console.print()
            print_entry(console, best, site, yours)
            _print_others(console, "other candidates", [m for m in matches[1:] if m["exact"]])
            console.print()
            continue
        if answer and answer["kind"] == "location":
            _print_location(console, answer, part.get("language"))
            _print_signature(console, part.get("signature"))
        exact = [m for m in matches if m["exact"]]
        # a word or two in common is no twin, nor a text made all at run time
        whole = [m for m in exact if not m["partial"] and m.get("textual", True)]
        moved = bool(answer and answer.get("other_version"))
        if answer and whole:
            # the traceback says where it came from; this entry is a twin
            console.print(
                "\n[yellow]nearest match at the indexed commit[/]"
                " [dim](its panic site is elsewhere)[/]"
                if moved
                else "\n[yellow]same message, raised elsewhere[/] "
                "[dim](not where this error came from; the page explains the message)[/]"
            )
            print_entry(console, whole[0])
            _print_others(console, "other candidates", whole[1:])
        elif answer:
            none = (
                "no panic at the indexed commit has"
                if moved
                else "no entry of the indexed repositories raises"
            )
            console.print(f"[dim]{none} this message[/]")
            similar = [m for m in matches if m["score"] >= SIMILAR_SCORE][:3]
            _print_others(console, "similar text only, not this error", similar)
        elif part.get("runtime_form"):
            console.print(
                "[yellow]the Python runtime raises messages of this form itself[/]:"
                " paste the whole traceback to see where this one was raised"
            )
            _print_signature(console, part.get("signature"))
            _print_others(console, "raise statements with the same text (less likely)", exact)
        else:
            console.print("[yellow]no match[/] in the indexed repositories.")
            inner = _matched_inner(parts, part)
            if not exact and inner:
                # anyhow's `Error: reading version "1.x"` then `Caused by:`: the
                # outer text is the program's own; the error it wraps matched
                console.print(
                    f"  [dim]it wraps error {inner}, which did: the text of a program's "
                    "own context is in no library[/]"
                )
            elif not exact:
                _print_others(console, "closest", matches)
            else:
                best = exact[0]
                console.print(f"[yellow]possible match[/] (score {best['score']:.2f})\n")
                print_entry(console, best)
                _print_others(console, "other candidates", exact[1:])
        console.print()


#: how a part of a paste is inside the main error (``ParsedError.relation``)
_INNER = ("cause", "wrapped")


def _matched_inner(parts: list[dict[str, Any]], part: dict[str, Any]) -> int | None:
    """For the main error of a paste, the number of an error it wraps (a
    cause) that an entry answered; None when it is not the main error, or
    none did."""
    if part.get("relation"):
        return None
    return next(
        (
            i
            for i, p in enumerate(parts, 1)
            if p.get("relation") in _INNER and (p.get("answer") or {}).get("kind") == "entry"
        ),
        None,
    )


def _print_signature(console: Console, sig: dict[str, Any] | None) -> None:
    """The signature a call missed (``explain.missed_signature``)."""
    if not sig:
        return
    where = f"{sig['repo']} {sig['path']}:{sig['line']}"
    takes = ", ".join(sig["parameters"]) + (", **kwargs" if sig["any_keyword"] else "")
    console.print(
        f"  your call to [bold]{escape(sig['function'])}[/] ({escape(where)})"
        f" passed {escape(sig['keyword'])}=, which it does not take"
    )
    console.print(f"  it takes: {escape(takes)}")
    if sig["nearest"]:
        console.print(f"  did you mean: {escape(', '.join(sig['nearest']))}?")


def _print_location(console: Console, where: dict[str, Any], language: str | None) -> None:
    """Where the runtime raised it: an indexed line that is not a raise statement,
    or (``raise_frame`` False) the last indexed frame before code that is not indexed."""
    at = f"[bold]{escape(where['path'])}:{where['line']}[/]"
    fn = f" in {escape(where['function'])}" if where.get("function") else ""
    repo = escape(where["repo"])
    commit = escape(str(where.get("commit") or "")[:10])
    lang = plugins.find(language)
    if not where.get("raise_frame"):
        text = f"raised in code that is not indexed, called from {at}{fn} [dim]({repo})[/]"
    elif where.get("other_version"):
        ran = (
            f" (the path names version {escape(where['ran_version'])})"
            if where.get("ran_version")
            else ""
        )
        text = (
            f"panicked at {at}{fn} [dim]({repo})[/], which is not a panic site at the indexed"
            f" commit {commit}\n  [dim]the version you ran may differ from the indexed one{ran}[/]"
        )
    elif not where.get("raise_statement") and lang is not None and lang.runtime.library_failure:
        failure = lang.runtime.library_failure.replace("`", "")
        text = (
            f"panicked in {lang.runtime.title}'s standard library, called at {at}{fn} [dim]({repo})[/]"
            f"\n  [dim]{failure} panicked[/]"
        )
    elif not where.get("raise_statement"):
        runtime = plugins.runtime_title(language)
        text = (
            f"raised by {runtime} at {at}{fn}, not by a raise statement in {repo}"
            "\n  [dim]evaluating that line (or compiled code it calls) raised it[/]"
        )
    else:
        text = f"raised at {at}{fn} [dim]({repo})[/]"
    if where.get("same_version") is False:
        text += "\n  [yellow]the indexed file reads differently at that line[/] (another version?)"
    if where.get("url"):
        text += f"\n  {escape(where['url'])}"
    console.print(text, highlight=False)


def _print_moved(console: Console, where: dict[str, Any], answer: dict[str, Any]) -> None:
    """An entry answer whose panic location is not one of its sites."""
    ran = f"; the path names version {where['ran_version']}" if where.get("ran_version") else ""
    near = f"{answer['path']}:{answer['line']}" if answer.get("path") else "none"
    commit = str(where.get("commit") or "")[:10]
    noun = commit_noun(where.get("commit_kind", "git"))
    console.print(
        f"  {escape(where['path'])}:{where['line']} is not a panic site at the indexed {noun}"
        f" {escape(commit)} (the version you ran may differ{escape(ran)}); nearest: {escape(near)}",
        highlight=False,
    )


#: Below this score an entry shares a word or two with the message: no help.
SIMILAR_SCORE = 0.1


def _print_others(console: Console, heading: str, matches: list[dict[str, Any]]) -> None:
    if not matches:
        return
    console.print(f"{heading}:")
    for m in matches:
        console.print(
            f"  {m['id']}  {escape(m['repo'])}  {escape(m['title'])}  [dim]({m['score']:.2f})[/]",
            highlight=False,
        )
