"""Explain pasted error text against the store: the shape `explain --json`
prints and the web search shows (one builder for both)."""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from functools import partial
from typing import Any

from errordex import plugins
from errordex.called import public_call
from errordex.forge import file_url
from errordex.match.explain import (
    RaiseFrame,
    explain,
    first_answer,
)
from errordex.match.keys import path_tails, type_name, type_names
from errordex.model import ErrorEntry
from errordex.paste import Frame, ParsedError
from errordex.store.base import Store
from errordex.store.candidates import StoreIndex
from errordex.views import entry_json, led_by_your_call

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
#: Directory names too common to say which repository a file is in.
_GENERIC_DIRS = {"src", "lib", "test", "tests", "app", "pkg", "cmd", "internal", "scripts", "bin"}


def _entries_of(
    store: Store, wanted: Sequence[tuple[str, str]], snapshots: dict[str, Any]
) -> dict[tuple[str, str], ErrorEntry]:
    """The entries (repo, entry id) of a part's matches, each repository's
    read at once from its current snapshot (kept in ``snapshots``): two
    statements, not two per entry (a round trip each, on PostgreSQL)."""
    ids: dict[str, list[str]] = {}
    for slug, entry_id in wanted:
        ids.setdefault(slug, []).append(entry_id)
    out: dict[tuple[str, str], ErrorEntry] = {}
    for slug, some in ids.items():
        snap = snapshots.get(slug) or snapshots.setdefault(slug, store.current(slug))
        for entry_id, entry in store.entries_by_id(snap.id, list(dict.fromkeys(some))).items():
            out[slug, entry_id] = entry
    return out


def explain_text(
    store: Store, text: str, repo: str | None = None, limit: int = 5
) -> dict[str, Any]:
    """Ranked matches for each error part in ``text``, and its first answer.

    Each part's ``answer`` is what a user should read first: ``{"kind":
    "entry", ...}`` when an entry threw it (its site at the raise frame, or
    forwarded through it) or its message verifies and nothing in the
    traceback contradicts it; ``{"kind": "location", ...}`` when the runtime
    raised it at an indexed line that is not a raise statement (or in code
    that is not indexed, called from there); None when neither is known.
    """
    parts: list[dict[str, Any]] = []
    snapshots: dict[str, Any] = {}
    # a long paste is cut by the matcher: its head and tail, at line ends
    for exp in explain(text, StoreIndex(store), limit=limit * 2):
        part = exp.part
        kept = [m for m in exp.matches if not repo or m.repo == repo][:limit]
        matches: list[dict[str, Any]] = []
        found = _entries_of(store, [(m.repo, m.entry_id) for m in kept], snapshots)
        for m in kept:
            entry = found.get((m.repo, m.entry_id)) or store.entry(m.entry_id, m.repo)
            snap = snapshots[m.repo]
            matches.append(
                {
                    **entry_json(entry, snap, store, with_snippets=not matches),
                    "score": round(m.score, 4),
                    "exact": m.exact,
                    "partial": m.partial,
                    # False for a template that is all values (built at run
                    # time): its text cannot be "the same message"
                    "textual": m.textual,
                    "values": m.values,
                    "frame_level": m.frame_level,
                }
            )
            if m.chain:
                matches[-1]["chain"] = list(m.chain)
            if m.wraps is not None:
                inner = store.entry(m.wraps[1], m.wraps[0])
                # the error it caught and raises again, whose text the message is
                matches[-1]["wraps"] = {
                    "repo": inner.repo,
                    "id": inner.id,
                    "message": inner.template.display(),
                    "exception_types": list(inner.exception_types),
                    "sites": [f"{s.path}:{s.line}" for s in inner.sites[:3]],
                }
            site = matches[-1]["site"] = _matched_site(matches[-1]["sites"], part)
            if site is not None and site is not matches[-1]["sites"][0]:
                # the page of the site the paste came from: it leads
                again = entry_json(
                    entry,
                    snap,
                    store,
                    with_snippets=len(matches) == 1,
                    first=(site["path"], site["line"]),
                )
                matches[-1].update(sites=again["sites"], analysis=again["analysis"])
                matches[-1].update(
                    printed=again["printed"], runtime_message=again["runtime_message"]
                )
        for shown in matches:
            # a value the paste kept apart from the message (click's option
            # name) that the printed form shows: ``Invalid value for {param_hint}``
            for key, value in (getattr(part, "values", None) or {}).items():
                if "{" + key + "}" in shown["printed"] and key not in shown["values"]:
                    shown["values"] = {**shown["values"], key: value}
        if matches:
            entered = entered_at(store, part, matches[0]["repo"])
            if entered is not None:
                top = kept[0]
                entry = found.get((top.repo, top.entry_id)) or store.entry(top.entry_id, top.repo)
                called = public_call(
                    entered["stack"], partial(store.file_text, snapshots[top.repo].id)
                )
                via = led_by_your_call(matches[0], entry, entered.pop("through"), called)
                if via is not None:
                    entered["via"] = via
                matches[0]["your_call"] = entered
        where = raised_in(store, part, snapshots, repo)
        raise_frame = (
            RaiseFrame(
                where["path"], where["line"], where["raise_statement"], where["same_version"]
            )
            if where is not None and where["raise_frame"]
            else None
        )
        runtime = plugins.interpreter_form(
            getattr(part, "language", None), part.message, part.exception_type
        )
        first = first_answer(kept, raise_frame, runtime)
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
                "raised_in": where,
                "runtime_form": runtime,
                "answer": _answer(matches[0], part) if first is not None else _located(where),
            }
        )
        if runtime:
            missed = missed_signature(store, part, repo)
            if missed is not None:
                parts[-1]["signature"] = missed
    return {"version": 1, "parts": parts}


