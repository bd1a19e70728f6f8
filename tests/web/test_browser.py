"""The site in real headless Chromium (Debian's), driven by Playwright.

Never run ``playwright install``: the tests use /usr/bin/chromium.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, sync_playwright

from errordex.store.sqlite import SqliteStore
from errordex.template import Template
from errordex.web.export import export_site
from tests.paste.conftest import fixture
from tests.web.conftest import (
    LiveServer,
    build_store,
    entry_id,
    live_server,
    py_site,
    snapshot_data,
)
from tests.web.real import click_store, click_traceback, crates_missing, crates_store

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"
    ),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    problems: list[str] = []

    def on_console(msg: ConsoleMessage) -> None:
        if msg.type in ("error", "warning"):
            problems.append(msg.text)

    pg.on("console", on_console)
    pg.on("pageerror", lambda exc: problems.append(str(exc)))
    yield pg
    context.close()
    # a CSP violation or a script error shows up here
    assert problems == []


@pytest.fixture(scope="module")
def click_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[SqliteStore, LiveServer]]:
    store = click_store(tmp_path_factory.mktemp("click") / "db.sqlite")
    with live_server(store) as server:
        yield store, server
    store.close()


def get_json(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=30) as r:
        data: dict[str, object] = json.loads(r.read())
    return data


def test_pasted_traceback_lands_on_the_error_page(
    page: Page, click_server: tuple[SqliteStore, LiveServer]
) -> None:
    store, server = click_server
    (entry,) = [e for e in store.entries() if e.message.startswith("Unknown color")]
    page.goto(server.url + "/")
    page.get_by_label("Error output").fill(click_traceback())
    page.get_by_role("button", name="Find the error").click()
    page.wait_for_url(f"**/pallets/click/errors/{entry.id}?*")
    assert page.locator("h1").inner_text() == entry.message
    assert page.get_by_role("heading", name="Your values").is_visible()
    assert "'purplish'" in page.locator(".values").inner_text()


def test_search_box_with_a_message_line(
    page: Page, click_server: tuple[SqliteStore, LiveServer]
) -> None:
    store, server = click_server
    (entry,) = [e for e in store.entries() if e.message.startswith("Unknown color")]
    page.goto(server.url + "/pallets/click")
    page.get_by_label("Search error messages").fill("ValueError: Unknown color 'purplish'")
    page.keyboard.press("Enter")
    page.wait_for_url("**/search?q=*")
    page.locator("ol.results a.msg").first.click()
    page.wait_for_url(f"**/errors/{entry.id}*")
    assert page.locator("h1").inner_text() == entry.message


def test_error_page_shows_every_section_of_its_json(
    page: Page, click_server: tuple[SqliteStore, LiveServer]
) -> None:
    store, server = click_server
    best: tuple[int, str, dict[str, object]] | None = None
    for e in store.entries():
        data = get_json(f"{server.url}/api/errors/{e.id}")
        analysis = data["analysis"] or {}
        assert isinstance(analysis, dict)
        if best is None or len(analysis) > best[0]:
            best = (len(analysis), e.id, data)
    assert best is not None
    _, eid, data = best
    analysis = data["analysis"]
    assert isinstance(analysis, dict)
    page.goto(f"{server.url}/pallets/click/errors/{eid}")
    expected = {
        "meaning": "#meaning-h",
        "solutions": "#solutions-h",
        "example_fix": "#example_fix-h",
        "defensive_patterns": "#defensive-h",
        "prevention": "#prevention-h",
        "trigger": "#when-h",
        "situations": "#when-h",
        "reproductions": "#when-h",
    }
    for key, selector in expected.items():
        assert page.locator(selector).count() == (
            1
            if analysis.get(key)
            or (
                selector == "#when-h"
                and any(analysis.get(k) for k in ("trigger", "situations", "reproductions"))
            )
            else 0
        ), key
    assert page.locator("#related-h").count() == (1 if data["related"] else 0)
    sites = data["sites"]
    assert isinstance(sites, list)
    assert page.locator(".throw-site").count() == len(sites)
    assert page.locator("pre.snippet .mark").count() >= len(sites)
    summary = analysis.get("summary")
    if summary:
        assert page.locator("#question-h").is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "error-page-click.png"), full_page=True)


def test_error_page_screenshot_keyboard_and_phone(page: Page, tmp_path: Path) -> None:
    store = build_store(tmp_path / "db.sqlite")
    eid = entry_id(store, "value must be positive")
    with live_server(store) as server:
        url = f"{server.url}/acme/widgets/errors/{eid}?v.x=-3"
        page.goto(url)
        # keyboard: the first Tab reaches the skip link, which is then on screen
        page.keyboard.press("Tab")
        skip = page.locator("a.skip")
        assert skip.evaluate("el => el === document.activeElement")
        box = skip.bounding_box()
        assert box is not None and box["x"] >= 0
        # styles come from the stylesheet (CSP allows 'self')
        bg = page.locator("pre.snippet .mark").first.evaluate(
            "el => getComputedStyle(el).backgroundColor"
        )
        assert bg == "rgb(255, 243, 196)"
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "error-page.png"), full_page=True)
        # a phone: no sideways scrolling of the page; snippets scroll on their own
        page.set_viewport_size({"width": 375, "height": 800})
        page.goto(f"{server.url}/acme/widgets/errors/{entry_id(store, '<script>')}")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        snippet = page.locator("pre.snippet").first
        assert snippet.evaluate("el => el.scrollWidth > el.clientWidth")
        assert snippet.evaluate("el => getComputedStyle(el).overflowX") == "auto"
        page.screenshot(path=str(ARTIFACTS / "error-page-phone.png"), full_page=True)
        # the hostile message is text, not markup
        assert page.locator("h1").inner_text().startswith("<script>alert(1)</script>")
    store.close()


def test_exported_site_over_file_has_no_broken_link(page: Page, tmp_path: Path) -> None:
    store = build_store(tmp_path / "db.sqlite")
    out = tmp_path / "site"
    export_site(store, out)
    store.close()
    start = (out / "index.html").as_uri()
    seen: set[str] = set()
    queue = [start]
    resources: set[str] = set()
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        response = page.goto(url)
        assert response is not None and response.ok, url
        assert page.locator("link[rel=stylesheet]").count() == 1
        hrefs: list[str] = page.eval_on_selector_all(
            "a[href], link[href], script[src]", "els => els.map(e => e.href || e.src)"
        )
        for h in hrefs:
            parts = urlsplit(h)
            if parts.scheme != "file":
                continue
            target = Path(unquote(parts.path))
            assert target.is_file(), f"{url} links to missing {h}"
            if target.suffix == ".html":
                queue.append(target.as_uri())
            else:
                resources.add(h)
    assert len([u for u in seen if "/errors/" in u]) == len(
        list(out.glob("*/*/errors/*/index.html"))
    )
    assert any(r.endswith("style.css") for r in resources)


def test_static_search_runs_from_file(page: Page, tmp_path: Path) -> None:
    store = build_store(tmp_path / "db.sqlite")
    out = tmp_path / "site"
    export_site(store, out)
    eid = entry_id(store, "filler error number 7")
    store.close()
    page.goto((out / "index.html").as_uri())
    page.get_by_label("Error output").fill("KeyError: 'filler error number 7'")
    page.get_by_role("button", name="Find the error").click()
    page.wait_for_selector("#results ol li a")
    page.locator("#results ol li a").first.click()
    page.wait_for_url(f"**/errors/{eid}/index.html")
    assert page.locator("h1").inner_text() == "filler error number 7"


@pytest.mark.skipif(crates_missing(), reason="needs Debian's librust-*-dev crates")
def test_pasted_panic_lands_on_the_site_it_came_from(page: Page, tmp_path: Path) -> None:
    store = crates_store(tmp_path / "db.sqlite")
    with live_server(store) as server:
        page.goto(server.url + "/")
        page.get_by_label("Error output").fill(fixture("rust_crate_assert_split_to_backtrace"))
        page.get_by_role("button", name="Find the error").click()
        page.wait_for_url("**/tokio-rs/bytes/errors/*?*site=src%2Fbytes_mut.rs%3A379*")
        first = page.locator(".throw-site").first
        assert (
            first.locator("h3")
            .inner_text()
            .startswith("Thrown at src/bytes_mut.rs:379 in BytesMut::split_to")
        )
        assert first.locator("mark.yours").inner_text() == "your panic"
        assert first.locator("mark.yours").is_visible()
        assert page.locator("mark.yours").count() == 1
        assert page.locator(".values dd").all_inner_texts() == ["9", "2"]
    store.close()


def test_static_search_shows_control_characters_visibly(page: Page, tmp_path: Path) -> None:
    store = build_store(tmp_path / "db.sqlite")
    text = "beep\x1b[2J nul\x00 csi\x9b end"
    site = py_site("src/ctl.py", 1, Template.literal(text), "ValueError", symbol="f")
    store.save(snapshot_data("acme/ctl", None, [site], {"src/ctl.py": "x"}))
    out = tmp_path / "site"
    export_site(store, out)
    store.close()
    page.goto((out / "index.html").as_uri())
    page.get_by_label("Error output").fill("ValueError: beep nul csi end")
    page.get_by_role("button", name="Find the error").click()
    page.wait_for_selector("#results ol li a")
    assert page.locator("#results ol li a").first.text_content() == (
        "beep\\x1b[2J nul\\x00 csi\\x9b end"
    )
