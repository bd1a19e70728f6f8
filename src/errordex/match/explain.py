"""Explain pasted output: which entries produced each error in it.

    >>> from errordex.match.index import MemoryIndex
    >>> from errordex.template import Hole, Template, Text
    >>> idx = MemoryIndex()
    >>> idx.add("e1", "o/r", Template.of("rust-fmt", Text("index "), Hole("i", "{i}"), Text(" out of range")))
    >>> [(m.entry_id, m.values) for m in explain("index 7 out of range", idx)[0].matches]
    [('e1', {'i': '7'})]

``explain`` parses the text (``errordex.paste.parse``) into its parts: a
chained or wrapped error gives one part per error. For each part it asks the
candidate source for likely templates, verifies each one with its compiled
matcher and ranks the verified ones by a score in [0, 1]:

- 0.55: the fraction of the message that is the template's constant text;
- 0.15: specificity (constant text against placeholders);
- 0.15: the exception type agrees (last dotted component);
- 0.15: a frame's path ends with a site's path (the line may have moved).

Frames are stronger evidence than the score. A traceback line that equals a
site's path:line says where the error was raised: ``frame_level`` is 2 when a
site is at the raise frame (the innermost frame), or when a forwarded site's
call line is in the stack and its ``via`` (the forwarder's raise) is the raise
frame; 1 when a site or ``via`` is elsewhere in the stack. Verified matches
rank by frame level first, then a template with constant text before a
dynamic one (``{message}``), then by score. An entry at the raise frame whose
template does not verify (the message is built elsewhere) still ranks with the
verified ones, unless its exception type disagrees.

A template whose constant text has no word of its own (``{}: {}``,
``{msg} ({e.strerror})``: punctuation that nearly any text has, random bytes
too) is judged as a dynamic one is: by its exception type and frames, never by
its text alone.

When nothing verifies, the closest candidates come back with ``exact=False``
and a score below 0.3; a dynamic or empty template that did not verify and
has no frame in a file of its sites is not returned at all. ``first_answer``
says which match, if any, a user should read first (see its docstring). No input makes it raise: the text, the number of
parts, the message and the frames are all capped.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Protocol

from errordex import plugins
from errordex.errors import StoreError
from errordex.extract.common import is_test_path
from errordex.match.compile import Matcher, MatchResult, compile_template, normalize
from errordex.match.held import (
    enum_wide,
    gives_text,
    holds_value,
    kind_of_io,
    kinds_beside_values,
    last_name,
)
from errordex.match.index import (
    Candidate,
    CandidateSource,
    template_tokens,
    type_name,
    type_names,
)
from errordex.match.keys import printed_shape, shape_key
from errordex.match.prefixed import after_position
from errordex.match.reprs import inner_sentences
from errordex.model import via_place
from errordex.paste import ParsedError, parse
from errordex.paste.clean import bound
from errordex.paste.model import Named
from errordex.template import Hole, Part, Template, Text

__all__ = [
    "Explanation",
    "FrameLike",
    "Match",
    "RaiseFrame",
    "explain",
    "first_answer",
    "rank",
]

log = logging.getLogger(__name__)

#: Error parts explained per paste.
MAX_PARTS = 16
#: Characters of one message matched.
MAX_MESSAGE = 16 * 1024
#: Frames of one part compared with site paths (the first and the last, half each).
MAX_FRAMES = 256
#: Candidates asked of the source per requested match.
FANOUT = 6

_WORD = re.compile(r"[^\W_]+")
_GENERIC_NAMES = {"__init__.py", "lib.rs", "mod.rs", "main.rs", "main.py", "index.js", "main.go"}


class FrameLike(Protocol):
    @property
    def path(self) -> str | None: ...


@dataclass(frozen=True)
class Match:
    """One entry that may have produced an error part.

    ``values`` maps each placeholder (its expression, or its spec when it has
    none; a repeated key gets ``#2``, ``#3``) to the text it took. ``exact``
    is False for a closest candidate that did not verify. ``partial`` is True
    when the template explains only a part of the message.
    """

    entry_id: str
    repo: str
    score: float
    values: dict[str, str]
    message: str
    exact: bool = True
    partial: bool = False
    coverage: float = 0.0
    type_agrees: bool | None = None
    frame_path: str | None = None
    #: 2: a site (or a forwarded site's raise) is at the raise frame; 1: in the stack; 0: neither
    frame_level: int = 0
    #: verified on constant text (not a dynamic or all-placeholder template)
    specific: bool = False
    #: the template has constant text to verify (it is not dynamic or empty)
    textual: bool = True
    #: the paths of the entry's sites
    paths: tuple[str, ...] = ()
    #: the only entry that raises the pasted exception type (in the package a
    #: qualified type names): a line alone answered by its type, for a message
    #: the entry builds at run time (``_sole``)
    sole: bool = False
    #: for an entry found by a name the error printed (its Debug form): the
    #: names around it, outermost first, down to that one (``Parse``,
    #: ``Error``, ``RepetitionCountInvalid``): the errors wrapped in each other
    chain: tuple[str, ...] = ()
    #: for an entry that raises again the message of an error it caught
    #: (``raise InvalidURL(*e.args)``): the entry whose text the message
    #: verifies, often another library's (urllib3's), as (repo, entry id)
    wraps: tuple[str, str] | None = None

    @property
    def located(self) -> bool:
        """At the raise frame, and the exception type does not disagree."""
        return self.frame_level == 2 and self.type_agrees is not False

    @property
    def confident(self) -> bool:
        """The message verifies on constant text and the type does not disagree."""
        return self.exact and (self.specific or self.sole) and self.type_agrees is not False


@dataclass(frozen=True)
class RaiseFrame:
    """What the indexed code says about the line a traceback was raised at
    (its innermost frame), when that line is in an indexed file.

    ``raise_statement``: a statement at that line can raise the pasted type
    (an ``assert`` raises only AssertionError). ``same_version``: the indexed
    file's line reads as the paste printed it (None when either is unknown).
    """

    path: str
    line: int
    raise_statement: bool
    same_version: bool | None = None


def first_answer(
    matches: Sequence[Match], raise_frame: RaiseFrame | None, runtime_message: bool = False
) -> Match | None:
    """The match to show first, or None when no entry is the answer.

    - An entry at the raise frame (or forwarded through it) is the answer.
    - When the raise frame is an indexed line that raises nothing of the
      pasted type, the runtime raised the error there (``None.x``, a
      builtin's TypeError, compiled code called at that line): no entry is
      the answer, even one whose text verifies (it is the same message from
      somewhere else), unless the file may be another version and the entry
      has a site in that file and matches the whole message (the line may
      have moved).
    - A message in a form the interpreter raises itself (``runtime_message``,
      see ``Runtime.interpreter_form``) is not answered by its text alone.
    - Otherwise the best match is the answer when its constant text verifies
      and its exception type does not disagree. A dynamic or empty template
      never wins on its exception type alone, unless it is the only entry
      that raises a qualified type in that type's package (``Match.sole``).
    - A template found only inside the message (``partial``) whose every
      site is test or example code is no answer: clap's example
      ``.expect("required")`` is not "The following required arguments were
      not provided:", the library's own printed error.
    """
    top = matches[0] if matches else None
    if top is None:
        return None
    if top.located:
        return top
    if top.partial and top.paths and all(is_test_path(p) for p in top.paths):
        return None
    if raise_frame is not None and not raise_frame.raise_statement:
        moved = raise_frame.same_version is not True and raise_frame.path in top.paths
        return top if moved and top.confident and not top.partial else None
    return top if top.confident and not runtime_message else None


@dataclass(frozen=True)
class Explanation:
    """One part of the pasted text and its ranked matches."""

    part: ParsedError
    matches: tuple[Match, ...] = ()

    @property
    def found(self) -> bool:
        return any(m.exact for m in self.matches)


def explain(text: str, source: CandidateSource, limit: int = 5) -> list[Explanation]:
    """Explain each error in ``text``: one Explanation per parsed part, in order."""
    # the head and the tail, cut at line ends: a long traceback keeps its message
    text = bound(text if isinstance(text, str) else str(text))
    out: list[Explanation] = []
    for part in _parse(text)[:MAX_PARTS]:
        lang = plugins.find(part.language)
        shared = lang is not None and part.exception_type in lang.runtime.shared_names
        try:
            matches = _rank_part(part, part.message, source, shared, limit)
            # a message that is a tuple or dict repr (several exception arguments, a dict
            # of per-field messages) holds the sentence the code wrote as one of its strings
            # (a template that is all placeholders matches the repr too, on its type alone)
            worded = bool(matches) and matches[0].confident and matches[0].specific
            # a position a class prints before the text (``'x' name at line 1, column 1:
            # [err:X] unknown function 'x'``): the text after it, when its match holds more
            # of the message's constant text than a match of the whole (``%s at %s``)
            tail = after_position(part.message)
            if tail is not None:
                after = _rank_part(part, tail, source, shared, limit)
                if after and after[0].confident and after[0].specific:
                    held = _constant_chars(matches[0], part.message) if worded else 0.0
                    if _constant_chars(after[0], tail) > held:
                        matches, worded = after, True
            for sentence in [] if worded else inner_sentences(part.message):
                inside = _rank_part(part, sentence, source, shared, limit)
                if inside and ((inside[0].confident and inside[0].specific) or not matches):
                    matches = inside
                    break
        except StoreError:  # a store that cannot be read (damaged) fails every part alike
            raise
        except Exception:  # a bug in a source must not hide the other parts
            log.exception("matching failed for one error part")
            matches = []
        out.append(Explanation(part=part, matches=tuple(matches)))
    return out


def _method_named(exception_type: str) -> bool:
    """``left.error``, ``self._error``: a method a raise calls for the
    exception (elementpath's ``raise left.error('XPST0017', ...)``), whose
    class the name does not tell; not ``error`` (a class of the module) nor
    anything with a part in capitals (``errors.Bad``).

    >>> _method_named("left.error"), _method_named("error"), _method_named("errors.Bad")
    (True, False, False)
    """
    comps = exception_type.split(".")
    return len(comps) > 1 and not any(c[:1].isupper() for c in comps)


def _constant_chars(match: Match, message: str) -> float:
    """How many characters of ``message`` a match verified on constant text."""
    return match.coverage * len(message)


def _carried(part: ParsedError, message: str) -> tuple[str, ...]:
    """The runtime's error types whose text a library's error carries: a
    qualified type (a library's class) with a message in one of the
    interpreter's forms (``TypedloadValueError: invalid literal for int()
    with base 10: 'x'``)."""
    lang = plugins.find(part.language)
    kind = (part.exception_type or "").strip()
    if lang is None or "." not in kind or kind.startswith("builtins."):
        return ()
    return lang.runtime.interpreter_types(message)


def _rank_part(
    part: ParsedError, message: str, source: CandidateSource, shared: bool, limit: int
) -> list[Match]:
    return rank(
        message,
        source,
        exception_type=None if shared else part.exception_type,
        frames=part.frames,
        carried=_carried(part, message),
        raw=part.raw,
        limit=limit,
        innermost_last=plugins.innermost_last(part.language),
        inner=part.values.get("error_message"),
        named=_names(part),
        printed=part.values.get("error"),
    )


def rank(
    message: str,
    source: CandidateSource,
    *,
    exception_type: str | None = None,
    frames: Sequence[FrameLike] = (),
    raw: str | None = None,
    limit: int = 5,
    innermost_last: bool = True,
    inner: str | None = None,
    named: Sequence[Named] = (),
    printed: str | None = None,
    carried: tuple[str, ...] = (),
) -> list[Match]:
    """The best ``limit`` matches for one message, verified ones first.

    ``innermost_last``: the frames are printed outermost first (Python); the
    raise frame is then the last one, else the first. ``inner``: the message
    of the error the runtime wrapped (a Rust ``unwrap()`` of ``Error("msg")``);
    a template that matches it whole explains the part, with its values.
    ``named``: the values the error printed by name (its Debug form); an
    entry of a type or variant so named explains the part, the innermost
    first, with the fields it printed as its values (see ``_by_name``).
    ``printed``: that value's text alone, when the message wraps it (an
    ``unwrap()`` panic): its words find the entries its names may not.
    ``carried``: the runtime's error types whose text the message is (see
    ``_carried``): a line alone names the raise that shows a caught one.
    """
    limit = max(1, min(limit, 100))
    message = message[:MAX_MESSAGE] if isinstance(message, str) else ""
    raw = raw[:MAX_MESSAGE] if isinstance(raw, str) and raw.strip() != message.strip() else None
    inner = inner[:MAX_MESSAGE] if isinstance(inner, str) and inner.strip() else None
    cands = list(source.candidates(message, exception_type, limit * FANOUT))
    if inner is not None:
        cands += source.candidates(inner, exception_type, limit * FANOUT)
    if (
        not frames
        and raw is not None
        and exception_type
        and raw.lstrip().startswith(exception_type)
    ):
        # ``ParseIntError: invalid digit ..`` read as a type and its message
        # may be a message that starts with that word (serde-xml-rs's
        # ``ParseIntError: {source}``): the whole line finds its entries too
        cands += source.candidates(raw, None, limit * FANOUT)
    if (
        named
        and isinstance(printed, str)
        and printed.strip()
        and printed.strip() != message.strip()
    ):
        cands += source.candidates(printed[:MAX_MESSAGE], exception_type, limit * FANOUT)
    suffixes = _frame_suffixes(frames)
    stack = _frame_locations(frames)
    raise_at = (stack[-1] if innermost_last else stack[0]) if stack else None
    if raise_at is not None and raise_at[1] is not None:
        located = getattr(source, "located", None)
        if callable(located):
            try:
                cands = list(cands) + list(located(raise_at[0], raise_at[1], limit * FANOUT))
            except Exception:  # a source without site lines still ranks by text
                log.exception("could not look up the sites at the raise frame")
    else:
        raise_at = None
    want = type_name(exception_type)
    package = _package(exception_type)
    words = set(_WORD.findall(message.lower()))
    by_name, bonus, shapes, owned, alien = _by_name(source, named, limit * FANOUT, cands)
    cands += [c for c, _ in by_name.values()]
    best: dict[tuple[str, str], Match] = {}
    whole: set[tuple[str, str]] = set()  # the templates that verify all of ``inner``
    chunks_of: dict[tuple[str, str], list[str]] = {}
    types_of: dict[tuple[str, str], tuple[str, ...]] = {}
    pending: list[tuple[Candidate, Named, int]] = []  # entries found by a name alone
    for c in cands:
        types_of[c.repo, c.entry_id] = c.exception_types
        chunks_of[c.repo, c.entry_id] = c.template.chunks()
        level = _frame_level(c.sites, stack, raise_at)
        m = _judge(c, message, raw, want, suffixes, words, level, inner)
        if package and m.exact and any(in_package(package, p) for p in c.paths):
            # the package the pasted type names raised it, not a copy of
            # its text elsewhere (typer vendors click's texts)
            m = replace(m, score=round(m.score + PACKAGE_BONUS, 4))
        key = (c.repo, c.entry_id)
        if inner is not None and m.exact and not m.partial and _verifies(c.template, inner):
            whole.add(key)
        got = by_name.get(key)
        if got is not None and not (m.exact and not m.partial):
            pending.append((c, got[1], level))
            continue
        old = best.get(key)
        if old is None or _order(m) > _order(old):
            best[key] = m
    copies: set[tuple[str, str]] = set()
    if by_name:
        # a text of no type (a macro's call, a bare Err) in a crate that has
        # none of the names printed is a copy of the held text, not its maker
        named_repos = {repo for repo, _ in by_name}
        copies = {k for k in whole if k[0] not in named_repos and not types_of.get(k)}
        whole -= copies
    # the message a value holds tells its entry only where a text says it
    # whole: a held string no template verifies (a path, a value, a std
    # text) leaves the value told by its names
    held = inner if whole else None
    rendered: dict[tuple[str, str], int] = {}  # the texts a value's fields print whole, by depth
    for c, by, level in pending:
        key = (c.repo, c.entry_id)
        n = by
        if c.repo not in owned.get(n.name, (c.repo,)) or (c.repo, n.name) in alien:
            n = replace(n, runtime=True)  # another crate's value of that name
        m = _named_match(c, n, bonus.get(c.repo, 0), level, suffixes, held, shapes.get(c.repo, 0))
        m = replace(m, chain=_chain(named, by))
        old = best.get(key)
        if old is None or _order(m) > _order(old):
            best[key] = m
            if not n.runtime and held is None and _renders_whole(c.template, m.values):
                rendered[key] = n.depth
    best = _outermost_rendered(best, rendered)
    if whole and by_name:
        outer = _outer_wrapper(source, named, by_name, whole)
        for c in outer:
            m = _named_match(c, named[0], bonus.get(c.repo, 0), 0, suffixes, None, 0)
            best[c.repo, c.entry_id] = replace(m, chain=(named[0].name,))
        best = _told_by_text(best, whole | {(c.repo, c.entry_id) for c in outer})
        if outer:
            # the held text is the cause the wrapper holds: it comes after it
            top = min(best[c.repo, c.entry_id].score for c in outer)
            floor = round(top - 0.01, 4)
            best = {
                k: replace(m, score=min(m.score, floor)) if k in whole else m
                for k, m in best.items()
            }
    if copies:
        # ... and comes after the entries of the names printed
        named_top = max((m.score for k, m in best.items() if m.chain), default=None)
        if named_top is not None:
            floor = round(named_top - 0.01, 4)
            best = {
                k: replace(m, score=min(m.score, floor)) if k in copies else m
                for k, m in best.items()
            }
    best = _wrapped_after_wrapper(best, chunks_of)
    # between equals that the message verifies, the entry raised in more
    # places of the library's own code: what a user meets most (sqlglot's 25
    # bare ``assert`` before hyperlink's two in its test helpers, for an
    # ``AssertionError`` alone); closest candidates that did not verify keep
    # their order
    places = {
        (c.repo, c.entry_id): sum(1 for p, _, _ in c.sites if not is_test_path(p)) for c in cands
    }
    ranked = sorted(
        (m for m in best.values() if _shown(m)),
        key=lambda m: (_order(m), places.get((m.repo, m.entry_id), 0) if m.exact else 0),
        reverse=True,
    )
    if raise_at is not None:
        ranked = _built_elsewhere(ranked, _raised_through(cands, raise_at))
        ranked = _text_made_elsewhere(ranked)
    if not stack and exception_type and message.strip() and not (ranked and ranked[0].confident):
        # a text that verifies as another type's: the error a wrapper caught
        caught = next(
            (m for m in ranked if m.exact and m.specific and m.type_agrees is False), None
        )
        caught_types = types_of.get((caught.repo, caught.entry_id), ()) if caught else ()
        sole = _sole(source, exception_type, message, want, words, caught, caught_types, carried)
        if sole is not None:
            key = (sole.repo, sole.entry_id)
            ranked = [sole, *(m for m in ranked if (m.repo, m.entry_id) != key)]
    if not stack and not named and exception_type and not message.strip():
        bare = _sole_bare(source, exception_type, want)
        if bare is not None and not (ranked and ranked[0].confident):
            key = (bare.repo, bare.entry_id)
            m = _judge(bare, message, None, want, None, words)
            m = replace(m, exact=True, sole=True, type_agrees=True)
            ranked = [m, *(x for x in ranked if (x.repo, x.entry_id) != key)]
    return ranked[:limit]


def _named_entries(source: CandidateSource, name: str, limit: int) -> list[Candidate] | None:
    """``source.named(name, limit)``: the entries of a type or variant of that
    name; None when the source cannot look names up (it still ranks by text)."""
    lookup = getattr(source, "named", None)
    if not callable(lookup):
        return None
    try:
        return list(lookup(name, limit))
    except Exception:
        log.exception("could not look up the entries of a name")
        return None


def _sole_bare(source: CandidateSource, exception_type: str, want: str) -> Candidate | None:
    """A type printed with no text (``ZeroDivisionError`` alone) was raised
    with none: the entry named by it, when it is the only one of that type
    that raises with no text (mpmath's ``raise ZeroDivisionError`` in
    ``mpf_div``; its other raises of the class say ``polygamma pole``)."""
    name = exception_type.strip().rsplit(".", 1)[-1]
    got = _named_entries(source, name, MAX_SOLE + 1) if name else None
    if got is None or len(got) > MAX_SOLE:
        return None
    bare = [
        c
        for c in got
        if c.template.is_empty and want in set().union(*(type_names(x) for x in c.exception_types))
    ]
    return bare[0] if len(bare) == 1 else None


def _built_elsewhere(ranked: list[Match], through: set[tuple[str, str]]) -> list[Match]:
    """An error object raised again at the raise frame (jsonschema's
    ``raise error`` of what a keyword function yielded) has no text there:
    the entry that built it, whose site's ``via`` is that raise (``through``)
    and whose constant text verifies the whole message, of the pasted type,
    comes first. The raise frame's own entry follows it."""
    if len(ranked) < 2 or not (ranked[0].located and not ranked[0].textual):
        return ranked
    made = next(
        (
            m
            for m in ranked[1:]
            if (m.repo, m.entry_id) in through and _says_it_whole(m) and m.type_agrees is True
        ),
        None,
    )
    if made is None:
        return ranked
    return [made, *(m for m in ranked if m is not made)]


def _text_made_elsewhere(ranked: list[Match]) -> list[Match]:
    """The raise frame's entry has no text of its own (rust_decimal's
    ``Err(e) => panic!("{}", e)``, ``raise ValueError(msg)`` of a text made
    by a helper), and another entry's constant text verifies the whole
    message: the frame raises that text again, which ``wraps`` names, so
    the page of the place that failed also tells what the text means."""
    top = ranked[0] if ranked else None
    if top is None or not top.located or top.textual or top.wraps is not None:
        return ranked
    made = next(
        (m for m in ranked[1:] if _says_it_whole(m) and m.repo == top.repo),
        None,
    )
    if made is None:
        return ranked
    return [replace(top, wraps=(made.repo, made.entry_id)), *ranked[1:]]


def _says_it_whole(m: Match) -> bool:
    """Its constant text verifies the whole message, of a type that does not disagree."""
    return m.confident and m.specific and not m.partial


def _raised_through(cands: Sequence[Candidate], raise_at: _Loc) -> set[tuple[str, str]]:
    """The entries with a site whose ``via`` is the raise frame."""
    out: set[tuple[str, str]] = set()
    for c in cands:
        for _, _, via in c.sites[:256]:
            v = via_place(via)
            if v is not None and _at(raise_at, *v):
                out.add((c.repo, c.entry_id))
                break
    return out


def _wrapped_after_wrapper(
    best: dict[tuple[str, str], Match], chunks_of: dict[tuple[str, str], list[str]]
) -> dict[tuple[str, str], Match]:
    """A message that one template verifies whole, with another error's text
    in a placeholder (ordered-float's ``Parse error: {}`` around ``invalid
    float literal``), is that wrapper's: a template of another repository
    found inside the placeholder's value (num-traits' copy of the wrapped
    text) is the cause it holds, and comes after it; unless a wrapper of
    its own repository holds it too (serde_cbor's ``{} at offset {}``
    around its ``EOF while parsing a value``, which object's ``{} at offset
    {}`` matches as well)."""
    wrappers = [
        m
        for m in best.values()
        if m.exact and not m.partial and m.specific and m.textual and m.values
    ]
    if not wrappers:
        return best
    out = dict(best)
    for k, m in best.items():
        if not (m.exact and m.partial):
            continue
        chunks = [c.strip() for c in chunks_of.get(k, ()) if c.strip()]
        if not chunks:
            continue
        held = [w for w in wrappers if any(all(c in v for c in chunks) for v in w.values.values())]
        if held and all(w.repo != m.repo for w in held):
            out[k] = replace(m, score=round(min(m.score, min(w.score for w in held) - 0.01), 4))
    return out


def _outer_wrapper(
    source: CandidateSource,
    named: Sequence[Named],
    by_name: dict[tuple[str, str], tuple[Candidate, Named]],
    whole: set[tuple[str, str]],
) -> list[Candidate]:
    """The entries of the value a function returned, when it is one
    crate's wrapper around a text another crate made: serde-xml-rs's
    ``Syntax { source: Error { pos: 1:3, kind: Syntax("Unexpected end of
    stream") } }`` holds xml-rs's text, which verifies an entry of xml-rs
    (``whole``). The outermost value is serde-xml-rs's when exactly one
    repository with an entry of that name, and none of the text's,
    declares the name in the shape printed and every field printed, and
    prints the value it holds (a placeholder a printed field fills with a
    named value, ``holds_value``); a name
    every crate declares so (``Error { kind, .. }``) tells nothing, nor does
    a variant that prints none of them (toml_edit's ``Custom`` around std's
    ``Custom { kind, error }``)."""
    known = getattr(source, "known", None)
    if not named or named[0].depth != 0 or not callable(known):
        return []
    top = named[0]
    shape = printed_shape(top.fields, top.items)
    if shape not in ("{", "("):
        return []
    texts = {repo for repo, _ in whole}
    of: dict[str, list[Candidate]] = {}
    for c, _ in by_name.values():
        if (
            c.repo not in texts
            and top.name in {last_name(t) for t in c.exception_types}
            and holds_value(_printed_values(c.template, top))
        ):
            of.setdefault(c.repo, []).append(c)
    if not of or len(of) > MAX_KNOWN_REPOS:
        return []
    wanted = [shape_key(top.name, shape), *dict.fromkeys(f for f, _ in top.fields)]
    declares = []
    for repo in of:
        try:
            got = known(repo, wanted)
        except Exception:  # a source that cannot say keeps the text's order
            log.exception("could not look up a repository's identifiers")
            return []
        if got.issuperset(wanted):
            declares.append(repo)
    return of[declares[0]] if len(declares) == 1 else []


def _told_by_text(
    best: dict[tuple[str, str], Match], whole: set[tuple[str, str]]
) -> dict[tuple[str, str], Match]:
    """A value that prints its own message (syn's ``Error("unexpected end of
    input, expected one of: ..")``) is told by that text: when templates
    verify the whole of it (``whole``), the entries found only by the
    value's names (every ``Error`` of the crate) come after them."""
    told = [best[k].score for k in whole if k in best]
    if not told:
        return best
    floor = round(min(told) - 0.01, 4)
    return {
        k: replace(m, score=min(m.score, floor)) if m.chain and k not in whole else m
        for k, m in best.items()
    }


#: what a verified match gains when a site is in the package a qualified
#: pasted type names: a tie between two copies of one text goes to it
PACKAGE_BONUS = 0.02


def _package(exception_type: str | None) -> str | None:
    """The package a qualified type names (``click.exceptions.UsageError`` ->
    ``click``); None for a bare or a builtin type."""
    head, dot, _ = (exception_type or "").strip().partition(".")
    return head if dot and head and head != "builtins" else None


def in_package(package: str, path: str) -> bool:
    """Whether a site's file is of the package a qualified type names: a
    file under a directory of that name, or the module of that name alone
    (a one-file library: ``jsonpatch.JsonPatchPathNotFound`` is raised in
    ``jsonpatch.py``).

    >>> in_package("click", "src/click/core.py"), in_package("jsonpatch", "jsonpatch.py")
    (True, True)
    >>> in_package("jsonpatch", "jsonpatch/tests.py"), in_package("patch", "jsonpatch.py")
    (True, False)
    """
    parts = path.split("/")
    return package in parts[:-1] or parts[-1] == f"{package}.py"


#: entries of one exception type looked at for ``_sole``
MAX_SOLE = 64


def _sole(
    source: CandidateSource,
    exception_type: str,
    message: str,
    want: str,
    words: set[str],
    inner: Match | None = None,
    inner_types: tuple[str, ...] = (),
    carried: tuple[str, ...] = (),
) -> Match | None:
    """The entry a line alone names by its type: the only one that raises
    that type in the package a qualified type names
    (``pendulum.tz.exceptions.InvalidTimezone``), when its message is built at
    run time (``raise InvalidTimezone(key)``), so that no text can verify it.
    Several entries of the type, one whose text does not verify, or a type
    that names no package (a builtin's, ``OSError``) say nothing.

    Where the package raises the type in several places, the one whose
    message is another error's (``_wrapper``) is still named.
    """
    lookup = getattr(source, "named", None)
    name = exception_type.strip().rsplit(".", 1)[-1]
    if not callable(lookup) or not name:
        return None
    if "." not in exception_type.strip():
        # an unqualified type (a builtin's, as Python prints it) names no
        # package: a catch-all raise of it answers only through its frames
        return None
    package = exception_type.strip().split(".", 1)[0]
    try:
        got = list(lookup(name, MAX_SOLE + 1))
    except Exception:  # a source that cannot look names up answers by text only
        log.exception("could not look up the entries of an exception type")
        return None
    mine = {
        (c.repo, c.entry_id): c
        for c in got
        if want in set().union(*(type_names(x) for x in c.exception_types))
        and any(in_package(package, p) for p in c.paths)
    }
    if len(got) > MAX_SOLE or not mine:
        return None
    if len(mine) == 1:
        [c] = mine.values()
        if _worded(c.template):
            return None  # its text did not verify: the message comes from elsewhere
    else:
        found = _wrapper(source, list(mine.values()), message, want, words, inner_types, carried)
        if found is None:
            return None
        c = found
    m = _judge(c, message, None, want, None, words)
    # no values: a placeholder the message is built from is not the message
    # (BuildError(endpoint, ...) prints "Could not build url for endpoint ...")
    wraps = (inner.repo, inner.entry_id) if inner is not None else None
    return replace(m, exact=True, sole=True, type_agrees=True, score=0.5, values={}, wraps=wraps)


def _worded(t: Template) -> bool:
    matcher = _compiled(t)
    return matcher.textual and matcher.worded


def _wrapper(
    source: CandidateSource,
    mine: list[Candidate],
    message: str,
    want: str,
    words: set[str],
    inner_types: tuple[str, ...],
    carried: tuple[str, ...] = (),
) -> Candidate | None:
    """Of the entries that raise one type in one package, the one that
    raises again the message of an error it caught, when none of the others'
    text verifies. packaging raises ``InvalidRequirement`` with its own texts
    in one place, and with a ``ParserSyntaxError``'s in another::

        except ParserSyntaxError as e:
            raise InvalidRequirement(str(e)) from None

    Several such entries are told apart by what they catch: the type of the
    entry whose text the message verifies (``inner_types``: requests' ``raise
    InvalidURL(*e.args)`` in ``except LocationParseError as e``, for a text
    of urllib3's ``LocationParseError``), or, for a text in one of the
    runtime's own forms (``carried``), the one that shows the error it
    caught of that type: python-box raises ``BoxKeyError`` with the text of
    the ``AttributeError`` it caught in ``__getattr__`` alone (``except
    AttributeError as err: ... raise BoxKeyError(str(err))``), and with
    other texts in the same clause (``raise BoxKeyError(item)``) and
    elsewhere."""
    built = [c for c in mine if not _worded(c.template)]
    if not built or any(
        _judge(c, message, None, want, None, words).exact for c in mine if _worded(c.template)
    ):
        return None
    wanted = {type_name(t) for t in inner_types} - {""}
    if len(built) > 1 and wanted:
        caught = getattr(source, "caught", None)
        if callable(caught):
            try:
                built = [c for c in built if caught(c.repo, c.entry_id) & wanted]
            except Exception:  # a source that cannot say answers by text only
                log.exception("could not look up what an entry catches")
                return None
    elif len(built) > 1 and carried:
        shows = getattr(source, "caught_text", None)
        if callable(shows):
            try:
                built = [c for c in built if shows(c.repo, c.entry_id) & set(carried)]
            except Exception:  # a source that cannot say answers by text only
                log.exception("could not look up what an entry shows of what it catches")
                return None
    return built[0] if len(built) == 1 else None


def _names(part: ParsedError) -> tuple[Named, ...]:
    """The names a part printed; a part that is only a type's name
    (``OddLength``, a unit variant's Debug form) names that type."""
    if part.named:
        return part.named
    if part.exception_type and not part.message.strip():
        if _runtime_class(part):
            # a runtime's own class printed with no text was raised with none
            # (mpmath's bare ``raise ZeroDivisionError``): a raise of that
            # class with a text of its own did not print it, so the name
            # finds no entry; a raise with no text verifies the empty message
            return ()
        return (Named(part.exception_type.rsplit(".", 1)[-1], 0),)
    word = part.message.strip()
    if _TYPE_NAME.fullmatch(word) and part.exception_type is None:
        return (Named(word, 0),)
    return ()


def _runtime_class(part: ParsedError) -> bool:
    """Whether the part's type is one of its runtime's own exception classes
    (Python's ``ZeroDivisionError``), not a value's name (Rust's unit variant
    ``OddLength``, printed in its Debug form)."""
    lang = plugins.find(part.language)
    kind = (part.exception_type or "").strip().removeprefix("builtins.")
    return lang is not None and "." not in kind and lang.runtime.builtin_classes(kind) is not None


#: One CamelCase word: a type's or a unit variant's name, not a message;
#: or one in capitals (y4m's and fasteval's ``EOF``, errno's ``ENOENT``).
_TYPE_NAME = re.compile(
    r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]{2,40}|[A-Z][A-Z0-9_]{2,40}"
)