#: classes of a snapshot looked at for a signature, at most
MAX_SIGNATURE_CLASSES = 20000
#: parameter names a signature shows, and the nearest ones suggested
MAX_PARAMETERS = 40
#: classes of one name whose method is read for a signature, at most
MAX_DEFINITIONS = 10


def missed_signature(store: Store, part: ParsedError, repo: str | None) -> dict[str, Any] | None:
    """The signature a call missed, for the runtime's own error about a
    keyword (``Field.__init__() got an unexpected keyword argument 'default'``):
    where the indexed code defines ``Field.__init__``, the parameters it
    takes and the ones nearest the keyword given; None when no indexed
    repository defines one class of that name with a method of that name
    that could have raised it (one that takes the keyword, or ``**kwargs``,
    would not have)."""
    lang = plugins.assumed(getattr(part, "language", None))
    rt = lang.runtime if lang is not None else None
    if rt is None or rt.unexpected_keyword is None or rt.signature is None:
        return None
    got = rt.unexpected_keyword(part.message)
    if got is None or "." not in got[0]:
        return None
    qualname, keyword = got
    owner = qualname.split(".", 1)[0]
    found: list[tuple[str, int, str]] = []
    for summary in store.repos():
        slug = summary.repo.slug
        if repo and slug != repo:
            continue
        sid = summary.snapshot.id
        classes = store.classes(sid)
        if len(classes) > MAX_SIGNATURE_CLASSES:
            continue
        found += [(slug, sid, c.path) for c in classes if c.name == owner][:MAX_SIGNATURE_CLASSES]
    missed: list[dict[str, Any]] = []
    for slug, sid, path in found[:MAX_DEFINITIONS]:
        text = store.file_text(sid, path)
        sig = rt.signature(text, qualname) if text is not None else None
        # one that takes the keyword, or any keyword, is not the one called
        if sig is None or sig[2] or keyword in sig[1]:
            continue
        line, names, any_keyword = sig
        missed.append(
            {
                "repo": slug,
                "path": path,
                "line": line,
                "function": qualname,
                "keyword": keyword,
                "parameters": list(names[:MAX_PARAMETERS]),
                "any_keyword": any_keyword,
                "nearest": _nearest(keyword, names),
            }
        )
    if len(missed) > 1:
        # several classes of the name: the one with a parameter the keyword
        # was likely meant for (a rename) is the one, when only one has
        missed = [m for m in missed if m["nearest"]]
    return missed[0] if len(missed) == 1 else None


def _nearest(keyword: str, names: Sequence[str]) -> list[str]:
    """The parameters a keyword may have meant: close in spelling, or
    holding it (``default`` -> ``load_default``, ``dump_default``)."""
    close = difflib.get_close_matches(keyword, names, n=3, cutoff=0.6)
    holding = [n for n in names if keyword in n and n not in close]
    return (close + holding)[:3]


def _answer(match: dict[str, Any], part: ParsedError) -> dict[str, Any]:
    """The entry answer: its id, message and the site this error came from
    (the one in the traceback, else its first)."""
    sites = match["sites"]
    at = _raise_frame(part)
    tail = (at[0].path or "").replace("\\", "/") if at else ""
    # no site at the raise frame (another version?): a site in its file is nearest
    near = next((s for s in sites if tail and _same_file(tail, s["path"])), None)
    site = match["site"] or near or (sites[0] if sites else None)
    return {
        "kind": "entry",
        "id": match["id"],
        "repo": match["repo"],
        "message": match["message"],
        "path": site["path"] if site else None,
        "line": site["line"] if site else None,
        "via": site.get("via") if site else None,
        "symbol": site.get("symbol") if site else None,
        "frame_level": match["frame_level"],
    }


