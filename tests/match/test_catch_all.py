"""A template without a word of its own (``{msg} ({e.strerror})``,
``{a}: {b}``) matches nearly any text by its punctuation, random bytes too:
alone it never counts as found; frames at its site still find it."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from errordex.match.explain import explain
from errordex.match.index import MemoryIndex
from errordex.template import Hole, Template, Text

from .conftest import entry


def py(*parts: str | Hole) -> Template:
    return Template.of("py-fstring", *(Text(p) if isinstance(p, str) else p for p in parts))


CATCH_ALL = [
    entry("c1", py(Hole("msg", "{msg}"), " (", Hole("e.strerror", "{e.strerror}"), ")"),
          ("OSError",), ("io_errors.py",)),
    entry("c2", py(Hole("a", "{a}"), ": ", Hole("b", "{b}")), ("ValueError",), ("pair.py",)),
    entry("c3", py("[", Hole("x", "{x}"), "]"), ("ValueError",), ("check.py",)),
    entry("w1", py(Hole("x", "{x}"), " is ", Hole("y", "{y}")), ("KeyError",), ("name.py",)),
]  # fmt: skip


def index() -> MemoryIndex:
    return MemoryIndex.from_entries(CATCH_ALL)


def catch_alls() -> MemoryIndex:
    """The templates with no word of their own: ``w1``'s "is" is one, and
    random bytes hold it now and then between two separators (``\x1dis\x1c``:
    Python's whitespace), which is a match of ``{x} is {y}`` by the rules."""
    return MemoryIndex.from_entries([e for e in CATCH_ALL if not e.id.startswith("w")])


def found(text: str, idx: MemoryIndex | None = None) -> bool:
    return any(part.found for part in explain(text, idx or index()))


def test_random_bytes_match_no_catch_all_template() -> None:
    idx = catch_alls()
    for _ in range(200):
        data = os.urandom(2000)
        for text in (data.decode("utf-8", "replace"), data.decode("latin-1")):
            assert not any(p.found for p in explain(text, idx))


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=1, max_size=3000))
def test_binary_is_never_found_on_punctuation(data: bytes) -> None:
    assert not found(data.decode("utf-8", "replace"), catch_alls())


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("L", "N")), max_size=300))
def test_text_without_a_word_is_never_found_on_punctuation(text: str) -> None:
    assert not found(text)


def test_a_catch_all_message_alone_is_not_found() -> None:
    assert not found("OSError: cannot read config (No such file or directory)")
    assert not found("ValueError: 1: 2")


def test_a_template_with_a_word_of_its_own_still_verifies_by_text() -> None:
    [part] = explain("KeyError: 'k' is missing", index())
    assert part.found and part.matches[0].entry_id == "w1"


def test_a_catch_all_template_at_the_raise_frame_is_found_with_its_values() -> None:
    tb = (
        "Traceback (most recent call last):\n"
        '  File "/app/main.py", line 3, in <module>\n'
        "    read(path)\n"
        '  File "/app/io_errors.py", line 10, in read\n'
        '    raise OSError(f"{msg} ({e.strerror})")\n'
        "OSError: cannot read config (No such file or directory)\n"
    )
    [part] = explain(tb, index())
    top = part.matches[0]
    assert part.found and top.entry_id == "c1" and top.frame_level == 2
    assert top.values == {"msg": "cannot read config", "e.strerror": "No such file or directory"}
