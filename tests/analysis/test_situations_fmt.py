"""A formatting impl is no place an error is thrown from when it only writes
the text; an ``unreachable!()`` inside one is (http's ``<Version as
fmt::Debug>::fmt``)."""

from __future__ import annotations

from pathlib import Path

from errordex.views import entry_json
from tests.repo_files import index_files

_LIB = """use std::fmt;

pub struct Version(u8);

impl fmt::Debug for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            9 => "HTTP/0.9",
            11 => "HTTP/1.1",
            _ => unreachable!(),
        })
    }
}

pub struct Scheme(u8);

impl Scheme {
    pub fn as_str(&self) -> &str {
        match self.0 {
            1 => "http",
            2 => "https",
            _ => unreachable!(),
        }
    }
}
"""


def test_an_unreachable_in_a_fmt_impl_is_a_place_it_is_thrown(tmp_path: Path) -> None:
    files = {"Cargo.toml": '[package]\nname = "web"\nversion = "0.1.0"\n', "src/lib.rs": _LIB}
    store, sid = index_files(tmp_path, files, "acme/web")
    snap = store.snapshot(sid)
    (entry,) = [e for e in store.entries() if "unreachable" in e.kinds]
    said = entry_json(entry, snap, store)["analysis"]["situations"]["text"]
    assert "`<Version as fmt::Debug>::fmt`" in said and "`Scheme::as_str`" in said