#: Constant characters a template needs to be found inside a longer message.
MIN_PARTIAL_CHARS = 4
#: Names of a printed value looked up (the innermost first).
MAX_NAMES = 12
#: Repositories whose identifiers are asked for a printed value's other names.
MAX_KNOWN_REPOS = 8


def _by_name(
    source: CandidateSource, named: Sequence[Named], limit: int, texts: Sequence[Candidate] = ()
) -> tuple[
    dict[tuple[str, str], tuple[Candidate, Named]],
    dict[str, int],
    dict[str, int],
    dict[str, set[str]],
    set[tuple[str, str]],
]:
    """The entries of the types and variants a printed value names, each with
    the innermost name that found it; and per repository, how many of the
    value's names it has entries for beyond the first (a value of
    ``DecompressError { status: Failed }`` is miniz_oxide's ``Failed``, not
    another crate's); and per repository, when several have the names, how
    many of the shapes printed it declares (``_shape_agrees``); and per
    name held inside, the repositories it belongs to: those with an entry
    of a name that holds it and code that names it (lexical-core's ``Error
    { code: InvalidDigit, .. }``: its own ``InvalidDigit``, a code with no
    message, not num-bigint's); and the (repository, name) pairs whose
    repository declares that name only in shapes other than the one
    printed (fancy-regex's ``InnerError(Syntax(..))`` holds regex's tuple
    ``Syntax``, not serde-xml-rs's ``Syntax { source }``)."""
    if not named or not callable(getattr(source, "named", None)):
        return {}, {}, {}, {}, set()
    found: dict[tuple[str, str], tuple[Candidate, Named]] = {}
    names_of: dict[str, set[str]] = {}
    picked: dict[str, Named] = {}
    # the innermost of a name, but never a std value (``runtime``) over the
    # crate's own of that name: plist's Error { .. Io(Error { kind:
    # UnexpectedEof, .. }) } is plist's Error outermost, std's io::Error inside
    for n in sorted(named, key=lambda n: (n.runtime, -n.depth)):
        picked.setdefault(n.name, n)
    beside = kinds_beside_values(named)
    for n in list(picked.values())[:MAX_NAMES]:
        entries = _named_entries(source, n.name, limit)
        if entries is None:
            return {}, {}, {}, {}, set()
        for c in _spelled(entries, n.name):
            if kind_of_io(c, n, beside):
                continue
            found.setdefault((c.repo, c.entry_id), (c, n))
            names_of.setdefault(c.repo, set()).add(n.name)
    # an entry the text found whose type the value names: a name as common
    # as ``Error`` has more entries than one lookup returns
    for c in texts:
        key = (c.repo, c.entry_id)
        last = {t.replace(" ", "").rsplit("::", 1)[-1] for t in c.exception_types}
        held = next((picked[x] for x in picked if x in last), None)
        if held is not None and key not in found:
            found[key] = (c, held)
            names_of.setdefault(c.repo, set()).add(held.name)
    bonus = {repo: len(names) - 1 for repo, names in names_of.items()}
    shapes: dict[str, int] = {}
    owned: dict[str, set[str]] = {}
    alien: set[tuple[str, str]] = set()
    known = getattr(source, "known", None)
    if callable(known) and len(names_of) > 1:
        # the value's other names (``ParseBigIntError`` around ``kind: Empty``)
        # tell apart crates that each have a variant of the name found, and
        # so does the shape it printed (``shape_key``). Asked in turn: the
        # crates that found the outermost names (plist's Error around kinds
        # with no entries), and those that found the most of its names, the
        # innermost first (walkdir's Io inside the Error its code names: a
        # name as common as Error outermost is found in most crates)
        # between equals, the crate whose text the paste's words find first
        text_rank: dict[str, int] = {}
        for i, c in enumerate(texts):
            text_rank.setdefault(c.repo, i)
        unranked = len(texts)

        def shallowest(repo: str) -> tuple[int, int]:
            depth = min(picked[n].depth for n in names_of[repo])
            return depth, text_rank.get(repo, unranked)

        def most(repo: str) -> tuple[int, int, int]:
            deepest = max(picked[n].depth for n in names_of[repo])
            return -len(names_of[repo]), -deepest, text_rank.get(repo, unranked)

        both = zip(sorted(names_of, key=shallowest), sorted(names_of, key=most), strict=True)
        asked = list(dict.fromkeys(r for pair in both for r in pair))
        for repo in asked[:MAX_KNOWN_REPOS]:
            rest = [n for n in picked if n not in names_of[repo]][:MAX_NAMES]
            shown = [picked[n] for n in names_of[repo] if n in picked][:MAX_NAMES]
            keys = [shape_key(n.name, s) for n in shown for s in (*_SHAPES, _ERROR_TYPE)]
            # the shapes of the names it has no entries of, to tell a type
            # it declares from a name its code only uses (``Error``, the trait)
            held_keys = [shape_key(n, s) for n in rest for s in _SHAPES if not picked[n].runtime]
            try:
                got = known(repo, rest + keys + held_keys) if rest or keys else set()
            except Exception:  # a source that cannot say still ranks by the names
                log.exception("could not look up a repository's identifiers")
                break
            bonus[repo] += len(got.intersection(rest))
            agrees = {n.name: _shape_agrees(n, got) for n in shown}
            shapes[repo] = sum(agrees.values())
            alien.update((repo, name) for name, a in agrees.items() if a < 0)
            # the outermost value is what a function returned: an error type
            shapes[repo] += sum(
                1 for n in shown if n.depth == 0 and shape_key(n.name, _ERROR_TYPE) in got
            )
            for name in _owns(named, picked, names_of[repo], set(rest), got):
                owned.setdefault(name, set()).add(repo)
    return found, bonus, shapes, owned, alien


