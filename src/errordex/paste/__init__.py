"""Parse what a runtime printed into the error message(s) it contains.

Pure: no I/O. ``parse(text)`` never raises and runs in linear time; a long
paste is read as its first ``clean.HEAD_CHARS`` and its last
``clean.TAIL_CHARS`` characters, cut at line ends (``clean.bound``).

>>> [e.message for e in parse("ValueError: bad port")]
['bad port']

Formats: Java stack traces, node/V8 errors, plain message or log lines, and each
language's own (``Language.paste``: Python tracebacks, Rust panics, Go
panics and ``log.Fatal`` lines). See the module of each for its details.
"""

from __future__ import annotations

from collections.abc import Callable

from errordex import plugins
from errordex.errors import LanguageError
from errordex.paste import other, plain
from errordex.paste.clean import clean_lines
from errordex.paste.model import Found, Frame, ParsedError

__all__ = ["Frame", "ParsedError", "parse"]

_Finder = Callable[[list[str]], list[Found]]

#: Layouts that cannot be mistaken for anything else: each language's (see
#: ``Language.paste_finders``), then those of runtimes errordex does not index.
_OTHER_STRONG: tuple[_Finder, ...] = (other.find_java, other.find_js)
#: Read only when no strong layout was found.
_OTHER_WEAK: tuple[_Finder, ...] = ()


def _finders() -> tuple[tuple[_Finder, ...], tuple[_Finder, ...]]:
    """(strong, weak) finders, the languages' first (in name order)."""
    langs = plugins.languages().values()
    strong = tuple(f for lang in langs for f in lang.paste.finders) + _OTHER_STRONG
    weak = tuple(f for lang in langs for f in lang.paste.fallbacks) + _OTHER_WEAK
    return strong, weak


def parse(text: str) -> list[ParsedError]:
    """Return one ``ParsedError`` per error in ``text``, in the order printed.

    A chained traceback yields one per part. Empty or garbage input yields [].
    """
    try:
        return _parse(text)
    except LanguageError:  # a broken language plugin is not a paste it cannot read
        raise
    except Exception:  # a parser bug must not break `explain`: treat as unparsed
        return []


def _parse(text: str) -> list[ParsedError]:
    if not isinstance(text, str) or not text.strip():
        return []
    lines = clean_lines(text)
    if not lines:
        return []
    strong, weak = _finders()
    tagged: list[tuple[int, int, int, ParsedError]] = []
    for rank, finder in enumerate(strong):
        tagged.extend((f.start, rank, f.end, f.error) for f in finder(lines))
    if tagged:
        return _merge(tagged)
    for finder in weak:
        found = finder(lines)
        if found:
            return [f.error for f in found]
    if _looks_binary(text):
        return []
    return [f.error for f in plain.find(lines)]


def _looks_binary(text: str) -> bool:
    """Whether ``text`` is mostly control characters or decoding debris."""
    sample = text[:4096] + text[-4096:] if len(text) > 8192 else text
    bad = sum(
        1
        for c in sample
        if c == "\ufffd" or (ord(c) < 32 and c not in "\n\r\t\x1b") or 0x7F <= ord(c) < 0xA0
    )
    return bad * 10 > len(sample)


def _merge(tagged: list[tuple[int, int, int, ParsedError]]) -> list[ParsedError]:
    """Order by position; drop a finding inside another finder's span."""
    tagged.sort(key=lambda t: (t[0], t[1]))
    spans: list[tuple[int, int, int]] = []
    out: list[ParsedError] = []
    for start, rank, end, err in tagged:
        if any(r != rank and s <= start <= e for s, e, r in spans[-8:]):
            continue
        spans.append((start, end, rank))
        out.append(err)
    return out
