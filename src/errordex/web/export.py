"""A static copy of the site: the same pages and JSON as ``errordex serve``.

Every link is relative and every directory is linked as ``index.html``, so
the site works from any base path and from ``file://``. Alongside the pages:
``dump.jsonl`` (one error JSON per line), ``robots.txt``, ``sitemap.xml``
(with a base URL only: its locations must be absolute), and a search index for
the small script on ``search/index.html``.

``.errordex-export`` lists the files an export wrote. The next export into the
same directory removes those it does not write again (another repository's
pages would be orphans), and nothing else; a directory that is not empty and
has no such list is refused unless ``force``.

    >>> result = export_site(store, Path("site"))  # doctest: +SKIP
    >>> result.pages, result.entries
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from errordex.errors import InputError, NotFound
from errordex.store.base import Store
from errordex.views import entry_summary
from errordex.web import context as ctxs
from errordex.web.app import STATIC_DIR
from errordex.web.pages import Pages
from errordex.web.urls import Urls, site_base

ExportProgress = Callable[[int, int], None]


#: the list of the files an export wrote, one relative path a line
MANIFEST = ".errordex-export"


@dataclass(frozen=True)
class ExportResult:
    pages: int
    entries: int
    out_dir: Path
    #: files of the previous export into the directory that this one did not write
    removed: int = 0
    #: what the export left out, and why (for the CLI to say)
    notes: tuple[str, ...] = ()


class _Writer:
    def __init__(self, out: Path, site: str | None) -> None:
        self.out = out
        self.root = Urls("", static=True)
        self.site = site
        self.pages = 0
        self.written: set[str] = set()

    def pages_at(self, href: str) -> Pages:
        """The renderer for the page at site-relative ``href`` (its depth sets the links)."""
        depth = href.count("/")
        return Pages(self.root.for_depth(depth), site=self.site)

    def write(self, href: str, text: str) -> None:
        rel = unquote(href)
        path = self.out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        self.written.add(rel)
        if href.endswith(".html"):
            self.pages += 1

    def write_json(self, href: str, data: Any) -> None:
        self.write(href, json.dumps(data, ensure_ascii=False, indent=1) + "\n")

    def copy_static(self) -> None:
        shutil.copytree(STATIC_DIR, self.out / "static", dirs_exist_ok=True)
        self.written.update(
            f"static/{f.relative_to(STATIC_DIR).as_posix()}"
            for f in STATIC_DIR.rglob("*")
            if f.is_file()
        )


def _previous_export(out_dir: Path, force: bool) -> set[str]:
    """The files the last export into ``out_dir`` wrote. Raises ``InputError``
    for a directory that holds other files, unless ``force``."""
    manifest = out_dir / MANIFEST
    if manifest.is_file():
        return {line for line in manifest.read_text(encoding="utf-8").splitlines() if line}
    if out_dir.is_dir() and any(out_dir.iterdir()) and not force:
        raise InputError(
            f"{out_dir} is not empty and holds no errordex export: export into an empty "
            "directory, or pass --force to write into it (nothing else in it is removed)"
        )
    return set()


def _remove_stale(out_dir: Path, stale: set[str]) -> int:
    """Remove the files of ``stale`` (relative paths from the manifest) that are
    inside ``out_dir``, and the directories they leave empty."""
    root = out_dir.resolve()
    removed = 0
    parents: set[Path] = set()
    for rel in stale:
        path = out_dir / rel
        if ".." in Path(rel).parts or path.is_symlink() or not path.is_file():
            continue
        if not path.resolve().is_relative_to(root):
            continue
        path.unlink()
        removed += 1
        parents.update(p for p in path.parents if p.is_relative_to(out_dir) and p != out_dir)
    for d in sorted(parents, key=lambda p: len(p.parts), reverse=True):
        with contextlib.suppress(OSError):  # not empty: it holds files of this export
            d.rmdir()
    return removed


def export_site(
    store: Store,
    out_dir: Path,
    repo: str | None = None,
    base_url: str | None = None,
    progress: ExportProgress | None = None,
    *,
    report_url: str | None = None,
    force: bool = False,
) -> ExportResult:
    """Write the site for every indexed repo (or only ``repo``) under ``out_dir``.

    ``base_url`` (or ``$ERRORDEX_BASE_URL``) is where the site will be published;
    it gives canonical links and ``sitemap.xml``, which are left out without it.
    ``report_url`` is where "Report a wrong page" goes (``context.report_target``).
    ``force`` writes into a directory that holds files of its own (see the module).
    """
    base_url = base_url or os.environ.get("ERRORDEX_BASE_URL") or None
    if base_url:
        base_url = site_base(base_url)
    report_to = ctxs.report_target(report_url)
    home = ctxs.home_context(store)
    if repo:
        home["repos"] = [r for r in home["repos"] if r["repo"] == repo]
        if not home["repos"]:
            raise NotFound(f"no indexed repository named {repo!r}", hint="see `errordex list`")
        home["total_entries"] = sum(r["entries"] for r in home["repos"])
    previous = _previous_export(out_dir, force)
    out_dir.mkdir(parents=True, exist_ok=True)
    w = _Writer(out_dir, base_url)
    root = w.root

    w.copy_static()
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
            ctx = ctxs.error_context(store, slug, entry.id, report_to=report_to)
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
    notes = []
    sitemap = top.sitemap(store, repo=repo)
    if sitemap is None:
        notes.append("no sitemap.xml: its locations must be absolute URLs (give --base-url)")
    else:
        w.write(root.sitemap(), sitemap)
    w.write(root.robots(), top.robots())
    removed = _remove_stale(out_dir, previous - w.written - {MANIFEST})
    (out_dir / MANIFEST).write_text("".join(f"{f}\n" for f in sorted(w.written)), "utf-8")
    return ExportResult(
        pages=w.pages, entries=done, out_dir=out_dir, removed=removed, notes=tuple(notes)
    )