def _spelled(got: Sequence[Candidate], name: str) -> Sequence[Candidate]:
    """Names are looked up without case, but a printed ``UnexpectedEOF`` is
    dns-parser's variant, not xml-rs's ``UnexpectedEof``: when an entry's
    type is spelled as printed, an entry whose type differs from it in case
    alone is left out. Any other entry the name found stays (an enum's
    variant, a generic ``ParseError<T>``, a name found through a shape)."""

    def names(c: Candidate) -> set[str]:
        return {last_name(t) for t in c.exception_types}

    if not any(name in names(c) for c in got):
        return got
    folded = name.casefold()
    return [c for c in got if name in names(c) or not any(n.casefold() == folded for n in names(c))]


def _owns(
    named: Sequence[Named],
    picked: dict[str, Named],
    entries: set[str],
    rest: set[str],
    got: set[str],
) -> list[str]:
    """The names held inside a printed value that are one crate's own: it
    has entries of every name that holds them, or declares the type (its
    code only naming it says nothing: every crate names ``Error``, the
    trait), in the shapes printed. png's UnexpectedEof inside its
    ``Format(FormatError { .. })``, not jpeg-decoder's (no FormatError);
    walkdir's Io inside its ``Error { .. }``, not serde_cbor's (its
    ``Error(..)`` is a tuple); lexical-core's Empty inside its ``Error {
    code: Empty, .. }``, not tokio's (no Error of that shape)."""
    declared = {n for n in rest if n in got and any(shape_key(n, s) in got for s in _SHAPES)}
    knows = entries | declared
    if not knows:
        return []
    top = min(picked[n].depth for n in knows)
    out = []
    for name in knows:
        n = picked[name]
        path = _chain(named, n)
        if n.depth <= top or not knows.issuperset(path):
            continue
        if all(_shape_agrees(picked[x], got) >= 0 for x in path if x in picked):
            out.append(name)
    return out


