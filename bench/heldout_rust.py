"""Held-out Rust errors: Display, Debug and unwrap panics from crates nobody tunes on.

THE RULE: this is a held-out benchmark. Nobody who works on the matcher looks
at its cases, its captured texts or its misses; only at its figures. Do not
add these crates, cases or texts to tests or fixtures, and do not tune on
them. (``--misses`` is for whoever maintains this script.)

    .venv/bin/python bench/heldout_rust.py [--install] [--jobs N] [--json] [--misses]

It judges issue 14 ("Rust errors as users meet them") on 15 crates that
Debian ships as ``librust-*-dev`` and the test suite does not use (the
Makefile's DEB_TEST_PACKAGES, and bench/tuned_rust.py, which the Rust
matcher is tuned on, checks it has none of them): CRATES below. ``--install``
installs the missing packages with apt-get; without it a missing crate is
skipped and said so.

The corpus. For each crate a small Rust program is generated with a list of
realistic misuses (a bad string to parse, a wrong type, an out-of-range
value, a missing field ...), one expression of type ``Result<T, E>`` each.
It is built once per crate, with cargo offline against Debian's crates as a
directory source (``[source.crates-io] replace-with = "debian"``,
``[source.debian] directory = "/usr/share/cargo/registry"``), pinned to the
version in the registry, and run once per case and form, each run in its own
process: case N in mode ``text`` prints the error's Display (``{}``) and
Debug (``{:?}``); in mode ``unwrap`` it calls ``.unwrap()`` on the Result,
and the panic is what the process wrote to stderr, as this toolchain prints
it (thread id and all; ``RUST_BACKTRACE`` unset); in mode ``main`` it returns
the error from ``fn main() -> Result<(), Box<dyn Debug>>``, which prints
``Error: <Debug>``. A case whose expression returned Ok is dropped and
counted. Built programs and captured outputs are cached under
``$XDG_CACHE_HOME/errordex/bench-heldout-rust`` (keyed by the program, the
crate version and ``rustc -V``), so a re-run only indexes and scores.

The truth, from the run and not from reading the code. Each crate directory
is indexed with ``errordex.pipeline.index`` into a fresh temp SQLite store,
under the slug of its Cargo.toml ``repository``. For a case of crate C with
Display text D and Debug text G, an entry is RIGHT when all of:

1. it is a catalog entry of C's repository;
2. its template matches D in full: the template's literal text, with every
   placeholder standing for any text (possibly empty, possibly spanning
   lines), equals D from start to end, after any run of whitespace on
   either side is read as one space; a template with no literal text
   (``"{}"``) matches nothing, since it cannot tell entries apart. Or it
   matches in full the text a placeholder took in such a match (the
   innermost message of a wrapper, followed up to INNER_DEPTH levels):
   serde_json's ``expected value at line 1 column 6`` is matched in full by
   ``{} at line {} column {}``, whose first placeholder took ``expected
   value``, so both that entry and ``ErrorCode::ExpectedSomeValue``'s
   ``expected value`` are right;
3. when G names a type or variant that errordex records, and errordex
   records exception types for the entry, the last ``::`` segment of one of
   the entry's types is one of the names G shows
   (``FromHexError::InvalidHexCharacter`` for ``InvalidHexCharacter { c:
   'g', index: 0 }``). The names G shows are its capitalized identifiers
   outside string and char literals, other than Some/None/Ok/Err
   (``ParseError`` and ``Invalid`` in ``ParseError(Invalid)``); a name
   "errordex records" is the last segment of an exception type of any entry
   of C. An entry with no recorded type passes, and so does every entry
   when G names nothing errordex records: serde_json's hand-written
   ``Error("key must be a string", line: 1, column: 2)`` hides the variant,
   so ``ErrorCode::KeyMustBeAString`` is not ruled out by it.

When several entries are right, any of them counts. When none is, the case
counts as a miss in every form and is reported as "no entry can be right
today" (the Display text is built where errordex has no entry for it: in
another crate such as serde or xmlparser, or by composing several Display
impls).

The score. Each form is pasted alone into ``explain_text`` over the store of
all 15 crates, as a user pastes it: the Display text, the Debug text, the
full unwrap panic, and ``Error: …`` from main. hit@k is whether one of the
first k matches of the last part is a right entry; entry-level, not site-level.
Printed per form and per crate, next to issue 14's targets (Display >= 95%,
Debug >= 85%, unwrap panic >= 85%; ``Error:`` has none), and again over the
cases some entry can be right for ("answerable"), and without the crates
issue 14 itself quotes (serde_json's ``Error("key must be a string", line:
1, column: 2)`` and csv's ``Error(Deserialize { … })``).

Baseline, measured on 2026-12-03 at commit 5e82c02 (main), rustc 1.95.0,
Debian bookworm's crates; 180 cases written, 7 returned Ok, 173 kept, and no
entry can be right today for 44 of them (url's 12, toml's 13, httparse's 8,
http's 7, roxmltree's 3, csv's 1: messages returned from a match of string
literals or built in a macro, toml's Display written in several pieces,
and errors whose text is another crate's). A cold run (build and capture)
takes about 2 minutes on 2 busy cores, a cached one 16 s::

    hit@1 (hit@5)      all, n=173      target   answerable, n=129   without csv, serde_json, n=147
    Display {}         72.8% (74.6%)   >= 95%   97.7% (100%)        68.7% (70.8%)
    Debug {:?}          9.2% (19.7%)   >= 85%   12.4% (26.4%)        1.4% (8.8%)
    unwrap panic        5.8% (12.1%)   >= 85%    7.8% (16.3%)        0.0% (2.0%)
    Error: from main    9.2% (20.2%)            12.4% (27.1%)        1.4% (9.5%)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from errordex.explain import explain_text
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from errordex.template import Hole, Template, Text

REGISTRY = Path("/usr/share/cargo/registry")
TARGETS = {"display": 0.95, "debug": 0.85, "panic": 0.85}
FORMS = ("display", "debug", "panic", "main")
FORM_NAMES = {
    "display": "Display {}",
    "debug": "Debug {:?}",
    "panic": "unwrap panic",
    "main": "Error: from main",
}
#: Crates whose errors issue 14 itself quotes (their Debug shapes are known
#: to whoever reads it); the figures are also given without them.
QUOTED_IN_ISSUE = frozenset({"serde_json", "csv"})
#: Bumped when the generated program's frame changes (invalidates the cache).
HARNESS_VERSION = "1"


@dataclass(frozen=True)
class Crate:
    name: str  # as cargo and the registry directory spell it
    deb: str  # the Debian package
    cases: tuple[str, ...]  # Rust expressions of type Result<T, E>
    features: tuple[str, ...] = ()
    prelude: str = ""  # items put at the top of main.rs
    serde: bool = False  # needs serde with derive


SERDE_STRUCT = """
#[derive(Debug, serde::Deserialize, serde::Serialize)]
struct Config { name: String, port: u16, debug: bool }
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Strict { name: String }
#[derive(Debug, serde::Deserialize)]
enum Level { Low, High }
#[derive(Debug, serde::Deserialize)]
struct Row { city: String, pop: u32, big: bool }
"""

CRATES: tuple[Crate, ...] = (
    Crate(
        "hex",
        "librust-hex-dev",
        (
            'hex::decode("zz")',
            'hex::decode("abc")',
            'hex::decode("0g")',
            'hex::decode("12 34")',
            'hex::decode("0x12")',
            'hex::decode("deadbeefé1")',
            '{ let mut b = [0u8; 1]; hex::decode_to_slice("0102", &mut b).map(|_| b) }',
            '<[u8; 2] as hex::FromHex>::from_hex("010203")',
            '<[u8; 4] as hex::FromHex>::from_hex("0102030g")',
            '<Vec<u8> as hex::FromHex>::from_hex("1")',
        ),
    ),
    Crate(
        "base64",
        "librust-base64-dev",
        (
            'base64::decode("!!!!")',
            'base64::decode("a")',
            'base64::decode("aGVsbG8")',
            'base64::decode("YR==")',
            'base64::decode("Zm9v YmFy")',
            'base64::decode("aGVsbG8=x")',
            'base64::decode_config("a+b/", base64::URL_SAFE)',
            'base64::decode_config("a-b_", base64::STANDARD)',
            'base64::decode("Zg=a")',
            'base64::decode("=")',
        ),
    ),
    Crate(
        "uuid",
        "librust-uuid-dev",
        (
            'uuid::Uuid::parse_str("")',
            'uuid::Uuid::parse_str("1234")',
            'uuid::Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c")',
            'uuid::Uuid::parse_str("67e5504410b1426f9247bb680e5fe0cz")',
            'uuid::Uuid::parse_str("67e55044-10b1-426f-9247")',
            'uuid::Uuid::parse_str("{67e55044-10b1-426f-9247-bb680e5fe0c8")',
            "uuid::Uuid::from_slice(&[1, 2, 3])",
            'uuid::Uuid::parse_str("urn:uuid:zz")',
            'uuid::Uuid::parse_str("67e55044_10b1_426f_9247_bb680e5fe0c8")',
            '"not-a-uuid".parse::<uuid::Uuid>()',
            'uuid::Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c8-00")',
        ),
    ),
    Crate(
        "url",
        "librust-url-dev",
        (
            'url::Url::parse("example.com")',
            'url::Url::parse("")',
            'url::Url::parse("http://")',
            'url::Url::parse("http://[::1")',
            'url::Url::parse("http://256.0.0.1")',
            'url::Url::parse("http://example.com:99999")',
            'url::Url::parse("http://exa mple.com")',
            'url::Url::parse("mailto:a@b.c").and_then(|u| u.join("d"))',
            'url::Url::parse("https://[:::1]/")',
            'url::Url::parse("http://example.com:port/")',
            'url::Url::parse("http://ex%61mple%zz.com")',
            '"/relative/path".parse::<url::Url>()',
        ),
    ),
    Crate(
        "chrono",
        "librust-chrono-dev",
        (
            '"x".parse::<chrono::NaiveDate>()',
            '"2020-02-30".parse::<chrono::NaiveDate>()',
            '"2020-01".parse::<chrono::NaiveDate>()',
            '"2020-01-01x".parse::<chrono::NaiveDate>()',
            'chrono::NaiveDate::parse_from_str("2020-01-01", "%Y-%m-%d %H")',
            'chrono::NaiveDateTime::parse_from_str("2020-01-01", "%Y-%m-%d")',
            'chrono::DateTime::parse_from_rfc3339("2020-01-01T00:00:00")',
            'chrono::DateTime::parse_from_rfc2822("Mon, 1 Jan 2020")',
            'chrono::NaiveTime::parse_from_str("25:00", "%H:%M")',
            'chrono::NaiveDate::parse_from_str("2020-13-01", "%Y-%m-%d")',
            'chrono::NaiveDate::parse_from_str("2020-01-01", "%Y-%m-%d %Q")',
            'chrono::NaiveDate::parse_from_str("Mon 2020-01-07", "%a %Y-%m-%d")',
            "chrono::Duration::from_std(std::time::Duration::MAX)",
            '"10:61:00".parse::<chrono::NaiveTime>()',
        ),
    ),
    Crate(
        "time",
        "librust-time-dev",
        (
            "time::Date::from_calendar_date(2021, time::Month::February, 29)",
            "time::Time::from_hms(25, 0, 0)",
            "time::Time::from_hms(12, 60, 0)",
            "time::Date::from_ordinal_date(2021, 366)",
            "time::UtcOffset::from_hms(30, 0, 0)",
            "time::Month::try_from(13u8)",
            "time::Date::from_iso_week_date(2021, 53, time::Weekday::Monday)",
            "time::OffsetDateTime::from_unix_timestamp(i64::MAX)",
            'time::format_description::parse("[year")',
            'time::format_description::parse("[foo]")',
            'time::format_description::parse("[year repr:roman]")',
            'time::Date::parse("2020/01/01", &time::format_description::parse("[year]-[month]-[day]")'
            ".unwrap())",
            'time::Date::parse("2020-13-01", &time::format_description::parse("[year]-[month]-[day]")'
            ".unwrap())",
            'time::Date::parse("20", &time::format_description::parse("[year]-[month]-[day]").unwrap())',
            'time::Date::parse("2020-01-01x", &time::format_description::parse("[year]-[month]-[day]")'
            ".unwrap())",
            'time::OffsetDateTime::parse("2020-01-01", &time::format_description::well_known::Rfc3339)',
            "time::Duration::try_from(std::time::Duration::MAX)",
        ),
        features=("parsing", "formatting"),
    ),
    Crate(
        "toml",
        "librust-toml-dev",
        (
            'toml::from_str::<toml::Value>("a = ")',
            'toml::from_str::<toml::Value>("a = 1\\na = 2")',
            'toml::from_str::<toml::Value>("[a]\\n[a]")',
            'toml::from_str::<toml::Value>("a = \'x")',
            'toml::from_str::<toml::Value>("= 1")',
            'toml::from_str::<toml::Value>("a = 1979-05-27T")',
            'toml::from_str::<toml::Value>("a = [1, \\"x\\"]")',
            'toml::from_str::<toml::Value>("a = 0x")',
            "toml::from_str::<Config>(\"name = 'a'\\nport = 'x'\\ndebug = true\")",
            "toml::from_str::<Config>(\"name = 'a'\")",
            "toml::from_str::<Config>(\"name = 'a'\\nport = 70000\\ndebug = true\")",
            "toml::from_str::<Strict>(\"name = 'a'\\nextra = 1\")",
            "toml::from_str::<Level>(\"'Middle'\")",
            "toml::to_string(&vec![1, 2])",
            "toml::to_string(&std::collections::BTreeMap::from([(1, 2)]))",
            'toml::from_str::<toml::Value>("a = \\"\\\\q\\"")',
        ),
        prelude=SERDE_STRUCT,
        serde=True,
    ),
    Crate(
        "serde_json",
        "librust-serde-json-dev",
        (
            'serde_json::from_str::<serde_json::Value>("")',
            'serde_json::from_str::<serde_json::Value>("[1,]")',
            'serde_json::from_str::<serde_json::Value>("{\\"a\\":}")',
            "serde_json::from_str::<serde_json::Value>(\"{'a': 1}\")",
            'serde_json::from_str::<serde_json::Value>("[1, 2")',
            'serde_json::from_str::<serde_json::Value>("nul")',
            'serde_json::from_str::<serde_json::Value>("[1] x")',
            'serde_json::from_str::<serde_json::Value>("1e400")',
            'serde_json::from_str::<serde_json::Value>("\\"\\\\x\\"")',
            'serde_json::from_str::<Config>("{\\"name\\": \\"a\\", \\"port\\": \\"x\\", \\"debug\\": true}")',
            'serde_json::from_str::<Config>("{}")',
            'serde_json::from_str::<u8>("300")',
            'serde_json::from_str::<Strict>("{\\"name\\": \\"a\\", \\"x\\": 1}")',
            "serde_json::to_string(&std::collections::BTreeMap::from([((1, 2), 3)]))",
            'serde_json::from_str::<Level>("\\"Middle\\"")',
        ),
        prelude=SERDE_STRUCT,
        serde=True,
    ),
    Crate(
        "csv",
        "librust-csv-dev",
        (
            '{ let mut r = csv::Reader::from_reader("a,b\\n1,2,3\\n".as_bytes());'
            " r.records().collect::<Result<Vec<_>, _>>() }",
            '{ let mut r = csv::Reader::from_reader("city,pop,big\\nParis,x,true\\n".as_bytes());'
            " r.deserialize::<Row>().collect::<Result<Vec<_>, _>>() }",
            '{ let mut r = csv::Reader::from_reader("city,pop,big\\nParis,3,maybe\\n".as_bytes());'
            " r.deserialize::<Row>().collect::<Result<Vec<_>, _>>() }",
            '{ let mut r = csv::Reader::from_reader("city,pop\\nParis,3\\n".as_bytes());'
            " r.deserialize::<Row>().collect::<Result<Vec<_>, _>>() }",
            'csv::Reader::from_path("/nonexistent/data.csv")',
            '{ let mut r = csv::Reader::from_reader(&b"a\\n\\xff\\xfe\\n"[..]);'
            " r.records().collect::<Result<Vec<_>, _>>() }",
            '{ let mut r = csv::Reader::from_reader(&b"\\xff,b\\n1,2\\n"[..]); r.headers().cloned() }',
            "{ let mut w = csv::Writer::from_writer(vec![]);"
            ' w.write_record(&["a", "b"]).and_then(|_| w.write_record(&["c"])) }',
            "{ let mut r = csv::ReaderBuilder::new().has_headers(false)"
            '.from_reader("1,2\\n3\\n".as_bytes()); r.records().collect::<Result<Vec<_>, _>>() }',
            '{ let mut r = csv::Reader::from_reader("n\\n-1\\n".as_bytes());'
            " r.deserialize::<(u8,)>().collect::<Result<Vec<_>, _>>() }",
            '{ let mut r = csv::Reader::from_reader("n\\n1.5\\n".as_bytes());'
            " r.deserialize::<(i32,)>().collect::<Result<Vec<_>, _>>() }",
        ),
        prelude=SERDE_STRUCT,
        serde=True,
    ),
    Crate(
        "glob",
        "librust-glob-dev",
        (
            'glob::Pattern::new("[")',
            'glob::Pattern::new("a**b")',
            'glob::Pattern::new("***")',
            'glob::Pattern::new("[]")',
            'glob::Pattern::new("[!")',
            'glob::Pattern::new("a/**b")',
            'glob::glob("src/**.rs").map(|_| ())',
            'glob::glob("[z-").map(|_| ())',
        ),
    ),
    Crate(
        "nom",
        "librust-nom-dev",
        (
            'nom::character::complete::digit1::<&str, nom::error::Error<&str>>("abc")',
            'nom::bytes::complete::tag::<_, _, nom::error::Error<&str>>("x")("abc")',
            'nom::character::complete::alpha1::<&str, nom::error::Error<&str>>("123")',
            'nom::bytes::streaming::tag::<_, _, nom::error::Error<&str>>("abc")("ab")',
            'nom::combinator::eof::<&str, nom::error::Error<&str>>("x")',
            "nom::character::complete::char::<&str, nom::error::Error<&str>>('a')(\"b\")",
            'nom::multi::many1(nom::character::complete::digit1::<&str, nom::error::Error<&str>>)("x")',
            "nom::Finish::finish(nom::character::complete::digit1::<&str, nom::error::Error<&str>>"
            '("abc"))',
            'nom::character::complete::digit1::<&str, nom::error::VerboseError<&str>>("abc")',
            'nom::number::complete::be_u32::<&[u8], nom::error::Error<&[u8]>>(&b"\\x01\\x02"[..])',
            "nom::combinator::map_res(nom::character::complete::digit1::<&str, nom::error::Error<&str>>,"
            ' |s: &str| s.parse::<u8>())("999")',
        ),
    ),
    Crate(
        "http",
        "librust-http-dev",
        (
            '"\\u{0}".parse::<http::Uri>()',
            '"".parse::<http::Uri>()',
            '"http://[::1".parse::<http::Uri>()',
            '"http://a:99999".parse::<http::Uri>()',
            '"foo://exa mple".parse::<http::Uri>()',
            'http::Method::from_bytes(b"GE T")',
            "http::StatusCode::from_u16(1000)",
            'http::header::HeaderName::from_bytes(b"a b")',
            'http::header::HeaderValue::from_str("a\\nb")',
            'http::Request::builder().uri("\\u{0}").body(())',
            "http::Response::builder().status(1000).body(())",
            '"/a".parse::<http::uri::Authority>()',
            '"http://".parse::<http::Uri>()',
            'http::uri::Builder::new().path_and_query("/a").build()',
        ),
    ),
    Crate(
        "httparse",
        "librust-httparse-dev",
        (
            "{ let mut h = [httparse::EMPTY_HEADER; 4];"
            ' httparse::Request::new(&mut h).parse(b"GET / HTTP/2.0\\r\\n\\r\\n") }',
            "{ let mut h = [httparse::EMPTY_HEADER; 4];"
            ' httparse::Request::new(&mut h).parse(b"G@T / HTTP/1.1\\r\\n\\r\\n") }',
            "{ let mut h = [httparse::EMPTY_HEADER; 4];"
            ' httparse::Request::new(&mut h).parse(b"GET / HTTP/1.1\\r\\nHo st: a\\r\\n\\r\\n") }',
            "{ let mut h = [httparse::EMPTY_HEADER; 1];"
            ' httparse::Request::new(&mut h).parse(b"GET / HTTP/1.1\\r\\nA: 1\\r\\nB: 2\\r\\n\\r\\n") }',
            "{ let mut h = [httparse::EMPTY_HEADER; 4];"
            ' httparse::Response::new(&mut h).parse(b"HTTP/1.1 abc OK\\r\\n\\r\\n") }',
            "{ let mut h = [httparse::EMPTY_HEADER; 4];"
            ' httparse::Request::new(&mut h).parse(b"GET / HTTP/1.1\\r\\nA: b\\x00c\\r\\n\\r\\n") }',
            "{ let mut h = [httparse::EMPTY_HEADER; 4];"
            ' httparse::Request::new(&mut h).parse(b"GET / HTTP/1.1\\rX") }',
            'httparse::parse_chunk_size(b"zz\\r\\n")',
            "{ let mut h = [httparse::EMPTY_HEADER; 4];"
            ' httparse::Response::new(&mut h).parse(b"HTTX/1.1 200 OK\\r\\n\\r\\n") }',
        ),
    ),
    Crate(
        "roxmltree",
        "librust-roxmltree-dev",
        (
            'roxmltree::Document::parse("")',
            'roxmltree::Document::parse("<a>")',
            'roxmltree::Document::parse("<a></b>")',
            "roxmltree::Document::parse(\"<a x='1' x='2'/>\")",
            'roxmltree::Document::parse("<a>&foo;</a>")',
            'roxmltree::Document::parse("<x:a/>")',
            'roxmltree::Document::parse("<a/><b/>")',
            "roxmltree::Document::parse(\"<!DOCTYPE a [<!ENTITY e '&e;'>]><a>&e;</a>\")",
            'roxmltree::Document::parse("<a b=1/>")',
            'roxmltree::Document::parse("<a>\\u{1}</a>")',
            "roxmltree::Document::parse(\"<a xmlns:x='u' xmlns:x='v'/>\")",
            "roxmltree::Document::parse(\"<a xmlns:xml='u'/>\")",
        ),
    ),
    Crate(
        "humantime",
        "librust-humantime-dev",
        (
            'humantime::parse_duration("5x")',
            'humantime::parse_duration("")',
            'humantime::parse_duration("abc")',
            'humantime::parse_duration("99999999999999999999s")',
            'humantime::parse_duration("5")',
            'humantime::parse_rfc3339("2018-02-14")',
            'humantime::parse_rfc3339("2018-02-30T00:00:00Z")',
            'humantime::parse_rfc3339("2018-02-14T00:00:00+01:00")',
            'humantime::parse_rfc3339_weak("x")',
            'humantime::parse_rfc3339("20x8-02-14T00:00:00Z")',
        ),
    ),
)

MAIN_RS = """\
#![allow(unused_imports, unused_variables, dead_code, deprecated, unused_mut)]
use std::fmt::{{Debug, Display}};
use std::io::Write;
{prelude}

