"""Whether a documented panic is this one (pure).

A function's ``# Panics`` section lists every panic of it, and a page
gathers the sections of every function on the way to its sites. Only a
line about this panic is worth quoting: one that shares a word with the
message, its placeholders or the check that fires it ("capacity exceeded"
and "Panics if extending the vector exceeds its capacity"), not another
panic of the same function ("Panics if `event` contains any newlines" on
the page of "Called `Event::event` multiple times").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_CODE = re.compile(r"`([^`]*)`")
#: words any panic's text or doc may hold: they tell no panic from another
_STOP = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "not",
        "are",
        "this",
        "that",
        "from",
        "into",
        "has",
        "have",
        "been",
        "was",
        "were",
        "will",
        "can",
        "cannot",
        "must",
        "should",
        "its",
        "any",
        "all",
        "when",
        "than",
        "more",
        "less",
        "there",
        "which",
        "then",
        "else",
        "panic",
        "panics",
        "panicked",
        "returns",
        "return",
        "error",
        "value",
        "self",
        "true",
        "false",
        "none",
        "some",
        "also",
        "only",
        "may",
        "might",
        "would",
        "could",
        "does",
        "did",
        "doing",
        "done",
        "get",
        "set",
        "use",
        "used",
        "new",
        "your",
        "you",
        "our",
        "their",
        "them",
        "they",
        "his",
        "her",
        "one",
        "two",
        "out",
        "lie",
        "lies",
        "given",
        "function",
        "method",
        "note",
        "see",
        "other",
        "another",
        "each",
        "every",
        "such",
        "same",
        # words any error's text or doc may hold ("expected", "invalid"): a
        # doc line that shares only these with a message is about any error
        "expect",
        "unexpect",
        "invalid",
        "valid",
        "err",
        "errors",
        "fail",
        "failed",
        "failure",
        "occur",
        "occurr",
        "happen",
        "caus",
        "result",
        "wrong",
        "bad",
        "unable",
        "found",
        "got",
        "provid",
        "suppli",
        "pass",
        "argument",
        "input",
        "data",
    ]
)
#: (the stems above are what ``stem`` folds words to: "expected" -> "expect")


def stem(word: str) -> str:
    """A word folded so its forms meet: ``exceeds``/``exceeded`` -> ``exceed``.

    >>> [stem(w) for w in ("Exceeds", "exceeded", "overflows", "contain", "characters", "indices")]
    ['exceed', 'exceed', 'overflow', 'contain', 'character', 'index']
    """
    w = word.lower()
    if w.endswith("ices") and len(w) > 6:
        return w[:-4] + "ex"  # indices, vertices
    for suffix in ("ing", "ed", "es", "s"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


def words_of(texts: Iterable[str], short: bool = False) -> set[str]:
    """The stems of the words of ``texts`` that may tell a panic: three
    letters or more, or any length when ``short`` (code: ``p``, ``at``)."""
    out: set[str] = set()
    for t in texts:
        for w in _WORD.findall(t):
            s = stem(w)
            if s not in _STOP and (short or len(w) >= 3):
                out.add(s)
    return out


#: a method's name in a call (``flags.contains(…)``): how the check is
#: written, not what it is about
_CALLED = re.compile(r"\.\s*[A-Za-z_]\w*\s*(?:::<[^>]*>)?\s*\(")


def code_words(code: Iterable[str]) -> set[str]:
    """The names a check or a placeholder reads, of any length, less the
    methods it calls (``self.flags.contains(EventFlags::HAS_ID)`` reads
    ``flags``, ``EventFlags``, ``HAS``, ``ID``; ``contains`` is how).

    >>> sorted(code_words(["self.flags.contains(Flags::HAS_ID)"]))
    ['flag', 'id']
    """
    return words_of((_CALLED.sub("(", c) for c in code), short=True)


def doc_words(text: str, owner: str | None = None) -> set[str]:
    """A doc line's words, its code spans' names of any length, less the
    names of ``owner``, the function it documents, when given (each of
    `Event::event`'s lines says `event`)."""
    words = words_of([text]) | words_of(_CODE.findall(text), short=True)
    if owner is None:
        return words
    return words - words_of(re.split(r"::|_|\.", owner), short=True)


def is_about(text: str, owner: str | None, said: set[str]) -> bool:
    """Whether a doc line shares a word with ``said`` (the panic's own
    words); ``owner``'s names do not count when it is given (a function
    whose several panics all name it)."""
    return bool(doc_words(text, owner) & said)


#: words a type's doc uses to say what kind of thing it is, not what went wrong
_KIND_WORDS = frozenset(
    stem(stem(w))
    for w in [
        "type",
        "class",
        "exception",
        "warning",
        "object",
        "instance",
        "main",
        "library",
        "base",
        "related",
        "generic",
        "kind",
        "custom",
        "module",
        "package",
        "crate",
        "wrapper",
        "simple",
        "raised",
        "thrown",
        "create",
        "creates",
        "represents",
        "represent",
        "defines",
        "define",
        "enum",
        "struct",
        "variant",
    ]
)
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def restates(text: str, name: str) -> bool:
    """Whether a type's doc sentence says no more than the type's name
    (``PickleError``'s "Pickle error", marshmallow's "Base class for all
    marshmallow-related errors" for ``MarshmallowError``, "A Foo object"):
    each of its words is one of the name's or says what kind of thing it is.

    >>> restates("Main library error type", "Error")
    True
    >>> restates("Warning class for WSGI warnings", "WSGIWarning")
    True
    >>> restates("Bad request", "HTTPBadRequest")
    True
    >>> restates("*413* `Request Entity Too Large`", "RequestEntityTooLarge")
    False
    >>> restates("Raised when the index is out of range", "IndexError")
    False
    >>> restates("Error type for pickle operations", "PickleError")
    False
    """
    own = {_folded(w) for part in re.split(r"::|\.", name) for w in _CAMEL.findall(part)}
    said = {_folded(w) for w in _WORD.findall(text) if stem(w) not in _STOP}
    # a number is news (werkzeug's "*413* `Request Entity Too Large`")
    numbers = set(re.findall(r"\d+", text)) - set(re.findall(r"\d+", name))
    return not (said - own - _KIND_WORDS) and not numbers


def _folded(word: str) -> str:
    """``stem`` until it stays (``warnings`` -> ``warning`` -> ``warn``)."""
    return stem(stem(word))
