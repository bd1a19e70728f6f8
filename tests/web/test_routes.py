"""Every route of the web app, through starlette's TestClient."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from errordex.errors import InputError
from errordex.store.sqlite import SqliteStore
from errordex.template import Template
from errordex.web.app import CSP, create_app
from errordex.web.context import ERRORDEX_ISSUES, report_target
from tests.web.conftest import (
    COMMIT,
    HOSTILE,
    N_FILLER,
    build_store,
    entry_id,
    parse_links,
    py_site,
    snapshot_data,
    widgets_sites,
)

ERROR_KEYS = {
    "version",
    "id",
    "repo",
    "commit",
    "message",
    "template",
    "kinds",
    "exception_types",
    "sites",
    "facts",
    "analysis",
    "related",
}
SITE_KEYS = {"path", "line", "column", "kind", "symbol", "guards", "url"}


def html_sites(html: str) -> list[str]:
    """The "Thrown at path:line" headings of an error page."""
    return re.findall(r"Thrown at <code>([^<]+)</code>", html)


def test_home_lists_repos_with_counts(client: TestClient, store: SqliteStore) -> None:
    r = client.get("/")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert 'href="/acme/widgets"' in r.text and 'href="/local/thing"' in r.text
    assert f'<td class="num">{store.count_entries(repo="acme/widgets")}</td>' in r.text
    assert '<textarea id="paste" name="q"' in r.text and 'action="/explain"' in r.text


def test_home_json_twin_has_the_same_repos(client: TestClient) -> None:
    html = client.get("/").text
    data = client.get("/index.json").json()
    assert data["version"] == 1
    assert [r["repo"] for r in data["repos"]] == ["acme/widgets", "local/thing"]
    for r in data["repos"]:
        assert f">{r['entries']}</td>" in html
    assert client.get("/api/repos").json() == data


def test_catalog_paginates_and_twin_agrees(client: TestClient, store: SqliteStore) -> None:
    total = store.count_entries(repo="acme/widgets")
    page1 = client.get("/acme/widgets")
    assert page1.status_code == 200
    assert 'rel="next" href="/acme/widgets?page=2"' in page1.text
    data = client.get("/acme/widgets.json").json()
    assert data["total"] == total and data["pages"] == 2 and len(data["errors"]) == 50
    for e in data["errors"]:
        assert f'href="/acme/widgets/errors/{e["id"]}"' in page1.text
    page2 = client.get("/acme/widgets.json", params={"page": 2}).json()
    assert len(page2["errors"]) == total - 50
    assert not {e["id"] for e in page2["errors"]} & {e["id"] for e in data["errors"]}
    api = client.get("/api/repos/acme/widgets/errors", params={"page": 2}).json()
    assert api == page2


def test_catalog_filters_by_kind_path_package_and_text(client: TestClient) -> None:
    def ids(**params: Any) -> list[str]:
        data = client.get("/api/repos/acme/widgets/errors", params=params).json()
        return [e["message"] for e in data["errors"]]

    assert ids(kind="panic") == ["index {idx} out of range"]
    assert ids(path="native/") == ["index {idx} out of range"]
    assert ids(path="widgets-native") == ["index {idx} out of range"]
    assert ids(q="positive") == ["value must be positive, got %s"]
    assert len(ids(q="filler", per_page=200)) == N_FILLER
    assert ids(kind="panic", q="positive") == []
    page = client.get("/acme/widgets", params={"kind": "panic"}).text
    assert "index {idx} out of range" in page and "filler error" not in page
    assert '<option value="panic" selected>' in page


def test_error_page_shows_every_site_and_twin_agrees(
    client: TestClient, store: SqliteStore
) -> None:
    eid = entry_id(store, "value must be positive")
    page = client.get(f"/acme/widgets/errors/{eid}")
    assert page.status_code == 200
    data = client.get(f"/acme/widgets/errors/{eid}.json").json()
    assert data["id"] == eid and data["message"] == "value must be positive, got %s"
    assert html_sites(page.text) == [f"{s['path']}:{s['line']}" for s in data["sites"]]
    assert len(data["sites"]) == 2 and len(data["test_sites"]) == 1
    assert "Source (2 sites)" in page.text
    for s in data["sites"]:
        assert s["url"] == (
            f"https://github.com/acme/widgets/blob/{COMMIT}/{s['path']}#L{s['line']}"
        )
        assert f'href="{s["url"]}"' in page.text
    # the placeholder is marked as one; the throw line is marked in the snippet
    assert '<span class="ph" title="placeholder: x">%s</span>' in page.text
    # the title names it by what fills it
    assert '<span class="ph" title="placeholder: x (%s in the source)">‹x›</span>' in page.text
    assert re.search(r'<span class="mark"><span class="ln" aria-hidden="true">7</span>', page.text)
    assert "Widget.resize" in page.text and "x &lt;= 0" in page.text
    # the footer
    assert f'<code class="sha">@{COMMIT[:7]}</code> (2026-11-30)' in page.text
    assert f'href="/acme/widgets/errors/{eid}.json">Data as JSON' in page.text
    # a wrong page is errordex's mistake: reported to errordex, not to acme/widgets
    assert 'href="https://github.com/errordex/errordex/issues/new?title=' in page.text
    assert "github.com/acme/widgets/issues" not in page.text
    # the API serves the same JSON
    assert client.get(f"/api/errors/{eid}").json() == data


def test_error_json_follows_the_public_schema(client: TestClient, store: SqliteStore) -> None:
    eid = entry_id(store, "index {idx}")
    data = client.get(f"/api/errors/{eid}").json()
    assert set(data) >= ERROR_KEYS
    assert data["version"] == 1 and data["repo"] == "acme/widgets" and data["commit"] == COMMIT
    assert data["template"] == {
        "syntax": "rust-fmt",
        "dynamic": False,
        "parts": [{"text": "index "}, {"hole": "idx", "spec": "{idx}"}, {"text": " out of range"}],
    }
    assert data["kinds"] == ["panic"] and data["exception_types"] == []
    (site,) = data["sites"]
    assert set(site) >= SITE_KEYS
    assert (site["path"], site["line"], site["kind"]) == ("native/src/lib.rs", 3, "panic")
    assert site["snippet"]["mark"] == [3, 3]
    assert data["printed"].startswith("thread 'main' panicked at native/src/lib.rs:3:9:")
    json.dumps(data, allow_nan=False)


def test_local_repo_has_no_forge_link_and_reports_to_errordex(
    client: TestClient, store: SqliteStore
) -> None:
    eid = entry_id(store, "local failure", repo="local/thing")
    page = client.get(f"/local/thing/errors/{eid}").text
    data = client.get(f"/local/thing/errors/{eid}.json").json()
    assert data["sites"][0]["url"] is None
    assert data["report_url"].startswith("https://github.com/errordex/errordex/issues/new?")
    assert "View pkg/mod.py" not in page and "Report a wrong page" in page
    assert "Thrown at <code>pkg/mod.py:1</code>" in page


def test_dynamic_message_is_not_shown_as_text(client: TestClient, store: SqliteStore) -> None:
    eid = entry_id(store, "TypeError")
    page = client.get(f"/acme/widgets/errors/{eid}").text
    assert "The message is built at run time from <code>msg</code>" in page


def test_error_page_shows_your_values_from_a_paste(client: TestClient, store: SqliteStore) -> None:
    eid = entry_id(store, "value must be positive")
    page = client.get(f"/acme/widgets/errors/{eid}", params={"v.x": "-3<b>"}).text
    assert "Your values" in page
    assert "<dt><code>x</code></dt><dd><code>-3&lt;b&gt;</code></dd>" in page
    assert "Your values" not in client.get(f"/acme/widgets/errors/{eid}").text


def test_error_page_prints_the_message_with_your_values(
    client: TestClient, store: SqliteStore
) -> None:
    eid = entry_id(store, "value must be positive")
    page = client.get(f"/acme/widgets/errors/{eid}", params={"v.x": "-3<b>"}).text
    assert "ValueError: value must be positive, got -3&lt;b&gt;</code></pre>" in page
    assert "With your values in its placeholders." in page
    # a value for another name fills nothing: the template is printed as is
    other = client.get(f"/acme/widgets/errors/{eid}", params={"v.y": "1"}).text
    assert "With your values" not in other and "got %s</code></pre>" in other


def test_error_page_shows_where_your_code_called_into_the_library(
    client: TestClient, store: SqliteStore
) -> None:
    eid = entry_id(store, "value must be positive")
    call = {
        "call.from": "/home/me/app.py:12",
        "call.code": "widgets.check(-3) <b>",
        "call.into": "src/widgets/core.py:3",
        "call.fn": "check",
    }
    page = client.get(f"/acme/widgets/errors/{eid}", params=call).text
    assert '<h2 id="values-h">Your call</h2>' in page
    assert (
        "Your code called it at <code>/home/me/app.py:12</code>: "
        "<code>widgets.check(-3) &lt;b&gt;</code>, into <code>src/widgets/core.py:3</code> "
        "(<code>check</code>)."
    ) in page
    by = client.get(f"/acme/widgets/errors/{eid}", params={**call, "call.by": "acme/other"}).text
    assert ">acme/other</a> called it at" in by
    data = client.get(f"/api/errors/{eid}", params=call).json()
    assert data["your_call"]["from"] == "/home/me/app.py:12"
    # half a call is no call
    half = client.get(f"/acme/widgets/errors/{eid}", params={"call.from": "a.py:1"}).text
    assert "Your call" not in half and "called it" not in half


def test_search_finds_the_message_and_links_with_values(
    client: TestClient, store: SqliteStore
) -> None:
    eid = entry_id(store, "value must be positive")
    q = "ValueError: value must be positive, got -3"
    page = client.get("/search", params={"q": q})
    assert page.status_code == 200
    assert f'href="/acme/widgets/errors/{eid}?v.x=-3"' in page.text
    data = client.get("/search.json", params={"q": q}).json()
    assert data["version"] == 1 and data["query"] == q
    top = data["parts"][0]["matches"][0]
    assert top["id"] == eid and top["exact"] and top["values"] == {"x": "-3"}
    assert client.get("/api/search", params={"q": q}).json() == data


def test_search_ignores_fts_syntax_in_the_query(client: TestClient) -> None:
    for q in ['"unbalanced', "NEAR(a b) OR *", "col:value AND -x", "'; DROP TABLE entries; --"]:
        r = client.get("/api/search", params={"q": q})
        assert r.status_code == 200, q
        assert r.json()["query"] == q.strip()


def test_search_refuses_an_overlong_query_with_the_error_shape(client: TestClient) -> None:
    r = client.get("/api/search", params={"q": "x" * 40_000})
    assert r.status_code == 422
    body = r.json()
    assert body["ok"] is False and body["status"] == 422 and "q" in body["error"]


def test_explain_post_redirects_to_the_only_match(client: TestClient, store: SqliteStore) -> None:
    eid = entry_id(store, "value must be positive")
    r = client.post(
        "/explain",
        data={
            "q": 'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\n'
            "ValueError: value must be positive, got 0"
        },
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert r.headers["location"] == f"/acme/widgets/errors/{eid}?v.x=0"


def test_explain_post_without_a_match_goes_to_search(client: TestClient) -> None:
    r = client.post("/explain", data={"q": "nothing like this"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/search?q=nothing")


@pytest.mark.parametrize(
    "path",
    ["/nobody/nothing", "/acme/widgets/errors/ffffffffffffffff", "/a/b/c/d/e", "/static/nope.css"],
)
def test_unknown_page_is_a_404_page(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert (
        "<h1>Page not found</h1>" in r.text and '<meta name="robots" content="noindex">' in r.text
    )


@pytest.mark.parametrize(
    "path",
    [
        "/api/errors/ffffffffffffffff",
        "/api/repos/nobody/nothing/errors",
        "/nobody/nothing.json",
        "/acme/widgets/errors/ffffffffffffffff.json",
        "/api/nothing",
    ],
)
def test_unknown_json_is_a_404_in_the_error_shape(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    body = r.json()
    assert set(body) == {"ok", "error", "status"}
    assert body["ok"] is False and body["status"] == 404 and body["error"]


@pytest.mark.parametrize(
    "params", [{"page": "0"}, {"page": "x"}, {"per_page": "1000"}, {"kind": "k" * 600}]
)
def test_bad_parameters_are_a_422_in_the_error_shape(
    client: TestClient, params: dict[str, str]
) -> None:
    r = client.get("/api/repos/acme/widgets/errors", params=params)
    assert r.status_code == 422
    body = r.json()
    assert body == {"ok": False, "error": body["error"], "status": 422}
    assert body["error"].startswith("invalid parameters: ")


def test_a_crash_is_a_500_in_the_error_shape(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from errordex.web import context

    def boom(store: SqliteStore) -> dict[str, Any]:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(context, "home_context", boom)
    app = create_app(store)
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/api/repos")
        assert r.status_code == 500
        assert r.json() == {"ok": False, "error": "internal server error", "status": 500}
        page = c.get("/")
        assert page.status_code == 500 and "secret internals" not in page.text
    app.state.stores.close()


def test_every_response_has_the_security_headers(client: TestClient, store: SqliteStore) -> None:
    eid = entry_id(store, "value must be positive")
    for path in ["/", f"/acme/widgets/errors/{eid}", "/api/repos", "/nope/x", "/static/style.css"]:
        r = client.get(path)
        assert r.headers["content-security-policy"] == CSP
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "strict-origin-when-cross-origin"
    assert "script-src 'self'" in CSP and "'unsafe-inline'" not in CSP
    assert "style-src 'self'" in CSP


def test_openapi_describes_the_api(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert spec["info"]["title"] == "errordex"
    for path in [
        "/api/errors/{entry_id}",
        "/api/search",
        "/api/repos",
        "/api/repos/{owner}/{repo}/errors",
    ]:
        assert path in spec["paths"], path
    assert "/" not in spec["paths"]


def test_sitemap_and_robots_are_built_on_the_base_url(store: SqliteStore) -> None:
    app = create_app(store, base_url="https://errors.example.org/docs")
    with TestClient(app) as c:
        sitemap = c.get("/sitemap.xml", headers={"host": "evil.example"})
        robots = c.get("/robots.txt").text
    app.state.stores.close()
    assert sitemap.headers["content-type"].startswith("application/xml")
    locs = re.findall(r"<loc>([^<]+)</loc>", sitemap.text)
    assert "https://errors.example.org/docs/" in locs
    assert "https://errors.example.org/docs/acme/widgets" in locs
    assert len(locs) == 1 + len(store.repos()) + store.count_entries()
    assert all(u.startswith("https://errors.example.org/docs/") for u in locs)
    assert robots.splitlines() == [
        "User-agent: *",
        "Disallow: /docs/search",
        "Disallow: /docs/api/",
        "Allow: /docs/",
        "Sitemap: https://errors.example.org/docs/sitemap.xml",
    ]


def test_without_a_base_url_there_is_no_sitemap(client: TestClient) -> None:
    sitemap = client.get("/sitemap.xml", headers={"host": "evil.example"})
    assert sitemap.status_code == 404 and "public URL is not configured" in sitemap.text
    robots = client.get("/robots.txt").text
    assert "Sitemap" not in robots and "evil" not in robots and "Disallow: /search" in robots


def test_pages_have_title_description_canonical_and_json_ld(
    client: TestClient, store: SqliteStore
) -> None:
    eid = entry_id(store, "value must be positive")
    for path in ["/", "/acme/widgets", f"/acme/widgets/errors/{eid}"]:
        html = client.get(path).text
        assert re.search(r"<title>[^<]+</title>", html)
        assert '<meta name="description" content="' in html
        assert f'<link rel="canonical" href="{path}">' in html
        blocks = parse_links(html).ld_json
        assert blocks and all(json.loads(b)["@context"] == "https://schema.org" for b in blocks)
    html = client.get(f"/acme/widgets/errors/{eid}").text
    (article,) = (json.loads(b) for b in parse_links(html).ld_json)
    assert article["@type"] == "TechArticle" and article["headline"].startswith("value must")


def test_pages_are_cached_until_the_store_changes(tmp_path: Any) -> None:
    store = build_store(tmp_path / "db.sqlite")
    app = create_app(store)
    with TestClient(app) as c:
        first = c.get("/acme/widgets")
        etag = first.headers["etag"]
        assert c.get("/acme/widgets", headers={"if-none-match": etag}).status_code == 304
        sites = [s for s in widgets_sites() if "filler" not in s.template.display()]
        store.save(snapshot_data("acme/widgets", None, sites, {}))  # a re-index, fewer errors
        again = c.get("/acme/widgets")
        assert again.headers["etag"] != etag and "filler error" not in again.text
    app.state.stores.close()
    store.close()


def test_hostile_message_is_escaped_everywhere(client: TestClient, store: SqliteStore) -> None:
    eid = entry_id(store, "<script>")
    page = client.get(f"/acme/widgets/errors/{eid}").text
    assert "<script>alert(1)" not in page and "</script><!--" not in page.replace(
        '<script type="application/ld+json">', ""
    )
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;quoted&#34;" in page
    assert "&lt;b&gt;not bold&lt;/b&gt;" in page  # the snippet's comment
    links = parse_links(page)
    assert links.inline_scripts == []
    ld = [json.loads(b) for b in links.ld_json]
    assert ld[0]["headline"].startswith(HOSTILE[:20])  # the JSON-LD decodes to the message
    for block in links.ld_json:
        assert "</" not in block and "<!--" not in block
    catalog = client.get("/acme/widgets").text
    assert "<script>alert(1)" not in catalog and "&lt;script&gt;alert(1)" in catalog
    search = client.get("/search", params={"q": HOSTILE}).text
    assert "<script>alert(1)" not in search
    assert client.get(f"/api/errors/{eid}").json()["message"] == HOSTILE


def test_no_page_has_an_inline_script_or_style(client: TestClient, store: SqliteStore) -> None:
    eid = entry_id(store, "value must be positive")
    for path in ["/", "/acme/widgets", f"/acme/widgets/errors/{eid}", "/search?q=x", "/x/y"]:
        html = client.get(path).text
        assert parse_links(html).inline_scripts == [], path
        assert " style=" not in html and "<style" not in html, path
        assert " on" + "click=" not in html


def test_a_forged_host_reaches_no_page_and_no_cache_key(client: TestClient) -> None:
    evil = client.get("/acme/widgets", headers={"host": "evil.example"})
    assert "evil.example" not in evil.text
    assert '<link rel="canonical" href="/acme/widgets">' in evil.text
    assert client.get("/acme/widgets").text == evil.text
    assert len(client.app.state.cache) == 1  # type: ignore[attr-defined]


def test_canonical_links_are_built_on_the_base_url_not_the_host(store: SqliteStore) -> None:
    app = create_app(store, base_url="https://errors.example.org/")
    with TestClient(app) as c:
        html = c.get("/acme/widgets", headers={"host": "evil.example"}).text
    app.state.stores.close()
    assert '<link rel="canonical" href="https://errors.example.org/acme/widgets">' in html
    assert "evil.example" not in html


def test_cached_pages_keep_the_security_headers(client: TestClient) -> None:
    first = client.get("/acme/widgets")
    second = client.get("/acme/widgets")
    assert first.text == second.text and second.headers["etag"] == first.headers["etag"]
    assert second.headers["content-security-policy"] == CSP
    assert second.headers["content-type"].startswith("text/html")


def test_search_says_the_runtime_raised_it_at_a_line_that_raises_nothing(
    client: TestClient,
) -> None:
    q = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/src/widgets/core.py", line 5, in resize\n'
        "    n = size[0]\n"
        "TypeError: 'NoneType' object is not subscriptable\n"
    )
    page = client.get("/search", params={"q": q})
    assert page.status_code == 200
    assert "Raised by the Python runtime at" in page.text
    assert "<code>src/widgets/core.py:5</code>" in page.text
    assert "not by a raise statement in acme/widgets" in page.text
    answer = client.get("/search.json", params={"q": q}).json()["parts"][0]["answer"]
    assert answer["kind"] == "location" and answer["path"] == "src/widgets/core.py"
    assert answer["raise_frame"] and not answer["raise_statement"]


CONTROLS = "clear\x1b[2J\x1b]0;owned\x07 nul\x00 csi\x9b31m end"


def test_control_characters_show_visibly_escaped_and_stay_data_in_json(tmp_path: Any) -> None:
    store = build_store(tmp_path / "db.sqlite")
    site = py_site("src/ctl.py", 1, Template.literal(CONTROLS), "ValueError", symbol="f")
    source = f"raise ValueError({CONTROLS!r})  # {CONTROLS}"
    store.save(snapshot_data("acme/ctl", None, [site], {"src/ctl.py": source}))
    eid = entry_id(store, "clear", repo="acme/ctl")
    app = create_app(store)
    with TestClient(app) as c:
        pages = [
            c.get(f"/acme/ctl/errors/{eid}").text,
            c.get("/acme/ctl").text,
            c.get("/search", params={"q": "clear nul csi end"}).text,
        ]
        data = c.get(f"/acme/ctl/errors/{eid}.json").json()
    app.state.stores.close()
    store.close()
    for html in pages:
        assert not re.search("[\x00-\x08\x0b-\x1f\x80-\x9f]", html)
        assert "clear\\x1b[2J\\x1b]0;owned\\x07 nul\\x00 csi\\x9b31m end" in html
    (article,) = (json.loads(b) for b in parse_links(pages[0]).ld_json)
    assert article["headline"] == CONTROLS  # JSON-LD decodes to the message
    assert data["message"] == CONTROLS


@pytest.mark.parametrize(
    "path",
    ["/acme/widgets/errors/nope", "/api/errors/nope", "/nobody/nothing", "/nobody/nothing.json"],
)
def test_not_found_bodies_name_no_cli_command(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    assert "errordex list" not in r.text and "`" not in r.text
    assert "no error with id" in r.text or "no indexed repository" in r.text


def test_report_link_goes_where_the_operator_says(store: SqliteStore) -> None:
    app = create_app(store, report_url="https://tracker.example.org/new?project=errs")
    eid = entry_id(store, "value must be positive")
    with TestClient(app) as c:
        data = c.get(f"/acme/widgets/errors/{eid}.json").json()
        page = c.get(f"/acme/widgets/errors/{eid}").text
    app.state.stores.close()
    assert data["report_url"].startswith("https://tracker.example.org/new?project=errs&title=")
    assert f"{eid}" in data["report_url"] and COMMIT in data["report_url"]
    assert 'href="https://tracker.example.org/new?project=errs&amp;title=' in page


def test_report_url_must_be_a_web_address(store: SqliteStore) -> None:
    with pytest.raises(InputError, match="--report-url"):
        create_app(store, report_url="file:///etc/passwd")


def test_errordex_tracker_is_the_one_pyproject_names() -> None:
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    urls = tomllib.loads(pyproject.read_text())["project"]["urls"]
    assert urls["Issues"] == ERRORDEX_ISSUES
    assert report_target() == urls["Issues"] + "/new"


def test_a_damaged_store_is_a_503_that_names_no_path(tmp_path: Path) -> None:
    from errordex.store import open_store
    from tests.cli.test_store_files import damage_pages

    db = tmp_path / "db.sqlite"
    build_store(db).close()
    damage_pages(db, "entries", "sites")
    store = open_store(str(db))
    app = create_app(store)
    with TestClient(app, raise_server_exceptions=False) as c:
        for path in ("/acme/widgets", "/api/repos/acme/widgets/errors"):
            r = c.get(path)
            assert r.status_code == 503, (path, r.status_code, r.text[:200])
            assert str(tmp_path) not in r.text
            assert "the error database cannot be read right now" in r.text
        assert c.get("/api/repos/acme/widgets/errors").json() == {
            "ok": False,
            "error": "the error database cannot be read right now",
            "status": 503,
        }
    app.state.stores.close()
    store.close()
