"""The words and keys messages and templates are indexed by (pure): the
tokenisers both candidate indexes share, ``MemoryIndex`` in memory and the
store's postings (``errordex.store.postings``, read by
``errordex.store.candidates.StoreIndex``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence

from errordex.template import Hole, Template, Text

__all__ = [
    "entry_keys",
    "first_name_key",
    "first_names",
    "fts_query",
    "name_key",
    "path_tails",
    "query_terms",
    "query_tokens",
    "shape_key",
    "template_terms",
    "template_tokens",
    "type_name",
    "type_names",
]

#: How much of a message is tokenized for retrieval.
MAX_QUERY_CHARS = 8192
#: Distinct words of a message used for retrieval.
MAX_QUERY_TOKENS = 48
#: Templates with at most this many index terms are also found by their first/last chunk.
AFFIX_TERMS = 3
#: Characters of a first/last chunk used as its key.
AFFIX_CHARS = 48

_WORD = re.compile(r"[^\W_]+")


def path_tails(path: str, depth: int = 12) -> list[str]:
    """Every tail of a frame path, the longest first: ``a/b/c.py`` -> ``a/b/c.py``, ``b/c.py``, ``c.py``."""
    comps = path.replace("\\", "/").strip()[:1024].split("/")
    comps = [c for c in comps if c not in ("", ".")]
    return ["/".join(comps[i:]) for i in range(max(0, len(comps) - depth), len(comps))]


def type_name(exception_type: str | None) -> str:
    """The last dotted component, lowercased: ``json.decoder.JSONDecodeError`` -> ``jsondecodeerror``."""
    if not exception_type:
        return ""
    return re.split(r"[.:]+", exception_type.strip())[-1].lower()


def type_names(exception_type: str | None) -> set[str]:
    """Names an entry's exception type answers to: its last dotted component,
    and the last one that names a class (``ValidationError.from_exception_data``
    raises a ``ValidationError``)."""
    if not exception_type:
        return set()
    comps = [c for c in re.split(r"[.:]+", exception_type.strip()) if c]
    out = {comps[-1].lower()} if comps else set()
    for c in reversed(comps):
        if c[:1].isupper():
            out.add(c.lower())
            break
    return out


def query_tokens(message: str) -> list[str]:
    """Distinct words of a message (lowercase, two characters or more), in order."""
    seen: dict[str, None] = {}
    for m in _WORD.finditer(message[:MAX_QUERY_CHARS]):
        w = m.group().lower()
        if len(w) > 1 and len(w) <= 64:
            seen[w] = None
            if len(seen) >= MAX_QUERY_TOKENS * 4:
                break
    return list(seen)


def query_terms(message: str) -> list[str]:
    """Index terms of a message: its words and its pairs of adjacent words."""
    seen: dict[str, None] = {}
    prev = ""
    for m in _WORD.finditer(message[:MAX_QUERY_CHARS]):
        w = m.group().lower()
        if len(w) > 64:
            prev = ""
            continue
        if len(w) > 1:
            seen[w] = None
        if prev:
            seen[prev + " " + w] = None
        prev = w
        if len(seen) >= MAX_QUERY_TOKENS * 8:
            break
    return list(seen)


def _chunk_words(t: Template) -> list[list[str]]:
    """Per literal chunk, the words surely in the message (not glued to a hole)."""
    out: list[list[str]] = []
    parts = t.parts
    for i, p in enumerate(parts):
        if not isinstance(p, Text):
            continue
        hole_before = i > 0 and isinstance(parts[i - 1], Hole)
        hole_after = i + 1 < len(parts) and isinstance(parts[i + 1], Hole)
        words = []
        for m in _WORD.finditer(p.text):
            if hole_before and m.start() == 0:
                continue
            if hole_after and m.end() == len(p.text):
                continue
            words.append(m.group().lower())
        out.append(words)
    return out


def template_tokens(t: Template) -> list[str]:
    """The words a message produced by ``t`` surely contains (see module doc)."""
    out: dict[str, None] = {}
    for words in _chunk_words(t):
        for w in words:
            if 1 < len(w) <= 64:
                out[w] = None
    return list(out)


def template_terms(t: Template) -> list[str]:
    """Index terms: the words of ``template_tokens`` and the pairs of adjacent
    words (a pair of common words, "is invalid", is much rarer than each)."""
    out: dict[str, None] = {}
    for words in _chunk_words(t):
        prev = ""
        for w in words:
            if len(w) > 64:
                prev = ""
                continue
            if len(w) > 1:
                out[w] = None
            if prev:
                out[prev + " " + w] = None
            prev = w
    return list(out)


def affix_keys(t: Template) -> list[str]:
    """Keys of a few-word template: its whole text, or its first / last chunk."""
    parts = t.parts
    if len(parts) == 1 and isinstance(parts[0], Text):
        return ["=" + " ".join(parts[0].text.split()).lower()]
    keys = []
    first, last = parts[0], parts[-1]
    if isinstance(first, Text):
        keys.append("<" + " ".join(first.text.split()).lower()[:AFFIX_CHARS])
    if isinstance(last, Text):
        keys.append(">" + " ".join(last.text.split()).lower()[-AFFIX_CHARS:])
    # a chunk without a word ("." or ": ") would be met by most messages
    return [k for k in keys if any(len(w) > 1 for w in _WORD.findall(k))]


def message_affixes(message: str) -> list[str]:
    """The keys a message can meet in the affix table (see ``affix_keys``)."""
    head = " ".join(message[: AFFIX_CHARS * 4].split()).lower()
    tail = " ".join(message[-AFFIX_CHARS * 4 :].split()).lower()
    keys = []
    if len(message) <= 1024:
        keys.append("=" + " ".join(message.split()).lower())
    keys += ["<" + head[:i] for i in range(1, min(len(head), AFFIX_CHARS) + 1)]
    keys += [">" + tail[-i:] for i in range(1, min(len(tail), AFFIX_CHARS) + 1)]
    keys.sort(key=len, reverse=True)  # the longest (most specific) first
    return keys


def is_textual(t: Template) -> bool:
    return not t.dynamic and not t.is_empty and bool(t.literal_text())


def wordless_key(t: Template) -> tuple[str, ...]:
    return tuple(c.strip() for c in t.chunks())


def entry_keys(t: Template, exception_types: Iterable[str] = ()) -> list[str]:
    """Every key that finds an entry, as ``MemoryIndex`` files it (``StoreIndex``
    reads them from the store): its terms (``template_terms``); the
    ``<``/``>``/``=`` first-chunk, last-chunk and whole-text keys of a template
    of few terms; ``~`` and its chunks (JSON) for a template without words;
    ``!`` and a type name for a template without constant text; and ``@`` and
    each type name, which a printed value of the type names (Rust's Debug
    form, ``InvalidDigit``: see ``name_key``).

    >>> entry_keys(Template.literal("chunked"))
    ['chunked', '=chunked', '<chunked', '>chunked']
    >>> entry_keys(Template.literal("invalid digit"), ["IntErrorKind::InvalidDigit"])[-1]
    '@invaliddigit'
    """
    names = [name_key(n) for x in exception_types if (n := type_name(x))]
    if not is_textual(t):
        return list(
            dict.fromkeys(["!" + n for x in exception_types if (n := type_name(x))] + names)
        )
    terms = template_terms(t)
    keys = list(terms)
    if len(terms) <= AFFIX_TERMS:
        keys += affix_keys(t)
    if not terms:
        keys.append("~" + json.dumps(wordless_key(t)))
    return list(dict.fromkeys(keys + names))


def name_key(name: str) -> str:
    """The key that finds the entries of a type or variant by its name."""
    return "@" + type_name(name)


def first_name_key(name: str) -> str:
    """The key of a repository's first entry of a type or variant name, next
    to ``name_key``: a crate that builds one type of many texts (prost's
    ``DecodeError::new("..")`` at 30 sites) fills a lookup of the name, and
    another crate's one entry of it (base-x's unit ``DecodeError``) is still
    found by this key.

    >>> first_name_key("DecodeError")
    '@^decodeerror'
    """
    return "@^" + type_name(name)


def first_names(exception_types: Iterable[str], seen: set[str]) -> list[str]:
    """``first_name_key`` of each of an entry's type names not in ``seen``
    (the names of its repository's entries before it), added to ``seen``."""
    out = []
    for x in exception_types:
        n = type_name(x)
        if n and n not in seen:
            seen.add(n)
            out.append(first_name_key(n))
    return out


def shape_key(name: str, shape: str) -> str:
    """The identifier a declared Debug shape is filed under, next to a
    repository's identifiers (no identifier has these marks): ``(`` a tuple,
    ``{`` fields, ``;`` a unit value, ``?`` a hand-written Debug, ``!`` one
    that prints the value hidden (``"Full(..)"``).

    >>> shape_key("ParseLevelError", "(")
    'ParseLevelError('
    """
    return name + shape


def printed_shape(fields: Sequence[object], items: Sequence[object]) -> str:
    """The shape a printed value shows (``shape_key``): ``{`` with fields,
    ``(`` with items, ``;`` with neither; ``?`` for one that hides its
    fields (``SendError(..)``), as only a hand-written Debug prints.

    >>> printed_shape((), ("7",)), printed_shape((), (".", "."))
    ('(', '?')
    """
    if tuple(items)[-2:] == (".", "."):
        return "?"
    return "{" if fields else "(" if items else ";"


def fts_query(tokens: Iterable[str]) -> str:
    """A safe FTS5 query: each token quoted as a string, OR-ed. User text is
    never FTS5 syntax here; with no usable token the query is ``""`` (matches
    nothing).

    >>> fts_query(['near', 'a"b', 'OR'])
    '"near" OR "a""b" OR "OR"'
    """
    quoted = []
    for t in tokens:
        t = t.replace("\x00", "")
        if t:
            quoted.append('"' + t.replace('"', '""') + '"')
    return " OR ".join(quoted) or '""'


#: First characters of the special keys of ``entry_keys`` (a term starts with a letter or digit).
SPECIAL = frozenset("<>=~!@")
