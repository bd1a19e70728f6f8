"""Real Rust errors from the crates of bench/tuned_rust.py (captured in
``fixtures/rust_tuned_values.json``): each form a user pastes (the Debug
value, the unwrap panic, ``Error:`` from main) leads to the entry of the
text its Display printed, among crates that have variants of the same names
(crossbeam-channel's and num-bigint's ``Empty``, xmlparser's and termcolor's
``InvalidName``; log's ``ParseLevelError(())`` and tracing-core's
``ParseLevelError { _p: () }``, told apart by the shape printed), and the Display text leads to the entry of the text in it. The crates are indexed from Debian's registry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from errordex.explain import explain_text
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore

REGISTRY = Path("/usr/share/cargo/registry")
FIXTURE = json.loads(
    (Path(__file__).parent / "fixtures" / "rust_tuned_values.json").read_text(encoding="utf-8")
)
CASES: list[dict[str, Any]] = FIXTURE["cases"]
#: the crates the cases ran, and crates with variants of the same names
CRATES = {
    "termcolor-1.1.2": "BurntSushi/termcolor",
    "num-bigint-0.4.3": "rust-num/num-bigint",
    "flate2-1.0.25": "rust-lang/flate2-rs",
    "crossbeam-channel-0.5.6": "crossbeam-rs/crossbeam",
    "xmlparser-0.13.5": "RazrFalcon/xmlparser",
    "smallvec-1.9.0": "servo/rust-smallvec",
    "data-encoding-2.3.2": "ia0/data-encoding",
    "strsim-0.10.0": "dguo/strsim-rs",
    "object-0.30.0": "gimli-rs/object",
    "serde-1.0.152": "serde-rs/serde",
    "regex-syntax-0.6.27": "rust-lang/regex",
    "rayon-core-1.10.1": "rayon-rs/rayon",
    "log-0.4.17": "rust-lang/log",
    "tracing-core-0.1.30": "tokio-rs/tracing",
    "tokio-1.24.2": "tokio-rs/tokio",
}
FORMS = ("debug", "unwrap", "main")

pytestmark = pytest.mark.skipif(
    not all((REGISTRY / c).is_dir() for c in CRATES), reason="needs Debian's librust-*-dev crates"
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    store = SqliteStore(tmp_path_factory.mktemp("crates") / "db.sqlite")
    for crate, slug in CRATES.items():
        index(str(REGISTRY / crate), store, name=slug, jobs=1)
    return store


def _top(store: SqliteStore, text: str) -> dict[str, Any]:
    parts = explain_text(store, text)["parts"]
    got = parts[-1]
    assert got["matches"], got
    top: dict[str, Any] = got["matches"][0]
    return top


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_each_form_of_a_tuned_crate_error_leads_to_its_entry(
    store: SqliteStore, case: dict[str, Any], form: str
) -> None:
    top = _top(store, case[form])
    assert top["message"] == case["message"]
    assert top["repo"] == CRATES[case["crate"]]


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_the_display_text_of_a_tuned_crate_error_leads_to_its_entry(
    store: SqliteStore, case: dict[str, Any]
) -> None:
    """data-encoding's ``"{} at {}"`` shows its ``DecodeKind``'s Display
    (``invalid symbol at 1``): that kind's text is the entry, not the test's
    ``panic!("1")`` of crossbeam-channel that the text holds by chance."""
    top = _top(store, case["display"])
    assert top["message"] == case["message"]
    assert top["repo"] == CRATES[case["crate"]]
