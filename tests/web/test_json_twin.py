"""The paste box over the standard library's json: the C scanner raises the
pure-Python scanner's messages from a line that is not a raise statement."""

from __future__ import annotations

import json
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from errordex.web.app import create_app


def traceback_of(text: str) -> str:
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        return "".join(traceback.format_exception(e))
    raise AssertionError("did not raise")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    store = SqliteStore(tmp_path_factory.mktemp("json") / "db.sqlite")
    index(str(Path(json.__file__).resolve().parent), store, name="python/cpython-json", jobs=1)
    app = create_app(store)
    with TestClient(app) as c:
        yield c
    app.state.stores.close()
    store.close()


def test_explain_post_shows_the_location_answer_not_the_twin_entry(client: TestClient) -> None:
    tb = traceback_of('{"a" 1}')
    [part] = client.get("/api/search", params={"q": tb}).json()["parts"]
    assert part["answer"]["kind"] == "location"
    assert part["matches"][0]["exact"]  # the twin: same text, raised elsewhere
    r = client.post("/explain", data={"q": tb}, follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"].startswith("/search?q=")
    page = client.get(r.headers["location"]).text
    assert "Raised by the Python runtime at" in page
    assert "The same message is raised elsewhere" in page


def test_explain_post_redirects_when_the_answer_is_the_entry(client: TestClient) -> None:
    tb = traceback_of("")  # raise JSONDecodeError("Expecting value", ...) in decoder.py
    [part] = client.get("/api/search", params={"q": tb}).json()["parts"]
    assert part["answer"]["kind"] == "entry"
    r = client.post("/explain", data={"q": tb}, follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"].startswith(f"/python/cpython-json/errors/{part['answer']['id']}")
