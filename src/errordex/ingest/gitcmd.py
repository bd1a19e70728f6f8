"""Running the git command line: argument lists only, a clean environment,
and failures turned into one readable line."""

from __future__ import annotations

import os
import subprocess
import threading
import weakref
from pathlib import Path

from errordex.errors import SourceError

# Variables that would point git at another repository than the one we name.
_REPO_VARS = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
)


class GitFailed(Exception):
    """A git command exited non-zero (internal; callers turn it into an ErrordexError)."""

    def __init__(self, args: list[str], returncode: int, stderr: str) -> None:
        super().__init__(f"git {' '.join(args)}: exit {returncode}: {stderr.strip()}")
        self.returncode = returncode
        self.stderr = stderr

    @property
    def reason(self) -> str:
        """What went wrong, in one line: git's first "fatal:" or "error:" line
        without its prefix (the lines after it are often advice, such as
        "and the repository exists."), else its last line."""
        lines = [ln.strip() for ln in self.stderr.splitlines() if ln.strip()]
        for ln in lines:
            for prefix in ("fatal:", "error:"):
                if ln.startswith(prefix):
                    return ln.removeprefix(prefix).strip()
        return lines[-1] if lines else f"git exited with status {self.returncode}"


def git_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _REPO_VARS}
    env["GIT_TERMINAL_PROMPT"] = "0"  # a clone must fail, not wait for a password
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
    return env


def git_command(args: list[str], git_dir: Path | None = None) -> list[str]:
    cmd = ["git", "-c", "core.quotepath=off"]
    if git_dir is not None:
        cmd.append(f"--git-dir={git_dir}")
    return [*cmd, *args]


def run_git(
    args: list[str],
    *,
    git_dir: Path | None = None,
    cwd: Path | None = None,
    input: bytes | None = None,
    ok_codes: tuple[int, ...] = (0,),
) -> bytes:
    """Run git and return its stdout; raise GitFailed on another exit code."""
    try:
        proc = subprocess.run(
            git_command(args, git_dir),
            cwd=cwd,
            input=input,
            stdin=None if input is not None else subprocess.DEVNULL,
            capture_output=True,
            env=git_env(),
            check=False,
        )
    except FileNotFoundError:
        raise SourceError("git is not installed (no 'git' command on PATH)") from None
    if proc.returncode not in ok_codes:
        raise GitFailed(args, proc.returncode, proc.stderr.decode("utf-8", "replace"))
    return proc.stdout


def git_text(args: list[str], *, git_dir: Path | None = None, cwd: Path | None = None) -> str:
    return run_git(args, git_dir=git_dir, cwd=cwd).decode("utf-8", "surrogateescape").strip()


def git_optional(args: list[str], *, git_dir: Path | None = None) -> str | None:
    """Stdout of a query that may legitimately fail (no tag, no remote): None then."""
    try:
        out = git_text(args, git_dir=git_dir)
    except GitFailed:
        return None
    return out or None


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        if proc.stdin:
            proc.stdin.close()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if proc.stdin and not proc.stdin.closed:
        proc.stdin.close()
    if proc.stdout:
        proc.stdout.close()


class CatFile:
    """One ``git cat-file --batch`` process, asked for one object at a time.

    Started on first use; stopped by ``close`` or, as a safety net, when the
    object is garbage collected.
    """

    def __init__(self, git_dir: Path) -> None:
        self._git_dir = git_dir
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._finalizer: weakref.finalize[..., CatFile] | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            git_command(["cat-file", "--batch"], self._git_dir),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=git_env(),
        )
        self._finalizer = weakref.finalize(self, _stop, proc)
        return proc

    def get(self, name: str) -> tuple[str, bytes] | None:
        """(type, content) of an object name (an oid or ``rev:path``), or None if missing."""
        if "\n" in name:
            return None
        with self._lock:
            if self._proc is None:
                self._proc = self._start()
            proc = self._proc
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(name.encode("utf-8", "surrogateescape") + b"\n")
            proc.stdin.flush()
            header = proc.stdout.readline()
            if not header:
                raise SourceError("git cat-file stopped unexpectedly")
            fields = header.split()
            # "<name> missing" / "<name> ambiguous" (a name may hold spaces)
            if len(fields) != 3 or fields[-1] in (b"missing", b"ambiguous"):
                return None
            size = int(fields[2])
            data = proc.stdout.read(size + 1)[:size]
            return fields[1].decode(), data

    def close(self) -> None:
        with self._lock:
            if self._finalizer is not None:
                self._finalizer()
            self._proc = None