#: The shapes a type is declared with (``shape_key``).
_SHAPES = ("(", "{", ";", "?", "!")
#: The mark of a type that implements the error trait (``shape_key``).
_ERROR_TYPE = "*"


def _shape_agrees(n: Named, declared: set[str]) -> int:
    """-1 when the repository declares ``n``'s name only with shapes other
    than the one printed, and no hand-written Debug for it (then that type
    did not print it); 1 for a value that hides its fields (``SendError(..)``)
    where the repository writes that Debug by hand; else 0. A name declared
    nowhere says nothing (a macro may declare it, another crate may)."""
    shape = printed_shape(n.fields, n.items)
    if shape == "?":
        hidden = shape_key(n.name, "?") in declared or shape_key(n.name, "!") in declared
        return 1 if hidden else 0
    if shape_key(n.name, shape) in declared:
        return 0
    if shape_key(n.name, "!") in declared:
        return -1  # its Debug hides the value: "Full(..)" is all it prints
    if shape_key(n.name, "?") in declared:
        return 0
    return -1 if any(shape_key(n.name, s) in declared for s in _SHAPES) else 0


def _named_match(
    c: Candidate,
    n: Named,
    others: int,
    level: int,
    suffixes: dict[str, None] | None,
    inner: str | None = None,
    shape: int = 0,
) -> Match:
    """An entry of the type or variant ``n`` names: the deeper the name,
    the more it says (``InvalidDigit`` inside ``ParseError { kind: .. }``);
    ``shape``, whether its repository declares the shapes printed
    (``_shape_agrees``), only breaks near ties.
    A value that prints its own message (``Error("msg")``: ``inner``) is
    told by that text first; its names only when the text verifies nowhere."""
    frame_path, _ = _frame_match(c.paths, suffixes)
    values = _printed_values(c.template, n)
    # the placeholders its fields fill tell apart two crates' variants of one
    # name; one the value has nothing for is text it did not print
    # (``DecompressError(General { msg: None })`` is the arm without ``: {}``)
    unfilled = len({h.expr or h.spec for h in c.template.holes}) - len(values)
    score = (
        0.6
        + 0.03 * min(0 if n.runtime else n.depth, 5)
        # std's value of the name (``Custom { kind, error }``, an io::Error),
        # or another crate's, says less than a name its crate prints so
        - (0.02 if n.runtime else 0)
        + 0.04 * min(others, 3)
        + 0.02 * min(len(values), 3)
        - 0.01 * min(max(unfilled, 0), 3)
        + 0.005 * max(-2, min(shape, 2))
    )
    if inner is not None:
        score -= 0.25
    if gives_text(c.template, n):
        score += 0.1  # the text the construction gave it, written into its message
    if enum_wide(c.exception_types, n.name):
        score -= 0.01  # one text for every variant says less of this one than its own
    if c.template.holes and all(len(w) <= 3 for w in template_tokens(c.template)):
        score -= 0.03  # "{} at {}" wraps the text of what it holds, which says more
    return Match(
        entry_id=c.entry_id,
        repo=c.repo,
        score=round(score, 4),
        values=values,
        message=c.template.display(),
        exact=True,
        type_agrees=True,
        frame_path=frame_path,
        frame_level=level,
        specific=True,
        paths=c.paths,
    )


