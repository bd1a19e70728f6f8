"""The rows a snapshot's entries are stored as, worked out before the write (pure).

Turning entries into rows (their JSON, the literal text for FTS5, the
matcher's keys) is most of the CPU of a snapshot's write. It does not need
the database, so the index's analysis workers do it for their share of the
entries while the other share is analysed, and the write only inserts.

    rows = EntryRows.of(entries[lo:hi])     # in any process
    writer.add_entry_rows(rows)             # the store's writer, in entry order
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from errordex.match.keys import entry_keys, first_names, type_name
from errordex.model import ErrorEntry
from errordex.runtime import matched_template
from errordex.template import Template

_SURROGATE = re.compile("[\ud800-\udfff]")


def text(value: str) -> str:
    """Text SQLite can store: a lone surrogate (a message written as
    ``"\\udcff"`` in the source) becomes U+FFFD. The JSON columns keep it
    exactly, escaped."""
    # most text is ASCII, which a one-pass C check clears (the stdlib's
    # 25k calls: 0.06 -> 0.01 s)
    return value if value.isascii() else _SURROGATE.sub("\ufffd", value)


#: (id, message, template key, template JSON, kinds JSON, exception types JSON,
#: dynamic, sites outside tests, sites in tests): ``entries`` without its snapshot id
EntryRow = tuple[str, str, str, str, str, str, int, int, int]
#: (entry id, site number, path, line, site JSON): ``sites`` without the snapshot id
SiteRow = tuple[str, int, str, int, str]
#: (entry id, literal text, exception types): ``entries_fts`` by the entry's id
FtsRow = tuple[str, str, str]
#: (entry id, its matcher keys one per line, its exception type names): ``match_docs``
DocRow = tuple[str, str, str]


@dataclass
class EntryRows:
    """Some entries' rows, in entry order."""

    entries: list[EntryRow] = field(default_factory=list)
    sites: list[SiteRow] = field(default_factory=list)
    fts: list[FtsRow] = field(default_factory=list)
    docs: list[DocRow] = field(default_factory=list)
    #: (repository, exception types) of each doc whose ``first_names`` keys
    #: are still to be filed (``file_firsts``), when made without them
    unfiled: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)

    @classmethod
    def of(cls, entries: Iterable[ErrorEntry], firsts: bool = True) -> EntryRows:
        """The rows of ``entries``. A repository's first entry of a type name
        gets a key of its own (``first_names``); rows made a chunk at a time
        are made with ``firsts=False`` and handed, in entry order, to
        ``file_firsts``, so the first is the repository's and not each
        chunk's (the stored index is the same however the entries were cut)."""
        out = cls()
        seen: dict[str, set[str]] = {}  # per repository, the type names filed
        for e in entries:
            n_test = sum(1 for s in e.sites if s.in_test)
            out.entries.append(
                (
                    e.id,
                    text(e.message),
                    text(e.template.key()),
                    json.dumps(e.template.to_json()),
                    json.dumps(list(e.kinds)),
                    json.dumps(list(e.exception_types)),
                    int(e.template.dynamic),
                    len(e.sites) - n_test,
                    n_test,
                )
            )
            shown = matched_template(e.template, e.kinds)
            out.fts.append((e.id, text(shown.literal_text()), text(" ".join(e.exception_types))))
            out.sites.extend(
                (e.id, i, s.path, s.line, json.dumps(s.to_json())) for i, s in enumerate(e.sites)
            )
            if firsts:
                names = first_names(e.exception_types, seen.setdefault(e.repo, set()))
                out.docs.append(doc_row(e.id, shown, e.exception_types, names))
            else:
                out.docs.append(doc_row(e.id, shown, e.exception_types))
                out.unfiled.append((e.repo, tuple(e.exception_types)))
        return out

    def file_firsts(self, seen: dict[str, set[str]]) -> None:
        """Add the ``first_names`` keys to docs made with ``firsts=False``;
        ``seen``, per repository the type names filed in earlier rows, is
        carried from one call to the next."""
        for i, (repo, types) in enumerate(self.unfiled):
            names = first_names(types, seen.setdefault(repo, set()))
            if names:
                entry_id, joined, shown = self.docs[i]
                keys = [*(joined.split("\n") if joined else ()), *names]
                self.docs[i] = (entry_id, text("\n".join(keys)), shown)
        self.unfiled = []


def doc_row(
    entry_id: str, template: Template, types: tuple[str, ...], firsts: Iterable[str] = ()
) -> DocRow:
    """An entry's ``match_docs`` keys and its exception types' names;
    ``firsts``: its ``first_name_key`` keys, where it is its repository's first
    entry of a type name."""
    keys = entry_keys(template, types) + list(firsts)
    joined = text("\n".join(keys))  # one pass, not one per key
    names = " ".join(dict.fromkeys(text(type_name(x)).replace(" ", "_") for x in types))
    return entry_id, joined, names
