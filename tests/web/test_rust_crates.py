"""The paste box over real Rust crates (bytes, semver, regex-syntax from
Debian's cargo registry) and real panics (tests/paste/fixtures)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from errordex.web.app import create_app
from tests.paste.conftest import fixture
from tests.web.real import crates_missing, crates_store

pytestmark = pytest.mark.skipif(crates_missing(), reason="needs Debian's librust-*-dev crates")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    store = crates_store(tmp_path_factory.mktemp("crates") / "db.sqlite")
    app = create_app(store)
    with TestClient(app) as c:
        yield c
    app.state.stores.close()
    store.close()


def test_pasted_panic_lands_on_its_entry_with_the_site_marked(client: TestClient) -> None:
    r = client.post(
        "/explain", data={"q": fixture("rust_crate_assert_split_to")}, follow_redirects=False
    )
    assert r.status_code == 303
    url = urlsplit(r.headers["location"])
    assert url.path.startswith("/tokio-rs/bytes/errors/")
    assert parse_qs(url.query) == {
        "v.at": ["9"],
        "v.self.len()": ["2"],
        "site": ["src/bytes_mut.rs:379"],
    }
    page = client.get(r.headers["location"]).text
    thrown = re.findall(r"<h3>Thrown at <code>([^<]+)</code>(.*?)</h3>", page)
    assert [t[0] for t in thrown] == ["src/bytes_mut.rs:379", "src/bytes.rs:412"]
    assert '<mark class="yours">your panic</mark>' in thrown[0][1]
    assert "yours" not in thrown[1][1]
    data = client.get(url.path + ".json?" + url.query).json()
    assert data["version"] == 1 and data["site"] == {"path": "src/bytes_mut.rs", "line": 379}
    assert data["sites"][0]["path"] == "src/bytes_mut.rs"


def test_error_page_without_a_site_keeps_its_order(client: TestClient) -> None:
    r = client.post(
        "/explain", data={"q": fixture("rust_crate_assert_split_to")}, follow_redirects=False
    )
    path = urlsplit(r.headers["location"]).path
    for query in ("", "?site=src/nowhere.rs:1", "?site=junk"):
        page = client.get(path + query).text
        assert 'class="yours"' not in page
        assert page.index("src/bytes.rs:412</code>") < page.index("src/bytes_mut.rs:379</code>")


def test_panic_at_no_site_shows_the_location_answer(client: TestClient) -> None:
    text = fixture("rust_crate_assert").replace("bytes-1.2.1", "bytes-1.0.0")
    text = text.replace(":549:9:", ":534:9:").replace(
        "cannot advance past `remaining`", "advance out of bounds"
    )
    r = client.post("/explain", data={"q": text}, follow_redirects=True)
    flat = " ".join(re.sub(r"<[^>]+>", "", r.text).split())
    assert "Panicked at src/bytes.rs:534 (tokio-rs/bytes), which is not a panic site" in flat
    assert "(the path names version 1.0.0)" in flat
    assert "runtime" not in flat and "raise statement" not in flat
    assert "Similar text only, not this error" in flat
