"""Candidate retrieval: which templates might have produced a message.

Verifying a template (``compile.Matcher``) is cheap, but not cheap enough to
try a million of them. A ``CandidateSource`` returns a short list of likely
templates; its cost must not grow linearly with the number of templates.

- ``MemoryIndex``: an inverted index over the words of each template's
  literal text, IDF-weighted. It scans the postings of the rarest words of the
  message first, up to a fixed budget, so a common word never costs a scan of
  half the index.
- ``errordex.store.candidates.StoreIndex``: the same retrieval over
  postings the SQLite store keeps (``errordex.store.postings``), or through
  FTS5 while those are behind; it shares the scan below.

Only the words *inside* a literal chunk are indexed: in ``"E{}: bad"`` the
chunk ``"E"`` is glued to a placeholder and the message reads ``E0042: bad``,
so ``e`` is not a word of the message.
"""

from __future__ import annotations

import heapq
import math
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from errordex.match.keys import (
    AFFIX_TERMS,
    MAX_QUERY_TOKENS,
    affix_keys,
    entry_keys,
    first_name_key,
    first_names,
    fts_query,
    is_textual,
    message_affixes,
    name_key,
    path_tails,
    query_terms,
    query_tokens,
    template_terms,
    template_tokens,
    type_name,
    type_names,
    wordless_key,
)
from errordex.runtime import matched_template
from errordex.template import Template

if TYPE_CHECKING:
    from errordex.model import ErrorEntry

__all__ = [
    "Candidate",
    "CandidateSource",
    "LocatingSource",
    "MemoryIndex",
    "entry_keys",
    "fts_query",
    "path_tails",
    "query_terms",
    "query_tokens",
    "template_terms",
    "template_tokens",
    "type_name",
    "type_names",
]

#: Postings scanned per query in MemoryIndex (the rarest words first).
POSTINGS_BUDGET = 12_000
#: Candidates re-scored on all their words.
RESCORE = 256
#: Templates met by a first/last chunk that are scored (the best ``limit // 2`` are kept).
AFFIX_POOL = 256
#: Chunk sets of word-less templates ("{}: {}") tried per query.
MAX_WORDLESS_KEYS = 512


@dataclass(frozen=True)
class Candidate:
    """A template that may have produced a message. ``score`` is the
    retrieval score (higher is better; only comparable within one query)."""

    entry_id: str
    repo: str
    template: Template
    exception_types: tuple[str, ...]
    paths: tuple[str, ...]
    score: float = 0.0
    #: (path, line, via) of each site; ``via`` is "path:line symbol" for a forwarded site
    sites: tuple[tuple[str, int, str | None], ...] = ()


class CandidateSource(Protocol):
    def candidates(
        self, message: str, exception_type: str | None, limit: int
    ) -> list[Candidate]: ...


class LocatingSource(CandidateSource, Protocol):
    """A source that can also say which entries have a site at a frame."""

    def located(self, path: str, line: int, limit: int) -> list[Candidate]: ...


K = TypeVar("K")


def affix_front(
    found: list[tuple[int, int]], score: Callable[[int], float], room: int
) -> list[tuple[float, int]]:
    """``room`` of the templates met by an affix key ((key length, n)): the
    longest key first, then the best score on all their words."""
    first = dict.fromkeys(n for _, n in found)
    many = len(first) > room  # else all are kept: no need to score them
    best: dict[int, tuple[int, float]] = {}
    for length, n in found:
        if n not in best:
            best[n] = (length, score(n) if many else 0.0)
    order = sorted(best.items(), key=lambda kv: (-kv[1][0], -kv[1][1]))
    return [(1e6 + length, n) for n, (length, _) in order[:room]]


def with_front(
    ranked: list[tuple[float, int]], front: list[tuple[float, int]]
) -> list[tuple[float, int]]:
    known = {n for _, n in front}
    return front + [sn for sn in ranked if sn[1] not in known] if front else ranked


def scan_postings(
    known: list[tuple[int, K]],
    postings: Callable[[K], Sequence[int]],
    weight: Callable[[K], float],
) -> dict[int, float]:
    """Partial scores: the weights of the rarest ``known`` (df, key) that fit
    in ``POSTINGS_BUDGET`` postings (the rarest always goes in, cut to the budget)."""
    scores: dict[int, float] = {}
    scanned = 0
    for df, key in known:
        if scores and scanned + df > POSTINGS_BUDGET:
            break
        w = weight(key)
        post = postings(key)
        if len(post) > POSTINGS_BUDGET:
            post = post[:POSTINGS_BUDGET]
        if not scores:
            scores = dict.fromkeys(post, w)
        else:
            get = scores.get
            for n in post:
                scores[n] = get(n, 0.0) + w
        scanned += len(post)
    return scores


