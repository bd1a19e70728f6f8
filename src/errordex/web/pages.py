"""HTML of every page, from a context dict (``web.context``) and a ``Urls``.

Used by the server (absolute links) and by the static export (relative
links); the templates never build a URL by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any
from urllib.parse import urlsplit
from xml.sax.saxutils import escape as xml_escape

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from errordex import __version__, plugins
from errordex.model import commit_noun
from errordex.store.base import Store
from errordex.visible import visible_controls
from errordex.web import render
from errordex.web.urls import Urls

SITE_NAME = "errordex"
FILE_ROWS = render.FileRows()


def shown(value: Any) -> Any:
    """What a template prints of ``value``: its control characters written as
    ``\\xNN`` (repository text may hold ESC or NUL, which a page would hide);
    the JSON twins keep them as data."""
    if isinstance(value, Markup):  # already HTML: its tags hold no control character
        return Markup(visible_controls(str(value)))
    return visible_controls(value) if isinstance(value, str) else value


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("errordex.web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        finalize=shown,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # the templates ship with the package: compile each once
    )
    env.globals.update(
        highlight=render.highlight,
        highlight_code=render.highlight_code,
        prose=render.prose,
        sections=render.sections,
        summary=render.summary,
        provenance_label=render.provenance_label,
        model_note=render.model_note,
        related=render.related,
        unique=render.unique,
        via=render.via,
        title_parts=render.title_parts,
        find_language=plugins.find,
        commit_noun=commit_noun,
        error_word=plugins.error_word,
        runtime_title=plugins.runtime_title,
        version=__version__,
        site_name=SITE_NAME,
    )
    return env


def _short(text: str, limit: int = 155) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass(frozen=True)
class Meta:
    title: str
    description: str
    canonical: str | None
    json_url: str | None = None
    json_ld: tuple[dict[str, Any], ...] = ()
    noindex: bool = False


@dataclass(frozen=True)
class Pages:
    """``urls`` makes the links; ``site`` is the base of canonical links: the
    site's absolute URL (``urls.site_base``: then the sitemap too), a root path
    for a server that was not told its URL (relative canonical links, no
    sitemap), or None (no canonical link: an export without a base URL). It
    never comes from a request's Host header."""

    urls: Urls
    site: str | None = None

    def with_urls(self, urls: Urls) -> Pages:
        return replace(self, urls=urls)

    @property
    def absolute(self) -> bool:
        """Whether ``site`` is an absolute URL (a sitemap needs one)."""
        return self.site is not None and "://" in self.site

    @property
    def canon(self) -> Urls | None:
        return self.urls.with_base(self.site, index_html=False) if self.site else None

    def _render(self, name: str, ctx: Mapping[str, Any], meta: Meta, **extra: Any) -> str:
        tpl = environment().get_template(name)
        return tpl.render(
            ctx=ctx,
            meta=meta,
            urls=self.urls,
            static=self.urls.static,
            json_ld=[render.json_ld(d) for d in meta.json_ld],
            **extra,
        )

    # -- pages -----------------------------------------------------------------

    def home(self, ctx: Mapping[str, Any]) -> str:
        n = ctx["total_entries"]
        canon = self.canon
        meta = Meta(
            title=f"{SITE_NAME}: the errors a repository can throw",
            description=f"{n} error messages from {len(ctx['repos'])} repositories: where each "
            "is thrown, pinned to a commit, and what it means.",
            canonical=canon.home() if canon else None,
            json_url=self.urls.home_json(),
            json_ld=(
                {
                    "@context": "https://schema.org",
                    "@type": "WebSite",
                    "name": SITE_NAME,
                    **({"url": canon.home()} if canon else {}),
                },
            ),
        )
        return self._render("home.html", ctx, meta)

    def catalog(self, ctx: Mapping[str, Any]) -> str:
        slug = ctx["repo"]
        f = ctx["filters"]
        canon = self.canon
        filtered = any(f.values()) or ctx["page"] > 1
        meta = Meta(
            title=f"Errors of {slug} ({ctx['total']}) · {SITE_NAME}",
            description=f"All {ctx['total']} error messages {slug} can throw at"
            f" {commit_noun(ctx.get('commit_kind', 'git'))} {ctx['commit'][:7]},"
            " with the places they are thrown.",
            canonical=canon.repo(slug, page=ctx["page"]) if canon else None,
            json_url=self.urls.repo_json(slug, ctx["page"], f["kind"], f["path"], f["q"]),
            json_ld=(
                {
                    "@context": "https://schema.org",
                    "@type": "CollectionPage",
                    "name": f"Errors of {slug}",
                    "about": {"@type": "SoftwareSourceCode", "name": slug},
                },
            ),
            noindex=bool(filtered and any(f.values())),
        )
        return self._render("catalog.html", ctx, meta)

    def error_page(
        self, ctx: Mapping[str, Any], file_text: Callable[[str], str | None] | None = None
    ) -> str:
        """``file_text(path)`` reads a file of the entry's snapshot; with it, snippets
        are cut from the highlighted whole file (cached), else lexed one by one."""
        slug = ctx["repo"]
        canon = self.canon
        canonical = canon.error(slug, ctx["id"]) if canon else None
        subject = render.question_subject_of(ctx)
        question = f'What causes "{subject}" in {slug}?'
        answer = render.summary(ctx)
        answer_text = render.plain(answer.text) if answer else ""
        kinds = ", ".join(ctx["kinds"])
        types = ", ".join(ctx["exception_types"])
        n = len(ctx["sites"])
        description = answer_text or (
            f"{ctx['title']} — {types or kinds} in {slug}, thrown at {n} "
            f"place{'s' if n != 1 else ''}: the source, pinned to"
            f" {commit_noun(ctx.get('commit_kind', 'git'))} {ctx['commit'][:7]}."
        )
        article: dict[str, Any] = {
            "@context": "https://schema.org",
            "@type": "TechArticle",
            "headline": _short(ctx["title"], 110),
            "description": _short(description, 300),
            "about": {
                "@type": "SoftwareSourceCode",
                "name": slug,
                "codeRepository": ctx.get("repo_url"),
            },
            "dateModified": ctx.get("commit_date"),
        }
        if canonical:
            article["url"] = canonical
        docs = [article]
        if answer_text:
            docs.append(
                {
                    "@context": "https://schema.org",
                    "@type": "FAQPage",
                    "mainEntity": [
                        {
                            "@type": "Question",
                            "name": question,
                            "acceptedAnswer": {"@type": "Answer", "text": answer_text},
                        }
                    ],
                }
            )
        meta = Meta(
            title=f"{_short(ctx['title'], 80)} · {slug} · {SITE_NAME}",
            description=_short(description),
            canonical=canonical,
            json_url=self.urls.error_json(slug, ctx["id"]),
            json_ld=tuple(docs),
        )

        def rows(path: str, language: str) -> list[str] | None:
            if file_text is None:
                return None
            key = (ctx["repo"], ctx["commit"], path)
            return FILE_ROWS.get(key, language, lambda: file_text(path))

        return self._render(
            "error.html", ctx, meta, question=question, answer=answer, file_rows=rows
        )

    def search(self, ctx: Mapping[str, Any]) -> str:
        q = ctx["query"]
        meta = Meta(
            title=(f"Search: {_short(q, 60)}" if q else "Search") + f" · {SITE_NAME}",
            description="Paste an error message, a traceback or a panic to find its page.",
            canonical=self.canon.search() if self.canon else None,
            json_url=self.urls.search_json(q or None),
            noindex=bool(q),
        )
        return self._render("search.html", ctx, meta)

    def error(self, status: int, message: str) -> str:
        titles = {
            404: "Page not found",
            413: "Text too long",
            414: "URL too long",
            422: "Invalid request",
            431: "Headers too large",
            500: "Server error",
        }
        meta = Meta(
            title=f"{titles.get(status, 'Error')} · {SITE_NAME}",
            description=message,
            canonical=None,
            noindex=True,
        )
        ctx = {"ok": False, "error": message, "status": status}
        return self._render("error_status.html", ctx, meta, heading=titles.get(status, "Error"))

    # -- crawlers ----------------------------------------------------------------

    def sitemap(self, store: Store, repo: str | None = None) -> str | None:
        """The sitemap, or None without an absolute site URL (its locs must be absolute)."""
        canon = self.canon
        if canon is None or not self.absolute:
            return None
        locs = [canon.home()]
        for r in store.repos():
            if repo and r.repo.slug != repo:
                continue
            locs.append(canon.repo(r.repo.slug))
            locs.extend(canon.error(r.repo.slug, eid) for eid in store.entry_ids(r.snapshot.id))
        body = "".join(f"<url><loc>{xml_escape(u)}</loc></url>\n" for u in locs)
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            f"{body}</urlset>\n"
        )

    def robots(self) -> str:
        """robots.txt, its paths under the site's own path ("/docs/search" for a
        site at https://example.org/docs/); a sitemap line with an absolute site."""
        if self.absolute:
            root = urlsplit(self.site or "").path or "/"
        else:
            root = self.site or (self.urls.base if self.urls.base.startswith("/") else "/")
        paths = self.urls.with_base(root, index_html=False)
        lines = [
            "User-agent: *",
            f"Disallow: {paths.search()}",
            f"Disallow: {root}api/",
            f"Allow: {root}",
        ]
        if self.absolute and self.canon is not None:
            lines.append(f"Sitemap: {self.canon.sitemap()}")
        return "\n".join(lines) + "\n"