def _raise_frame(part: ParsedError) -> list[Frame]:
    """The frame the error was raised at, as a list of one (none without frames)."""
    frames = list(part.frames)
    return frames[-1:] if plugins.innermost_last(part.language) else frames[:1]


def _same_file(frame_path: str, path: str) -> bool:
    return frame_path == path or frame_path.endswith("/" + path)


def _matched_site(sites: list[dict[str, Any]], part: ParsedError) -> dict[str, Any] | None:
    """The site (path, line, symbol, via) the traceback shows this error came from:
    the one at the raise frame, else one elsewhere in the stack; None when no
    site (or its ``via``) is a frame of the traceback."""
    found = next((s for s in sites if _in_stack(s, _raise_frame(part))), None) or next(
        (s for s in sites if _in_stack(s, part.frames)), None
    )
    if found is None:
        return None
    return {k: found.get(k) for k in ("path", "line", "symbol", "via")}


def _located(where: dict[str, Any] | None) -> dict[str, Any] | None:
    if where is None:
        return None
    return {"kind": "location", **where}


def _in_stack(site: dict[str, Any], frames: Sequence[Frame]) -> bool:
    """Whether the site's line, or its ``via``, is one of ``frames``."""
    locs = [(site.get("path"), site.get("line"))]
    via = str(site.get("via") or "").split(" ", 1)[0]
    vpath, _, vline = via.rpartition(":")
    if vpath and vline.isdigit():
        locs.append((vpath, int(vline)))
    for f in frames:
        fpath = (f.path or "").replace("\\", "/")
        for path, line in locs:
            if path and f.line == line and (fpath == path or fpath.endswith("/" + path)):
                return True
    return False


def raised_in(
    store: Store, part: ParsedError, snapshots: dict[str, Any], repo: str | None = None
) -> dict[str, Any] | None:
    """The innermost frame of ``part`` in a file of an indexed repository.

    ``raise_frame`` says whether it is the traceback's innermost frame (the
    line the error was raised at) or an outer one (the error came from code
    that is not indexed, called there). ``raise_statement`` says whether a
    statement at that line can raise the pasted type; when it is False the
    runtime raised the error there (``None.x``, a builtin's TypeError, the
    condition of an ``assert``), not a raise statement of the repository.
    ``same_version`` says whether the indexed file's line reads as the paste
    printed it (None when either is unknown).

    For a Rust panic at a line that is not a panic site, ``runtime`` says
    whether Rust's core library panicked there (``unwrap()``, an index, an
    overflow: the line calls it); when it did not, ``other_version`` is True:
    a ``panic!`` or ``assert!`` ran there, so the file that ran is not the
    indexed one. ``ran_version`` is the crate version read from the frame's
    path (``registry/bytes-1.0.0/src/bytes.rs``), when it has one.
    """
    frames = list(part.frames)
    if plugins.innermost_last(part.language):
        frames.reverse()
    lang = plugins.find(part.language)
    library_panic = lang.runtime.library_panic if lang is not None else None
    texts: dict[tuple[int, str], list[str] | None] = {}
    for i, f in enumerate(frames[:MAX_LOCATE_FRAMES]):
        line = getattr(f, "line", None)
        if not f.path or not isinstance(line, int):
            continue
        found = _indexed_file(store, f.path, repo)
        if found is None:
            continue
        slug, path, stored = found
        snap = snapshots.get(slug) or snapshots.setdefault(slug, store.current(slug))
        same = _same_line(store, snap.id, path, line, getattr(f, "source", None), texts)
        if "/" not in path and path in _GENERIC_NAMES and same is not True:
            continue  # any project has a main.py: only its printed line can tell
        raises = _raises_here(store, slug, path, line, part, getattr(f, "source", None))
        # A runtime whose library fails at the caller's line: whether it did.
        runtime = (
            i == 0
            and not raises
            and (library_panic is None or library_panic(part.message, part.kind))
        )
        return {
            "repo": slug,
            "path": path,
            "line": line,
            "function": getattr(f, "function", None),
            "url": file_url(snap.repo.url, snap.forge_ref, path, line),
            "raise_statement": raises,
            "raise_frame": i == 0,
            "same_version": same,
            "file_known": stored,
            "commit": snap.commit,
            "commit_kind": snap.snapshot.commit_kind,
            "runtime": runtime,
            "other_version": library_panic is not None and i == 0 and not raises and not runtime,
            "ran_version": lang.runtime.ran_version(f.path) if lang is not None else None,
        }
    return None