fn go<T: Debug, E: Display + Debug + 'static>(mode: &str, r: Result<T, E>) -> Result<(), Box<dyn Debug>> {{
    match mode {{
        "text" => {{
            let out = match &r {{
                Ok(v) => format!("OK\\0{{:?}}", v),
                Err(e) => format!("ERR\\0{{}}\\0{{:?}}", e, e),
            }};
            std::io::stdout().write_all(out.as_bytes()).unwrap();
            Ok(())
        }}
        "unwrap" => {{
            r.unwrap();
            Ok(())
        }}
        _ => r.map(|_| ()).map_err(|e| Box::new(e) as Box<dyn Debug>),
    }}
}}

fn main() -> Result<(), Box<dyn Debug>> {{
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args[1].parse().unwrap();
    let mode = args[2].as_str();
    match n {{
{arms}
        _ => std::process::exit(3),
    }}
}}
"""


@dataclass
class Case:
    crate: str
    n: int
    code: str
    display: str
    debug: str
    texts: dict[str, str]  # form -> what is pasted
    right: set[str] = field(default_factory=set)  # ids of the right entries
    ranks: dict[str, int | None] = field(default_factory=dict)
    first: dict[str, str] = field(default_factory=dict)  # form -> rank-1 entry's message

    @property
    def label(self) -> str:
        return f"{self.crate}#{self.n}"


@dataclass
class Built:
    crate: Crate
    directory: Path  # the crate's source in the registry
    version: str
    slug: str
    cases: list[Case]
    dropped: list[tuple[int, str]]  # (case, why): returned Ok, or the run failed


def registry_dir(name: str) -> Path | None:
    """The newest ``name-X.Y.Z`` directory in Debian's registry."""

    def version(p: Path) -> tuple[int, ...]:
        v = p.name[len(name) + 1 :]
        return tuple(int(x) if x.isdigit() else -1 for x in re.split(r"[.+-]", v))

    found = [
        p
        for p in REGISTRY.glob(f"{name}-*")
        if re.fullmatch(rf"{re.escape(name)}-\d+\.\d+\.\d+.*", p.name) and p.is_dir()
    ]
    return max(found, key=version) if found else None


