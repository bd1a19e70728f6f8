"""The matcher's inverted index of the current entries, kept in the store
(SQLite or PostgreSQL: the same tables and statements, over ``store.sql.Sql``).

``errordex.store.candidates.StoreIndex`` reads it; ``sync`` keeps it in line
with the current snapshots, inside the snapshot's write transaction. The
keys of an entry are ``errordex.match.keys.entry_keys``: its words and word
pairs, and the few special keys that find templates with few or no words.

It is a small log-structured index, so that a write appends instead of
updating the lists of common words in place:

- each snapshot written becomes a segment of its own: rows
  ``match_postings(seg, term, n, docs)``, the doc ids (uint32,
  little-endian) of its entries with that key. Rows are keyed by segment
  first, so a new segment is written at the end of the table;
- when ``FANOUT`` segments of about the same size (``level``: log_FANOUT
  of their entries) gather, they are merged into one, in SQLite (a posting is
  rewritten once per level it climbs), so a reader looks a key up in a few
  dozen segments at most, whatever the number of snapshots;
- a snapshot that stops being current (a new commit) is marked ``dead`` in
  ``match_snapshots``; readers skip its doc ids, and the next merge of its
  segment drops them (a segment half dead is rewritten alone).

``match_docs(doc, snapshot_id, entry_id, keys, types)`` holds each indexed
entry's keys, to score a candidate on all its words and to find its row.
A reader trusts the postings only when the live snapshots are exactly the
current ones at this ``KEYS_VERSION`` (``status``); otherwise it falls back
to FTS5, until the next write brings them back in line.
"""

from __future__ import annotations

import itertools
import json
import math
import sqlite3
import sys
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from errordex.match.keys import first_names
from errordex.runtime import matched_template
from errordex.store.rows import DocRow, doc_row, text
from errordex.store.sql import Sql, dialect
from errordex.template import Template

__all__ = [
    "KEYS_VERSION",
    "Status",
    "clean",
    "counts",
    "docs",
    "postings",
    "postings_many",
    "rows",
    "status",
    "sync",
    "wordless",
]

#: Bump when ``entry_keys`` changes: snapshots indexed by other rules are indexed again on the next write.
KEYS_VERSION = 4
#: Segments of one level merged together.
FANOUT = 4
#: Bound parameters per ``IN (...)`` query.
_CHUNK = 500

assert array("I").itemsize == 4


def clean(key: str) -> str:
    """A key SQLite can store (a lone surrogate becomes U+FFFD, as in ``entries``)."""
    return text(key)


def _blob(ids: array[int]) -> bytes:
    if sys.byteorder == "big":
        ids = array("I", ids)
        ids.byteswap()
    return ids.tobytes()


def _ids(blob: bytes) -> array[int]:
    ids = array("I")
    ids.frombytes(blob)
    if sys.byteorder == "big":
        ids.byteswap()
    return ids


def _level(entries: int) -> int:
    return int(math.log(max(entries, 1), FANOUT))


# -- writing ------------------------------------------------------------------


def sync(conn: Sql, fresh: Mapping[int, Iterable[DocRow]] | None = None) -> None:
    """Bring the postings in line with the current snapshots.

    Runs in the caller's transaction. ``fresh`` gives the ``match_docs``
    rows (``rows.doc_row``) of a snapshot just written, in entry order (so
    its entries need not be read back); other snapshots are read from
    ``entries``.
    """
    fresh = fresh or {}
    current = dict(
        conn.execute(
            "SELECT s.id, s.indexed_at FROM repos r JOIN snapshots s ON s.id = r.current_snapshot"
        ).fetchall()
    )
    have: set[int] = set()
    for key, sid, version, at in conn.execute(
        "SELECT rowid, snapshot_id, version, indexed_at FROM match_snapshots WHERE dead = 0"
    ).fetchall():
        # a snapshot id comes back when the same commit is indexed again: a fresh one is new
        if current.get(sid) != at or version != KEYS_VERSION or sid in fresh:
            conn.execute("UPDATE match_snapshots SET dead = 1 WHERE rowid = ?", (key,))
        else:
            have.add(sid)
    for sid in sorted(current.keys() - have):
        _add(conn, sid, fresh.get(sid), current[sid])
    while _merge_some(conn):
        pass


