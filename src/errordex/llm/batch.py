"""``errordex write``: the pages of one or every indexed repository, written
by the model and checked, with a bounded number of requests in flight, the
client's rate limit and retries, and a token budget.

The model is asked in threads; everything that reads or writes the store
(building a prompt, checking an answer, keeping the record) happens in the
calling thread, as the store's connection wants. Progress is reported
through a callback: the library never prints.

A page whose prompt this model already answered is not asked again: its
kept answer is checked against the current snapshot and kept anew (a
"cached" page). With ``only_missing``, an entry that has a record for its
current prompt, by any model, is skipped.
"""

from __future__ import annotations

import concurrent.futures as cf
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from errordex.errors import LlmBudgetSpent, LlmUnreachable
from errordex.llm import page, prose
from errordex.llm.answer import BadAnswer, parse
from errordex.llm.client import Client, Completion
from errordex.llm.config import LlmConfig
from errordex.llm.prompt import Prompt, build
from errordex.store.base import Store, StoredSnapshot
from errordex.views import entry_json


@dataclass
class Progress:
    """Counts so far: pages, sections and tokens."""

    total: int = 0
    done: int = 0
    cached: int = 0
    skipped: int = 0
    failed: int = 0
    tokens: int = 0
    accepted: int = 0
    rejected: int = 0
    model_seconds: float = 0.0
    check_seconds: float = 0.0
    reasons: Counter[str] = field(default_factory=Counter)
    #: the last page's one-line failure, when its answer could not be had
    last_failure: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "pages": self.total,
            "written": self.done - self.cached,
            "cached": self.cached,
            "skipped": self.skipped,
            "failed": self.failed,
            "tokens": self.tokens,
            "sections": {"accepted": self.accepted, "rejected": self.rejected},
            "rejections": self.reasons.most_common(10),
            "model_seconds": round(self.model_seconds, 3),
            "check_seconds": round(self.check_seconds, 4),
        }


#: (a pattern of a rejection's reason, the kind it is counted as)
_KINDS = (
    (r"is not in the facts this page", "a name that is not in the page's facts"),
    (r"^names nothing from the facts", "names nothing from the facts (filler)"),
    (r"^off the facts' subject", "off the facts' subject"),
    (r"prompt's own words", "the prompt's own words echoed"),
    (r"^repeats the \w+ word for word", "repeats another section"),
    (r"not closed|mid-sentence", "a sentence cut short"),
    (r"which no fact names", "a line no fact names"),
    (r"^unknown identifier", "a name that does not exist at the commit"),
    (r"^no such (file|line)", "a path or line that does not exist"),
    (r"version ", "a version that is not the package's"),
    (r"^names `", "an exception type the site does not raise"),
    (r"returns an error|says it panics", "panic and error mixed up"),
    (r"default feature", "a feature's default against its Cargo.toml"),
    (r"private", "private API presented as public"),
    (r"declares no feature", "a feature the crate does not declare"),
    (r"deprecated", "a deprecation no fact proves"),
    (r"shell command", "a shell command"),
    (r"instruction|repeats a comment", "the repository's own words echoed"),
    (r"does not parse", "code that does not parse"),
    (r"did not write it", "the model left the section out"),
    (
        r"page's shape|not valid JSON|no JSON object|none of the keys",
        "an answer not of the page's shape",
    ),
    (r"too long", "too long"),
    (r"cites line", "a line no fact names"),
    (r"links to", "a link no fact names"),
)


def reason_kind(reason: str) -> str:
    """What kind of failure a rejection's reason is, to count them:
    "unknown identifier 'model' in `model.eval`" -> "a name that does not
    exist at the commit"; a transport failure is its own words."""
    for pattern, kind in _KINDS:
        if re.search(pattern, reason):
            return kind
    return reason.split(" (after ", 1)[0]


@dataclass(frozen=True, slots=True)
class _Job:
    snap: StoredSnapshot
    data: dict[str, Any]
    prompt: Prompt


def _jobs(
    store: Store,
    repo: str | None,
    limit: int | None,
    only_missing: bool,
    progress: Progress,
) -> Iterator[tuple[_Job, page.SnapshotGrounds]]:
    snaps = [store.current(repo)] if repo else [r.snapshot for r in store.repos()]
    left = limit
    for snap in snaps:
        grounds = page.SnapshotGrounds(store, snap)
        entries = {e.id: e for e in store.entries(repo=snap.repo.slug)}
        for entry_id in store.catalog_order(snap.id):
            if left is not None and left <= 0:
                return
            entry = entries.get(entry_id)
            if entry is None or not entry.catalog_sites:
                continue
            data = entry_json(entry, snap, store, prose=False)
            prompt = build(data, grounds.file_lines)
            if prompt is None:
                continue
            if only_missing and any(
                r.get("prompt_hash") == prompt.hash and not r.get("transient")
                for r in prose.records_of(store.conn, data["repo"], data["id"])
            ):
                progress.skipped += 1
                continue
            if left is not None:
                left -= 1
            yield _Job(snap, data, prompt), grounds