def slug_of(directory: Path, name: str) -> str:
    """owner/repo from the crate's Cargo.toml ``repository``."""
    with (directory / "Cargo.toml").open("rb") as f:
        url = str(tomllib.load(f).get("package", {}).get("repository", ""))
    parts = [p for p in url.removesuffix(".git").rstrip("/").split("/") if p]
    return "/".join(parts[-2:]) if len(parts) >= 3 else f"debian/{name}"


def install(crates: Sequence[Crate]) -> None:
    missing = [c.deb for c in crates if registry_dir(c.name) is None]
    if not missing:
        return
    print(f"installing Debian packages: {' '.join(missing)}", file=sys.stderr, flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *missing]):
        if subprocess.run(cmd, env=env, stdout=sys.stderr, check=False).returncode != 0:
            sys.exit(f"{' '.join(cmd[:2])} failed; install {' '.join(missing)} by hand")


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "errordex" / "bench-heldout-rust"


def project_files(crate: Crate, version: str) -> dict[str, str]:
    feats = ", ".join(f'"{f}"' for f in crate.features)
    deps = [f'{crate.name} = {{ version = "={version}", features = [{feats}] }}']
    if crate.serde:
        deps.append('serde = { version = "1", features = ["derive"] }')
    cargo = (
        f'[package]\nname = "heldout-{crate.name.replace("_", "-")}"\nversion = "0.1.0"\n'
        f'edition = "2021"\npublish = false\n\n[dependencies]\n' + "\n".join(deps) + "\n"
    )
    config = (
        '[source.crates-io]\nreplace-with = "debian"\n\n'
        f'[source.debian]\ndirectory = "{REGISTRY}"\n\n[net]\noffline = true\n'
    )
    arms = "\n".join(f"        {i} => go(mode, {code})," for i, code in enumerate(crate.cases))
    main = MAIN_RS.format(prelude=crate.prelude, arms=arms)
    return {"Cargo.toml": cargo, ".cargo/config.toml": config, "src/main.rs": main}