def _add(conn: Sql, sid: int, docs: Iterable[DocRow] | None, indexed_at: str) -> None:
    if docs is None:
        seen: set[str] = set()  # a snapshot is one repository's
        docs = (
            doc_row(
                eid,
                matched_template(Template.from_json(json.loads(t)), json.loads(kinds)),
                tuple(json.loads(types)),
                first_names(json.loads(types), seen),
            )
            for eid, t, types, kinds in conn.execute(
                "SELECT id, template, exception_types, kinds FROM entries WHERE snapshot_id = ?"
                " ORDER BY rowid",
                (sid,),
            ).fetchall()
        )
    lo = conn.execute("SELECT coalesce(max(doc), 0) + 1 FROM match_docs").fetchone()[0]
    post: dict[str, array[int]] = {}
    n = 0

    def rows() -> Iterator[tuple[int, int, str, str, str]]:
        """The ``match_docs`` rows, read once: the postings are gathered on the way."""
        nonlocal n
        for doc, (eid, joined, names) in enumerate(docs, lo):
            n += 1
            for k in joined.split("\n") if joined else ():
                ids = post.get(k)
                if ids is None:
                    ids = post[k] = array("I")
                ids.append(doc)
            yield doc, sid, eid, joined, names

    conn.executemany("INSERT INTO match_docs VALUES (?, ?, ?, ?, ?)", rows())
    seg = 0
    if n:
        seg = conn.execute("SELECT coalesce(max(seg), 0) + 1 FROM match_segments").fetchone()[0]
        conn.execute("INSERT INTO match_segments VALUES (?, ?, ?)", (seg, _level(n), n))
        conn.executemany(
            "INSERT INTO match_postings VALUES (?, ?, ?, ?)",
            ((seg, k, len(post[k]), _blob(post[k])) for k in sorted(post)),
        )
    conn.execute(
        "INSERT INTO match_snapshots VALUES (?, ?, ?, ?, ?, ?, 0)",
        (sid, seg, lo, lo + n - 1, KEYS_VERSION, indexed_at),
    )


def _merge_some(conn: Sql) -> bool:
    """Merge one group of segments (or rewrite one half-dead segment); False when none is due."""
    conn.execute("DELETE FROM match_snapshots WHERE dead = 1 AND seg = 0")  # no entries
    segs = conn.execute("SELECT seg, level, entries FROM match_segments ORDER BY seg").fetchall()
    dead = dict(
        conn.execute(
            "SELECT seg, sum(hi - lo + 1) FROM match_snapshots WHERE dead = 1 GROUP BY seg"
        ).fetchall()
    )
    for _, group in itertools.groupby(sorted(segs, key=lambda s: s[1]), key=lambda s: s[1]):
        same = [s[0] for s in group]
        if len(same) >= FANOUT:
            _merge(conn, same[:FANOUT])
            return True
    for seg, _, entries in segs:
        if dead.get(seg, 0) * 2 >= entries:
            _merge(conn, [seg])
            return True
    return False


def _merge(conn: Sql, segs: list[int]) -> None:
    marks = ", ".join("?" * len(segs))
    snaps = conn.execute(
        f"SELECT rowid, lo, hi, dead FROM match_snapshots WHERE seg IN ({marks})", segs
    ).fetchall()
    live = sum(hi - lo + 1 for _, lo, hi, is_dead in snaps if not is_dead)
    new = conn.execute("SELECT max(seg) + 1 FROM match_segments").fetchone()[0]
    if dialect(conn) == "postgresql":
        joined = "string_agg(docs, ''::bytea ORDER BY seg)"
    else:  # concatenated in SQLite (a UTF-8 database keeps a blob's bytes as they are)
        assert conn.execute("PRAGMA encoding").fetchone()[0] == "UTF-8"
        joined = "CAST(group_concat(docs, '') AS BLOB)"
    conn.execute(
        f"INSERT INTO match_postings SELECT ?, term, sum(n), {joined}"
        f" FROM match_postings WHERE seg IN ({marks}) GROUP BY term",
        (new, *segs),
    )
    dead = [(lo, hi) for _, lo, hi, is_dead in snaps if is_dead and hi >= lo]
    if dead:
        _drop(conn, new, dead)
    for seg in segs:
        conn.execute("DELETE FROM match_postings WHERE seg = ?", (seg,))
    conn.execute(f"DELETE FROM match_segments WHERE seg IN ({marks})", segs)
    for key, lo, hi, is_dead in snaps:
        if is_dead:
            conn.execute("DELETE FROM match_docs WHERE doc BETWEEN ? AND ?", (lo, hi))
            conn.execute("DELETE FROM match_snapshots WHERE rowid = ?", (key,))
        else:
            conn.execute("UPDATE match_snapshots SET seg = ? WHERE rowid = ?", (new, key))
    if live:
        conn.execute("INSERT INTO match_segments VALUES (?, ?, ?)", (new, _level(live), live))


