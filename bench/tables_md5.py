"""One md5 per stored table of an errordex SQLite database, to show that a
change to the code left the index byte-identical.

    .venv/bin/python bench/tables_md5.py DB [DB ...]

Rows are read in a stable order (every column, ascending). zlib-compressed
columns (``files.text``, ``analyses.data``) are hashed decompressed, so the
md5 is of what is stored, not of how zlib packed it. The columns that are by
nature different on every run are left out:

- ``snapshots.indexed_at``, ``match_snapshots.indexed_at`` and
  ``_migrations.applied_at`` (timestamps);
- the ``seconds`` key of ``snapshots.stats`` (wall time of the run).

Everything else is hashed, the full-text index's shadow tables included.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
import zlib

#: (table, column) left out: timestamps of the run
RUN_DEPENDENT = {
    ("snapshots", "indexed_at"),
    ("match_snapshots", "indexed_at"),
    ("_migrations", "applied_at"),
}
#: (table, column) stored zlib-compressed
COMPRESSED = {("files", "text"), ("analyses", "data")}


def _value(table: str, column: str, value: object) -> object:
    if (table, column) in COMPRESSED and isinstance(value, bytes):
        return zlib.decompress(value)
    if (table, column) == ("snapshots", "stats") and isinstance(value, str):
        stats = json.loads(value)
        stats.pop("seconds", None)
        return json.dumps(stats, sort_keys=True)
    return value


def table_md5s(path: str) -> dict[str, str]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    tables = [
        r[0]
        for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'"
            " ORDER BY name"
        )
    ]
    out: dict[str, str] = {}
    for table in tables:
        cols = [r[1] for r in db.execute(f"PRAGMA table_info('{table}')")]
        keep = [c for c in cols if (table, c) not in RUN_DEPENDENT]
        select = ", ".join(f'"{c}"' for c in keep)
        order = ", ".join(str(i + 1) for i in range(len(keep)))
        h = hashlib.md5()
        n = 0
        for row in db.execute(f"SELECT {select} FROM '{table}' ORDER BY {order}"):
            vals = [_value(table, c, v) for c, v in zip(keep, row, strict=True)]
            h.update(repr(vals).encode("utf-8", "surrogatepass"))
            h.update(b"\n")
            n += 1
        out[table] = f"{h.hexdigest()}  {n}"
    db.close()
    return out


def main(argv: list[str]) -> None:
    for path in argv:
        print(f"# {path}")
        for table, digest in table_md5s(path).items():
            print(f"{digest}  {table}")


if __name__ == "__main__":
    main(sys.argv[1:])