def rustc_version() -> str:
    out = subprocess.run(["rustc", "-V"], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUST_")}
    env["LC_ALL"] = "C"
    return env


def build_and_run(
    crate: Crate, directory: Path, version: str, rustc: str, root: Path | None = None
) -> dict[str, Any]:
    """Build the crate's program (cached under ``root``, by default
    cache_root()) and capture every case's forms."""
    files = project_files(crate, version)
    key = hashlib.sha256(
        json.dumps([HARNESS_VERSION, rustc, str(directory), files], sort_keys=True).encode()
    ).hexdigest()[:16]
    root = root or cache_root()
    runs = root / "runs" / f"{crate.name}-{version}-{key}.json"
    if runs.is_file():
        cached: dict[str, Any] = json.loads(runs.read_text())
        return cached
    proj = root / "projects" / crate.name
    for rel, text in files.items():
        p = proj / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if not p.is_file() or p.read_text() != text:
            p.write_text(text)
    target = root / "target"
    build = subprocess.run(
        ["cargo", "build", "--offline", "--quiet", "--jobs", "2", "--target-dir", str(target)],
        cwd=proj,
        capture_output=True,
        text=True,
        check=False,
    )
    if build.returncode != 0:
        return {"error": build.stderr[-4000:]}
    exe = target / "debug" / f"heldout-{crate.name.replace('_', '-')}"
    cases: list[dict[str, Any]] = []
    env = child_env()
    for n, code in enumerate(crate.cases):
        row: dict[str, Any] = {"n": n, "code": code}
        for mode in ("text", "unwrap", "main"):
            try:
                run = subprocess.run(
                    [str(exe), str(n), mode],
                    capture_output=True,
                    env=env,
                    cwd=proj,
                    timeout=30,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                row[mode] = {"rc": -1, "stdout": "", "stderr": "timed out"}
                continue
            row[mode] = {
                "rc": run.returncode,
                "stdout": run.stdout.decode("utf-8", "replace"),
                "stderr": run.stderr.decode("utf-8", "replace"),
            }
        cases.append(row)
    result = {"crate": crate.name, "version": version, "rustc": rustc, "cases": cases}
    runs.parent.mkdir(parents=True, exist_ok=True)
    runs.write_text(json.dumps(result, indent=1))
    return result


def read_cases(crate: Crate, runs: dict[str, Any]) -> tuple[list[Case], list[tuple[int, str]]]:
    cases: list[Case] = []
    dropped: list[tuple[int, str]] = []
    for row in runs["cases"]:
        text = row["text"]
        head, *rest = text["stdout"].split("\0")
        if text["rc"] != 0 or head != "ERR" or len(rest) != 2:
            why = "returned Ok" if head == "OK" else f"run failed (exit {text['rc']})"
            dropped.append((row["n"], why))
            continue
        display, debug = rest
        panic, main = row["unwrap"], row["main"]
        if panic["rc"] != 101 or main["rc"] != 1:
            dropped.append((row["n"], "unwrap did not panic or main did not fail"))
            continue
        cases.append(
            Case(
                crate=crate.name,
                n=row["n"],
                code=row["code"],
                display=display,
                debug=debug,
                texts={
                    "display": display,
                    "debug": debug,
                    "panic": panic["stderr"],
                    "main": main["stderr"],
                },
            )
        )
    return cases, dropped


# --- the truth -------------------------------------------------------------

_LITERALS = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)\'', re.S)
_NAME = re.compile(r"\b[A-Z][A-Za-z0-9_]*\b")
_STD_NAMES = frozenset({"Some", "None", "Ok", "Err"})


