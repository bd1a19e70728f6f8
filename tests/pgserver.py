"""A real PostgreSQL server for the tests: Debian's ``postgresql`` binaries,
``initdb`` in a temporary directory, listening on a free port of 127.0.0.1
and on a unix socket in that directory, stopped afterwards.

PostgreSQL refuses to run as root. As root (CI, a fresh Debian machine) the
server runs as Debian's ``postgres`` user, which the package creates, through
``runuser``; its directory is made that user's.

    server = PgServer.start()
    url = server.create_database("t1")   # postgresql://postgres@/t1?host=…&port=…
    server.restart()                      # pg_ctl restart -m fast
    server.stop()
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import psycopg

#: the superuser's password, for connections over TCP (the socket trusts)
PASSWORD = "errordex-test"
#: the user the server runs as when the tests run as root
SERVER_USER = "postgres"


def bindir() -> Path | None:
    """Where Debian's initdb and pg_ctl are (the newest PostgreSQL installed)."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class PgServer:
    root: Path
    port: int
    bin: Path
    #: run the server's commands as this user (None: as ourselves)
    user: str | None

    @property
    def data(self) -> Path:
        return self.root / "data"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = list(args)
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, check=check, timeout=120)

    @classmethod
    def start(cls) -> PgServer:
        where = bindir()
        if where is None:
            raise RuntimeError("PostgreSQL is not installed: apt-get install postgresql")
        user = SERVER_USER if os.geteuid() == 0 else None
        # the server's user must reach it: /tmp, not a TMPDIR under root's home
        root = Path(tempfile.mkdtemp(prefix="errordex-pg-", dir="/tmp" if user else None))
        server = cls(root=root, port=_free_port(), bin=where, user=user)
        pwfile = root / "pw"
        pwfile.write_text(PASSWORD + "\n")
        if user:
            ent = pwd.getpwnam(user)
            for p in (root, pwfile):
                os.chown(p, ent.pw_uid, ent.pw_gid)
        server._run(
            str(where / "initdb"),
            "-D",
            str(server.data),
            "-U",
            "postgres",
            "--pwfile",
            str(pwfile),
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )
        server._ctl("start")
        return server

    def _ctl(self, what: str, *extra: str) -> None:
        options = (
            f"-p {self.port} -k {self.root} -h 127.0.0.1 -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.root / "log"),
            "-w",
            "-t",
            "60",
            "-o",
            options,
            *extra,
            what,
        )

    def url(self, database: str = "postgres") -> str:
        """Over the unix socket, as the superuser (trusted: no password)."""
        return f"postgresql://postgres@/{database}?host={self.root}&port={self.port}"

    def tcp_url(self, database: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://postgres:{password}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def restart(self, mode: str = "fast") -> None:
        """``pg_ctl restart``: ``fast`` rolls back and drops every connection;
        ``immediate`` is a crash, recovered from the WAL at start."""
        self._ctl("restart", "-m", mode)

    def stop_only(self) -> None:
        """Stop the server and keep its data (``start_again``)."""
        self._ctl("stop", "-m", "fast")

    def start_again(self) -> None:
        self._ctl("start")

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "stop", check=False)
        shutil.rmtree(self.root, ignore_errors=True)
