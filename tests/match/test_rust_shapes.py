"""The shape a Rust type's Debug prints, read from real crates' sources
(Debian's registry) and filed with the identifiers: a pasted value's shape
tells apart two crates' types of one name."""

from __future__ import annotations

from pathlib import Path

import pytest

from errordex.languages.rust.scan import scan
from errordex.match.keys import printed_shape

REGISTRY = Path("/usr/share/cargo/registry")
FILES = {
    "log": REGISTRY / "log-0.4.17/src/lib.rs",
    "tracing": REGISTRY / "tracing-core-0.1.30/src/metadata.rs",
    "crossbeam": REGISTRY / "crossbeam-channel-0.5.6/src/err.rs",
    "errno": REGISTRY / "errno-0.2.8/src/lib.rs",
}

pytestmark = pytest.mark.skipif(
    not all(p.is_file() for p in FILES.values()), reason="needs Debian's librust-*-dev crates"
)


def _shapes(name: str, word: str) -> set[str]:
    path = FILES[name]
    idents = scan(path.name, path.read_text(encoding="utf-8")).idents
    return {i for i in idents if i.startswith(word) and i[len(word) :] in ("(", "{", ";", "?", "!")}


def test_a_tuple_struct_and_a_struct_of_one_name_file_their_shapes() -> None:
    assert _shapes("log", "ParseLevelError") == {"ParseLevelError("}
    assert _shapes("tracing", "ParseLevelError") == {"ParseLevelError{"}


def test_a_hand_written_debug_files_a_question_mark_not_the_declared_shape() -> None:
    # crossbeam's `impl<T> fmt::Debug for SendError<T>` prints "SendError(..)"
    assert _shapes("crossbeam", "SendError") == {"SendError?", "SendError!"}
    assert "Empty;" in _shapes("crossbeam", "Empty")


def test_debug_struct_in_a_hand_written_debug_files_that_shape() -> None:
    # errno's `pub struct Errno(pub i32)` prints `Errno { code: 2, description: Some(..) }`
    assert "Errno{" in _shapes("errno", "Errno")


def test_the_printed_shape_of_a_value() -> None:
    assert printed_shape((("_p", "()"),), ()) == "{"
    assert printed_shape((), ("()",)) == "("
    assert printed_shape((), ()) == ";"
    assert printed_shape((), (".", ".")) == "?"


def test_a_debug_that_writes_a_hidden_value_files_an_exclamation_mark() -> None:
    # crossbeam's `TrySendError::Full(..) => "Full(..)".fmt(f)`
    assert _shapes("crossbeam", "Full") >= {"Full?", "Full!"}


def test_a_debug_that_builds_its_own_name_files_only_that_shape() -> None:
    # prost 0.11's DecodeError writes f.debug_struct("DecodeError"): it always
    # prints `DecodeError { description: .., stack: .. }`, never a bare
    # `DecodeError` (base-x's unit struct, bench/probe_rust.py), so it files
    # `{`, not the `?` of a Debug that says nothing of its shape
    path = REGISTRY / "prost-0.11.6/src/error.rs"
    if not path.is_file():
        pytest.skip("needs Debian's librust-prost-dev")
    idents = scan(path.name, path.read_text(encoding="utf-8")).idents
    assert {
        i for i in idents if i.startswith("DecodeError") and i[11:] in ("(", "{", ";", "?", "!")
    } == {"DecodeError{"}
    # errno's tuple struct whose Debug builds a struct files the struct only
    assert _shapes("errno", "Errno") == {"Errno{"}