def _renders_whole(t: Template, values: dict[str, str]) -> bool:
    """Whether the printed fields fill every placeholder of a template with
    words of its own: the text that value's ``Display`` printed, whole
    (datetime's ``Date(OutOfRange)``: ``parsing resulted in an invalid
    date: {}``, its one field the error it holds). Fields that are all
    texts are the message the value carries, which its constructions wrote
    (vcpkg's ``VcpkgNotFound("Failed to read ..")``): the text tells those
    apart, not a placeholder it would fill."""
    keys = {h.expr or h.spec for h in t.holes}
    return (
        bool(values)
        and len(values) >= len(keys)
        and not all(_quoted_text(v) for v in values.values())
        and any(len(w) > 3 for w in template_tokens(t))
    )


def _quoted_text(value: str) -> bool:
    v = value.strip()
    return len(v) >= 2 and v[0] == v[-1] == '"'


def _outermost_rendered(
    best: dict[tuple[str, str], Match], rendered: dict[tuple[str, str], int]
) -> dict[tuple[str, str], Match]:
    """The entries whose text the outermost value printed whole
    (``_renders_whole``) come before the names it holds: its ``Display`` is
    what the user saw, and a name deeper in is what that text says of its
    cause (nom's ``Error { input: "x", code: Tag }`` printed ``error Tag at:
    x``, not ``Tag``'s text). Among them, the order stays."""
    if not rendered:
        return best
    depth = min(rendered.values())
    picked = [k for k, d in rendered.items() if d == depth and k in best]
    named = [m.score for m in best.values() if m.chain]
    if not picked or not named:
        return best
    lift = round(max(named) + 0.01 - max(best[k].score for k in picked), 4)
    if lift <= 0:
        return best
    return {
        k: replace(m, score=round(m.score + lift, 4)) if k in picked else m for k, m in best.items()
    }


