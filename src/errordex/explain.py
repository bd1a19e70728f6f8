"""Explain pasted error text against the store: the shape `explain --json`
prints and the web search shows (one builder for both)."""

from __future__ import annotations

from typing import Any

from errordex.forge import file_url
from errordex.match.explain import explain
from errordex.match.index import StoreIndex, path_tails
from errordex.paste import ParsedError
from errordex.store.sqlite import SqliteStore
from errordex.views import entry_json

#: Pasted text longer than this is cut (head and tail kept by the matcher).
MAX_PASTE = 1_000_000
#: Frames of one part tried (innermost first) when locating the raise in an indexed file.
MAX_LOCATE_FRAMES = 32
#: File names too common to locate a frame by the name alone.
_GENERIC_NAMES = {
    "__init__.py",
    "__main__.py",
    "main.py",
    "lib.rs",
    "mod.rs",
    "main.rs",
    "index.js",
}


def explain_text(
    store: SqliteStore, text: str, repo: str | None = None, limit: int = 5
) -> dict[str, Any]:
    """Ranked matches for each error part in ``text``."""
    parts: list[dict[str, Any]] = []
    snapshots: dict[str, Any] = {}
    for exp in explain(
        text[:MAX_PASTE] if len(text) > MAX_PASTE else text, StoreIndex(store), limit=limit * 2
    ):
        matches: list[dict[str, Any]] = []
        for m in exp.matches:
            if repo and m.repo != repo:
                continue
            entry = store.entry(m.entry_id, m.repo)
            snap = snapshots.get(m.repo) or snapshots.setdefault(m.repo, store.current(m.repo))
            matches.append(
                {
                    **entry_json(entry, snap, store, with_snippets=not matches),
                    "score": round(m.score, 4),
                    "exact": m.exact,
                    "partial": m.partial,
                    "values": m.values,
                }
            )
            if len(matches) >= limit:
                break
        part = exp.part
        parts.append(
            {
                "message": part.message,
                "exception_type": part.exception_type,
                "language": getattr(part, "language", None),
                "kind": getattr(part, "kind", None),
                "relation": getattr(part, "relation", None),
                "frames": [
                    {
                        "path": f.path,
                        "line": getattr(f, "line", None),
                        "function": getattr(f, "function", None),
                    }
                    for f in list(part.frames)[-20:]
                ],
                "found": any(m["exact"] for m in matches),
                "matches": matches,
                "raised_in": raised_in(store, part, snapshots, repo),
            }
        )
    return {"version": 1, "parts": parts}


def raised_in(
    store: SqliteStore, part: ParsedError, snapshots: dict[str, Any], repo: str | None = None
) -> dict[str, Any] | None:
    """The innermost frame of ``part`` in a file of an indexed repository.

    ``raise_statement`` says whether a throw site is at that line; when it is
    False the runtime raised the error there (``None.x``, a builtin's
    TypeError), not a raise statement of the repository.
    """
    frames = list(part.frames)
    if part.language in (None, "python"):
        frames.reverse()
    for f in frames[:MAX_LOCATE_FRAMES]:
        line = getattr(f, "line", None)
        if not f.path or not isinstance(line, int):
            continue
        tails = path_tails(f.path)
        known = store.known_files(tails)
        if repo:
            known = [k for k in known if k[0] == repo]
        if not known:
            continue
        slug, path = max(known, key=lambda k: (k[1].count("/"), k[0]))
        if "/" not in path and path in _GENERIC_NAMES:
            continue
        snap = snapshots.get(slug) or snapshots.setdefault(slug, store.current(slug))
        at_site = any(r[2] == slug for r in store.sites_at([path], line, 8))
        return {
            "repo": slug,
            "path": path,
            "line": line,
            "function": getattr(f, "function", None),
            "url": file_url(snap.repo.url, snap.forge_ref, path, line),
            "raise_statement": at_site,
        }
    return None
