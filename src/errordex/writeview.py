"""Terminal rendering of the LLM writer (rich): the progress of ``errordex
write`` with its running token count, its summary, and the live count of an
``explain --llm`` answer as it streams in.

The answer itself is not shown as it arrives: prose is shown only once it
has passed the checks, so the terminal shows the tokens coming in, then the
checked page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from errordex.visible import visible_controls

if TYPE_CHECKING:
    from errordex.llm.batch import Progress as WriteProgress


@contextmanager
def write_progress(
    console: Console, model: str, enabled: bool = True
) -> Iterator[Callable[[WriteProgress], None] | None]:
    if not enabled or not console.is_terminal:
        yield None
        return
    columns = (
        TextColumn(f"writing with {escape(visible_controls(model))}"),
        BarColumn(bar_width=None),
        MofNCompleteColumn(),
        TextColumn("pages · {task.fields[tokens]:,} tokens · {task.fields[ok]} sections passed,"),
        TextColumn("{task.fields[bad]} kept static"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("write", total=None, tokens=0, ok=0, bad=0)

        def update(p: WriteProgress) -> None:
            bar.update(
                task,
                total=p.total,
                completed=p.done,
                tokens=p.tokens,
                ok=p.accepted,
                bad=p.rejected,
            )

        yield update


def print_write_summary(console: Console, p: WriteProgress, model: str) -> None:
    sections = p.accepted + p.rejected
    share = f" ({100 * p.accepted / sections:.0f}%)" if sections else ""
    console.print(
        f"{escape(visible_controls(model))}: {p.done} pages ({p.cached} from the cache),"
        f" {p.skipped} skipped, {p.failed} without an answer · {p.tokens:,} tokens",
        highlight=False,
    )
    console.print(
        f"  sections: {p.accepted} passed the checks{share}, {p.rejected} kept the static text",
        highlight=False,
    )
    for reason, n in p.reasons.most_common(5):
        console.print(f"  {n:>5}  {escape(visible_controls(reason))}", highlight=False)
    if p.last_failure:
        console.print(
            f"  last failure: {escape(visible_controls(p.last_failure))}", highlight=False
        )
    if p.done:
        console.print(
            f"  model {p.model_seconds / p.done:.2f} s a page, checks"
            f" {1000 * p.check_seconds / p.done:.1f} ms a page",
            highlight=False,
        )


def _ignore(text: str) -> None:
    pass


@contextmanager
def write_live(
    console: Console, model: str, enabled: bool = True
) -> Iterator[tuple[Callable[[str], None] | None, Callable[[str], None] | None]]:
    """(on_text, on_retry) for a streamed answer: a live count of what has
    arrived (nothing is drawn when the console is no terminal; the answer
    is streamed all the same)."""
    if not enabled or not console.is_terminal:
        yield _ignore, _ignore
        return
    columns = (
        TextColumn(f"{escape(visible_controls(model))} is writing the page:"),
        TextColumn("{task.fields[chars]:,} characters · {task.fields[note]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("answer", total=None, chars=0, note="")
        got = [0]

        def on_text(piece: str) -> None:
            got[0] += len(piece)
            bar.update(task, chars=got[0])

        def on_retry(why: str) -> None:
            got[0] = 0
            bar.update(task, chars=0, note=escape(visible_controls(f"asked again: {why}")))

        yield on_text, on_retry