def _chain(named: Sequence[Named], n: Named) -> tuple[str, ...]:
    """The names that hold ``n`` in a printed value, outermost first, and ``n``."""
    if n not in named:
        return (n.name,)
    out = [n.name]
    depth = n.depth
    for x in reversed(named[: list(named).index(n)]):
        if x.depth < depth:
            out.append(x.name)
            depth = x.depth
    return tuple(reversed(out))


def _printed_values(t: Template, n: Named) -> dict[str, str]:
    """The values a printed value gives the template's placeholders: a
    field of the same name (``{index}``, ``{self.index}``), a tuple field by
    number (``{0}``), or the items in order when there are as many."""
    fields = dict(n.fields)
    pairs: list[tuple[Hole, str]] = []
    rest: list[Hole] = []
    for h in t.holes:
        name = h.expr.removeprefix("self.").lstrip("&*")
        if name in fields:
            pairs.append((h, fields[name]))
        elif name.isdigit() and int(name) < len(n.items):
            pairs.append((h, n.items[int(name)]))
        else:
            rest.append(h)
    if rest and len(rest) == len(n.items) and not fields and not any(map(_is_value, n.items)):
        pairs += list(zip(rest, n.items, strict=True))
    return _values(pairs)


def _shown(m: Match) -> bool:
    """Whether a match has any evidence. A dynamic or empty template that did
    not verify, with no frame in a file of its sites, has only an exception
    type in common with the message: that is nothing, so it is not shown."""
    return m.exact or m.located or m.textual or m.frame_level > 0 or m.frame_path is not None


