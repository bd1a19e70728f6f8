"""One page: ask the model, read its answer, check every section, and make
the record the store keeps (``prose``).

``ask`` is the part that waits on the network (it may run in a thread);
``judge`` reads and checks what came back (it reads the store, so it runs
where the store was opened).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from errordex.analysis.verify import Verifier
from errordex.llm import prose
from errordex.llm.answer import BadAnswer, parse
from errordex.llm.check import Checked, Grounds, check
from errordex.llm.client import AnswerFailed, Client, Completion
from errordex.llm.prompt import Prompt, repair_messages
from errordex.model import Package
from errordex.store.base import Store, StoredSnapshot

Record = dict[str, Any]


class SnapshotGrounds:
    """What every page of one snapshot is checked against: its files' line
    counts, its names and its packages (read once, shared by its pages)."""

    def __init__(self, store: Store, snap: StoredSnapshot) -> None:
        self.store = store
        self.snap = snap
        self._lines: dict[str, list[str] | None] = {}
        self.packages: list[Package] = store.packages(snap.id)
        self.verifier = Verifier(self.line_count, store.idents(snap.id), self.packages)

    def file_lines(self, path: str) -> Sequence[str] | None:
        if path not in self._lines:
            text = self.store.file_text(self.snap.id, path)
            self._lines[path] = text.splitlines() if text is not None else None
        return self._lines[path]

    def line_count(self, path: str) -> int | None:
        lines = self.file_lines(path)
        return None if lines is None else len(lines)

    def grounds(self, data: dict[str, Any], prompt: Prompt) -> Grounds:
        sites = data.get("sites") or []
        return Grounds(
            verifier=self.verifier,
            lines_of=self.line_count,
            entry_id=data["id"],
            language=sites[0]["language"] if sites else "",
            data=data,
            prompt=prompt,
            packages={p.name: p for p in self.packages},
        )


@dataclass(frozen=True, slots=True)
class Asked:
    """What came back for one prompt: the answer(s), or why there is none."""

    prompt: Prompt
    completion: Completion | None
    #: the repair retry's answer, when the first was not JSON of the page's shape
    repaired: Completion | None = None
    failed: str | None = None
    bad: str | None = None

    @property
    def tokens(self) -> int:
        return sum(c.tokens for c in (self.completion, self.repaired) if c is not None)

    @property
    def text(self) -> str:
        c = self.repaired or self.completion
        return c.text if c is not None else ""


def ask(
    client: Client,
    prompt: Prompt,
    on_text: Callable[[str], None] | None = None,
    on_retry: Callable[[str], None] | None = None,
) -> Asked:
    """The model's answer to ``prompt``, with one repair retry when it is not
    JSON of the page's shape. Raises only ``LlmUnreachable``."""
    try:
        first = client.complete(prompt.messages, prompt.schema, on_text, on_retry)
    except AnswerFailed as exc:
        return Asked(prompt, None, failed=exc.reason)
    try:
        parse(first.text, prompt.sections)
        return Asked(prompt, first)
    except BadAnswer as exc:
        problem = exc.reason
    try:
        again = client.complete(repair_messages(prompt, first.text, problem), prompt.schema)
    except AnswerFailed as exc:
        return Asked(prompt, first, failed=f"{problem}; the repair retry failed: {exc.reason}")
    try:
        parse(again.text, prompt.sections)
    except BadAnswer as exc:
        return Asked(prompt, first, again, bad=f"{problem}; after one repair retry, {exc.reason}")
    return Asked(prompt, first, again)


def judge(grounds: SnapshotGrounds, data: dict[str, Any], asked: Asked, model: str) -> Record:
    """The record of one page: its checked sections, or every section
    rejected with the reason the answer could not be used."""
    p = asked.prompt
    record: Record = {
        "model": model,
        "prompt_hash": p.hash,
        "repo": data["repo"],
        "entry_id": data["id"],
        "commit": data["commit"],
        "written_at": prose.now(),
        "tokens": asked.tokens,
        "counted": all(c.counted for c in (asked.completion, asked.repaired) if c is not None),
        "seconds": round(
            sum(c.seconds for c in (asked.completion, asked.repaired) if c is not None), 3
        ),
        "answer": asked.text[:20000],
    }
    why = asked.failed or asked.bad
    if why is not None:
        record["accepted"] = {}
        record["rejected"] = {k: why for k in p.sections}
        # a timeout or a 500 says nothing of the model's writing: ask again next time
        record["transient"] = asked.failed is not None
        record["check_seconds"] = 0.0
        return record
    started = time.perf_counter()
    answer = parse(asked.text, p.sections)
    provenance = {"kind": "llm", "model": model, "prompt_hash": p.hash}
    checked: Checked = check(grounds.grounds(data, p), answer, provenance)
    record["check_seconds"] = round(time.perf_counter() - started, 4)
    record["accepted"] = checked.accepted
    record["rejected"] = checked.rejected
    return record
