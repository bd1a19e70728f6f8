"""Reading snapshots back, in the SQL that SQLite and PostgreSQL share.

``SqlReads`` is every read of the ``Store`` protocol over a connection with
``execute(sql, params)`` (``?`` placeholders): ``SqliteStore`` gives it an
``sqlite3`` connection, ``PostgresStore`` one that borrows from its pool.
The few things the two write differently are the ``_EACH``, ``_FIELD``,
``_FALSE``, ``_INSTR`` and ``_PREFIX`` snippets.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from errordex import plugins
from errordex.errors import NotFound
from errordex.extract.common import is_test_support
from errordex.model import (
    ClassDef,
    ErrorEntry,
    Package,
    Repo,
    Skip,
    Snapshot,
    SnapshotStats,
    ThrowSite,
)
from errordex.store import postings
from errordex.store.base import EntryPage, RepoSummary, StoredSnapshot
from errordex.store.opening import reports_damage
from errordex.store.sql import Sql
from errordex.template import Template


def analysis_value(data: str | bytes) -> dict[str, Any]:
    """A stored analysis (zlib-compressed JSON, or JSON text) as a dict."""
    value: dict[str, Any] = json.loads(zlib.decompress(data) if isinstance(data, bytes) else data)
    return value


#: reproducing tests an entry's catalog rank counts, at most (a message a
#: table of cases pins 40 times is not 40 times as likely to be met)
MAX_TESTS_RANKED = 5


class SqlReads:
    """The reads of a store (``errordex.store.base.Store``) over ``self.conn``.
    A read that meets damaged pages raises ``StoreDamaged``."""

    conn: Sql

    #: a JSON array column as a table of its elements, ``k.value``
    _EACH = "json_each({col}) AS k"
    #: a JSON object column's field, and how JSON's false compares to it
    _FIELD = "json_extract({col}, '$.{key}')"
    _FALSE = "0"
    #: the position of a substring (0 when absent)
    _INSTR = "instr"
    #: the operator and the wildcard of a prefix match that uses an index
    _PREFIX = ("GLOB", "*")
    #: a join read in the order written (SQLite's CROSS JOIN tells its planner so)
    _JOIN_IN_ORDER = "CROSS JOIN"

    @property
    def where(self) -> str:
        raise NotImplementedError

    @classmethod
    def _field(cls, col: str, key: str) -> str:
        return cls._FIELD.format(col=col, key=key)

    @reports_damage
    def has_snapshot(self, slug: str, commit: str) -> bool:
        row = self.conn.execute(
            "SELECT 1 FROM repos r JOIN snapshots s ON s.id = r.current_snapshot"
            ' WHERE r.slug = ? AND s."commit" = ?',
            (slug, commit),
        ).fetchone()
        return row is not None

    # -- reading -----------------------------------------------------------

    _SNAP_COLS = (
        's.id, r.slug, r.url, r.default_branch, s."commit", s.commit_date, s.indexed_at,'
        " s.tool_version, s.version_label, s.forge_ref, s.stats, s.commit_kind"
    )

    def _snapshot_from_row(self, row: tuple[Any, ...]) -> StoredSnapshot:
        snap = Snapshot(
            repo=Repo(slug=row[1], url=row[2], default_branch=row[3]),
            commit=row[4],
            commit_date=row[5],
            indexed_at=row[6],
            tool_version=row[7],
            version_label=row[8],
            stats=SnapshotStats.from_json(json.loads(row[10])),
            commit_kind="content" if row[11] == "content" else "git",
        )
        return StoredSnapshot(id=row[0], snapshot=snap, forge_ref=row[9])

    @reports_damage
    def repos(self) -> list[RepoSummary]:
        rows = self.conn.execute(
            f"SELECT {self._SNAP_COLS}, (SELECT count(*) FROM entries e WHERE e.snapshot_id = s.id"
            " AND e.n_sites > 0) FROM repos r JOIN snapshots s ON s.id = r.current_snapshot"
            " ORDER BY r.slug"
        ).fetchall()
        return [
            RepoSummary(repo=(st := self._snapshot_from_row(r)).repo, snapshot=st, entries=r[12])
            for r in rows
        ]

    @reports_damage
    def current(self, slug: str) -> StoredSnapshot:
        row = self.conn.execute(
            f"SELECT {self._SNAP_COLS} FROM repos r JOIN snapshots s ON s.id = r.current_snapshot"
            " WHERE r.slug = ?",
            (slug,),
        ).fetchone()
        if row is None:
            raise NotFound(f"no indexed repository named {slug!r}", hint="see `errordex list`")
        return self._snapshot_from_row(row)

    @reports_damage
    def snapshot(self, sid: int) -> StoredSnapshot:
        row = self.conn.execute(
            f"SELECT {self._SNAP_COLS} FROM snapshots s JOIN repos r ON r.id = s.repo_id WHERE s.id = ?",
            (sid,),
        ).fetchone()
        if row is None:
            raise NotFound(f"no snapshot {sid}")
        return self._snapshot_from_row(row)

    @reports_damage
    def current_snapshot_ids(self) -> list[int]:
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT current_snapshot FROM repos WHERE current_snapshot IS NOT NULL"
            )
        ]

    def _entry_rows(
        self, where: str, params: Iterable[Any], limit: int | None, offset: int, more: str = ""
    ) -> list[tuple[Any, ...]]:
        """Rows of current entries: 8 columns (``_entry_from_row``), then ``more``'s."""
        sql = (
            "SELECT e.snapshot_id, e.id, e.template, e.kinds, e.exception_types, r.slug, h.first_seen,"
            f" h.last_seen{more} FROM entries e JOIN snapshots s ON s.id = e.snapshot_id"
            " JOIN repos r ON r.id = s.repo_id LEFT JOIN entry_history h"
            " ON h.repo_id = r.id AND h.entry_id = e.id"
            f" WHERE s.id = r.current_snapshot AND {where} ORDER BY r.slug, e.message"
        )
        if limit is not None:
            sql += f" LIMIT {int(limit)} OFFSET {int(offset)}"
        return self.conn.execute(sql, tuple(params)).fetchall()

    def _entry_from_row(
        self, row: tuple[Any, ...], sites: tuple[ThrowSite, ...] | None = None
    ) -> ErrorEntry:
        if sites is None:
            sites = tuple(
                ThrowSite.from_json(json.loads(d))
                for (d,) in self.conn.execute(
                    "SELECT data FROM sites WHERE snapshot_id = ? AND entry_id = ? ORDER BY seq",
                    (row[0], row[1]),
                )
            )
        return ErrorEntry(
            id=row[1],
            repo=row[5],
            template=Template.from_json(json.loads(row[2])),
            kinds=tuple(json.loads(row[3])),
            exception_types=tuple(json.loads(row[4])),
            sites=sites,
            first_seen=row[6],
            last_seen=row[7],
        )

    @reports_damage
    def entries(
        self,
        repo: str | None = None,
        kind: str | None = None,
        text: str | None = None,
        include_test_only: bool = False,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[ErrorEntry]:
        """Entries of the current snapshots, filtered."""
        where, params = self._filters(repo, kind, text, include_test_only)
        return [self._entry_from_row(r) for r in self._entry_rows(where, params, limit, offset)]

    @reports_damage
    def count_entries(
        self,
        repo: str | None = None,
        kind: str | None = None,
        text: str | None = None,
        include_test_only: bool = False,
    ) -> int:
        where, params = self._filters(repo, kind, text, include_test_only)
        row = self.conn.execute(
            "SELECT count(*) FROM entries e JOIN snapshots s ON s.id = e.snapshot_id"
            f" JOIN repos r ON r.id = s.repo_id WHERE s.id = r.current_snapshot AND {where}",
            tuple(params),
        ).fetchone()
        return int(row[0])

    @classmethod
    def _filters(
        cls, repo: str | None, kind: str | None, text: str | None, include_test_only: bool
    ) -> tuple[str, list[Any]]:
        clauses = ["1 = 1"]
        params: list[Any] = []
        if not include_test_only:
            clauses.append("e.n_sites > 0")
        if repo:
            clauses.append("r.slug = ?")
            params.append(repo)
        if kind:
            each = cls._EACH.format(col="e.kinds")
            clauses.append(f"EXISTS (SELECT 1 FROM {each} WHERE k.value = ?)")
            params.append(kind)
        if text:
            clauses.append("e.message LIKE ? ESCAPE '\\'")
            escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            params.append(f"%{escaped}%")
        return " AND ".join(clauses), params

    @reports_damage
    def entry(self, entry_id: str, repo: str | None = None) -> ErrorEntry:
        rows = self._entry_rows(*self._entry_where(entry_id, repo), 1, 0)
        if not rows:
            raise NotFound(f"no error with id {entry_id!r}", hint="see `errordex list`")
        return self._entry_from_row(rows[0])

    @staticmethod
    def _entry_where(entry_id: str, repo: str | None) -> tuple[str, list[Any]]:
        if repo:
            return "e.id = ? AND r.slug = ?", [entry_id, repo]
        return "e.id = ?", [entry_id]

    @reports_damage
    def entry_page(self, entry_id: str, repo: str | None = None) -> EntryPage:
        """``entry``, its snapshot (``entry_snapshot``) and its ``analysis``;
        the snapshot is read by the id the entry's row gives."""
        rows = self._entry_rows(*self._entry_where(entry_id, repo), 1, 0)
        if not rows:
            raise NotFound(f"no error with id {entry_id!r}", hint="see `errordex list`")
        entry = self._entry_from_row(rows[0])
        snap = self.snapshot(rows[0][0])
        return EntryPage(entry, snap, self.analysis(snap.id, entry.id))

    @reports_damage
    def entries_by_id(self, snapshot_id: int, ids: list[str]) -> dict[str, ErrorEntry]:
        """The entries of one current snapshot with these ids, in two queries (a
        catalog page); an id that is not there is left out."""
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self._entry_rows(f"s.id = ? AND e.id IN ({marks})", [snapshot_id, *ids], None, 0)
        sites: dict[str, list[ThrowSite]] = {}
        for entry_id, d in self.conn.execute(
            f"SELECT entry_id, data FROM sites WHERE snapshot_id = ? AND entry_id IN ({marks})"
            " ORDER BY entry_id, seq",
            (snapshot_id, *ids),
        ):
            sites.setdefault(entry_id, []).append(ThrowSite.from_json(json.loads(d)))
        return {r[1]: self._entry_from_row(r, tuple(sites.get(r[1], ()))) for r in rows}

    @reports_damage
    def entry_ids(self, snapshot_id: int) -> list[str]:
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT id FROM entries WHERE snapshot_id = ? AND n_sites > 0 ORDER BY id",
                (snapshot_id,),
            )
        ]

    @reports_damage
    def entry_snapshot(self, entry_id: str, repo: str | None = None) -> StoredSnapshot:
        """The current snapshot holding an entry."""
        rows = self._entry_rows(
            "e.id = ?" + (" AND r.slug = ?" if repo else ""),
            [entry_id, repo] if repo else [entry_id],
            1,
            0,
        )
        if not rows:
            raise NotFound(f"no error with id {entry_id!r}")
        return self.snapshot(rows[0][0])

    @reports_damage
    def entry_ids_starting(
        self, prefix: str, repo: str | None = None, limit: int = 64
    ) -> list[tuple[str, str]]:
        """(id, repo) of at most ``limit`` current entries whose id starts with
        ``prefix`` (lowercase hex digits), in id order."""
        op, wildcard = self._PREFIX
        where = f"e.id {op} ?" + (" AND r.slug = ?" if repo else "")
        params = [prefix + wildcard, repo] if repo else [prefix + wildcard]
        rows = self._entry_rows(where, params, None, 0)
        return sorted({(str(r[1]), str(r[5])) for r in rows})[:limit]

    @reports_damage
    def file_text(self, snapshot_id: int, path: str) -> str | None:
        row = self.conn.execute(
            "SELECT text FROM files WHERE snapshot_id = ? AND path = ?", (snapshot_id, path)
        ).fetchone()
        return zlib.decompress(row[0]).decode("utf-8", "surrogatepass") if row else None

    @reports_damage
    def analysis(self, snapshot_id: int, entry_id: str) -> dict[str, Any] | None:
        """The stored {"facts", "analysis"} of one entry, or None."""
        row = self.conn.execute(
            "SELECT data FROM analyses WHERE snapshot_id = ? AND entry_id = ?",
            (snapshot_id, entry_id),
        ).fetchone()
        return analysis_value(row[0]) if row else None

    @reports_damage
    def analyses(self, snapshot_id: int) -> Iterator[tuple[str, dict[str, Any]]]:
        for entry_id, data in self.conn.execute(
            "SELECT entry_id, data FROM analyses WHERE snapshot_id = ? ORDER BY entry_id",
            (snapshot_id,),
        ):
            yield entry_id, analysis_value(data)

    @reports_damage
    def idents(self, snapshot_id: int) -> set[str]:
        """Every identifier in the snapshot's parsed code."""
        names = {
            name
            for (name,) in self.conn.execute(
                "SELECT name FROM snapshot_ident_names WHERE snapshot_id = ?", (snapshot_id,)
            )
        }
        if names:
            return names
        # a snapshot written before m004 keeps a JSON list
        row = self.conn.execute(
            "SELECT data FROM snapshot_idents WHERE snapshot_id = ?", (snapshot_id,)
        ).fetchone()
        return set(json.loads(row[0])) if row else set()

    @reports_damage
    def idents_known(self, slug: str, names: Iterable[str]) -> set[str]:
        """Which of ``names`` are identifiers in the current snapshot of
        ``slug`` (one primary-key lookup each)."""
        out: set[str] = set()
        for name in dict.fromkeys(names):
            row = self.conn.execute(
                "SELECT 1 FROM repos r JOIN snapshot_ident_names i"
                " ON i.snapshot_id = r.current_snapshot AND i.name = ? WHERE r.slug = ?",
                (name, slug),
            ).fetchone()
            if row is not None:
                out.add(name)
        return out

    @reports_damage
    def packages(self, snapshot_id: int) -> list[Package]:
        return [
            Package.from_json(json.loads(d))
            for (d,) in self.conn.execute(
                "SELECT data FROM packages WHERE snapshot_id = ?", (snapshot_id,)
            )
        ]

    @reports_damage
    def classes(self, snapshot_id: int) -> list[ClassDef]:
        return [
            ClassDef.from_json(json.loads(d))
            for (d,) in self.conn.execute(
                "SELECT data FROM classes WHERE snapshot_id = ?", (snapshot_id,)
            )
        ]

    @reports_damage
    def skips(self, snapshot_id: int) -> list[Skip]:
        return [
            Skip(p, r)
            for p, r in self.conn.execute(
                "SELECT path, reason FROM skips WHERE snapshot_id = ? ORDER BY path", (snapshot_id,)
            )
        ]

    @reports_damage
    def match_status(self) -> postings.Status:
        """Whether the matcher's postings are in line with the current snapshots."""
        return postings.status(self.conn)

    @reports_damage
    def match_term_counts(self, keys: Iterable[str]) -> dict[str, int]:
        """Entries in the matcher's postings per key (keys that have none are left out)."""
        return postings.counts(self.conn, keys)

    @reports_damage
    def match_postings(
        self, key: str, cap: int, dead: Sequence[tuple[int, int]] = ()
    ) -> Sequence[int]:
        """Doc ids of the entries filed under ``key``, at most ``cap``; ``dead``
        (from ``match_status``) are doc id ranges to skip."""
        return postings.postings(self.conn, key, cap, dead)

    @reports_damage
    def match_postings_many(
        self, wants: Mapping[str, int], dead: Sequence[tuple[int, int]] = ()
    ) -> dict[str, Sequence[int]]:
        """``match_postings`` of each key of ``wants`` (key -> its cap), read at once."""
        return dict(postings.postings_many(self.conn, wants, dead))

    @reports_damage
    def match_docs(self, docs: Iterable[int]) -> dict[int, tuple[list[str], list[str]]]:
        """Doc id -> (keys, type names) of entries in the matcher's postings."""
        return postings.docs(self.conn, docs)

    @reports_damage
    def match_wordless_keys(self) -> list[str]:
        return postings.wordless(self.conn)

    @reports_damage
    def match_rows(self, docs: list[int]) -> dict[int, tuple[int, str, str, str, str]]:
        """Doc id -> (snapshot id, entry id, repo slug, template JSON, exception
        types JSON) of current entries, the shape of ``match_candidates``."""
        return postings.rows(self.conn, docs)

    @reports_damage
    def site_paths(self, snapshot_id: int, entry_id: str) -> list[str]:
        """The distinct paths of an entry's sites, in site order."""
        # no DISTINCT: it would make SQLite walk sites_by_path instead of sites_by_entry
        rows = self.conn.execute(
            "SELECT path FROM sites WHERE snapshot_id = ? AND entry_id = ? ORDER BY seq",
            (snapshot_id, entry_id),
        ).fetchall()
        return list(dict.fromkeys(p for (p,) in rows))

    @reports_damage
    def site_locations(self, snapshot_id: int, entry_id: str) -> list[tuple[str, int, str | None]]:
        """(path, line, via) of an entry's sites, in site order; ``via`` is the
        forwarder's "path:line symbol" for a forwarded site, else None."""
        rows = self.conn.execute(
            f"SELECT path, line, {self._field('data', 'via')} FROM sites"
            " WHERE snapshot_id = ? AND entry_id = ? ORDER BY seq",
            (snapshot_id, entry_id),
        ).fetchall()
        return [(p, int(n), v) for p, n, v in rows]

    @reports_damage
    def site_locations_of(
        self, keys: list[tuple[int, str]]
    ) -> dict[tuple[int, str], list[tuple[str, int, str | None]]]:
        """``site_locations`` of many (snapshot id, entry id) in one query."""
        out: dict[tuple[int, str], list[tuple[str, int, str | None]]] = {k: [] for k in keys}
        for i in range(0, len(keys), 300):
            chunk = keys[i : i + 300]
            values = ", ".join("(?, ?, ?)" for _ in chunk)
            rows = self.conn.execute(
                f"WITH k(n, sid, eid) AS (VALUES {values})"
                f" SELECT k.n, s.path, s.line, {self._field('s.data', 'via')} FROM k"
                f" {self._JOIN_IN_ORDER} sites s ON s.snapshot_id = k.sid AND s.entry_id = k.eid"
                " ORDER BY k.n, s.seq",
                [x for n, (sid, eid) in enumerate(chunk) for x in (n, sid, eid)],
            ).fetchall()
            for n, path, line, via in rows:
                out[chunk[n]].append((path, int(line), via))
        return out

    @reports_damage
    def sites_at(
        self, paths: list[str], line: int, limit: int = 20
    ) -> list[tuple[int, str, str, str, str]]:
        """Current entries with a site at one of ``paths`` (repository-relative)
        and ``line``, in the shape of ``match_candidates``."""
        if not paths:
            return []
        marks = ", ".join("?" * len(paths))
        rows = self.conn.execute(
            "SELECT DISTINCT s.snapshot_id, s.entry_id, r.slug, e.template, e.exception_types,"
            " e.kinds FROM repos r JOIN sites s ON s.snapshot_id = r.current_snapshot"
            " JOIN entries e ON e.snapshot_id = s.snapshot_id AND e.id = s.entry_id"
            f" WHERE s.path IN ({marks}) AND s.line = ? LIMIT ?",
            (*paths, line, limit),
        ).fetchall()
        return [(int(r[0]), r[1], r[2], postings.matched_json(r[3], r[5]), r[4]) for r in rows]

    @reports_damage
    def known_files(self, paths: list[str]) -> list[tuple[str, str]]:
        """(repo slug, path) for each of ``paths`` that is a file of a current
        snapshot (stored, or holding a site)."""
        if not paths:
            return []
        marks = ", ".join("?" * len(paths))
        rows = self.conn.execute(
            "SELECT r.slug, f.path FROM repos r JOIN files f ON f.snapshot_id = r.current_snapshot"
            f" WHERE f.path IN ({marks})"
            " UNION SELECT r.slug, s.path FROM repos r"
            " JOIN sites s ON s.snapshot_id = r.current_snapshot"
            f" WHERE s.path IN ({marks})",
            (*paths, *paths),
        ).fetchall()
        return [(a, b) for a, b in rows]

    # -- catalog reads (web) -----------------------------------------------

    @classmethod
    def _path_filter(cls, where: str, params: list[Any], path: str | None) -> tuple[str, list[Any]]:
        """Narrow to entries with a non-test site in package ``path`` or under the path prefix."""
        if not path:
            return where, params
        escaped = path.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        where += (
            " AND EXISTS (SELECT 1 FROM sites st WHERE st.snapshot_id = e.snapshot_id"
            f" AND st.entry_id = e.id AND {cls._field('st.data', 'in_test')} = {cls._FALSE}"
            f" AND (st.path LIKE ? ESCAPE '\\' OR {cls._field('st.data', 'package')} = ?))"
        )
        return where, [*params, f"{escaped}%", path]

    @reports_damage
    def catalog_order(self, snapshot_id: int) -> list[str]:
        """Ids of a snapshot's entries with a non-test site, in catalog order:
        what a user is likely to meet first. Errors that public API reaches
        (the analysis's reachability), then the rest; in each, errors before
        warnings (a warning does not stop the user's program), each by how many places
        throw them and how many of the repository's tests reproduce them (a
        library tests the errors its users meet; at most ``MAX_TESTS_RANKED``
        count), most first, then by message; after them the generic ones
        (an empty message, or what a runtime prints for a bare ``todo!()`` or
        ``panic!()``), and last those thrown only in test-support code (a
        ``burn-backend-tests`` crate, a ``testing`` module)."""
        rows = self.conn.execute(
            "SELECT id, message, n_sites, kinds FROM entries WHERE snapshot_id = ? AND n_sites > 0",
            (snapshot_id,),
        ).fetchall()
        public: set[str] = set()
        tested: dict[str, int] = {}
        for entry_id, stored in self.analyses(snapshot_id):
            facts = stored.get("facts", {})
            if any(r.get("public") or r.get("paths") for r in facts.get("reachability", ())):
                public.add(entry_id)
            tested[entry_id] = min(len(facts.get("tests", ())), MAX_TESTS_RANKED)
        support: dict[str, bool] = {}
        for entry_id, package, path in self.conn.execute(
            f"SELECT entry_id, {self._field('data', 'package')}, path FROM sites"
            f" WHERE snapshot_id = ? AND {self._field('data', 'in_test')} = {self._FALSE}",
            (snapshot_id,),
        ):
            here = is_test_support(package or "") or is_test_support(path)
            support[entry_id] = support.get(entry_id, True) and here
        bare = set(plugins.bare_messages().values())

        def rank(row: tuple[str, str, int, str]) -> tuple[bool, bool, bool, bool, int, str, str]:
            entry_id, message, n_sites, kinds = row
            generic = not message.strip() or message in bare
            return (
                support.get(entry_id, False),
                generic,
                entry_id not in public,
                set(json.loads(kinds)) == {"warning"},
                -(n_sites + tested.get(entry_id, 0)),
                message,
                entry_id,
            )

        return [r[0] for r in sorted(rows, key=rank)]

    @reports_damage
    def catalog_ids(
        self,
        snapshot_id: int,
        kind: str | None = None,
        text: str | None = None,
        path: str | None = None,
    ) -> set[str]:
        """Ids of a snapshot's entries that pass the catalog filters (unordered)."""
        where, params = self._filters(None, kind, text, False)
        where, params = self._path_filter(where, params, path)
        return {
            r[0]
            for r in self.conn.execute(
                f"SELECT e.id FROM entries e WHERE e.snapshot_id = ? AND {where}",
                (snapshot_id, *params),
            )
        }

    @reports_damage
    def kind_counts(self, snapshot_id: int) -> dict[str, int]:
        """Entries (with a non-test site) per kind in one snapshot."""
        return dict(
            self.conn.execute(
                f"SELECT k.value, count(*) FROM entries e, {self._EACH.format(col='e.kinds')}"
                " WHERE e.snapshot_id = ? AND e.n_sites > 0 GROUP BY k.value ORDER BY k.value",
                (snapshot_id,),
            ).fetchall()
        )

    @reports_damage
    def package_counts(self, snapshot_id: int) -> dict[str, int]:
        """Entries per package (crate / Python package) of their non-test sites."""
        package = self._field("data", "package")
        return dict(
            self.conn.execute(
                f"SELECT {package} AS p, count(DISTINCT entry_id) FROM sites"
                f" WHERE snapshot_id = ? AND {self._field('data', 'in_test')} = {self._FALSE}"
                f" AND {package} IS NOT NULL"
                " GROUP BY p ORDER BY p",
                (snapshot_id,),
            ).fetchall()
        )

    # -- explain: which repository a frame's directory is in -----------------

    @reports_damage
    def repos_with_dir(self, directory: str, limit: int = 3) -> list[str]:
        """Repositories whose current snapshot has a site in ``directory``
        (not below it); at most ``limit``. The range scan uses sites_by_path."""
        lo = directory + "/"
        rows = self.conn.execute(
            "SELECT DISTINCT r.slug FROM repos r JOIN sites s ON s.snapshot_id = r.current_snapshot"
            f" WHERE s.path >= ? AND s.path < ? AND {self._INSTR}(substr(s.path, ?), '/') = 0"
            " LIMIT ?",
            (lo, directory + "0", len(lo) + 1, limit),
        ).fetchall()
        return [r[0] for r in rows]
