"""A static copy of the site: the same pages and JSON as ``errordex serve``.

Every link is relative and every directory is linked as ``index.html``, so
the site works from any base path and from ``file://``. Alongside the pages:
``dump.jsonl`` (one error JSON per line), ``sitemap.xml``, ``robots.txt``,
and a search index for the small script on ``search/index.html``.

    >>> result = export_site(store, Path("site"))  # doctest: +SKIP
    >>> result.pages, result.entries
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from errordex.errors import NotFound
from errordex.store.sqlite import SqliteStore
from errordex.views import entry_summary
from errordex.web import context as ctxs
from errordex.web.app import STATIC_DIR
from errordex.web.pages import Pages
from errordex.web.urls import Urls

ExportProgress = Callable[[int, int], None]


@dataclass(frozen=True)
class ExportResult:
    pages: int
    entries: int
    out_dir: Path


class _Writer:
    def __init__(self, out: Path, site: str | None) -> None:
        self.out = out
        self.root = Urls("", static=True)
        self.site = site
        self.pages = 0

    def pages_at(self, href: str) -> Pages:
        """The renderer for the page at site-relative ``href`` (its depth sets the links)."""
        depth = href.count("/")
        return Pages(self.root.for_depth(depth), site=self.site)

    def write(self, href: str, text: str) -> None:
        path = self.out / unquote(href)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if href.endswith(".html"):
            self.pages += 1

    def write_json(self, href: str, data: Any) -> None:
        self.write(href, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def export_site(
    store: SqliteStore,
    out_dir: Path,
    repo: str | None = None,
    base_url: str | None = None,
    progress: ExportProgress | None = None,
) -> ExportResult:
    """Write the site for every indexed repo (or only ``repo``) under ``out_dir``.

    ``base_url`` (or ``$ERRORDEX_BASE_URL``) is where the site will be published;
    it makes canonical links and the sitemap absolute. Without it they are relative.
    """
    base_url = base_url or os.environ.get("ERRORDEX_BASE_URL") or None
    if base_url and not base_url.endswith("/"):
        base_url += "/"
    home = ctxs.home_context(store)
    if repo:
        home["repos"] = [r for r in home["repos"] if r["repo"] == repo]
        if not home["repos"]:
            raise NotFound(f"no indexed repository named {repo!r} (see `errordex list`)")
        home["total_entries"] = sum(r["entries"] for r in home["repos"])
    out_dir.mkdir(parents=True, exist_ok=True)
    w = _Writer(out_dir, base_url)
    root = w.root

    shutil.copytree(STATIC_DIR, out_dir / "static", dirs_exist_ok=True)
    w.write(root.home(), w.pages_at(root.home()).home(home))
    w.write_json(root.home_json(), home)
    w.write("404.html", w.pages_at("404.html").error(404, "page not found"))

    index: list[dict[str, Any]] = []
    dump: list[str] = []
    total = sum(r["entries"] for r in home["repos"])
    done = 0
    for r in home["repos"]:
        slug = r["repo"]
        first = ctxs.catalog_context(store, slug)
        for page in range(1, first["pages"] + 1):
            ctx = first if page == 1 else ctxs.catalog_context(store, slug, page=page)
            href = root.repo(slug, page=page)
            w.write(href, w.pages_at(href).catalog(ctx))
            w.write_json(root.repo_json(slug, page=page), ctx)
        snap = store.current(slug)
        for entry in (store.entry(i, repo=slug) for i in store.catalog_order(snap.id)):
            ctx = ctxs.error_context(store, slug, entry.id)
            href = root.error(slug, entry.id)
            w.write(href, w.pages_at(href).error_page(ctx, ctxs.file_reader(store, slug)))
            w.write_json(root.error_json(slug, entry.id), ctx)
            dump.append(json.dumps(ctx, ensure_ascii=False))
            s = entry_summary(entry)
            index.append(
                {
                    "href": href,
                    "repo": slug,
                    "id": entry.id,
                    "title": s["title"],
                    "message": s["message"],
                    "kinds": s["kinds"],
                    "exception_types": s["exception_types"],
                }
            )
            done += 1
            if progress:
                progress(done, total)

    search_href = root.search()
    w.write(search_href, w.pages_at(search_href).search({"query": "", "parts": []}))
    w.write("search-index.json", json.dumps(index, ensure_ascii=False) + "\n")
    w.write(
        root.search_index_js(),
        "window.ERRORDEX_INDEX = " + json.dumps(index, ensure_ascii=True) + ";\n",
    )
    w.write("dump.jsonl", "".join(line + "\n" for line in dump))
    top = Pages(root, site=base_url)
    w.write(root.sitemap(), top.sitemap(store, repo=repo))
    w.write(root.robots(), top.robots())
    return ExportResult(pages=w.pages, entries=done, out_dir=out_dir)
