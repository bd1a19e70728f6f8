"""Rust table tests (issue 16, session 11): rows of ``(input, message)``
given to a helper that loops over them (jsonb's ``test_parse_err``), or
looped over in the test itself, each reproduce the entry whose whole
message the row's text is, also when another message prints it in its
opening placeholder (``"{}, pos {}"``); a table of valid inputs gives the
example fix its "after"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from errordex.languages.rust.scan import scan
from errordex.store.sqlite import SqliteStore
from tests.repo_files import index_files

#: jsonb (databendlabs/jsonb: src/error.rs, src/parser.rs, tests/it/parser.rs), cut down
_JSONB: dict[str, str] = {
    "Cargo.toml": '[package]\nname = "jsonb"\nversion = "0.5.1"\n',
    "src/lib.rs": "mod error;\nmod parser;\n\npub use error::Error;\npub use parser::parse_value;\n",
    "src/error.rs": (
        "use core::fmt;\n\n"
        "#[derive(Debug)]\n"
        "pub enum ParseErrorCode {\n    EOFWhileParsingValue,\n    TrailingCharacters,\n}\n\n"
        "impl fmt::Display for ParseErrorCode {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
        "        match self {\n"
        '            ParseErrorCode::EOFWhileParsingValue => f.write_str("EOF while parsing a value"),\n'
        '            ParseErrorCode::TrailingCharacters => f.write_str("trailing characters"),\n'
        "        }\n"
        "    }\n"
        "}\n\n"
        "#[derive(Debug)]\n"
        "pub enum Error {\n    Syntax(ParseErrorCode, usize),\n}\n\n"
        "impl fmt::Display for Error {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
        "        match self {\n"
        '            Error::Syntax(code, pos) => write!(f, "{}, pos {}", code, pos),\n'
        "        }\n"
        "    }\n"
        "}\n"
    ),
    "src/parser.rs": (
        "use crate::error::{Error, ParseErrorCode};\n\n"
        "pub fn parse_value(buf: &[u8]) -> Result<u8, Error> {\n"
        "    if buf.is_empty() {\n"
        "        return Err(Error::Syntax(ParseErrorCode::EOFWhileParsingValue, 0));\n"
        "    }\n"
        "    if buf.len() > 4 {\n"
        "        return Err(Error::Syntax(ParseErrorCode::TrailingCharacters, 4));\n"
        "    }\n"
        "    Ok(buf[0])\n"
        "}\n"
    ),
    "tests/it/parser.rs": (
        "use jsonb::parse_value;\n\n"
        "fn test_parse_err(errors: &[(&str, &'static str)]) {\n"
        "    for &(s, err) in errors {\n"
        "        let res = parse_value(s.as_bytes());\n"
        "        assert!(res.is_err());\n"
        "        assert_eq!(res.err().unwrap().to_string(), err);\n"
        "    }\n"
        "}\n\n"
        "fn test_parse_ok(tests: Vec<(&str, u8)>) {\n"
        "    for (s, val) in tests {\n"
        "        assert_eq!(parse_value(s.as_bytes()).unwrap(), val);\n"
        "    }\n"
        "}\n\n"
        "#[test]\n"
        "fn test_parse_null() {\n"
        "    test_parse_err(&[\n"
        '        ("", "EOF while parsing a value, pos 0"),\n'
        '        ("nulla", "trailing characters, pos 4"),\n'
        "    ]);\n\n"
        '    test_parse_ok(vec![("null", 110)]);\n'
        "}\n\n"
        "#[test]\n"
        "fn test_inline_rows() {\n"
        '    for (input, expected) in [("truea", "trailing characters, pos 4")] {\n'
        "        assert_eq!(parse_value(input.as_bytes()).unwrap_err().to_string(), expected);\n"
        "    }\n"
        "}\n"
    ),
}


def _page(store: SqliteStore, sid: int, message: str) -> dict[str, Any]:
    (entry,) = [e for e in store.entries() if e.message == message]
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    return stored


def test_rows_of_a_helper_and_of_a_loop_are_tests_of_their_message() -> None:
    path = "tests/it/parser.rs"
    rows = [t for t in scan(path, _JSONB[path]).tests if t.inputs]
    got = {(t.test, t.pattern, t.body) for t in rows}
    assert got == {
        ("test_parse_null", "EOF while parsing a value, pos 0", 'parse_value("".as_bytes())'),
        ("test_parse_null", "trailing characters, pos 4", 'parse_value("nulla".as_bytes())'),
        ("test_inline_rows", "trailing characters, pos 4", 'parse_value("truea".as_bytes())'),
    }
    assert [t.line for t in rows if t.test == "test_parse_null"] == [20, 21]


def test_a_row_reproduces_the_message_its_wrapper_prints_and_gives_a_fix(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _JSONB, "databendlabs/jsonb")
    page = _page(store, sid, "trailing characters")
    tests = page["facts"]["tests"]
    assert {t["body"] for t in tests} == {
        'parse_value("nulla".as_bytes())',
        'parse_value("truea".as_bytes())',
    }
    fix = page["analysis"]["example_fix"]
    assert 'parse_value("null".as_bytes())' in fix["after"]["code"]
    assert "tests/it/parser.rs:24" in fix["evidence"]  # the row of valid input
    # the wrapper's own page is not reproduced by its inner messages' rows
    assert not _page(store, sid, "{}, pos {}")["facts"].get("tests")


#: bytes (tokio-rs/bytes: src/bytes.rs, tests/test_bytes.rs), cut down
_BYTES: dict[str, str] = {
    "Cargo.toml": '[package]\nname = "bytes"\nversion = "1.10.1"\n',
    "src/lib.rs": "mod bytes;\n\npub use crate::bytes::Bytes;\n",
    "src/bytes.rs": (
        "pub struct Bytes {\n    len: usize,\n}\n\n"
        "impl Bytes {\n"
        "    pub fn new() -> Bytes {\n        Bytes { len: 0 }\n    }\n\n"
        "    pub fn split_off(&mut self, at: usize) -> Bytes {\n"
        "        assert!(\n"
        "            at <= self.len,\n"
        '            "split_off out of bounds: {:?} <= {:?}",\n'
        "            at,\n"
        "            self.len,\n"
        "        );\n"
        "        self.inc_start(at);\n"
        "        Bytes { len: at }\n"
        "    }\n\n"
        "    fn inc_start(&mut self, by: usize) {\n"
        '        assert!(self.len >= by, "internal: inc_start out of bounds");\n'
        "        self.len -= by;\n"
        "    }\n"
        "}\n"
    ),
    "tests/test_bytes.rs": (
        "use bytes::Bytes;\n\n"
        "#[test]\n"
        "#[should_panic]\n"
        "fn split_off_oob() {\n"
        "    let mut hello = Bytes::new();\n"
        "    let _ = hello.split_off(44);\n"
        "}\n"
    ),
}


def test_a_should_panic_without_text_counts_where_its_call_panics_here_alone(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _BYTES, "tokio-rs/bytes")
    own = _page(store, sid, "split_off out of bounds: {:?} <= {:?}")["facts"]["tests"]
    assert [t["test"] for t in own] == ["split_off_oob"]
    # `split_off` panics with its own message first: no test of the helper's
    assert not _page(store, sid, "internal: inc_start out of bounds")["facts"].get("tests")