def debug_names(debug: str) -> set[str]:
    """The types and variants a Debug text shows, outside its literals.

    >>> sorted(debug_names('Error(Syntax, "Bad Thing")'))
    ['Error', 'Syntax']
    >>> sorted(debug_names("InvalidHexCharacter { c: 'G', index: 0 }"))
    ['InvalidHexCharacter']
    """
    return set(_NAME.findall(_LITERALS.sub('""', debug))) - _STD_NAMES


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def template_regex(t: Template) -> re.Pattern[str] | None:
    """The template as a full-match regex over squashed text, each run of
    placeholders one lazy group of any text; None when it has no literal text.

    >>> from errordex.template import Hole, Template, Text
    >>> t = Template.of("rust-fmt", Hole("e", "{}"), Text(" at line "), Hole("l", "{}"))
    >>> template_regex(t).fullmatch("expected value at line 1").groups()
    ('expected value', '1')
    """
    out: list[str] = []
    literal = ""
    for part in t.parts:
        if isinstance(part, Text):
            out.append(re.escape(re.sub(r"\s+", " ", part.text)))
            literal += part.text
        elif isinstance(part, Hole) and (not out or out[-1] != "(.*?)"):
            out.append("(.*?)")
    if not literal.strip():
        return None
    return re.compile(r"\s*" + "".join(out) + r"\s*", re.S)