def write_pages(
    store: Store,
    config: LlmConfig,
    repo: str | None = None,
    limit: int | None = None,
    only_missing: bool = False,
    on_progress: Callable[[Progress], None] | None = None,
    client: Client | None = None,
) -> Progress:
    """Write and check the pages; each record is kept as soon as it is
    checked, so an interrupted run keeps what it wrote. Raises
    ``LlmUnreachable`` when no page can be asked (after keeping what was
    written), and ``LlmBudgetSpent`` when the token budget ran out first."""
    client = client or Client(config)
    progress = Progress()
    jobs = list(_jobs(store, repo, limit, only_missing, progress))
    progress.total = len(jobs)
    if on_progress:
        on_progress(progress)

    def finish(
        job: _Job, grounds: page.SnapshotGrounds, asked: page.Asked, cached: bool = False
    ) -> None:
        record = page.judge(grounds, job.data, asked, config.model)
        prose.save(store.conn, job.data["repo"], job.data["id"], record)
        _count(progress, record, asked, cached)
        if on_progress:
            on_progress(progress)

    pending: dict[cf.Future[page.Asked], tuple[_Job, page.SnapshotGrounds]] = {}
    queue = iter(jobs)
    spent = False
    with cf.ThreadPoolExecutor(max_workers=config.concurrency) as pool:
        try:
            while True:
                while len(pending) < config.concurrency and not spent:
                    nxt = next(queue, None)
                    if nxt is None:
                        break
                    job, grounds = nxt
                    cached = prose.record_for(store.conn, job.prompt.hash, config.model)
                    if cached is not None and not cached.get("transient"):
                        progress.cached += 1
                        finish(job, grounds, _replayed(job.prompt, cached), cached=True)
                        continue
                    if config.token_budget is not None and progress.tokens >= config.token_budget:
                        spent = True
                        break
                    pending[pool.submit(page.ask, client, job.prompt)] = nxt
                if not pending:
                    break
                done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for fut in done:
                    job, grounds = pending.pop(fut)
                    finish(job, grounds, fut.result())
        except (LlmUnreachable, KeyboardInterrupt):
            for fut in pending:
                fut.cancel()
            raise
    if spent:
        raise LlmBudgetSpent(
            f"the token budget ({config.token_budget:,}) is spent after {progress.done} of"
            f" {progress.total} pages ({progress.tokens:,} tokens); what was written is kept"
        )
    return progress


def _replayed(prompt: Prompt, record: prose.Record) -> page.Asked:
    """A kept answer of this prompt and model, to be checked again."""
    text = str(record.get("answer") or "")
    # what the answer cost when it was written (the record keeps it; a
    # cached page's tokens are not counted again)
    completion = Completion(
        text, int(record.get("tokens") or 0), 0, True, 0, float(record.get("seconds") or 0.0)
    )
    try:
        parse(text, prompt.sections)
    except BadAnswer as exc:
        return page.Asked(prompt, completion, bad=exc.reason)
    return page.Asked(prompt, completion)


def _count(progress: Progress, record: prose.Record, asked: page.Asked, cached: bool) -> None:
    progress.done += 1
    if not cached:
        progress.tokens += asked.tokens
        progress.model_seconds += float(record.get("seconds") or 0.0)
    progress.check_seconds += float(record.get("check_seconds") or 0.0)
    if record.get("transient"):
        progress.failed += 1
        progress.last_failure = next(iter(record["rejected"].values()), None)
    progress.accepted += len(record["accepted"])
    progress.rejected += len(record["rejected"])
    for reason in record["rejected"].values():
        progress.reasons[reason_kind(reason)] += 1


def write_entry(
    store: Store,
    config: LlmConfig,
    repo: str,
    entry_id: str,
    on_text: Callable[[str], None] | None = None,
    on_retry: Callable[[str], None] | None = None,
    client: Client | None = None,
) -> prose.Record | None:
    """Write and check one entry's page (``explain --llm``), streaming the
    answer to ``on_text``; the kept answer of this prompt and model is
    checked again instead of asking. None when the page has no section a
    model may write."""
    snap = store.current(repo)
    grounds = page.SnapshotGrounds(store, snap)
    data = entry_json(store.entry(entry_id, repo), snap, store, prose=False)
    prompt = build(data, grounds.file_lines)
    if prompt is None:
        return None
    cached = prose.record_for(store.conn, prompt.hash, config.model)
    if cached is not None and not cached.get("transient"):
        asked = _replayed(prompt, cached)
    else:
        asked = page.ask(client or Client(config), prompt, on_text, on_retry)
    record = page.judge(grounds, data, asked, config.model)
    prose.save(store.conn, repo, entry_id, record)
    return record