def entered_at(store: Store, part: ParsedError, repo: str) -> dict[str, Any] | None:
    """Where the pasted stack last went from code outside ``repo`` into it:
    the library function the user's code called (``get`` at requests/api.py:73),
    with the caller's frame as printed (``t1.py:3``, ``requests.get(url)``).

    The innermost such step is the user's: a click command's callback that
    calls ``click.style`` made the failing call, not the script that started
    click. The runtime's own frames (Rust's ``core::panicking``, Python's
    ``threading``) pass calls on and are nobody's: a library frame they call
    is no way in. None when no frame outside the repository calls into it
    (the stack starts in the library, or has no frames in it)."""
    frames = [f for f in part.frames if f.path and isinstance(f.line, int)]
    if not plugins.innermost_last(part.language):
        frames.reverse()  # outermost first
    way_in: tuple[Frame, str, Frame] | None = None  # the last: frame, its path, its caller
    through: list[tuple[str, int, str]] = []  # the repository's frames from it inward
    outer: Frame | None = None  # the caller, outside the repository, of what follows
    for f in frames[-MAX_LOCATE_FRAMES:]:
        assert f.path is not None
        found = _indexed_file(store, f.path, repo)
        if found is None:
            if not plugins.runtime_frame(part.language, f.path, f.function):
                outer = f
            continue
        if outer is not None:
            way_in, through = (f, found[1], outer), []
        if way_in is not None and f.function and f.line is not None:
            through.append((found[1], f.line, f.function))
        outer = None
    return _way_in(store, *way_in, through) if way_in is not None else None


def _way_in(
    store: Store, f: Frame, path: str, outer: Frame, through: list[tuple[str, int, str]]
) -> dict[str, Any]:
    """``f``, a frame at ``path`` of the repository, called from ``outer``;
    ``through``: the repository's frames from it inward, (path, line, function)."""
    assert outer.path is not None
    caller: dict[str, Any] = {"path": outer.path, "line": outer.line, "function": outer.function}
    other = _indexed_file(store, outer.path, None)
    if other is not None:  # another indexed library called it, not the user
        caller.update(repo=other[0], path=other[1])
    return {
        "path": path,
        "line": f.line,
        "function": f.function,
        "caller": caller,
        "code": outer.source,
        "through": [(p, fn) for p, _, fn in through],
        "stack": through,
    }


def _indexed_file(store: Store, frame_path: str, repo: str | None) -> tuple[str, str, bool] | None:
    """(repo, repository path, whether the store knows that file) for a frame.

    A file with no site is not stored; it is taken to be in the repository
    that holds files in its directory (``rich/control.py`` beside
    ``rich/console.py``), unless that directory is a bare common name.
    """
    tails = path_tails(frame_path)
    known = store.known_files(tails)
    if repo:
        known = [k for k in known if k[0] == repo]
    best = max(known, key=lambda k: (k[1].count("/"), k[0])) if known else None
    if best is not None and (best[1].count("/") or best[1] not in _GENERIC_NAMES):
        return best[0], best[1], True
    for tail in tails:
        d = tail.rpartition("/")[0]
        if not d or ("/" not in d and d.lower() in _GENERIC_DIRS):
            continue
        slugs = store.repos_with_dir(d)
        if repo:
            slugs = [x for x in slugs if x == repo]
        if len(slugs) == 1:
            return slugs[0], tail, False
        if slugs:
            break  # two repositories have that directory: cannot tell
    return (best[0], best[1], True) if best is not None else None


def _same_line(
    store: Store,
    snapshot_id: int,
    path: str,
    line: int,
    printed: str | None,
    cache: dict[tuple[int, str], list[str] | None],
) -> bool | None:
    """Whether the indexed file's ``line`` is the code the traceback printed."""
    if not printed or not printed.strip():
        return None
    key = (snapshot_id, path)
    if key not in cache:
        text = store.file_text(snapshot_id, path)
        cache[key] = text.splitlines() if text is not None else None
    lines = cache[key]
    if lines is None or not 0 < line <= len(lines):
        return None if lines is None else False
    return lines[line - 1].strip() == printed.strip()


def _raises_here(
    store: Store, slug: str, path: str, line: int, part: ParsedError, printed: str | None
) -> bool:
    """Whether a statement at ``path:line`` can raise the pasted exception:
    a site there whose type agrees (or is not known), or a printed line that
    is a ``raise`` statement errordex has no site for (a re-raise)."""
    want = type_name(part.exception_type)
    for _sid, _eid, s, _tj, types_json in store.sites_at([path], line, 8):
        if s != slug:
            continue
        types = set().union(*(type_names(t) for t in json.loads(types_json))) - {""}
        if not want or not types or want in types:
            return True
    code = (printed or "").strip()
    return code == "raise" or code.startswith(("raise ", "raise("))