#: How deep the texts a wrapper's placeholders took are followed.
INNER_DEPTH = 3


def right_entries(store: SqliteStore, slug: str, cases: Sequence[Case]) -> None:
    """Mark each case's right entries (the module docstring's rule)."""
    compiled = []
    recorded: set[str] = set()  # the types and variants errordex records in the crate
    for e in store.entries(repo=slug):
        last = [t.split("::")[-1] for t in e.exception_types]
        recorded.update(last)
        rx = template_regex(e.template)
        if rx is not None:
            compiled.append((e.id, rx, last))
    for c in cases:
        names = debug_names(c.debug) & recorded
        texts, seen = [_squash(c.display)], set()
        for _ in range(INNER_DEPTH + 1):
            inner: list[str] = []
            for text in texts:
                seen.add(text)
                for eid, rx, last in compiled:
                    m = rx.fullmatch(text)
                    if m is None:
                        continue
                    inner += [g.strip() for g in m.groups() if g.strip() not in seen]
                    if names and last and not names.intersection(last):
                        continue
                    c.right.add(eid)
            texts = [t for t in dict.fromkeys(inner) if t]


# --- the score -------------------------------------------------------------


def score(store: SqliteStore, c: Case) -> None:
    for form in FORMS:
        out = explain_text(store, c.texts[form])
        parts = out["parts"]
        matches = parts[-1]["matches"] if parts else []
        rank = None
        for k, m in enumerate(matches[:5], 1):
            if m["id"] in c.right:
                rank = k
                break
        c.ranks[form] = rank
        c.first[form] = f"{matches[0]['repo']}: {matches[0]['message']!r}" if matches else "-"