def _order(m: Match) -> tuple[bool, int, bool, bool, bool, bool, float, bool]:
    """Sort key: verified or located first; then the frames decide; then a
    template with constant text beats a dynamic one; then an entry the
    library's own code throws beats one thrown only in test code (regex's
    ``unclosed group`` before a test fixture's copy of the same text); then
    the score; then, between equals, the entry of a public package over a
    private copy of it (click's text before typer's vendored ``typer/_click``).
    Among the closest candidates that did not verify, one with a site in a
    file of the traceback comes before one from code the traceback never
    entered."""
    tier = m.exact or m.located
    near = not tier and (m.frame_level > 0 or m.frame_path is not None)
    return (
        tier,
        m.frame_level if tier else 0,
        near,
        m.specific,
        m.exact,
        not _only_in_tests(m),
        m.score,
        _public(m),
    )


def _only_in_tests(m: Match) -> bool:
    """Whether every site of the entry is in test code, by its path."""
    return bool(m.paths) and all(is_test_path(p) for p in m.paths)


def _public(m: Match) -> bool:
    """Whether a site is in no private directory (``_internal``, ``_vendor``)."""
    return any(not any(d.startswith("_") for d in p.split("/")[:-1]) for p in m.paths)


_Loc = tuple[str, int | None]


