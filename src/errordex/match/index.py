"""Candidate retrieval: which templates might have produced a message.

Verifying a template (``compile.Matcher``) is cheap, but not cheap enough to
try a million of them. A ``CandidateSource`` returns a short list of likely
templates; its cost must not grow linearly with the number of templates.

- ``MemoryIndex``: an inverted index over the words of each template's
  literal text, IDF-weighted. It scans the postings of the rarest words of the
  message first, up to a fixed budget, so a common word never costs a scan of
  half the index.
- ``StoreIndex``: the same retrieval over postings the SQLite store keeps
  (``errordex.store.postings``), or through FTS5 while those are behind.

Only the words *inside* a literal chunk are indexed: in ``"E{}: bad"`` the
chunk ``"E"`` is glued to a placeholder and the message reads ``E0042: bad``,
so ``e`` is not a word of the message.
"""

from __future__ import annotations

import heapq
import json
import math
import re
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from errordex.runtime import matched_template
from errordex.template import Hole, Template, Text

if TYPE_CHECKING:
    from errordex.model import ErrorEntry
    from errordex.store.sqlite import SqliteStore

__all__ = [
    "Candidate",
    "CandidateSource",
    "LocatingSource",
    "MemoryIndex",
    "StoreIndex",
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

#: How much of a message is tokenized for retrieval.
MAX_QUERY_CHARS = 8192
#: Distinct words of a message used for retrieval.
MAX_QUERY_TOKENS = 48
#: Postings scanned per query in MemoryIndex (the rarest words first).
POSTINGS_BUDGET = 12_000
#: Candidates re-scored on all their words.
RESCORE = 256
#: Templates with at most this many index terms are also found by their first/last chunk.
AFFIX_TERMS = 3
#: Characters of a first/last chunk used as its key.
AFFIX_CHARS = 48
#: Templates met by a first/last chunk that are scored (the best ``limit // 2`` are kept).
AFFIX_POOL = 256
#: Chunk sets of word-less templates ("{}: {}") tried per query.
MAX_WORDLESS_KEYS = 512

_WORD = re.compile(r"[^\W_]+")


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


def path_tails(path: str, depth: int = 12) -> list[str]:
    """Every tail of a frame path, the longest first: ``a/b/c.py`` -> ``a/b/c.py``, ``b/c.py``, ``c.py``."""
    comps = path.replace("\\", "/").strip()[:1024].split("/")
    comps = [c for c in comps if c not in ("", ".")]
    return ["/".join(comps[i:]) for i in range(max(0, len(comps) - depth), len(comps))]


def type_name(exception_type: str | None) -> str:
    """The last dotted component, lowercased: ``json.decoder.JSONDecodeError`` -> ``jsondecodeerror``."""
    if not exception_type:
        return ""
    return re.split(r"[.:]+", exception_type.strip())[-1].lower()


def type_names(exception_type: str | None) -> set[str]:
    """Names an entry's exception type answers to: its last dotted component,
    and the last one that names a class (``ValidationError.from_exception_data``
    raises a ``ValidationError``)."""
    if not exception_type:
        return set()
    comps = [c for c in re.split(r"[.:]+", exception_type.strip()) if c]
    out = {comps[-1].lower()} if comps else set()
    for c in reversed(comps):
        if c[:1].isupper():
            out.add(c.lower())
            break
    return out


def query_tokens(message: str) -> list[str]:
    """Distinct words of a message (lowercase, two characters or more), in order."""
    seen: dict[str, None] = {}
    for m in _WORD.finditer(message[:MAX_QUERY_CHARS]):
        w = m.group().lower()
        if len(w) > 1 and len(w) <= 64:
            seen[w] = None
            if len(seen) >= MAX_QUERY_TOKENS * 4:
                break
    return list(seen)


def query_terms(message: str) -> list[str]:
    """Index terms of a message: its words and its pairs of adjacent words."""
    seen: dict[str, None] = {}
    prev = ""
    for m in _WORD.finditer(message[:MAX_QUERY_CHARS]):
        w = m.group().lower()
        if len(w) > 64:
            prev = ""
            continue
        if len(w) > 1:
            seen[w] = None
        if prev:
            seen[prev + " " + w] = None
        prev = w
        if len(seen) >= MAX_QUERY_TOKENS * 8:
            break
    return list(seen)


def _chunk_words(t: Template) -> list[list[str]]:
    """Per literal chunk, the words surely in the message (not glued to a hole)."""
    out: list[list[str]] = []
    parts = t.parts
    for i, p in enumerate(parts):
        if not isinstance(p, Text):
            continue
        hole_before = i > 0 and isinstance(parts[i - 1], Hole)
        hole_after = i + 1 < len(parts) and isinstance(parts[i + 1], Hole)
        words = []
        for m in _WORD.finditer(p.text):
            if hole_before and m.start() == 0:
                continue
            if hole_after and m.end() == len(p.text):
                continue
            words.append(m.group().lower())
        out.append(words)
    return out


def template_tokens(t: Template) -> list[str]:
    """The words a message produced by ``t`` surely contains (see module doc)."""
    out: dict[str, None] = {}
    for words in _chunk_words(t):
        for w in words:
            if 1 < len(w) <= 64:
                out[w] = None
    return list(out)


def template_terms(t: Template) -> list[str]:
    """Index terms: the words of ``template_tokens`` and the pairs of adjacent
    words (a pair of common words, "is invalid", is much rarer than each)."""
    out: dict[str, None] = {}
    for words in _chunk_words(t):
        prev = ""
        for w in words:
            if len(w) > 64:
                prev = ""
                continue
            if len(w) > 1:
                out[w] = None
            if prev:
                out[prev + " " + w] = None
            prev = w
    return list(out)


def _affix_keys(t: Template) -> list[str]:
    """Keys of a few-word template: its whole text, or its first / last chunk."""
    parts = t.parts
    if len(parts) == 1 and isinstance(parts[0], Text):
        return ["=" + " ".join(parts[0].text.split()).lower()]
    keys = []
    first, last = parts[0], parts[-1]
    if isinstance(first, Text):
        keys.append("<" + " ".join(first.text.split()).lower()[:AFFIX_CHARS])
    if isinstance(last, Text):
        keys.append(">" + " ".join(last.text.split()).lower()[-AFFIX_CHARS:])
    # a chunk without a word ("." or ": ") would be met by most messages
    return [k for k in keys if any(len(w) > 1 for w in _WORD.findall(k))]


def _message_affixes(message: str) -> list[str]:
    """The keys a message can meet in the affix table (see ``_affix_keys``)."""
    head = " ".join(message[: AFFIX_CHARS * 4].split()).lower()
    tail = " ".join(message[-AFFIX_CHARS * 4 :].split()).lower()
    keys = []
    if len(message) <= 1024:
        keys.append("=" + " ".join(message.split()).lower())
    keys += ["<" + head[:i] for i in range(1, min(len(head), AFFIX_CHARS) + 1)]
    keys += [">" + tail[-i:] for i in range(1, min(len(tail), AFFIX_CHARS) + 1)]
    keys.sort(key=len, reverse=True)  # the longest (most specific) first
    return keys


def _is_textual(t: Template) -> bool:
    return not t.dynamic and not t.is_empty and bool(t.literal_text())


def _wordless_key(t: Template) -> tuple[str, ...]:
    return tuple(c.strip() for c in t.chunks())


def entry_keys(t: Template, exception_types: Iterable[str] = ()) -> list[str]:
    """Every key that finds an entry, as ``MemoryIndex`` files it (``StoreIndex``
    reads them from the store): its terms (``template_terms``); the
    ``<``/``>``/``=`` first-chunk, last-chunk and whole-text keys of a template
    of few terms; ``~`` and its chunks (JSON) for a template without words; and
    ``!`` and a type name for a template without constant text.

    >>> entry_keys(Template.literal("chunked"))
    ['chunked', '=chunked', '<chunked', '>chunked']
    """
    if not _is_textual(t):
        return list(dict.fromkeys("!" + n for x in exception_types if (n := type_name(x))))
    terms = template_terms(t)
    keys = list(terms)
    if len(terms) <= AFFIX_TERMS:
        keys += _affix_keys(t)
    if not terms:
        keys.append("~" + json.dumps(_wordless_key(t)))
    return list(dict.fromkeys(keys))


K = TypeVar("K")


def _front(
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


def _with_front(
    ranked: list[tuple[float, int]], front: list[tuple[float, int]]
) -> list[tuple[float, int]]:
    known = {n for _, n in front}
    return front + [sn for sn in ranked if sn[1] not in known] if front else ranked


def _scan(
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


def _best(scores: dict[int, float]) -> list[tuple[int, float]]:
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
        toks = template_terms(template) if _is_textual(template) else []
        for w in toks:
            tid = self._vocab.get(w)
            if tid is None:
                tid = self._vocab[w] = len(self._vocab)
                self._building.append([])
            self._building[tid].append(n)
            self._tok_ids.append(tid)
        self._tok_start.append(len(self._tok_ids))
        if not _is_textual(template):
            for et in exception_types:
                self._by_type.setdefault(type_name(et), []).append(n)
        if _is_textual(template) and len(toks) <= AFFIX_TERMS:
            for k in _affix_keys(template):
                self._affix.setdefault(k, []).append(n)
        if _is_textual(template) and not toks:
            key = _wordless_key(template)
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
        top = _best(_scan(known, lambda tid: postings[tid], lambda tid: idfs[tid]))
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
        for k in _message_affixes(message):
            if len(found) >= AFFIX_POOL:
                break
            for n in self._affix.get(k, ())[: AFFIX_POOL - len(found)]:
                found.append((len(k), n))
        ranked = _with_front(ranked, _front(found, score, room))
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


def fts_query(tokens: Iterable[str]) -> str:
    """A safe FTS5 query: each token quoted as a string, OR-ed. User text is
    never FTS5 syntax here; with no usable token the query is ``""`` (matches
    nothing).

    >>> fts_query(['near', 'a"b', 'OR'])
    '"near" OR "a""b" OR "OR"'
    """
    quoted = []
    for t in tokens:
        t = t.replace("\x00", "")
        if t:
            quoted.append('"' + t.replace('"', '""') + '"')
    return " OR ".join(quoted) or '""'


#: First characters of the special keys of ``entry_keys`` (a term starts with a letter or digit).
_SPECIAL = frozenset("<>=~!")


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

    def __init__(self, store: SqliteStore) -> None:
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
        affixes = _message_affixes(message)
        want = type_name(exception_type)
        df = self._counts(st, [*qterms, *affixes, *(["!" + want] if want else [])])
        known = sorted((d, t) for t in qterms if (d := df[t]))[: MAX_QUERY_TOKENS * 2]
        qset = {t for _, t in known}

        def idf(key: str) -> float:
            return math.log(1.0 + n_all / (1 + df.get(key, 0)))

        dead = st.dead
        top = _best(_scan(known, lambda t: store.match_postings(t, POSTINGS_BUDGET, dead), idf))
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
                elif k[0] not in _SPECIAL:
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
                for n in store.match_postings(k, AFFIX_POOL - len(found), dead):
                    found.append((len(k), n))
        if len({n for _, n in found}) > room:  # _front scores them
            docs.update(store.match_docs({n for _, n in found if n not in docs}))
        ranked = _with_front(ranked, _front(found, score, room))
        chosen = ranked[:limit]
        seen = {n for _, n in chosen}
        extra: list[tuple[float, int]] = []
        # word-less templates ("{}: {}") whose chunks are all in the message
        for key, chunks in self._wordless(st)[:MAX_WORDLESS_KEYS]:
            if len(extra) >= limit:
                break
            if all(c in message for c in chunks):
                for n in store.match_postings(key, limit, dead):
                    if n not in seen:
                        extra.append((0.01 * sum(len(c) for c in chunks), n))
                        seen.add(n)
        # templates that only an exception type can find (dynamic, empty)
        if want and df["!" + want]:
            for n in store.match_postings("!" + want, limit, dead):
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