def _drop(conn: Sql, seg: int, dead: list[tuple[int, int]]) -> None:
    """Take the docs in ``dead`` ranges out of a segment's postings (only the
    keys those docs have are read)."""
    terms: set[str] = set()
    for lo, hi in dead:
        for (keys,) in conn.execute(
            "SELECT keys FROM match_docs WHERE doc BETWEEN ? AND ?", (lo, hi)
        ):
            terms.update(keys.split("\n") if keys else ())
    for term in sorted(terms):
        row = conn.execute(
            "SELECT docs FROM match_postings WHERE seg = ? AND term = ?", (seg, term)
        ).fetchone()
        if row is None:
            continue
        kept = array("I", (d for d in _ids(row[0]) if not any(lo <= d <= hi for lo, hi in dead)))
        if kept:
            conn.execute(
                "UPDATE match_postings SET n = ?, docs = ? WHERE seg = ? AND term = ?",
                (len(kept), _blob(kept), seg, term),
            )
        else:
            conn.execute("DELETE FROM match_postings WHERE seg = ? AND term = ?", (seg, term))


# -- reading ------------------------------------------------------------------


@dataclass(frozen=True)
class Status:
    #: the live snapshots are exactly the current ones (else: use FTS5)
    ready: bool
    #: entries indexed (live)
    entries: int = 0
    #: doc id ranges of snapshots no longer current, not merged away yet
    dead: tuple[tuple[int, int], ...] = ()


def status(conn: Sql) -> Status:
    try:
        missing, extra, entries = conn.execute(
            "SELECT"
            " (SELECT count(*) FROM repos r JOIN snapshots s ON s.id = r.current_snapshot"
            "   LEFT JOIN match_snapshots m ON m.snapshot_id = s.id AND m.dead = 0"
            "   AND m.indexed_at = s.indexed_at AND m.version = ? WHERE m.snapshot_id IS NULL),"
            " (SELECT count(*) FROM match_snapshots WHERE dead = 0 AND snapshot_id NOT IN"
            "   (SELECT current_snapshot FROM repos WHERE current_snapshot IS NOT NULL)),"
            " (SELECT coalesce(sum(hi - lo + 1), 0) FROM match_snapshots WHERE dead = 0)",
            (KEYS_VERSION,),
        ).fetchone()
        dead = conn.execute(
            "SELECT lo, hi FROM match_snapshots WHERE dead = 1 AND hi >= lo ORDER BY lo"
        ).fetchall()
    except sqlite3.OperationalError:  # a database from before m003, opened without migrating
        return Status(False)
    return Status(missing == 0 and extra == 0, int(entries), tuple(dead))


_SEGS = "seg IN (SELECT seg FROM match_segments)"


def counts(conn: Sql, keys: Iterable[str]) -> dict[str, int]:
    """The number of entries with each key that has one (dead ones included)."""
    todo = list(dict.fromkeys(clean(k) for k in keys))
    out: dict[str, int] = {}
    for i in range(0, len(todo), _CHUNK):
        chunk = todo[i : i + _CHUNK]
        marks = ", ".join("?" * len(chunk))
        out.update(
            conn.execute(
                f"SELECT term, sum(n) FROM match_postings WHERE {_SEGS} AND term IN ({marks})"
                " GROUP BY term",
                chunk,
            )
        )
    return out


def postings(conn: Sql, key: str, cap: int, dead: Sequence[tuple[int, int]] = ()) -> array[int]:
    """The doc ids of the live entries with ``key``, at most ``cap`` of them
    (segment by segment, oldest first)."""
    out = array("I")
    for (blob,) in conn.execute(
        f"SELECT docs FROM match_postings WHERE {_SEGS} AND term = ? ORDER BY seg", (clean(key),)
    ):
        if _gather(out, blob, cap, dead):
            break
    return out


