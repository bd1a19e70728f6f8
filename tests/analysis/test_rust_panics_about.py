"""A page quotes only the ``# Panics`` lines about its own panic (issue 16,
session 11): axum's ``Event::id`` documents two panics, and the page of
"Called `Event::id` multiple times" quotes the one about calling it twice,
not the one about newlines; a check's own method (``flags.contains``) does
not make "contains any newlines" about it."""

from __future__ import annotations

from pathlib import Path

from errordex.analysis.about import code_words, doc_words, is_about, stem
from tests.repo_files import index_files

#: axum (tokio-rs/axum, axum/src/response/sse.rs), cut down
_SSE: dict[str, str] = {
    "Cargo.toml": '[package]\nname = "axum"\nversion = "0.8.4"\n',
    "src/lib.rs": "pub mod sse;\n",
    "src/sse.rs": (
        "pub struct Event {\n    buffer: Vec<u8>,\n    flags: EventFlags,\n}\n\n"
        "pub struct EventFlags(u8);\n\n"
        "impl EventFlags {\n"
        "    pub const HAS_ID: EventFlags = EventFlags(1);\n\n"
        "    pub fn contains(&self, other: EventFlags) -> bool {\n"
        "        self.0 & other.0 != 0\n"
        "    }\n\n"
        "    pub fn insert(&mut self, other: EventFlags) {\n"
        "        self.0 |= other.0;\n"
        "    }\n"
        "}\n\n"
        "impl Event {\n"
        "    /// Set the event's identifier field (`id:<identifier>`).\n"
        "    ///\n"
        "    /// # Panics\n"
        "    ///\n"
        "    /// - Panics if `id` contains any newlines, carriage returns or null characters.\n"
        "    /// - Panics if this function has already been called on this event.\n"
        "    pub fn id<T>(mut self, id: T) -> Self\n"
        "    where\n"
        "        T: AsRef<str>,\n"
        "    {\n"
        "        if self.flags.contains(EventFlags::HAS_ID) {\n"
        '            panic!("Called `Event::id` multiple times");\n'
        "        }\n"
        "        self.flags.insert(EventFlags::HAS_ID);\n"
        "        let id = id.as_ref().as_bytes();\n"
        "        assert_eq!(\n"
        "            id.iter().position(|b| *b == 0),\n"
        "            None,\n"
        '            "Event ID cannot contain null characters",\n'
        "        );\n"
        "        self.buffer.extend_from_slice(id);\n"
        "        self\n"
        "    }\n"
        "}\n"
    ),
}


def _meaning(tmp_path: Path, message: str) -> str:
    store, sid = index_files(tmp_path, _SSE, "tokio-rs/axum")
    (entry,) = [e for e in store.entries() if e.message == message]
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    text: str = stored["analysis"]["meaning"]["text"]
    return text


def test_a_page_quotes_only_the_panics_line_about_its_own_panic(tmp_path: Path) -> None:
    twice = _meaning(tmp_path / "a", "Called `Event::id` multiple times")
    assert "already been called on this event" in twice
    assert "newlines" not in twice
    null = _meaning(tmp_path / "b", "Event ID cannot contain null characters")
    assert "null characters”" in null and "newlines" in null
    assert "already been called" not in null


def test_words_of_a_check_leave_out_its_methods_and_a_functions_own_name() -> None:
    assert "contain" not in code_words(["self.flags.contains(EventFlags::HAS_ID)"])
    assert "event" not in doc_words("Panics if `event` contains any newlines", "Event::event")
    assert stem("indices") == stem("index")
    said = code_words(["at", "self.len"])
    assert is_about("Panics if `at > len`", None, said)
    assert not is_about("Panics if the new capacity overflows `usize`", None, said)
