"""Opening a store's SQLite file: whose it is, whether it is whole, and
whether it can be written, before anything is written into it.

An errordex store carries ``APPLICATION_ID`` in its header (``PRAGMA
application_id``), stamped when it is created. A file that holds anything
else is refused and left as it is: a file that is not SQLite, another
application's database, a database with tables of its own. Stores created
before the stamp are known by their ``_migrations`` table, and get the stamp
the next time ``index`` opens them.

``index`` opens the file for writing (``connect_writer``): it checks the
pages (``PRAGMA quick_check``) and that a write would succeed, so a damaged or
read-only store is refused before the run starts. The other commands open it
read-only (``connect_reader``): they create nothing, and work on a read-only
directory or file system too. They do not run ``quick_check``, which reads
the whole file (a 1 GB store would add a second to every ``list``); a read
that meets a damaged page says so (``reports_damage``), and ``verify`` runs it.
"""

from __future__ import annotations

import fcntl
import inspect
import os
import shlex
import sqlite3
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from functools import wraps
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar, cast

from errordex.errors import (
    NotOurDatabase,
    StoreDamaged,
    StoreError,
    StoreMissing,
    StoreReadOnly,
)
from errordex.store import migrations

#: ``PRAGMA application_id`` of an errordex store: "eDex" in ASCII, bytes 68-71
#: of the file (``file(1)`` and other tools read it there)
APPLICATION_ID = 0x65446578
#: how every SQLite 3 file starts
_MAGIC = b"SQLite format 3\x00"
#: seconds a connection waits for another one's lock
_TIMEOUT = 30


class _Kind(Enum):
    OURS = "ours"  # stamped with APPLICATION_ID
    LEGACY = "legacy"  # ours, from before the stamp: known by its _migrations
    EMPTY = "empty"  # nothing in it yet (a new file, or an empty database)


def connect_writer(path: Path) -> sqlite3.Connection:
    """A connection that writes the store at ``path``, created (and its
    directory) when there is none, stamped and migrated.

    Raises ``NotOurDatabase`` (the file is left untouched), ``StoreDamaged``
    (``quick_check`` found damaged pages), ``StoreReadOnly`` (the file or its
    directory cannot be written), or ``StoreError``.
    """
    _check_file(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the directory of the database {path}: {exc}") from None
    conn = sqlite3.connect(path, timeout=_TIMEOUT, isolation_level=None)
    try:
        with _opening_lock(path):
            _open_for_writing(conn, path)
    except sqlite3.Error as exc:
        conn.close()
        if _code(exc) in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM):
            raise StoreReadOnly(
                f"cannot write the database at {path} ({exc}): index needs the file and its"
                " directory writable (the commands that only read work without)"
            ) from None
        raise _opening_error(path, exc) from None
    except BaseException:
        conn.close()
        raise
    return conn


@contextmanager
def _opening_lock(path: Path) -> Iterator[None]:
    """One process at a time identifies, stamps and migrates the store:
    several workers opening a new store at once would each see it empty and
    create its tables, or see another's half-made schema (a migration's
    ``executescript`` commits as it starts, so SQLite's own lock does not
    hold across it). The ``flock`` is on the store's directory: closing a
    descriptor of the database file itself would drop the POSIX locks
    SQLite holds on it in this process."""
    try:
        fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:  # SQLite says what is wrong with the place next
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # and the flock with it


def _open_for_writing(conn: sqlite3.Connection, path: Path) -> None:
    """Identify, check, stamp and migrate the store (``connect_writer``)."""
    kind = _identify(conn, path)
    _probe_write(conn)
    if kind is not _Kind.EMPTY:
        check(conn, path)
    if kind is not _Kind.OURS:  # a new store, or one from before the stamp
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA foreign_keys=ON")
    migrations.apply(conn)


def connect_reader(path: Path) -> sqlite3.Connection:
    """A read-only connection to the existing store at ``path``: ``mode=ro``,
    or ``immutable=1`` where SQLite cannot create the ``-shm`` file next to it
    (a read-only directory or file system). Nothing is created or written,
    except by a migration the store still needs.

    Raises ``StoreMissing`` when there is no store at ``path``, and
    ``NotOurDatabase`` or ``StoreError`` as ``connect_writer`` does.
    """
    missing = (
        f"there is no errordex store at {path}: run `errordex index SOURCE` to create it,"
        " or name the right one with --db or ERRORDEX_DB"
    )
    if not path.exists():
        raise StoreMissing(missing)
    _check_file(path)
    conn = _connect_ro(path)
    try:
        kind = _identify(conn, path)
        if kind is _Kind.EMPTY:
            raise StoreMissing(missing)
        if migrations.pending(conn):  # written by an older errordex: migrate it once
            conn.close()
            try:
                connect_writer(path).close()
            except StoreReadOnly:
                raise StoreReadOnly(
                    f"the store at {path} was written by an older errordex and must be"
                    " upgraded once, which needs the file and its directory writable"
                ) from None
            conn = _connect_ro(path)
        conn.execute("PRAGMA foreign_keys=ON")
    except sqlite3.Error as exc:
        conn.close()
        raise _opening_error(path, exc) from None
    except BaseException:
        conn.close()
        raise
    return conn


def check(conn: sqlite3.Connection, path: Path) -> None:
    """Raise ``StoreDamaged`` if ``PRAGMA quick_check`` finds damaged pages.
    It reads every page: about 1 ms per MB of store when the file is in the
    page cache (a 55 MB store of three repositories: 55-67 ms)."""
    try:
        first = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        if is_damage(exc):
            raise damaged(path, exc) from None
        raise
    if first != "ok":  # "*** in database main ***\nOn tree page 36 cell 145: ..."
        raise damaged(path, " ".join(first.replace("*** in database main ***", "").split()))


