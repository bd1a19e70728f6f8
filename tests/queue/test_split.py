"""A big repository split into parts across real Celery workers: the parts'
extractions merge into one snapshot, the same, byte for byte, as one
``errordex index`` of the same commit writes; and a part that dies or is
poisoned ends with the snapshot whole or failed, never half."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import celery
import kombu
import pytest

from tests.queue.conftest import ERRORDEX, Queue, Redis

#: celery's own sources (161 files, 1.7 MB) as a git repository: at 600K,
#: three parts
SPLIT_OVER = "600K"
#: for the fault tests, kombu's (81 files, 0.9 MB): at 300K, three parts too
SMALL_SPLIT_OVER = "300K"
#: the tables of a snapshot that one index and a split index must write alike
TABLES = ("entries", "sites", "files", "analyses", "packages", "classes", "skips")


def git_repo(root: Path, package: Any = celery) -> tuple[Path, str]:
    """A git repository of a package's sources (celery's), committed; its
    path and commit."""
    shutil.copytree(
        Path(package.__file__).parent,
        root / package.__name__,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return root, commit(root)


def commit(root: Path) -> str:
    """Commit everything in the repository at ``root``; the new commit."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
        "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
    }
    if not (root / ".git").exists():
        subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, env=env, check=True)
    for args in (["add", "-A"], ["commit", "-q", "-m", "celery"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
    )
    return head.stdout.strip()


def exported(db: Path | str, out: Path) -> bytes:
    done = subprocess.run(
        [ERRORDEX, "export", str(out), "--db", str(db)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return (out / "dump.jsonl").read_bytes()


def one_index(repo: Path, db: Path) -> None:
    done = subprocess.run(
        [ERRORDEX, "index", str(repo), "--name", "acme/celery", "--db", str(db)],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "ERRORDEX_DB"},
    )
    assert done.returncode == 0, done.stderr


def tables(db: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(db) as conn:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in TABLES}


def parts_of(q: Queue, parent: str) -> list[dict[str, object]]:
    return sorted(
        (r for r in q.records().values() if r["parent"] == parent),
        key=lambda r: int(str(r["part"])),
    )


def staged_rows(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM queue_staged").fetchone()[0])


def test_a_repository_split_across_two_workers_exports_what_one_index_writes(
    queue: Queue, tmp_path: Path
) -> None:
    repo, commit = git_repo(tmp_path / "repo")
    one_db = tmp_path / "one.db"
    one_index(repo, one_db)
    queue.worker()
    queue.worker()
    sent = queue.cli(
        "index", str(repo), "--name", "acme/celery", "--queue", "--split-over", SPLIT_OVER, "--json"
    )
    assert sent.returncode == 0, sent.stderr
    [tid] = [t["task_id"] for t in json.loads(sent.stdout)["tasks"]]
    recs = queue.wait([tid], timeout=180)
    assert recs[tid]["state"] == "done", recs[tid]
    assert recs[tid]["commit"] == commit
    parts = parts_of(queue, tid)
    assert [p["state"] for p in parts] == ["done"] * 3
    assert len({p["worker"] for p in parts}) == 2  # both workers took parts
    assert queue.snapshots() == [("acme/celery", commit)]
    # one snapshot, the same as one process writes, and nothing left staged
    assert exported(queue.db, tmp_path / "split-site") == exported(one_db, tmp_path / "one-site")
    assert tables(queue.db) == tables(one_db)
    assert staged_rows(queue.db) == 0
    st = json.loads(queue.cli("queue", "status", "--json").stdout)
    assert st["counts"] == {"queued": 0, "running": 0, "done": 1, "skipped": 0, "failed": 0}


def crawl_split(q: Queue, repo: Path, split_over: str = SPLIT_OVER) -> str:
    """Send ``repo`` (as acme/celery), split at ``split_over``; its task id."""
    listing = q.directory / f"crawl-{time.monotonic_ns()}.txt"
    listing.write_text(f"{repo} --name acme/celery\n")
    done = q.cli("crawl", str(listing), "--split-over", split_over, "--json")
    assert done.returncode == 0, done.stderr
    [tid] = [t["task_id"] for t in json.loads(done.stdout)["tasks"]]
    return str(tid)


def wait_for(what: Any, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while not (got := what()):
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)
    return got


def test_queue_status_shows_the_parts_of_a_split_task(queue: Queue, tmp_path: Path) -> None:
    repo, _ = git_repo(tmp_path / "repo")
    # the first part takes 3 s more: time to look
    queue.worker(env={"ERRORDEX_QUEUE_FAILPOINT": f"{repo}#1=slow"})
    tid = crawl_split(queue, repo)
    wait_for(lambda: any(p["state"] == "running" for p in parts_of(queue, tid)))
    text = queue.cli("queue", "status").stdout
    assert f"running  {tid}  {repo}: split into 3 parts: 0 done" in text, text
    assert "  part 1 of 3  " in text and " running on " in text, text
    assert "  part 3 of 3  " in text and "  queued, attempt 0" in text, text
    st = json.loads(queue.cli("queue", "status", "--json").stdout)
    assert st["counts"]["running"] == 1 and st["total"] == 1  # the parts are not counted
    [running] = st["running"]
    assert [p["part"] for p in running["parts_of"]] == [0, 1, 2]
    assert queue.wait([tid], timeout=180)[tid]["state"] == "done"


@pytest.mark.parametrize("stage", ["#2", "#merge"])
def test_a_worker_killed_in_the_middle_of_a_part_or_the_merge_leaves_the_snapshot_whole(
    queue: Queue, tmp_path: Path, stage: str
) -> None:
    repo, head = git_repo(tmp_path / "repo", kombu)
    one_db = tmp_path / "one.db"
    one_index(repo, one_db)
    slow = {"ERRORDEX_QUEUE_FAILPOINT": f"{repo}{stage}=slow"}
    queue.worker(env=slow)
    queue.worker(env=slow)
    tid = crawl_split(queue, repo, SMALL_SPLIT_OVER)

    def busy() -> str | None:
        """The process of the part 2 or of the merge, once it runs."""
        if stage == "#merge":
            rec = queue.records()[tid]
            return str(rec["worker"]) if rec["merger"] and rec["worker"] else None
        part = parts_of(queue, tid)[1:2]
        return str(part[0]["worker"]) if part and part[0]["state"] == "running" else None

    victim = wait_for(busy)
    time.sleep(0.5)  # in its 3 s
    os.kill(int(victim.rsplit(":", 1)[1]), signal.SIGKILL)
    recs = queue.wait([tid], timeout=180)
    assert recs[tid]["state"] == "done", recs[tid]
    killed = recs[tid] if stage == "#merge" else parts_of(queue, tid)[1]
    assert killed["lost"] == 1, killed
    assert queue.snapshots() == [("acme/celery", head)]
    assert exported(queue.db, tmp_path / "split-site") == exported(one_db, tmp_path / "one-site")
    assert staged_rows(queue.db) == 0


@pytest.mark.parametrize(
    ("point", "why"),
    [
        ("#2=kill", "part 2 of 3 failed: the worker process running it died in each of its 2"),
        ("#3=crash", "part 3 of 3 failed: RuntimeError: failpoint"),
        ("#merge=kill", "the worker process merging its 3 parts died in each of its 2 attempts"),
        ("#merge=hang", "merging its 3 parts: timed out: the hard time limit of 25s was reached"),
    ],
)
def test_a_poisoned_part_fails_the_snapshot_and_the_previous_one_stays_current(
    queue: Queue, tmp_path: Path, point: str, why: str
) -> None:
    repo, first = git_repo(tmp_path / "repo", kombu)
    one_index(repo, queue.db)  # the snapshot before
    with (repo / "kombu" / "__init__.py").open("a") as f:
        f.write("\n\ndef late():\n    raise ValueError('a new error')\n")
    second = commit(repo)
    poison = {"ERRORDEX_QUEUE_FAILPOINT": f"{repo}{point}"}
    limits = ("--max-attempts", "2", "--soft-time-limit", "20", "--time-limit", "25")
    queue.worker(*limits, env=poison)
    queue.worker(*limits, env=poison)
    tid = crawl_split(queue, repo, SMALL_SPLIT_OVER)
    recs = queue.wait([tid], timeout=180)
    assert recs[tid]["state"] == "failed"
    assert why in str(recs[tid]["reason"]), recs[tid]
    # the previous snapshot is current, and nothing of the new one is stored
    assert queue.snapshots() == [("acme/celery", first)]
    with sqlite3.connect(queue.db) as conn:
        current = conn.execute(
            'SELECT s."commit" FROM repos r JOIN snapshots s ON s.id = r.current_snapshot'
        ).fetchall()
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert current == [(first,)] and second != first
    assert staged_rows(queue.db) == 0
    assert {p["state"] for p in parts_of(queue, tid)} <= {"done", "failed"}
    text = queue.cli("queue", "status").stdout
    assert f"failed   {tid}  {repo}: " in text and why in text


def test_a_split_on_a_postgresql_store_exports_what_one_index_writes(
    redis: Redis, tmp_path: Path, pg_url: str
) -> None:
    repo, head = git_repo(tmp_path / "repo")
    one_db = tmp_path / "one.db"
    one_index(repo, one_db)
    q = Queue(Path(pg_url), redis, tmp_path)
    q.db = pg_url  # type: ignore[assignment]  # a URL: only env() reads it
    try:
        q.worker("--concurrency", "2")
        tid = crawl_split(q, repo)

        def ended() -> dict[str, Any] | None:
            st: dict[str, Any] = json.loads(q.cli("queue", "status", "--json").stdout)
            return st if st["counts"]["done"] + st["counts"]["failed"] == 1 else None

        st = wait_for(ended, timeout=180)
        assert st["counts"]["done"] == 1, st
        assert exported(pg_url, tmp_path / "pg-site") == exported(one_db, tmp_path / "one-site")
        stats = json.loads(q.cli("stats", "--json").stdout)
        assert len(stats["repos"]) == 1, stats
        assert st["failures"] == [] and head
    finally:
        for w in q.workers:
            w.stop()
    del tid


def test_split_over_is_a_size_and_an_option_of_the_queue(tmp_path: Path) -> None:
    env = {**os.environ, "ERRORDEX_DB": str(tmp_path / "db.sqlite")}
    for args, says in (
        (["index", str(tmp_path), "--split-over", "8M"], "--split-over splits the work"),
        (["index", str(tmp_path), "--queue", "--split-over", "lots"], "is not a size"),
        (["crawl", "-", "--split-over", "-1K"], "is not a size: it is negative"),
    ):
        done = subprocess.run([ERRORDEX, *args], env=env, capture_output=True, text=True, input="")
        assert done.returncode == 2, (args, done.stderr)
        assert says in done.stderr and "Traceback" not in done.stderr