def rates(cases: Sequence[Case], form: str) -> tuple[int, float, float]:
    n = len(cases)
    if n == 0:
        return 0, float("nan"), float("nan")
    h1 = sum(1 for c in cases if c.ranks.get(form) == 1) / n
    h5 = sum(1 for c in cases if c.ranks.get(form) is not None) / n
    return n, h1, h5


def errordex_commit() -> str | None:
    """The commit of the checkout this script runs from, if it is one."""
    run = subprocess.run(
        ["git", "-C", str(Path(__file__).resolve().parent), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    return run.stdout.strip() or None


def figures(built: Sequence[Built], rustc: str) -> dict[str, Any]:
    cases = [c for b in built for c in b.cases]
    answerable = [c for c in cases if c.right]
    unquoted = [c for c in cases if c.crate not in QUOTED_IN_ISSUE]

    def block(sub: Sequence[Case]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for form in FORMS:
            n, h1, h5 = rates(sub, form)
            out[form] = {"n": n, "hit@1": round(h1, 4), "hit@5": round(h5, 4)}
        return out

    return {
        "version": 1,
        "commit": errordex_commit(),
        "rustc": rustc,
        "cases": len(cases),
        "no_entry_can_be_right": len(cases) - len(answerable),
        "targets": TARGETS,
        "all": block(cases),
        "answerable": block(answerable),
        "not_quoted_in_issue": block(unquoted),
        "crates": {
            b.crate.name: {
                "version": b.version,
                "repo": b.slug,
                "cases": len(b.cases),
                "dropped": len(b.dropped),
                "no_entry_can_be_right": sum(1 for c in b.cases if not c.right),
                **block(b.cases),
            }
            for b in built
        },
    }


def print_figures(fig: dict[str, Any]) -> None:
    print(
        f"\n{fig['cases']} cases; no entry can be right today for"
        f" {fig['no_entry_can_be_right']} (counted as misses)"
    )
    head = f"  {'form':<20} {'n':>4} {'hit@1':>7} {'hit@5':>7}   target hit@1"
    for title, key in (
        ("all cases", "all"),
        ("answerable cases only", "answerable"),
        (
            f"without {' and '.join(sorted(QUOTED_IN_ISSUE))} (issue 14 quotes them)",
            "not_quoted_in_issue",
        ),
    ):
        print(f"\n{title}\n{head}")
        for form in FORMS:
            r = fig[key][form]
            tgt = f">= {TARGETS[form]:.0%}" if form in TARGETS and key == "all" else ""
            print(
                f"  {FORM_NAMES[form]:<20} {r['n']:>4} {r['hit@1']:>7.1%} {r['hit@5']:>7.1%}   {tgt}"
            )
    print("\nper crate: hit@1 (hit@5)")
    print(
        f"  {'crate':<22} {'n':>3} {'none':>4}  " + "  ".join(f"{FORM_NAMES[f]:>16}" for f in FORMS)
    )
    for name, r in fig["crates"].items():
        cells = "  ".join(
            f"{r[f]['hit@1']:>7.0%} ({r[f]['hit@5']:>4.0%})" if r["cases"] else f"{'-':>16}"
            for f in FORMS
        )
        print(
            f"  {name + ' ' + r['version']:<22} {r['cases']:>3} {r['no_entry_can_be_right']:>4}  {cells}"
        )
    print("  (none: cases no entry can be right for)")


def print_misses(built: Sequence[Built], out: TextIO) -> None:
    """The dropped cases and every case a form missed (not for whoever
    tunes the matcher: see the rule at the top)."""
    for b in built:
        for n, why in b.dropped:
            print(f"- dropped {b.crate.name}#{n}: {why}: {b.crate.cases[n]}", file=out)
    for b in built:
        for c in b.cases:
            missed = [f for f in FORMS if c.ranks.get(f) != 1]
            if not missed:
                continue
            state = "no entry can be right" if not c.right else f"right: {sorted(c.right)}"
            print(f"- [{c.label}] {c.code}", file=out)
            print(f"    display: {c.display!r}\n    debug: {c.debug!r}\n    {state}", file=out)
            for f in missed:
                got = f"rank {c.ranks.get(f) or '>5'}; first {c.first[f][:140]}"
                print(f"    {f}: {got}", file=out)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--install", action="store_true", help="apt-get install missing crates")
    ap.add_argument("--jobs", type=int, default=None, help="index worker processes")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument(
        "--misses", action="store_true", help="list dropped cases and misses (stderr with --json)"
    )
    args = ap.parse_args()
    say = (lambda *a: print(*a, file=sys.stderr, flush=True)) if args.json else print

    if shutil.which("cargo") is None:
        sys.exit("cargo is needed (a Rust toolchain)")
    if args.install:
        install(CRATES)
    rustc = rustc_version()
    built: list[Built] = []
    t0 = time.perf_counter()
    for crate in CRATES:
        directory = registry_dir(crate.name)
        if directory is None:
            say(f"skipped {crate.name}: {crate.deb} is not installed (--install)")
            continue
        version = directory.name[len(crate.name) + 1 :]
        runs = build_and_run(crate, directory, version, rustc)
        if "error" in runs:
            say(f"skipped {crate.name} {version}: the program did not build:\n{runs['error']}")
            continue
        cases, dropped = read_cases(crate, runs)
        built.append(
            Built(crate, directory, version, slug_of(directory, crate.name), cases, dropped)
        )
    say(
        f"corpus in {time.perf_counter() - t0:.1f}s ({rustc}): {len(built)} crates,"
        f" {sum(len(b.cases) for b in built)} cases,"
        f" {sum(len(b.dropped) for b in built)} dropped (returned Ok or did not fail)"
    )

    with tempfile.TemporaryDirectory(prefix="errordex-bench-heldout-rust-") as td:
        store = SqliteStore(Path(td) / "store.db")
        t0 = time.perf_counter()
        for b in built:
            index(str(b.directory), store, name=b.slug, jobs=args.jobs)
        say(f"indexed {len(built)} crates in {time.perf_counter() - t0:.1f}s")
        for b in built:
            right_entries(store, b.slug, b.cases)
        t0 = time.perf_counter()
        for b in built:
            for c in b.cases:
                score(store, c)
        say(f"scored in {time.perf_counter() - t0:.1f}s")
        store.close()

    fig = figures(built, rustc)
    if args.json:
        print(json.dumps(fig, indent=2))
    else:
        print_figures(fig)
    if args.misses:
        print_misses(built, sys.stderr if args.json else sys.stdout)


if __name__ == "__main__":
    main()
