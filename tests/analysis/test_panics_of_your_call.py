"""The one ``# Panics`` line of the public call a user makes is the contract
of a panic below it (axum's ``Event::json_data``: "Panics if any `data` has
already been written before", for ``Called `Event::data*` multiple times``
in the private ``write_buf``); a call that documents several panics tells
none of them apart by that alone."""

from __future__ import annotations

from typing import Any

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore

LIB = """\
pub struct Event {
    written: bool,
    retries: u32,
}

impl Event {
    /// Sets the data of the event.
    ///
    /// # Panics
    ///
    /// Panics if any `data` has already been written before.
    pub fn json_data(&mut self, text: &str) -> usize {
        self.write_buf(text)
    }

    /// Sets how many retries are left.
    ///
    /// # Panics
    ///
    /// Panics if `count` is zero.
    /// Panics if the event was already sent.
    pub fn retries(&mut self, count: u32) -> u32 {
        self.bump(count)
    }

    /// Removes a value.
    ///
    /// # Panics
    ///
    /// Panics if `index` is out of bounds.
    pub fn remove(&mut self, index: usize) -> u32 {
        self.forget(index)
    }

    fn forget(&mut self, index: usize) -> u32 {
        if self.retries == 0 {
            panic!("handle not in registry");
        }
        index as u32
    }

    fn write_buf(&mut self, text: &str) -> usize {
        if self.written {
            panic!("Called `Event::data*` multiple times");
        }
        self.written = true;
        text.len()
    }

    fn bump(&mut self, count: u32) -> u32 {
        if self.retries > 7 {
            panic!("bump: retry budget spent");
        }
        self.retries += count;
        self.retries
    }
}
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    root = tmp_path_factory.mktemp("panics")
    src = root / "sse"
    (src / "src").mkdir(parents=True)
    (src / "Cargo.toml").write_text('[package]\nname = "sse"\nversion = "0.1.0"\n')
    (src / "src" / "lib.rs").write_text(LIB)
    store = SqliteStore(root / "errordex.db")
    sid = index(str(src), store, name="fixture/sse", jobs=1).snapshot_id
    return {store.entry(eid).message: data for eid, data in store.analyses(sid)}


def solutions(page: dict[str, Any]) -> list[str]:
    return [s["text"] for s in page["analysis"].get("solutions", [])]


def test_the_one_documented_panic_of_your_call_is_the_contract(
    pages: dict[str, dict[str, Any]],
) -> None:
    said = solutions(pages["Called `Event::data*` multiple times"])
    assert (
        "Follow the documented contract of `Event::json_data`: “Panics if any `data` has "
        "already been written before”." in said
    )


def test_several_documented_panics_are_not_told_apart_by_the_call(
    pages: dict[str, dict[str, Any]],
) -> None:
    """``retries`` documents two panics in one paragraph of two sentences."""
    said = " ".join(solutions(pages["bump: retry budget spent"]))
    assert "Panics if `count` is zero" not in said


def test_a_documented_panic_that_says_nothing_of_this_one_is_not_its_contract(
    pages: dict[str, dict[str, Any]],
) -> None:
    """``remove`` documents an out-of-bounds ``index``; the panic below it is
    about a registry (hcl-edit's ``Array::remove`` shape)."""
    said = " ".join(solutions(pages["handle not in registry"]))
    assert "out of bounds" not in said