def _frame_locations(frames: Sequence[FrameLike]) -> list[_Loc]:
    """(normalized path, line) of each frame with a path, in printed order."""
    picked = list(frames)
    if len(picked) > MAX_FRAMES:
        picked = picked[: MAX_FRAMES // 2] + picked[-MAX_FRAMES // 2 :]
    out: list[_Loc] = []
    for f in picked:
        path = getattr(f, "path", None)
        line = getattr(f, "line", None)
        if isinstance(path, str) and path:
            out.append((_norm_path(path)[:1024], line if isinstance(line, int) else None))
    return out


def _at(loc: _Loc, path: str, line: int) -> bool:
    """Whether a frame location is ``path`` (repository-relative) at ``line``."""
    fpath, fline = loc
    if fline != line or not path:
        return False
    return fpath == path or fpath.endswith("/" + path)


def _frame_level(
    sites: Sequence[tuple[str, int, str | None]], stack: list[_Loc], raise_at: _Loc | None
) -> int:
    level = 0
    if not stack:
        return 0
    for path, line, via in sites[:256]:
        in_stack = any(_at(f, path, line) for f in stack)
        v = via_place(via)
        via_raise = v is not None and raise_at is not None and _at(raise_at, *v)
        if (raise_at is not None and _at(raise_at, path, line)) or (via_raise and in_stack):
            return 2
        if in_stack or via_raise or (v is not None and any(_at(f, *v) for f in stack)):
            level = 1
    return level


@lru_cache(maxsize=8192)
def _compiled(t: Template) -> Matcher:
    return compile_template(t)


def _verifies(t: Template, text: str) -> bool:
    """``t`` has words of its own and matches all of ``text``."""
    matcher = _compiled(t)
    return matcher.textual and matcher.worded and matcher.match(text) is not None


def _judge(
    c: Candidate,
    message: str,
    raw: str | None,
    want: str,
    suffixes: dict[str, None] | None,
    words: set[str],
    level: int = 0,
    inner: str | None = None,
) -> Match:
    t = c.template
    # a method that builds the exception (``raise left.error(...)``) names no class:
    # a site of it may raise any, so only a class named at another site agrees
    types = set().union(*(type_names(x) for x in c.exception_types if not _method_named(x)))
    types -= {""}
    type_agrees = (want in types) if (want and types) else None
    if type_agrees is False and any(_method_named(x) for x in c.exception_types):
        type_agrees = None
    type_score = 0.5 if type_agrees is None else (1.0 if type_agrees else 0.0)
    frame_path, frame_score = _frame_match(c.paths, suffixes)
    matcher = _compiled(t)
    if not matcher.textual or not matcher.worded:
        found = matcher.match(message) if matcher.textual else None
        return _judge_untextual(
            c,
            message,
            want,
            types,
            frame_path,
            max(frame_score, level / 2),
            level,
            _values(found.values) if found else None,
        )
    result: MatchResult | None = _one_line_match(t, message)
    if result is None:
        result = matcher.match(message)
    if result is None and inner is not None:
        result = matcher.match(inner)
    # a text found inside a longer one must say something: "1" (a test's
    # panic!("1")) is in "invalid symbol at 1" by chance
    if result is None and matcher.constant_chars >= MIN_PARTIAL_CHARS:
        result = matcher.match(message, partial=True)
        if result is None and raw:
            result = matcher.match(raw, partial=True)
    if result is None:
        result = _first_line_match(t, message)
    if result is None:
        return Match(
            entry_id=c.entry_id,
            repo=c.repo,
            score=round(_closeness(t, words) * 0.3, 4),
            values={},
            message=t.display(),
            exact=False,
            type_agrees=type_agrees,
            frame_path=frame_path,
            frame_level=level,
            paths=c.paths,
        )
    holes = matcher.hole_count
    spec = matcher.constant_chars / (matcher.constant_chars + 6 * holes)
    score = 0.55 * result.coverage + 0.15 * spec + 0.15 * type_score + 0.15 * frame_score
    if result.partial:
        score *= 0.85
    return Match(
        entry_id=c.entry_id,
        repo=c.repo,
        score=round(score, 4),
        values=_values(result.values),
        message=t.display(),
        exact=True,
        partial=result.partial,
        coverage=round(result.coverage, 4),
        type_agrees=type_agrees,
        frame_path=frame_path,
        frame_level=level,
        specific=True,
        paths=c.paths,
    )


def _one_line_match(t: Template, message: str) -> MatchResult | None:
    """A message of several lines whose first line a one-line template
    verifies whole: the exception's ``__str__`` adds lines of its own after
    the text the code wrote (jsonschema's ``Failed validating 'type' in
    schema…``), and the template's last placeholder does not take them."""
    first, nl, _ = message.strip().partition("\n")
    if not nl or any("\n" in c for c in t.chunks()):
        return None
    return _compiled(t).match(first)


def _first_line_match(t: Template, message: str) -> MatchResult | None:
    """A message of several lines pasted as its first lines alone (what a
    log line, a log record cut short or a traceback's last line shows): the
    template's first as many lines, when they have words of their own,
    verify it, as a partial match. A line break that opens the template
    (celery's ``E_RETRY_LIMIT_EXCEEDED``, which starts with one) is not a line."""
    head = _first_lines(t, message.strip().count("\n") + 1)
    if head is None:
        return None
    matcher = _compiled(head)
    if not matcher.textual or not matcher.worded:
        return None
    found = matcher.match(message.strip())
    return replace(found, partial=True) if found is not None else None


@lru_cache(maxsize=8192)
def _first_lines(t: Template, n: int) -> Template | None:
    """The template up to its ``n``-th line break, the breaks before any
    text left out; None when it has fewer lines than that after them."""
    parts: list[Part] = []
    for p in t.parts:
        if not isinstance(p, Text) or "\n" not in p.text:
            parts.append(p)
            continue
        text = p.text if parts else p.text.lstrip("\n")
        lines = text.split("\n")
        if len(lines) > n:
            head = "\n".join(lines[:n])
            if head:
                parts.append(Text(head))
            return Template.of(t.syntax, *parts) if parts else None
        n -= len(lines) - 1
        if text:
            parts.append(Text(text))
    return None


def _judge_untextual(
    c: Candidate,
    message: str,
    want: str,
    types: set[str],
    frame_path: str | None,
    frame_score: float,
    level: int = 0,
    values: dict[str, str] | None = None,
) -> Match:
    """A dynamic or empty template, or one without a word of its own: only the
    exception type and frames can tell. ``values``: what its text matched."""
    t = c.template
    agrees = bool(want) and want in types
    exact = agrees and (frame_score >= 0.6 or (t.is_empty and not message.strip()))
    values = values if exact and values is not None else {}
    if t.dynamic and len(t.holes) == 1 and message.strip():
        values = _values(((t.holes[0], normalize(message)),))
    score = (0.3 if agrees else 0.05) + 0.3 * frame_score
    return Match(
        entry_id=c.entry_id,
        repo=c.repo,
        score=round(score if exact else min(score, 0.29), 4),
        values=values,
        message=t.display(),
        exact=exact,
        type_agrees=agrees if (want and types) else None,
        frame_path=frame_path,
        frame_level=level,
        textual=False,
        paths=c.paths,
    )


#: A Debug item that is a named value (``General { msg: None }``), or ``None``.
_NAMED_ITEM = re.compile(r"[A-Z]\w*(?:::\w+)*\s?[({].*|None", re.DOTALL)


def _is_value(item: str) -> bool:
    """Whether a printed item is a value of its own, which a placeholder in
    order does not take (its fields are read by name where it is named)."""
    return _NAMED_ITEM.fullmatch(item.strip()) is not None


def _values(pairs: Sequence[tuple[Hole, str]]) -> dict[str, str]:
    keys = value_keys([(hole.expr, hole.spec) for hole, _ in pairs])
    return dict(zip(keys, (value for _, value in pairs), strict=True))


def value_keys(holes: Sequence[tuple[str, str]]) -> list[str]:
    """The names the values of ``holes`` ((expression, spec) in order) are
    shown under: the placeholder's name (``_spec_name``), else the
    expression; a name seen before gets ``#2``, ``#3``."""
    out: list[str] = []
    for expr, spec in holes:
        key = _spec_name(spec) or expr or spec
        if key in out:
            n = 2
            while f"{key}#{n}" in out:
                n += 1
            key = f"{key}#{n}"
        out.append(key)
    return out


#: the name a placeholder is written with: ``{value!r}``, ``{n:>5}``,
#: ``%(name)s``, ``${x}``; a position (``{}``, ``{0}``, ``%s``) has none
_SPEC_NAME = re.compile(r"^(?:\$?\{|%\()([A-Za-z_][\w.]*)")


def _spec_name(spec: str) -> str | None:
    """The name a value is shown under: the placeholder's as the template
    writes it (``{number_type}``), not the expression that fills it
    (``self.name``), which the user never wrote.

    >>> _spec_name("{value!r}"), _spec_name("%(name)s"), _spec_name("{}")
    ('value', 'name', None)
    """
    m = _SPEC_NAME.match(spec)
    return m.group(1) if m else None


def _closeness(t: Template, have: set[str]) -> float:
    """How many of the template's words the message has (0..1)."""
    words = template_tokens(t)
    if not words:
        return 0.0
    return sum(1 for w in words if w in have) / len(words)


def _norm_path(p: str) -> str:
    p = p.replace("\\", "/").strip()
    while p.startswith("./"):
        p = p[2:]
    return p


def _frame_suffixes(frames: Sequence[FrameLike]) -> dict[str, None] | None:
    """Every tail of every frame path ("a/b/c.py" -> "c.py", "b/c.py", ...)."""
    if not frames:
        return None
    picked = list(frames)
    if len(picked) > MAX_FRAMES:
        picked = picked[: MAX_FRAMES // 2] + picked[-MAX_FRAMES // 2 :]
    out: dict[str, None] = {}
    for f in picked:
        path = getattr(f, "path", None)
        if not isinstance(path, str) or not path:
            continue
        comps = _norm_path(path)[:1024].split("/")
        for i in range(max(0, len(comps) - 12), len(comps)):
            out["/".join(comps[i:])] = None
    return out


def _frame_match(
    paths: Sequence[str], suffixes: dict[str, None] | None
) -> tuple[str | None, float]:
    """The best site path that a frame points at, and how sure (0..1)."""
    if suffixes is None or not paths:
        return None, 0.5
    best: tuple[str | None, float] = (None, 0.2)
    for p in paths[:64]:
        n = _norm_path(p)
        comps = n.split("/")
        if n in suffixes:
            return p, 1.0
        if len(comps) >= 2 and "/".join(comps[-2:]) in suffixes and best[1] < 0.6:
            best = (p, 0.6)
        elif comps[-1] in suffixes and best[1] < 0.3 and comps[-1] not in _GENERIC_NAMES:
            best = (p, 0.3)
    return best


def _parse(text: str) -> list[ParsedError]:
    parts: list[ParsedError] = []
    try:
        parts = list(parse(text))
    except Exception:  # the paste parsers promise not to raise; do not rely on it
        log.exception("could not parse the pasted text; matching it whole")
    if not parts and text.strip():
        parts = [
            ParsedError(
                message=text.strip(), raw=text, exception_type=None, language=None, kind=None
            )
        ]
    return parts
