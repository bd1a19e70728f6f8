"""Candidates from the SQLite store: ``StoreIndex``, the same retrieval as
``errordex.match.index.MemoryIndex`` over the postings the store keeps
(``errordex.store.postings``), or through FTS5 while those are behind.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from errordex.match import index
from errordex.match.index import (
    AFFIX_POOL,
    MAX_WORDLESS_KEYS,
    Candidate,
    affix_front,
    best_scores,
    scan_postings,
    scanned_keys,
    with_front,
)
from errordex.match.keys import (
    MAX_QUERY_TOKENS,
    SPECIAL,
    first_name_key,
    fts_query,
    message_affixes,
    name_key,
    path_tails,
    query_terms,
    query_tokens,
    template_tokens,
    type_name,
)
from errordex.store.base import Store
from errordex.template import Template

__all__ = ["StoreIndex"]

#: a class an ``except`` clause names (``(ValueError, errors.ParseError) as e``)
_CAUGHT_NAME = re.compile(r"[A-Za-z_][\w.]*")


@dataclass
class _StoreState:
    """What a StoreIndex keeps between queries, while the store does not change."""

    version: int | None = None
    ready: bool = False
    entries: int = 0
    dead: tuple[tuple[int, int], ...] = ()
    df: dict[str, int] = field(default_factory=dict)
    wordless: list[tuple[str, tuple[str, ...]]] | None = None


class StoreIndex:
    """Candidates from the SQLite store: the same retrieval as ``MemoryIndex``,
    over the postings the store keeps (``errordex.store.postings``).

    A query reads the document counts of its terms (one indexed lookup), the
    postings of its rarest terms up to ``POSTINGS_BUDGET``, and the keys of
    the ``RESCORE`` best entries, so its cost does not grow with the store.
    A store whose postings are not in line with its current snapshots (written
    by an older errordex) is asked through FTS5 instead, until the next write.
    """

    #: FTS5 fallback: postings the words of one query may have in all (the two rarest always go in)
    BUDGET = 3000
    #: FTS5 fallback: rows that bm25 ranks, to be ranked again on all their words
    RERANK = 200

    #: document counts kept between queries
    CACHE_TERMS = 200_000

    def __init__(self, store: Store) -> None:
        self.store = store
        self._state = _StoreState()

    def _current(self) -> _StoreState:
        st = self._state
        version = self.store.data_version()
        if version != st.version or len(st.df) > self.CACHE_TERMS:
            status = self.store.match_status()
            st = self._state = _StoreState(version, status.ready, status.entries, status.dead)
        return st

    def _counts(self, st: _StoreState, keys: Iterable[str]) -> dict[str, int]:
        """Document counts (0 for an unknown key), cached in ``st``."""
        df = st.df
        missing = [k for k in dict.fromkeys(keys) if k not in df]
        if missing:
            found = self.store.match_term_counts(missing)
            for k in missing:
                df[k] = found.get(k, 0)
        return df

    def _wordless(self, st: _StoreState) -> list[tuple[str, tuple[str, ...]]]:
        """(key, chunks) of word-less templates, the most specific first."""
        if st.wordless is None:
            keys = [(k, tuple(json.loads(k[1:]))) for k in self.store.match_wordless_keys()]
            keys.sort(key=lambda kc: (-sum(len(c) for c in kc[1]), kc[0]))
            st.wordless = keys
        return st.wordless

    def candidates(self, message: str, exception_type: str | None, limit: int) -> list[Candidate]:
        limit = max(1, min(limit, 1000))
        st = self._current()
        if not st.ready:
            return self._fts_candidates(message, exception_type, limit)
        store, n_all = self.store, st.entries
        qterms = query_terms(message)
        affixes = message_affixes(message)
        want = type_name(exception_type)
        df = self._counts(st, [*qterms, *affixes, *(["!" + want] if want else [])])
        known = sorted((d, t) for t in qterms if (d := df[t]))[: MAX_QUERY_TOKENS * 2]
        qset = {t for _, t in known}

        def idf(key: str) -> float:
            return math.log(1.0 + n_all / (1 + df.get(key, 0)))

        dead = st.dead
        # word-less templates ("{}: {}") whose chunks are all in the message
        wordless = [
            (key, chunks)
            for key, chunks in self._wordless(st)[:MAX_WORDLESS_KEYS]
            if all(c in message for c in chunks)
        ]
        # every posting list this paste may read, in one statement (each
        # key's cap the largest it is read with); a key not read then (dead
        # entries made a list shorter than its count) is read on its own
        wants: dict[str, int] = dict.fromkeys(scanned_keys(known), index.POSTINGS_BUDGET)
        for key, cap in (
            *((k, AFFIX_POOL) for k in affixes if df[k]),
            *((k, limit) for k, _ in wordless),
            *([("!" + want, limit)] if want and df["!" + want] else []),
        ):
            wants[key] = max(cap, wants.get(key, 0))
        read = store.match_postings_many(wants, dead) if wants else {}

        def postings(key: str, cap: int) -> Sequence[int]:
            ids = read.get(key)
            if ids is None:
                return store.match_postings(key, cap, dead)
            return ids[:cap]

        top = best_scores(scan_postings(known, lambda t: postings(t, index.POSTINGS_BUDGET), idf))
        docs = store.match_docs(n for n, _ in top)
        # a word of the template that the message lacks weighs as the rarest
        # word would (its count is not read): this only lowers templates that
        # cannot match the message in full
        unmatched = math.log(1.0 + n_all)
        weights = {t: idf(t) for t in qset}

        def score(n: int) -> float:
            keys, types = docs.get(n, ([], []))
            matched = total = 0.0
            for k in keys:
                w = weights.get(k)
                if w is not None:
                    matched += w
                    total += w
                elif k[0] not in SPECIAL:
                    total += unmatched
            s = matched * (matched / total) if total else 0.0
            if want and want in types:
                s *= 1.1
            return s

        ranked = sorted(((score(n), n) for n, _ in top), key=lambda sn: -sn[0])
        # few-word templates ("Both: {}", "chunked") by their first or last chunk
        room = max(4, limit // 2)
        found: list[tuple[int, int]] = []
        for k in affixes:
            if len(found) >= AFFIX_POOL:
                break
            if df[k]:
                for n in postings(k, AFFIX_POOL - len(found)):
                    found.append((len(k), n))
        if len({n for _, n in found}) > room:  # front scores them
            docs.update(store.match_docs({n for _, n in found if n not in docs}))
        ranked = with_front(ranked, affix_front(found, score, room))
        chosen = ranked[:limit]
        seen = {n for _, n in chosen}
        extra: list[tuple[float, int]] = []
        for key, chunks in wordless:
            if len(extra) >= limit:
                break
            for n in postings(key, limit):
                if n not in seen:
                    extra.append((0.01 * sum(len(c) for c in chunks), n))
                    seen.add(n)
        # templates that only an exception type can find (dynamic, empty)
        if want and df["!" + want]:
            for n in postings("!" + want, limit):
                if n not in seen:
                    extra.append((0.0, n))
                    seen.add(n)
        out = chosen + extra[: max(0, limit - len(chosen) // 2)]
        rows = store.match_rows([n for _, n in out])
        hits = [(s, rows[n]) for s, n in out if n in rows]
        sites = store.site_locations_of([(row[0], row[1]) for _, row in hits])
        return [
            self._candidate(
                sid, eid, repo, Template.from_json(json.loads(tj)), types_json, s, sites[sid, eid]
            )
            for s, (sid, eid, repo, tj, types_json) in hits
        ]

    def _fts_candidates(
        self, message: str, exception_type: str | None, limit: int
    ) -> list[Candidate]:
        """Candidates through FTS5, for a store whose postings are not in line."""
        toks = query_tokens(message)
        counts = self.store.fts_term_counts(toks[: MAX_QUERY_TOKENS * 2])
        known = sorted((counts[t], t) for t in toks if counts.get(t))
        rare: list[str] = []
        spent = 0
        for df, term in known[:16]:
            if len(rare) >= 2 and spent + df > self.BUDGET:
                break
            rare.append(term)
            spent += df
        rows: list[tuple[int, str, str, str, str]] = []
        if rare:
            # bm25 favours short entries: the entries holding the rarest word
            # get their own turn besides all the rare words together
            n = max(limit * 4, self.RERANK)
            got: dict[tuple[int, str], tuple[int, str, str, str, str]] = {}
            for q in dict.fromkeys((fts_query(rare), fts_query(rare[:1]))):
                for row in self.store.match_candidates(q, n):
                    got.setdefault((row[0], row[1]), row)
            rows = list(got.values())
        # bm25 saw only the rarest words: rank again by how many of each
        # template's words the message has, then by bm25
        have = set(toks)
        scored: list[tuple[float, int, tuple[int, str, str, Template, str]]] = []
        for i, (sid, entry_id, repo, tjson, types_json) in enumerate(rows):
            t = Template.from_json(json.loads(tjson))
            words = template_tokens(t)
            inside = sum(1 for w in words if w in have) / len(words) if words else 0.5
            scored.append((-inside, i, (sid, entry_id, repo, t, types_json)))
        scored.sort(key=lambda x: (x[0], x[1]))
        picked = [x[2] for x in scored[:limit]]
        want = type_name(exception_type)
        if want:
            for sid, entry_id, repo, tjson, types_json in self.store.match_candidates(
                "exception_types : " + fts_query([want]), limit, dynamic_only=True
            ):
                picked.append(
                    (sid, entry_id, repo, Template.from_json(json.loads(tjson)), types_json)
                )
        out: list[Candidate] = []
        seen: set[tuple[str, str]] = set()
        for rank, (sid, entry_id, repo, t, types_json) in enumerate(picked):
            if (entry_id, repo) in seen:
                continue
            seen.add((entry_id, repo))
            out.append(self._candidate(sid, entry_id, repo, t, types_json, 1.0 / (1 + rank)))
        return out[: limit + (limit // 2 if want else 0)]

    def named(self, name: str, limit: int) -> list[Candidate]:
        """Entries whose exception type is called ``name`` (a type or variant
        a printed value names: ``InvalidDigit``), from the postings only."""
        limit = max(1, min(limit, 1000))
        st = self._current()
        if not st.ready:
            return []
        store = self.store
        # the name's entries, and each repository's first of it (a crate
        # with many entries of one name fills the first list alone)
        keys = {name_key(name): limit, first_name_key(name): limit}
        got = store.match_postings_many(keys, st.dead)
        docs = list(dict.fromkeys(d for k in keys for d in got.get(k, ())))
        rows = store.match_rows(docs)
        hits = [rows[n] for n in docs if n in rows]
        sites = store.site_locations_of([(row[0], row[1]) for row in hits])
        return [
            self._candidate(
                sid, eid, repo, Template.from_json(json.loads(tj)), types_json, 0.0, sites[sid, eid]
            )
            for sid, eid, repo, tj, types_json in hits
        ]

    def caught(self, repo: str, entry_id: str) -> set[str]:
        """The classes (``type_name``) the ``except`` clauses around an
        entry's sites catch: ``except LocationParseError as e`` catches
        ``locationparseerror``."""
        entry = self.store.entry(entry_id, repo)
        return {
            type_name(name)
            for site in entry.sites
            for g in site.guards
            if g.kind == "except"
            for name in _CAUGHT_NAME.findall(g.text.split(" as ", 1)[0])
        } - {""}

    def caught_text(self, repo: str, entry_id: str) -> set[str]:
        """The classes (``type_name``) of the ``except`` clauses around an
        entry's sites whose caught error its message shows: ``except
        AttributeError as err`` and ``raise BoxKeyError(str(err))`` catch
        ``attributeerror``; a raise there of another text does not."""
        entry = self.store.entry(entry_id, repo)
        shown = {
            name
            for site in entry.sites
            for h in site.template.holes
            for name in _CAUGHT_NAME.findall(h.expr)
        }
        out: set[str] = set()
        for site in entry.sites:
            for g in site.guards:
                caught, _, bound = g.text.partition(" as ")
                if g.kind == "except" and bound.strip() in shown:
                    out |= {type_name(n) for n in _CAUGHT_NAME.findall(caught)}
        return out - {""}

    def known(self, repo: str, names: Iterable[str]) -> set[str]:
        """Which of ``names`` (types a printed value names) are identifiers
        in ``repo``'s code: ``ParseBigIntError`` is num-bigint's own."""
        return self.store.idents_known(repo, names)

    def located(self, path: str, line: int, limit: int) -> list[Candidate]:
        """Entries with a site at ``line`` of a file that ``path`` ends with."""
        rows = self.store.sites_at(path_tails(path), line, limit)
        return [
            self._candidate(sid, eid, repo, Template.from_json(json.loads(tj)), types_json, 0.0)
            for sid, eid, repo, tj, types_json in rows
        ]

    def _candidate(
        self,
        sid: int,
        entry_id: str,
        repo: str,
        t: Template,
        types_json: str,
        score: float,
        located: list[tuple[str, int, str | None]] | None = None,
    ) -> Candidate:
        if located is None:
            located = self.store.site_locations(sid, entry_id)
        sites = tuple(located)
        return Candidate(
            entry_id=entry_id,
            repo=repo,
            template=t,
            exception_types=tuple(json.loads(types_json)),
            paths=tuple(dict.fromkeys(p for p, _, _ in sites)),
            score=score,
            sites=sites,
        )