def postings_many(
    conn: Sql, wants: Mapping[str, int], dead: Sequence[tuple[int, int]] = ()
) -> dict[str, array[int]]:
    """``postings`` of each key of ``wants`` (key -> its cap), read in one
    statement: a paste's keys at once (a round trip each cost PostgreSQL's
    ``explain`` 3x SQLite's time). Every key is in the answer."""
    cleaned: dict[str, list[str]] = {}
    for key in wants:
        cleaned.setdefault(clean(key), []).append(key)
    terms = list(cleaned)
    got: dict[str, array[int]] = {t: array("I") for t in terms}
    cap = {t: max(wants[k] for k in cleaned[t]) for t in terms}
    for i in range(0, len(terms), _CHUNK):
        chunk = terms[i : i + _CHUNK]
        params: list[object]
        if dialect(conn) == "postgresql":  # one statement whatever the number of keys
            where, params = "term = ANY(?)", [chunk]
        else:
            where, params = f"term IN ({', '.join('?' * len(chunk))})", list(chunk)
        for term, blob in conn.execute(
            f"SELECT term, docs FROM match_postings WHERE {_SEGS} AND {where} ORDER BY seg, term",
            params,
        ):
            if len(got[term]) < cap[term]:
                _gather(got[term], blob, cap[term], dead)
    return {k: got[t][: wants[k]] for t in terms for k in cleaned[t]}


def _gather(out: array[int], blob: bytes, cap: int, dead: Sequence[tuple[int, int]]) -> bool:
    """Add a segment's live doc ids to ``out``, up to ``cap``; whether it is full."""
    ids = _ids(blob)
    if dead:
        ids = array("I", (d for d in ids if not any(lo <= d <= hi for lo, hi in dead)))
    out.extend(ids)
    if len(out) >= cap:
        del out[cap:]
        return True
    return False


def docs(conn: Sql, ids: Iterable[int]) -> dict[int, tuple[list[str], list[str]]]:
    """doc id -> (keys, type names)."""
    todo = list(ids)
    out: dict[int, tuple[list[str], list[str]]] = {}
    for i in range(0, len(todo), _CHUNK):
        chunk = todo[i : i + _CHUNK]
        marks = ", ".join("?" * len(chunk))
        for n, keys, types in conn.execute(
            f"SELECT doc, keys, types FROM match_docs WHERE doc IN ({marks})", chunk
        ):
            out[n] = (keys.split("\n") if keys else [], types.split())
    return out


def rows(conn: Sql, ids: list[int]) -> dict[int, tuple[int, str, str, str, str]]:
    """doc id -> (snapshot id, entry id, repo slug, template JSON, exception
    types JSON) of current entries."""
    out: dict[int, tuple[int, str, str, str, str]] = {}
    for i in range(0, len(ids), _CHUNK):
        chunk = ids[i : i + _CHUNK]
        marks = ", ".join("?" * len(chunk))
        for n, sid, eid, slug, tjson, types_json, kinds in conn.execute(
            "SELECT d.doc, e.snapshot_id, e.id, r.slug, e.template, e.exception_types, e.kinds"
            " FROM match_docs d JOIN entries e ON e.snapshot_id = d.snapshot_id AND e.id = d.entry_id"
            " JOIN snapshots s ON s.id = e.snapshot_id"
            " JOIN repos r ON r.id = s.repo_id AND r.current_snapshot = s.id"
            f" WHERE d.doc IN ({marks})",
            chunk,
        ):
            out[n] = (int(sid), eid, slug, matched_json(tjson, kinds), types_json)
    return out


#: the JSON of a template with no message at all (``Template.empty``)
_EMPTY_JSON = json.dumps(Template.empty().to_json())


def matched_json(template_json: str, kinds_json: str) -> str:
    """``template_json`` as the matcher reads it (``runtime.matched_template``):
    a bare Rust ``todo!()`` reads "not yet implemented"."""
    if template_json != _EMPTY_JSON:
        return template_json
    t = matched_template(Template.empty(), json.loads(kinds_json))
    return template_json if t.is_empty else json.dumps(t.to_json())


def wordless(conn: Sql) -> list[str]:
    """The keys of word-less templates (``~`` + their chunks as JSON)."""
    return [
        r[0]
        for r in conn.execute(
            f"SELECT DISTINCT term FROM match_postings WHERE {_SEGS}"
            " AND term >= '~' AND term < '\x7f'"
        )
    ]