def scanned_keys(known: list[tuple[int, K]]) -> list[K]:
    """The keys ``scan_postings`` reads when each key's postings are as many
    as its count (no dead entries among them): a store reads them at once.

    >>> scanned_keys([(3, "rare"), (POSTINGS_BUDGET, "common"), (5, "other")])
    ['rare']
    """
    out: list[K] = []
    scanned = 0
    for df, key in known:
        if out and scanned + df > POSTINGS_BUDGET:
            break
        out.append(key)
        scanned += min(df, POSTINGS_BUDGET)
    return out


def best_scores(scores: dict[int, float]) -> list[tuple[int, float]]:
    """The ``RESCORE`` best partial scores."""
    if not scores:
        return []
    # a cheap cut first keeps nlargest small
    cut = max(scores.values()) * 0.5
    keep = (
        [kv for kv in scores.items() if kv[1] >= cut] if len(scores) > RESCORE else scores.items()
    )
    return heapq.nlargest(RESCORE, keep, key=lambda kv: kv[1])


class MemoryIndex:
    """An in-memory inverted index of templates.

    >>> idx = MemoryIndex()
    >>> idx.add("e1", "o/r", Template.literal("disk quota exceeded"))
    >>> [c.entry_id for c in idx.candidates("disk quota exceeded", None, 5)]
    ['e1']
    """

    def __init__(self) -> None:
        self._ids: list[str] = []
        self._repos: list[str] = []
        self._templates: list[Template] = []
        self._types: list[tuple[str, ...]] = []
        self._paths: list[tuple[str, ...]] = []
        self._sites: list[tuple[tuple[str, int, str | None], ...]] = []
        self._at: dict[tuple[str, int], list[int]] = {}
        self._vocab: dict[str, int] = {}
        self._building: list[list[int]] = []
        self._postings: list[array[int]] = []
        self._tok_start = array("I", [0])
        self._tok_ids = array("I")
        self._idfs = array("d")
        self._by_type: dict[str, list[int]] = {}
        self._by_name: dict[str, list[int]] = {}
        self._names_of: dict[str, set[str]] = {}  # per repository, the type names filed
        self._wordless: dict[tuple[str, ...], list[int]] = {}
        self._wordless_keys: list[tuple[str, ...]] = []
        self._affix: dict[str, list[int]] = {}
        self._dirty = False

    def __len__(self) -> int:
        return len(self._ids)

    @classmethod
    def build(cls, rows: Iterable[tuple[Any, ...]]) -> MemoryIndex:
        """From (entry_id, repo, template, exception_types, paths[, sites]) tuples."""
        idx = cls()
        for row in rows:
            idx.add(*row)
        return idx

    @classmethod
    def from_entries(cls, entries: Iterable[ErrorEntry]) -> MemoryIndex:
        return cls.build(
            (
                e.id,
                e.repo,
                matched_template(e.template, e.kinds),
                e.exception_types,
                tuple(dict.fromkeys(s.path for s in e.sites)),
                tuple((s.path, s.line, s.via) for s in e.sites),
            )
            for e in entries
        )

    def add(
        self,
        entry_id: str,
        repo: str,
        template: Template,
        exception_types: tuple[str, ...] = (),
        paths: tuple[str, ...] = (),
        sites: tuple[tuple[str, int, str | None], ...] = (),
    ) -> None:
        n = len(self._ids)
        self._ids.append(entry_id)
        self._repos.append(repo)
        self._templates.append(template)
        self._types.append(exception_types)
        self._paths.append(paths or tuple(dict.fromkeys(p for p, _, _ in sites)))
        self._sites.append(sites)
        for p, line, _ in sites:
            at = self._at.setdefault((p, line), [])
            if not at or at[-1] != n:
                at.append(n)
        toks = template_terms(template) if is_textual(template) else []
        for w in toks:
            tid = self._vocab.get(w)
            if tid is None:
                tid = self._vocab[w] = len(self._vocab)
                self._building.append([])
            self._building[tid].append(n)
            self._tok_ids.append(tid)
        self._tok_start.append(len(self._tok_ids))
        if not is_textual(template):
            for et in exception_types:
                self._by_type.setdefault(type_name(et), []).append(n)
        for et in dict.fromkeys(name_key(et) for et in exception_types if type_name(et)):
            self._by_name.setdefault(et, []).append(n)
        for et in first_names(exception_types, self._names_of.setdefault(repo, set())):
            self._by_name.setdefault(et, []).append(n)
        if is_textual(template) and len(toks) <= AFFIX_TERMS:
            for k in affix_keys(template):
                self._affix.setdefault(k, []).append(n)
        if is_textual(template) and not toks:
            key = wordless_key(template)
            if key not in self._wordless:
                self._wordless[key] = []
                self._wordless_keys.append(key)
            self._wordless[key].append(n)
        self._dirty = True

    def _freeze(self) -> None:
        """Move postings built so far into compact arrays."""
        while len(self._postings) < len(self._building):
            self._postings.append(array("I"))
        for tid, lst in enumerate(self._building):
            if lst:
                self._postings[tid].extend(lst)
                lst.clear()
        n = len(self._ids)
        self._idfs = array("d", (math.log(1.0 + n / (1 + len(p))) for p in self._postings))
        # most specific word-less templates first
        self._wordless_keys.sort(key=lambda k: -sum(len(c) for c in k))
        self._dirty = False

    def candidates(self, message: str, exception_type: str | None, limit: int) -> list[Candidate]:
        if self._dirty:
            self._freeze()
        limit = max(1, min(limit, 1000))
        qtoks = query_terms(message)
        known = sorted(
            (len(self._postings[tid]), tid)
            for w in qtoks
            if (tid := self._vocab.get(w)) is not None
        )[: MAX_QUERY_TOKENS * 2]
        qset = {tid for _, tid in known}
        postings, idfs = self._postings, self._idfs
        top = best_scores(scan_postings(known, lambda tid: postings[tid], lambda tid: idfs[tid]))
        want = type_name(exception_type)
        start, ids = self._tok_start, self._tok_ids

        def score(n: int) -> float:
            matched = total = 0.0
            for tid in ids[start[n] : start[n + 1]]:
                w = idfs[tid]
                total += w
                if tid in qset:
                    matched += w
            s = matched * (matched / total) if total else 0.0
            if want and any(type_name(t) == want for t in self._types[n]):
                s *= 1.1
            return s

        ranked = sorted(((score(n), n) for n, _ in top), key=lambda sn: -sn[0])
        # few-word templates ("Both: {}", "chunked") by their first or last chunk
        room = max(4, limit // 2)
        found: list[tuple[int, int]] = []
        for k in message_affixes(message):
            if len(found) >= AFFIX_POOL:
                break
            for n in self._affix.get(k, ())[: AFFIX_POOL - len(found)]:
                found.append((len(k), n))
        ranked = with_front(ranked, affix_front(found, score, room))
        chosen = ranked[:limit]
        seen = {n for _, n in chosen}
        extra: list[tuple[float, int]] = []
        # word-less templates ("{}: {}") whose chunks are all in the message
        for key in self._wordless_keys[:MAX_WORDLESS_KEYS]:
            if len(extra) >= limit:
                break
            if all(c in message for c in key):
                for n in self._wordless[key][:limit]:
                    if n not in seen:
                        extra.append((0.01 * sum(len(c) for c in key), n))
                        seen.add(n)
        # templates that only an exception type can find (dynamic, empty)
        if want:
            for n in self._by_type.get(want, ())[:limit]:
                if n not in seen:
                    extra.append((0.0, n))
                    seen.add(n)
        out = chosen + extra[: max(0, limit - len(chosen) // 2)]
        return [self._candidate(n, s) for s, n in out]

    def named(self, name: str, limit: int) -> list[Candidate]:
        """Entries whose exception type is called ``name`` (``InvalidDigit``)."""
        got = self._by_name.get(name_key(name), ())[:limit]
        firsts = self._by_name.get(first_name_key(name), ())[:limit]
        return [self._candidate(n, 0.0) for n in dict.fromkeys([*got, *firsts])]

    def located(self, path: str, line: int, limit: int) -> list[Candidate]:
        """Entries with a site at ``line`` of a file that ``path`` ends with."""
        out: list[Candidate] = []
        for tail in path_tails(path):
            for n in self._at.get((tail, line), ()):
                out.append(self._candidate(n, 0.0))
        return out[:limit]

    def _candidate(self, n: int, score: float) -> Candidate:
        return Candidate(
            entry_id=self._ids[n],
            repo=self._repos[n],
            template=self._templates[n],
            exception_types=self._types[n],
            paths=self._paths[n],
            score=score,
            sites=self._sites[n],
        )
