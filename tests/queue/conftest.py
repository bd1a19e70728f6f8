"""Real parts for the queue's tests: Debian's redis-server on a free port in
a temporary directory (no persistence, as a cache would run it), and
``errordex worker`` processes (real Celery workers) started and stopped here."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ERRORDEX = str(Path(sys.executable).with_name("errordex"))
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Redis:
    """One redis-server; ``stop`` and ``start`` it again on the same port."""

    port: int
    directory: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        with (self.directory / "redis.log").open("ab") as log:
            self.proc = subprocess.Popen(
                [
                    REDIS_SERVER,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--dir",
                    str(self.directory),
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[Redis]:
    if not Path(REDIS_SERVER).exists():
        pytest.fail("redis-server is missing: `make test` installs Debian's redis-server")
    server = Redis(free_port(), tmp_path / "redis")
    server.directory.mkdir()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Worker:
    proc: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        """The test is over: the worker and its processes go at once (it has
        a process group of its own)."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(15)


@dataclass
class Queue:
    """The store, the broker, and the workers started for one test."""

    db: Path
    redis: Redis
    directory: Path
    workers: list[Worker] = field(default_factory=list)

    def env(self, **extra: str) -> dict[str, str]:
        env = {**os.environ, "ERRORDEX_DB": str(self.db), "ERRORDEX_BROKER": self.redis.url}
        env.pop("ERRORDEX_FAILPOINT", None)
        return {**env, **extra}

    def cli(self, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [ERRORDEX, *args], env=self.env(**extra), capture_output=True, text=True, timeout=60
        )

    def worker(self, *args: str, env: dict[str, str] | None = None) -> Worker:
        log = self.directory / f"worker-{len(self.workers)}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [ERRORDEX, "worker", "--loglevel", "INFO", *args],
                env={**self.env(), **(env or {})},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        w = Worker(proc, log)
        self.workers.append(w)
        deadline = time.monotonic() + 60
        while " ready." not in w.output():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the worker did not start:\n{w.output()}")
            time.sleep(0.1)
        return w

    def crawl(self, *sources: str) -> list[str]:
        """Send ``sources`` (lines of a crawl file); their task ids."""
        listing = self.directory / f"crawl-{time.monotonic_ns()}.txt"
        listing.write_text("\n".join(sources) + "\n")
        done = self.cli("crawl", str(listing), "--json")
        assert done.returncode == 0, done.stderr
        return [t["task_id"] for t in json.loads(done.stdout)["tasks"]]

    def records(self) -> dict[str, dict[str, object]]:
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as conn:
            conn.row_factory = sqlite3.Row
            rows = conn.execute("SELECT * FROM queue_tasks").fetchall()
        return {r["task_id"]: dict(r) for r in rows}

    def wait(self, ids: list[str], timeout: float = 60) -> dict[str, dict[str, object]]:
        """Wait until every task in ``ids`` is done, skipped or failed."""
        deadline = time.monotonic() + timeout
        while True:
            recs = self.records()
            if all(recs.get(i, {}).get("state") in ("done", "skipped", "failed") for i in ids):
                return recs
            if time.monotonic() > deadline:
                logs = "\n".join(w.output()[-3000:] for w in self.workers)
                raise AssertionError(f"tasks not finished: {recs}\n{logs}")
            time.sleep(0.2)

    def snapshots(self) -> list[tuple[str, str]]:
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as conn:
            return conn.execute(
                'SELECT r.slug, s."commit" FROM snapshots s JOIN repos r ON r.id = s.repo_id'
                " ORDER BY r.slug"
            ).fetchall()


@pytest.fixture
def queue(redis: Redis, tmp_path: Path) -> Iterator[Queue]:
    q = Queue(tmp_path / "store.db", redis, tmp_path)
    try:
        yield q
    finally:
        for w in q.workers:
            w.stop()


def make_tree(root: Path, files: int, raises: int = 40) -> Path:
    """A directory of Python files full of raises: ``files`` of them, for a
    task that takes a while."""
    root.mkdir(parents=True)
    for i in range(files):
        body = "\n".join(
            f"def f{j}(x):\n    if x > {j}:\n"
            f"        raise ValueError(f'value {{x}} too big for slot {i}-{j}')\n    return x\n"
            for j in range(raises)
        )
        (root / f"m{i}.py").write_text(body)
    return root
