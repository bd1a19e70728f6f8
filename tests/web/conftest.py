"""Stores for the web tests, built from hand-made throw sites."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
import uvicorn
from fastapi.testclient import TestClient

from errordex.group import group
from errordex.model import Guard, Repo, Snapshot, ThrowSite
from errordex.store.base import Store
from errordex.store.sqlite import SqliteStore
from errordex.store.writer import SnapshotData
from errordex.template import Hole, Template, Text
from errordex.web.app import create_app

COMMIT = "0123456789abcdef0123456789abcdef01234567"
HOSTILE = "<script>alert(1)</script> & \"quoted\" 'x' </script><!--"
N_FILLER = 60

CORE_PY = "\n".join(
    [
        "import os",
        "",
        "",
        "class Widget:",
        "    def resize(self, x):",
        "        if x <= 0:",
        '            raise ValueError("value must be positive, got %s" % x)',
        "        return x",
        "",
        "    def html(self):",
        f"        raise RuntimeError({HOSTILE!r})  # <b>not bold</b>",
        "",
        "    def dyn(self, msg):",
        "        raise TypeError(msg)",
    ]
    + [f'    raise KeyError("filler error number {i}")' for i in range(N_FILLER)]
)
UTIL_PY = "\n".join(
    [
        "def check(x):",
        "    if x <= 0:",
        '        raise ValueError("value must be positive, got %s" % x)',
    ]
)
LIB_RS = "\n".join(
    [
        "pub fn get(v: &[u8], idx: usize) -> u8 {",
        "    if idx >= v.len() {",
        '        panic!("index {idx} out of range");',
        "    }",
        "    v[idx]",
        "}",
    ]
)


def py_site(path: str, line: int, template: Template, exc: str, **kw: object) -> ThrowSite:
    return ThrowSite(
        path=path,
        line=line,
        column=9,
        end_line=line,
        language="python",
        kind="raise",
        template=template,
        exception_type=exc,
        **kw,  # type: ignore[arg-type]
    )


def widgets_sites() -> list[ThrowSite]:
    positive = Template.of("py-percent", Text("value must be positive, got "), Hole("x", "%s"))
    sites = [
        py_site(
            "src/widgets/core.py",
            7,
            positive,
            "ValueError",
            symbol="Widget.resize",
            guards=(Guard("if", "x <= 0", 6),),
            package="widgets",
        ),
        py_site(
            "src/widgets/util.py", 3, positive, "ValueError", symbol="check", package="widgets"
        ),
        py_site("tests/test_core.py", 5, positive, "ValueError", in_test=True),
        py_site(
            "src/widgets/core.py",
            11,
            Template.literal(HOSTILE),
            "RuntimeError",
            symbol="Widget.html",
            package="widgets",
        ),
        py_site(
            "src/widgets/core.py",
            14,
            Template.runtime("msg"),
            "TypeError",
            symbol="Widget.dyn",
            package="widgets",
        ),
        ThrowSite(
            path="native/src/lib.rs",
            line=3,
            column=9,
            end_line=3,
            language="rust",
            kind="panic",
            template=Template.of(
                "rust-fmt", Text("index "), Hole("idx", "{idx}"), Text(" out of range")
            ),
            symbol="get",
            package="widgets-native",
        ),
    ]
    sites += [
        py_site(
            "src/widgets/core.py",
            15 + i,
            Template.literal(f"filler error number {i}"),
            "KeyError",
            package="widgets",
        )
        for i in range(N_FILLER)
    ]
    return sites


def snapshot_data(
    slug: str, url: str | None, sites: list[ThrowSite], files: dict[str, str]
) -> SnapshotData:
    snap = Snapshot(
        repo=Repo(slug, url=url),
        commit=COMMIT,
        commit_date="2026-11-30T12:00:00+00:00",
        indexed_at="2026-12-01T00:00:00+00:00",
        tool_version="0.1.0",
    )
    return SnapshotData(
        snapshot=snap,
        forge_ref=COMMIT,
        entries=group(slug, sites),
        packages=[],
        classes=[],
        skips=[],
        files=files,
    )


def build_store(path: Path) -> SqliteStore:
    store = SqliteStore(path)
    fill_store(store)
    return store


def fill_store(store: Store) -> None:
    """The web tests' two repositories, written into ``store``."""
    store.save(
        snapshot_data(
            "acme/widgets",
            "https://github.com/acme/widgets",
            widgets_sites(),
            {
                "src/widgets/core.py": CORE_PY,
                "src/widgets/util.py": UTIL_PY,
                "native/src/lib.rs": LIB_RS,
            },
        )
    )
    local_site = py_site("pkg/mod.py", 1, Template.literal("local failure"), "OSError", symbol="f")
    store.save(
        snapshot_data(
            "local/thing", None, [local_site], {"pkg/mod.py": 'raise OSError("local failure")'}
        )
    )


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    s = build_store(tmp_path / "db.sqlite")
    yield s
    s.close()


@pytest.fixture
def client(store: SqliteStore) -> Iterator[TestClient]:
    app = create_app(store)
    with TestClient(app) as c:
        yield c
    app.state.stores.close()


def entry_id(store: SqliteStore, needle: str, repo: str = "acme/widgets") -> str:
    for e in store.entries(repo=repo):
        if needle in e.message or needle in e.exception_types:
            return e.id
    raise AssertionError(f"no entry with {needle!r}")


class LinkParser(HTMLParser):
    """Collects href/src/action attributes and inline scripts of one page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.inline_scripts: list[str] = []
        self.ld_json: list[str] = []
        self._script: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        for key in ("href", "src", "action"):
            if a.get(key):
                self.links.append(a[key] or "")
        if tag == "script":
            self._script = (
                "ld"
                if a.get("type") == "application/ld+json"
                else ("src" if a.get("src") else "inline")
            )

    def handle_data(self, data: str) -> None:
        if self._script == "ld":
            self.ld_json.append(data)
        elif self._script == "inline" and data.strip():
            self.inline_scripts.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None


def parse_links(html: str) -> LinkParser:
    p = LinkParser()
    p.feed(html)
    return p


@dataclass
class LiveServer:
    url: str
    server: uvicorn.Server
    thread: threading.Thread


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def live_server(store: SqliteStore, cache_size: int = 2048) -> Iterator[LiveServer]:
    """A real uvicorn server on loopback, in a thread."""
    app = create_app(store, cache_size=cache_size)
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield LiveServer(f"http://127.0.0.1:{port}", server, thread)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        app.state.stores.close()


@pytest.fixture
def server(store: SqliteStore) -> Iterator[LiveServer]:
    with live_server(store) as s:
        yield s
