"""Pages of JavaScript entries: every section from what the code proves,
grounded (``errordex verify`` finds nothing ungrounded), on a small fixture
package and on express as npm installs it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from errordex.cli import main
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.analysis.conftest import PAGE_SECTIONS as SECTIONS
from tests.analysis.conftest import index_fixture
from tests.npm_corpus import package


@pytest.fixture
def js(tmp_path: Path) -> tuple[SqliteStore, int]:
    return index_fixture("js", tmp_path)


def _pages(store: SqliteStore, sid: int) -> dict[str, dict[str, Any]]:
    return {store.entry(i).message: data for i, data in store.analyses(sid)}


def _verify(db: Path) -> dict[str, Any]:
    done = CliRunner().invoke(main, ["verify", "--json", "--db", str(db)])
    report: dict[str, Any] = json.loads(done.output)["repos"][0]
    assert done.exit_code == 0, report["problems"]
    return report


def test_javascript_page_has_every_section(js: tuple[SqliteStore, int]) -> None:
    store, sid = js
    page = _pages(store, sid)["port must be a string or a number, got ${typeof port}"]
    analysis = page["analysis"]
    assert [s for s in SECTIONS if not analysis.get(s)] == []
    assert analysis["summary"]["text"].startswith(
        "You called `parsePort(port)` (`lib/index.js`), and it throws `TypeError` when "
        "`typeof port !== 'string' && typeof port !== 'number'`"
    )
    fix = analysis["example_fix"]
    assert fix["before"]["language"] == "javascript"
    assert fix["after"]["code"].endswith(
        "if (!(typeof ({}) !== 'string' && typeof ({}) !== 'number')) {\n  parsePort({});\n}"
    )
    (catch,) = [d for d in analysis["defensive_patterns"] if d["strategy"] == "catch"]
    assert "if (!(err instanceof TypeError)) throw err;" in catch["code"]


def test_an_error_subclass_chain_ends_at_nodes_error_not_pythons(
    js: tuple[SqliteStore, int],
) -> None:
    """``class PortError extends TypeError``: node's TypeError is an Error
    (it was read as Python's: TypeError → Exception → BaseException)."""
    store, sid = js
    page = _pages(store, sid)["not a TCP port: ${port}"]
    assert [h["name"] for h in page["facts"]["hierarchy"]] == ["PortError", "TypeError"]
    assert page["facts"]["hierarchy"][1]["mro"] == ["TypeError", "Error"]
    meaning = page["analysis"]["meaning"]["text"]
    assert "Its class chain is `PortError` up to the builtin `TypeError` → `Error`." in meaning
    assert "Exception" not in meaning


def test_a_subclass_throw_shows_the_message_its_constructor_supplies(
    js: tuple[SqliteStore, int],
) -> None:
    store, _ = js
    (entry,) = [e for e in store.entries() if e.exception_types == ("PortError",)]
    assert entry.message == "not a TCP port: ${port}"
    assert [(s.path, s.line) for s in entry.sites] == [("lib/index.js", 15)]


def test_a_node_env_guard_says_the_build_decides(js: tuple[SqliteStore, int]) -> None:
    store, sid = js
    meaning = _pages(store, sid)["not a TCP port: ${port}"]["analysis"]["meaning"]
    assert (
        "It is checked only when `process.env.NODE_ENV !== 'production' && n > 65535` holds "
        "(lib/index.js:14)" in meaning["text"]
    )
    assert "lib/index.js:14" in meaning["evidence"]


def test_javascript_fixture_pages_are_grounded(js: tuple[SqliteStore, int], tmp_path: Path) -> None:
    report = _verify(tmp_path / "errordex.db")
    assert report["entries"] == 3 and report["ungrounded"] == 0


def test_a_catch_that_tells_the_class_apart_is_the_library_catching_it(
    js: tuple[SqliteStore, int],
) -> None:
    """``catch (err) { if (err instanceof PortError) ... }`` in ``portOr``,
    written as JavaScript writes it (it read ``except PortError``)."""
    store, sid = js
    page = _pages(store, sid)["not a TCP port: ${port}"]
    (catch,) = page["facts"]["catches"]
    assert (catch["function"], catch["line"], catch["on_path"]) == ("portOr", 27, True)
    assert (
        "The library catches it itself: `portOr` calls `parsePort` inside `try` … "
        "`catch (err) { if (err instanceof PortError) … }` (lib/index.js:27)"
    ) in page["analysis"]["meaning"]["text"]


@pytest.mark.corpus
def test_express_pages_are_grounded(tmp_path: Path) -> None:
    db = tmp_path / "errordex.db"
    store = SqliteStore(db)
    result = index(str(package("express")), store, name="expressjs/express", jobs=1)
    assert result.snapshot.stats.entries >= 20
    pages = _pages(store, result.snapshot_id)
    use = pages["app.use() requires a middleware function"]["analysis"]
    assert use["summary"]["text"].startswith("You called `app.use` (`lib/application.js`)")
    assert all(p["analysis"].get("summary") for p in pages.values())
    # `Route.prototype[method] = function () {...}`, defined for each of the
    # `methods` module's HTTP methods, is named as a user calls one
    route = pages["Route.${method}() requires a callback function but got a ${type}"]
    assert route["analysis"]["summary"]["text"].startswith(
        "You called `Route.get` (`lib/router/route.js`), and it throws `Error` when its "
        "own check finds `typeof handle !== 'function'`"
    )
    report = _verify(db)
    assert report["ungrounded"] == 0 and report["checked"]["identifiers"] > 100
