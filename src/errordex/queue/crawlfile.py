"""Reading a crawl file: one source a line, for ``errordex crawl FILE``.

    # comments and blank lines are allowed
    pkg:click
    https://github.com/pallets/click.git@8.1.7     # a git URL at a revision
    git@github.com:tokio-rs/bytes.git@v1.5.0
    /usr/share/cargo/registry/bytes-1.2.1 --name tokio-rs/bytes
    ../checkouts/burn@main                          # relative to the file

A revision follows the last ``@`` that comes after the last ``/`` and ``:``
(so ``git@host:o/r.git`` has none). ``--name owner/repo`` may follow a
source. A relative directory is read from the crawl file's directory (the
workers get an absolute path). Every bad line is reported, with its number,
and then nothing is enqueued.
"""

from __future__ import annotations

import re
from pathlib import Path

from errordex.errors import CrawlFileError, InputError
from errordex.ingest.clone import is_git_url
from errordex.ingest.slug import validate_name
from errordex.queue.jobs import IndexJob

#: a distribution's name, as packaging normalizes it before comparing
_DIST = re.compile(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_REV = re.compile(r"[^\s~^:?*\[\\]+")


def split_rev(token: str) -> tuple[str, str | None]:
    """``SOURCE@REV`` as (SOURCE, REV); no revision is None.

    >>> split_rev("https://h.org/o/r.git@v1.2")
    ('https://h.org/o/r.git', 'v1.2')
    >>> split_rev("git@github.com:o/r.git")
    ('git@github.com:o/r.git', None)
    >>> split_rev("/src/burn@main")
    ('/src/burn', 'main')
    """
    at = token.rfind("@")
    if at < 0 or at < token.rfind("/") or at < token.rfind(":"):
        return token, None
    return token[:at], token[at + 1 :]


def parse_line(line: str, base: Path) -> IndexJob | None:
    """One line's job, or None for a blank line or a comment; raises
    ``InputError`` saying what is wrong with it.

    >>> parse_line("pkg:click  # the CLI library", Path("/x"))
    IndexJob(source='pkg:click', rev=None, name=None, exclude=(), max_file_bytes=1000000, interpreter=None, site_packages=(), forge_url=None, split_over=33554432)
    >>> parse_line("   # nothing", Path("/x")) is None
    True
    """
    text = line.split(" #", 1)[0].split("\t#", 1)[0].strip()
    if not text or text.startswith("#"):
        return None
    tokens = text.split()
    name = None
    if len(tokens) == 3 and tokens[1] == "--name":
        name = validate_name(tokens[2])
    elif len(tokens) != 1:
        raise InputError(
            f"expected one source (pkg:NAME, a git URL or a directory, with an optional @REV"
            f" and --name owner/repo), got {text!r}"
        )
    source, rev = split_rev(tokens[0])
    if rev is not None and not _REV.fullmatch(rev):
        raise InputError(f"{tokens[0]!r} has an empty or malformed revision after '@'")
    if rev is not None and rev.startswith("-"):
        raise InputError(f"the revision {rev!r} starts with '-'")
    if source.startswith("pkg:"):
        dist = source[len("pkg:") :]
        if rev is not None:
            raise InputError(f"{tokens[0]!r}: an installed package has no revision")
        if not _DIST.fullmatch(dist):
            raise InputError(f"{source!r} does not name a distribution (pkg:NAME)")
        return IndexJob(source, name=name)
    if is_git_url(source):
        return IndexJob(source, rev=rev, name=name)
    if _SCHEME.match(source):
        raise InputError(f"{source!r} is a URL git cannot clone")
    if not source:
        raise InputError(f"{tokens[0]!r} names no source before '@'")
    path = Path(source).expanduser()
    return IndexJob(str(path if path.is_absolute() else base / path), rev=rev, name=name)


def parse(text: str, path: str, base: Path) -> list[IndexJob]:
    """Every job of a crawl file's ``text`` (``path`` names it in errors),
    relative directories read from ``base``; ``CrawlFileError`` lists every
    bad line. The same source at the same revision twice is one job."""
    jobs: dict[IndexJob, None] = {}
    problems: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        try:
            job = parse_line(line, base)
        except InputError as exc:
            problems.append((number, str(exc)))
            continue
        if job is not None:
            jobs.setdefault(job)
    if problems:
        raise CrawlFileError(path, problems)
    if not jobs:
        raise InputError(f"{path} names no source (one a line: pkg:NAME, a git URL, a directory)")
    return list(jobs)