def is_damage(exc: BaseException) -> bool:
    """Whether ``exc``, raised while reading a store, means its file is damaged."""
    if isinstance(exc, zlib.error):  # a stored text or analysis that does not inflate
        return True
    return isinstance(exc, sqlite3.DatabaseError) and _code(exc) in (
        sqlite3.SQLITE_CORRUPT,
        sqlite3.SQLITE_NOTADB,
    )


def damaged(path: Path, why: object) -> StoreDamaged:
    where = shlex.quote(str(path))
    # The index is rebuilt from the sources; .recover is not in every sqlite3
    # (Debian's has no sqlite_dbpage), and .dump stops at the first bad table.
    return StoreDamaged(
        f"the database at {path} is damaged ({why}): remove it and index again"
        f" (`sqlite3 {where} .recover` may save what it still holds)"
    )


class _HasWhere(Protocol):
    @property
    def where(self) -> str: ...


S = TypeVar("S", bound=_HasWhere)
P = ParamSpec("P")
R = TypeVar("R")


def reports_damage(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
    """Make a method of a store raise ``StoreDamaged`` for an error that means
    its file is damaged (``is_damage``); a generator's, as it is iterated."""
    if inspect.isgeneratorfunction(method):

        @wraps(method)
        def generator(self: S, /, *args: P.args, **kwargs: P.kwargs) -> Iterator[Any]:
            try:
                yield from cast(Iterator[Any], method(self, *args, **kwargs))
            except (sqlite3.DatabaseError, zlib.error) as exc:
                if not is_damage(exc):
                    raise
                raise damaged(Path(self.where), exc) from None

        return cast(Callable[Concatenate[S, P], R], generator)

    @wraps(method)
    def wrapper(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(self, *args, **kwargs)
        except (sqlite3.DatabaseError, zlib.error) as exc:
            if not is_damage(exc):
                raise
            raise damaged(Path(self.where), exc) from None

    return wrapper


def _code(exc: sqlite3.Error) -> int | None:
    """The primary result code of an SQLite error (None when Python raised it)."""
    code: int | None = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def _opening_error(path: Path, exc: sqlite3.Error) -> StoreError:
    if is_damage(exc):
        return damaged(path, exc)
    return StoreError(f"cannot open the database at {path}: {exc}")


def _connect_ro(path: Path) -> sqlite3.Connection:
    # check_same_thread=False: a server's connection may be closed from another thread
    uri = path.resolve().as_uri()
    conn = sqlite3.connect(
        f"{uri}?mode=ro", uri=True, timeout=_TIMEOUT, isolation_level=None, check_same_thread=False
    )
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # opens the -shm file
    except sqlite3.OperationalError as exc:
        conn.close()
        if _code(exc) != sqlite3.SQLITE_CANTOPEN:
            raise _opening_error(path, exc) from None
        # No -shm and no way to create one. immutable: SQLite reads the file alone,
        # so what a writer left in the -wal file (if any) is not seen.
        conn = sqlite3.connect(
            f"{uri}?mode=ro&immutable=1",
            uri=True,
            timeout=_TIMEOUT,
            isolation_level=None,
            check_same_thread=False,
        )
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise _opening_error(path, exc) from None
    return conn


def _check_file(path: Path) -> None:
    """Refuse a path that is a directory, or a file that is not SQLite,
    before SQLite opens it."""
    if path.is_dir():
        raise StoreError(f"the database {path} is a directory; name a file with --db")
    try:
        with path.open("rb") as f:
            head = f.read(len(_MAGIC))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"cannot open the database at {path}: {exc.strerror}") from None
    if head and head != _MAGIC:
        raise NotOurDatabase(
            f"{path} is not an SQLite database, so not an errordex store; errordex leaves it"
            " untouched: name another file with --db or ERRORDEX_DB"
        )


def _identify(conn: sqlite3.Connection, path: Path) -> _Kind:
    """Whose database this is; raises ``NotOurDatabase`` when not errordex's."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master ORDER BY rowid LIMIT 4")]
    if not names:
        if app_id in (0, APPLICATION_ID):
            return _Kind.EMPTY
    elif app_id == APPLICATION_ID:
        return _Kind.OURS
    elif app_id == 0 and "_migrations" in _tables(conn) and _has_m001(conn):
        return _Kind.LEGACY
    untouched = "errordex leaves it untouched: name another file with --db or ERRORDEX_DB"
    if app_id != 0:
        raise NotOurDatabase(
            f"{path} is another application's database (application_id {app_id:#010x}),"
            f" not an errordex store; {untouched}"
        )
    shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
    raise NotOurDatabase(
        f"{path} is another database (it holds {shown}), not an errordex store; {untouched}"
    )


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _has_m001(conn: sqlite3.Connection) -> bool:
    row = conn.execute("SELECT 1 FROM _migrations WHERE name = 'm001_initial'").fetchone()
    return row is not None


def _probe_write(conn: sqlite3.Connection) -> None:
    """Raise SQLite's error if the file cannot be written: SQLite opens a file
    it cannot write read-only and says so at the first write (``BEGIN
    IMMEDIATE`` alone writes nothing). The write is rolled back. A store
    another process is writing can be written: do not wait for it."""
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    except sqlite3.OperationalError as exc:
        if _code(exc) != sqlite3.SQLITE_BUSY:
            raise
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.execute(f"PRAGMA busy_timeout = {_TIMEOUT * 1000}")
