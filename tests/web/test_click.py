"""The site over a real indexed package: click."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from errordex.store.sqlite import SqliteStore
from errordex.web.app import create_app
from tests.web.real import click_store, click_traceback


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SqliteStore, TestClient]]:
    store = click_store(tmp_path_factory.mktemp("click") / "db.sqlite")
    app = create_app(store)
    with TestClient(app) as c:
        yield store, c
    app.state.stores.close()
    store.close()


def test_every_click_error_page_renders_and_matches_its_json(
    real: tuple[SqliteStore, TestClient],
) -> None:
    store, c = real
    entries = store.entries(repo="pallets/click")
    assert len(entries) > 50
    for e in entries:
        page = c.get(f"/pallets/click/errors/{e.id}")
        assert page.status_code == 200, e.id
        data = c.get(f"/pallets/click/errors/{e.id}.json").json()
        assert data["id"] == e.id
        shown = re.findall(r"Thrown at <code>([^<]+)</code>", page.text)
        assert shown == [f"{s['path']}:{s['line']}" for s in data["sites"]]
        assert len(shown) == len(e.catalog_sites)


def test_click_error_page_shows_the_sections_its_analysis_has(
    real: tuple[SqliteStore, TestClient],
) -> None:
    store, c = real
    with_solutions = 0
    for e in store.entries(repo="pallets/click"):
        data = c.get(f"/api/errors/{e.id}").json()
        page = c.get(f"/pallets/click/errors/{e.id}").text
        analysis = data["analysis"] or {}
        assert ('id="solutions-h"' in page) == bool(analysis.get("solutions"))
        assert ('id="meaning-h"' in page) == bool(analysis.get("meaning"))
        assert ('id="related-h"' in page) == bool(data["related"])
        with_solutions += bool(analysis.get("solutions"))
    assert with_solutions > 0


def test_pasted_click_traceback_lands_on_its_page(real: tuple[SqliteStore, TestClient]) -> None:
    store, c = real
    (entry,) = [
        e for e in store.entries(repo="pallets/click") if e.message.startswith("Unknown color")
    ]
    r = c.post("/explain", data={"q": click_traceback()}, follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"].startswith(f"/pallets/click/errors/{entry.id}?v.")
    assert "&call.into=click%2Ftermui.py%3A" in r.headers["location"]
    page = c.get(r.headers["location"]).text
    assert "Your values" in page and "&#39;purplish&#39;" in page
    assert (
        "Your code called it at <code>&lt;string&gt;:2</code>, into <code>click/termui.py:741</code>"
        in page
    )


def test_click_catalog_filters_by_path(
    real: tuple[SqliteStore, TestClient], tmp_path: Path
) -> None:
    _, c = real
    data = c.get("/api/repos/pallets/click/errors", params={"path": "click/termui.py"}).json()
    assert data["total"] > 0
    for e in data["errors"]:
        page = c.get(f"/api/errors/{e['id']}").json()
        assert any(s["path"] == "click/termui.py" for s in page["sites"])
