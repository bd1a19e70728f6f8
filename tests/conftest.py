"""Keep every test away from the user's own data: the default database and
the clone cache live under a temporary XDG home for the whole run."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

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
