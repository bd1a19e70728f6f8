"""Keep every test away from the user's own data: the default database and
the clone cache live under a temporary XDG home for the whole run."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest

from tests.pgserver import PgServer, bindir

_HOME = tempfile.mkdtemp(prefix="errordex-tests-")


def pytest_configure(config: pytest.Config) -> None:
    os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
    os.environ["XDG_CACHE_HOME"] = os.path.join(_HOME, "cache")
    os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
    os.environ.pop("ERRORDEX_DB", None)
    for name in ("ERRORDEX_LLM_URL", "ERRORDEX_LLM_MODEL", "ERRORDEX_LLM_KEY", "ERRORDEX_CONFIG"):
        os.environ.pop(name, None)
    os.environ.pop("ERRORDEX_FAILPOINT", None)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_HOME, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One real PostgreSQL server for the session (``tests/pgserver.py``),
    started when a test first asks for it."""
    if bindir() is None:
        pytest.skip("PostgreSQL is not installed (make test installs Debian's postgresql)")
    server = PgServer.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: PgServer, request: pytest.FixtureRequest) -> str:
    """A fresh, empty database of the session's server, for one test."""
    name = "t_" + hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:16]
    return pg_server.create_database(name)
