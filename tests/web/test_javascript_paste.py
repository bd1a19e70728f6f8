"""The paste box over express, with node's output of a program that wraps
express's error in its own (``new Error('...', { cause: e })``): the
library's cause has the page, so the paste goes to it."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from errordex.web.app import create_app
from errordex.web.context import main_part
from tests.npm_corpus import node_modules

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
]

WRAPS = (
    "const express = require('express');\n"
    "try {\n  express().use();\n} catch (e) {\n"
    "  throw new Error('server setup failed', { cause: e });\n}\n"
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    store = SqliteStore(tmp_path_factory.mktemp("express") / "db.sqlite")
    index(str(node_modules() / "express"), store, name="expressjs/express", jobs=1)
    app = create_app(store)
    with TestClient(app) as c:
        yield c
    app.state.stores.close()
    store.close()


def node_stderr(tmp_path: Path, script: str) -> str:
    path = tmp_path / "wraps.js"
    path.write_text(script, encoding="utf-8")
    done = subprocess.run(
        ["node", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "NODE_PATH": str(node_modules())},
    )
    return done.stderr


def test_a_wrapped_library_error_goes_to_the_causes_page(
    client: TestClient, tmp_path: Path
) -> None:
    stderr = node_stderr(tmp_path, WRAPS)
    ctx = client.get("/api/search", params={"q": stderr}).json()
    outer, cause = ctx["parts"]
    assert outer["answer"] is None and cause["relation"] == "cause"
    assert main_part(ctx) is not None and main_part(ctx) == cause
    r = client.post("/explain", data={"q": stderr}, follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"].startswith(f"/expressjs/express/errors/{cause['answer']['id']}")


def test_the_main_error_leads_when_it_has_an_answer() -> None:
    parts = [
        {"relation": None, "answer": {"kind": "entry", "id": "a"}},
        {"relation": "cause", "answer": {"kind": "entry", "id": "b"}},
    ]
    assert main_part({"parts": parts}) is parts[0]


def test_the_innermost_cause_is_the_one_printed_farthest_from_the_main() -> None:
    entry = {"kind": "entry"}
    node = [
        {"relation": None, "answer": None},
        {"relation": "cause", "answer": entry, "n": 1},
        {"relation": "cause", "answer": entry, "n": 2},
    ]
    assert main_part({"parts": node})["n"] == 2  # type: ignore[index]
    python = [
        {"relation": "cause", "answer": entry, "n": 1},
        {"relation": "cause", "answer": entry, "n": 2},
        {"relation": None, "answer": None},
    ]
    assert main_part({"parts": python})["n"] == 1  # type: ignore[index]
