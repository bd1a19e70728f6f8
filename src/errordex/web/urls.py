"""Every URL of the web site, in one place.

The same page can live in two layouts:

- **served** (``errordex serve``): absolute paths under ``base`` ("/" or
  "/errordex/"); filters and pagination are query parameters::

      >>> Urls("/").error("pallets/click", "0123456789abcdef")
      '/pallets/click/errors/0123456789abcdef'

- **static** (``errordex export``): paths relative to the page being
  written, every directory as ``index.html`` so the site also works from
  ``file://``; pagination is a directory per page::

      >>> Urls("../../", static=True).repo("pallets/click", page=2)
      '../../pallets/click/page/2/index.html'

``with_base`` gives the same layout under another base: the exporter uses it
per page depth, and pages use it with the site's absolute URL for canonical
links.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from urllib.parse import quote, urlencode, urlsplit

from errordex.errors import InputError

#: what ``quote(text, safe="")`` leaves as it is (ids, slugs: the common case)
_UNRESERVED = re.compile(r"[A-Za-z0-9_.~-]*")


def _seg(text: str) -> str:
    return text if _UNRESERVED.fullmatch(text) else quote(text, safe="")


def _slug(slug: str) -> str:
    owner, _, name = slug.partition("/")
    return f"{_seg(owner)}/{_seg(name)}"


def _query(params: Mapping[str, str | int | None]) -> str:
    clean = {k: str(v) for k, v in params.items() if v not in (None, "")}
    return "?" + urlencode(clean) if clean else ""


def site_base(url: str, option: str = "--base-url") -> str:
    """A site's absolute base URL, checked, ending with "/"; links and the sitemap
    are built on it, never on a request's Host header::

        >>> site_base("https://errors.example.org/docs")
        'https://errors.example.org/docs/'

    Raises ``InputError`` for anything but an http(s) URL with a host and no
    query or fragment.
    """
    try:
        parts = urlsplit(url.strip())
        ok = parts.scheme in ("http", "https") and bool(parts.hostname)
    except ValueError:
        ok = False
    if not ok or parts.query or parts.fragment:
        raise InputError(
            f"{option} {url!r}: give an absolute http(s) URL, e.g. https://example.org/"
        )
    return parts.geturl().rstrip("/") + "/"


@dataclass(frozen=True)
class Urls:
    """``base`` ends with "/" (or is "" for a page at the root of a static site)."""

    base: str = "/"
    static: bool = False
    #: static layout: link a directory as ``dir/index.html`` (needed for file://)
    index_html: bool = True

    def with_base(self, base: str, index_html: bool | None = None) -> Urls:
        return replace(
            self, base=base, index_html=self.index_html if index_html is None else index_html
        )

    def for_depth(self, depth: int) -> Urls:
        """Static layout: the links of a page ``depth`` directories below the root."""
        return self.with_base("../" * depth)

    def _page(self, path: str) -> str:
        """A page; ``path`` is site-relative, "" for the home page."""
        if not self.static:
            return self.base + path
        if self.index_html:
            return self.base + (f"{path}/index.html" if path else "index.html")
        return self.base + (f"{path}/" if path else "")

    def _file(self, path: str) -> str:
        return self.base + path

    # -- pages ---------------------------------------------------------------

    def home(self) -> str:
        return self._page("")

    def home_json(self) -> str:
        return self._file("index.json")

    def repo(
        self,
        slug: str,
        page: int = 1,
        kind: str | None = None,
        path: str | None = None,
        q: str | None = None,
    ) -> str:
        if self.static:
            return self._page(_slug(slug) + (f"/page/{page}" if page > 1 else ""))
        return self._page(_slug(slug)) + _query(
            {"kind": kind, "path": path, "q": q, "page": page if page > 1 else None}
        )

    def repo_json(
        self,
        slug: str,
        page: int = 1,
        kind: str | None = None,
        path: str | None = None,
        q: str | None = None,
    ) -> str:
        if self.static:
            return self._file(_slug(slug) + (f"/page/{page}.json" if page > 1 else ".json"))
        return self._file(_slug(slug) + ".json") + _query(
            {"kind": kind, "path": path, "q": q, "page": page if page > 1 else None}
        )

    def error(self, slug: str, entry_id: str, values: Mapping[str, str] | None = None) -> str:
        url = self._page(f"{_slug(slug)}/errors/{_seg(entry_id)}")
        if values and not self.static:
            url += _query({f"v.{k}": v for k, v in values.items()})
        return url

    def error_json(self, slug: str, entry_id: str) -> str:
        return self._file(f"{_slug(slug)}/errors/{_seg(entry_id)}.json")

    def search(self, q: str | None = None) -> str:
        if self.static:
            return self._page("search")
        return self._page("search") + _query({"q": q})

    def search_json(self, q: str | None = None) -> str:
        if self.static:
            return self._file("search-index.json")
        return self._file("search.json") + _query({"q": q})

    def search_index_js(self) -> str:
        """Static layout: the search index, as a script (fetch() is blocked on file://)."""
        return self._file("search-index.js")

    def explain(self) -> str:
        return self._file("explain")

    def static_file(self, name: str) -> str:
        return self._file(f"static/{_seg(name)}")

    def sitemap(self) -> str:
        return self._file("sitemap.xml")

    def robots(self) -> str:
        return self._file("robots.txt")

    # -- API (served only; the static site links the JSON files instead) -----

    def openapi(self) -> str:
        return self._file("openapi.json")

    def api_repos(self) -> str:
        return self._file("api/repos")

    def api_error(self, entry_id: str) -> str:
        return self._file(f"api/errors/{_seg(entry_id)}")

    def api_search(self, q: str | None = None) -> str:
        return self._file("api/search") + _query({"q": q})

    def api_repo_errors(
        self,
        slug: str,
        page: int = 1,
        kind: str | None = None,
        path: str | None = None,
        q: str | None = None,
    ) -> str:
        return self._file(f"api/repos/{_slug(slug)}/errors") + _query(
            {"kind": kind, "path": path, "q": q, "page": page if page > 1 else None}
        )
