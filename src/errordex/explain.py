"""Explain pasted error text against the store: the shape `explain --json`
prints and the web search shows (one builder for both)."""

from __future__ import annotations

from typing import Any

from errordex.match.explain import explain
from errordex.match.index import StoreIndex
from errordex.store.sqlite import SqliteStore
from errordex.views import entry_json

#: Pasted text longer than this is cut (head and tail kept by the matcher).
MAX_PASTE = 1_000_000


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
            }
        )
    return {"version": 1, "parts": parts}
