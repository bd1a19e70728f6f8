"""The static export: the same pages and JSON, relative links only."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from fastapi.testclient import TestClient

from errordex.errors import InputError, NotFound
from errordex.store.sqlite import SqliteStore
from errordex.template import Template
from errordex.web.export import ExportResult, export_site
from tests.web.conftest import entry_id, parse_links, py_site, snapshot_data


@pytest.fixture
def site(store: SqliteStore, tmp_path: Path) -> tuple[Path, ExportResult]:
    out = tmp_path / "site"
    return out, export_site(store, out)


def local_targets(root: Path) -> dict[Path, list[str]]:
    """Every HTML file and its links that stay inside the site."""
    out: dict[Path, list[str]] = {}
    for page in root.rglob("*.html"):
        links = parse_links(page.read_text(encoding="utf-8")).links
        out[page] = [u for u in links if not urlsplit(u).scheme and not u.startswith("#")]
    return out


def test_export_writes_every_page_and_counts_them(
    site: tuple[Path, ExportResult], store: SqliteStore
) -> None:
    out, result = site
    n = store.count_entries()
    assert result.entries == n
    assert result.pages == len(list(out.rglob("*.html")))
    for rel in [
        "index.html",
        "index.json",
        "404.html",
        "search/index.html",
        "search-index.js",
        "static/style.css",
        "static/search.js",
        "acme/widgets/index.html",
        "acme/widgets/page/2/index.html",
        "acme/widgets.json",
        "acme/widgets/page/2.json",
        "robots.txt",
        "dump.jsonl",
    ]:
        assert (out / rel).is_file(), rel
    assert len(list((out / "acme/widgets/errors").glob("*/index.html"))) == n - 1


def test_exported_links_all_resolve_and_are_relative(site: tuple[Path, ExportResult]) -> None:
    out, _ = site
    checked = 0
    for page, links in local_targets(out).items():
        for link in links:
            assert not link.startswith("/"), (page, link)
            target = (page.parent / unquote(urlsplit(link).path)).resolve()
            assert target.is_file(), (page.relative_to(out), link)
            checked += 1
    assert checked > 500


def test_exported_json_matches_the_server(
    site: tuple[Path, ExportResult], store: SqliteStore, client: TestClient
) -> None:
    out, _ = site
    eid = entry_id(store, "value must be positive")
    exported = json.loads((out / f"acme/widgets/errors/{eid}.json").read_text())
    assert exported == client.get(f"/api/errors/{eid}").json()
    catalog = json.loads((out / "acme/widgets.json").read_text())
    assert catalog == client.get("/acme/widgets.json").json()
    html = (out / f"acme/widgets/errors/{eid}/index.html").read_text()
    assert re.findall(r"Thrown at <code>([^<]+)</code>", html) == [
        f"{s['path']}:{s['line']}" for s in exported["sites"]
    ]


def test_dump_has_one_entry_json_per_line(
    site: tuple[Path, ExportResult], store: SqliteStore
) -> None:
    out, _ = site
    lines = (out / "dump.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    assert len(rows) == store.count_entries()
    assert {r["id"] for r in rows} == {e.id for e in store.entries()}
    assert all(r["version"] == 1 for r in rows)


def test_export_pages_have_meta_csp_and_no_inline_script(site: tuple[Path, ExportResult]) -> None:
    out, _ = site
    for page in out.rglob("*.html"):
        html = page.read_text()
        assert '<meta http-equiv="Content-Security-Policy"' in html, page
        assert parse_links(html).inline_scripts == [], page
        assert "<title>" in html and '<meta name="description"' in html


def test_export_with_a_base_url_has_absolute_canonical_and_sitemap(
    store: SqliteStore, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    export_site(store, out, repo="local/thing", base_url="https://errors.example.org/docs")
    eid = entry_id(store, "local failure", repo="local/thing")
    html = (out / f"local/thing/errors/{eid}/index.html").read_text()
    assert (
        f'<link rel="canonical" href="https://errors.example.org/docs/local/thing/errors/{eid}/">'
        in html
    )
    sitemap = (out / "sitemap.xml").read_text()
    assert f"<loc>https://errors.example.org/docs/local/thing/errors/{eid}/</loc>" in sitemap
    assert "acme/widgets" not in sitemap and not (out / "acme").exists()
    assert (
        "Sitemap: https://errors.example.org/docs/sitemap.xml" in (out / "robots.txt").read_text()
    )


def test_export_of_an_unknown_repo_is_not_found(store: SqliteStore, tmp_path: Path) -> None:
    with pytest.raises(NotFound):
        export_site(store, tmp_path / "site", repo="nobody/nothing")


def test_export_without_a_base_url_writes_no_sitemap_and_says_why(
    site: tuple[Path, ExportResult],
) -> None:
    out, result = site
    assert not (out / "sitemap.xml").exists()
    assert any("sitemap.xml" in n and "--base-url" in n for n in result.notes)
    robots = (out / "robots.txt").read_text()
    assert "Sitemap" not in robots and "Disallow: /search/" in robots


def test_export_robots_keeps_to_the_base_url_path(store: SqliteStore, tmp_path: Path) -> None:
    out = tmp_path / "site"
    result = export_site(store, out, base_url="https://errors.example.org/docs/")
    assert result.notes == ()
    assert (out / "robots.txt").read_text().splitlines() == [
        "User-agent: *",
        "Disallow: /docs/search/",
        "Disallow: /docs/api/",
        "Allow: /docs/",
        "Sitemap: https://errors.example.org/docs/sitemap.xml",
    ]
    locs = re.findall(r"<loc>([^<]*)</loc>", (out / "sitemap.xml").read_text())
    assert locs and all(u.startswith("https://errors.example.org/docs/") for u in locs)


def test_export_again_removes_the_previous_exports_pages_and_nothing_else(
    store: SqliteStore, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    export_site(store, out, base_url="https://errors.example.org/")
    (out / "NOTES.md").write_text("mine")  # the user's own file
    (out / "acme" / "mine.txt").write_text("mine too")
    result = export_site(store, out, repo="local/thing")
    assert result.removed > 100
    assert not (out / "acme" / "widgets").exists() and not (out / "sitemap.xml").exists()
    assert (out / "NOTES.md").read_text() == "mine"
    assert (out / "acme" / "mine.txt").read_text() == "mine too"
    eid = entry_id(store, "local failure", repo="local/thing")
    assert (out / f"local/thing/errors/{eid}/index.html").is_file()
    home = (out / "index.html").read_text()
    assert "acme/widgets" not in home


def test_export_into_a_directory_of_other_files_is_refused_unless_forced(
    store: SqliteStore, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("<p>someone's page</p>")
    with pytest.raises(InputError, match="--force"):
        export_site(store, out)
    assert (out / "index.html").read_text() == "<p>someone's page</p>"
    assert list(out.iterdir()) == [out / "index.html"]
    export_site(store, out, force=True)
    assert (out / "acme/widgets/index.html").is_file()


def test_export_of_a_local_checkout_publishes_no_local_path(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "db.sqlite")
    local = py_site("pkg/mod.py", 1, Template.literal("local failure"), "OSError", symbol="f")
    url = "file:///home/me/secret/thing"
    store.save(snapshot_data("local/thing", url, [local], {"pkg/mod.py": "x"}))
    out = tmp_path / "site"
    export_site(store, out)
    store.close()
    for f in out.rglob("*"):
        if f.is_file():
            text = f.read_text(encoding="utf-8")
            assert "file://" not in text and "/home/me" not in text, f
