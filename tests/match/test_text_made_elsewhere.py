"""A panic or raise whose text is another entry's, made elsewhere: the raise
frame's page names that entry (``wraps``), so a user learns what it means."""

from __future__ import annotations

from pathlib import Path

from errordex.explain import explain_text
from tests.repo_files import index_files

#: the shape of rust_decimal 1.23's ``Decimal::new``: ``Err(e) => panic!("{}", e)``
_LIB = """use std::fmt;

pub enum Error {
    ScaleExceedsMaximumPrecision(u32),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Error::ScaleExceedsMaximumPrecision(scale) => write!(
                f,
                "Scale exceeds the maximum precision allowed: {} > {}",
                scale, 28
            ),
        }
    }
}

pub struct Decimal(i64, u32);

impl Decimal {
    pub fn try_new(num: i64, scale: u32) -> Result<Decimal, Error> {
        if scale > 28 {
            return Err(Error::ScaleExceedsMaximumPrecision(scale));
        }
        Ok(Decimal(num, scale))
    }

    pub fn new(num: i64, scale: u32) -> Decimal {
        match Self::try_new(num, scale) {
            Err(e) => panic!("{}", e),
            Ok(d) => d,
        }
    }
}
"""

_FILES = {
    "Cargo.toml": '[package]\nname = "dec"\nversion = "1.0.0"\nedition = "2021"\n',
    "src/lib.rs": _LIB,
}


def test_a_panic_of_an_errors_text_names_the_entry_that_made_it(tmp_path: Path) -> None:
    store, _ = index_files(tmp_path, _FILES, "acme/dec")
    line = _LIB.splitlines().index('            Err(e) => panic!("{}", e),') + 1
    paste = (
        f"thread 'main' panicked at src/lib.rs:{line}:23:\n"
        "Scale exceeds the maximum precision allowed: 40 > 28\n"
    )
    part = explain_text(store, paste)["parts"][-1]
    top = part["matches"][0]
    assert any(s["line"] == line for s in top["sites"])  # the place that failed
    assert top["wraps"]["message"].startswith("Scale exceeds the maximum precision allowed")
