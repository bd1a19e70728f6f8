"""An ``_unchecked`` function that panics points to the checked function it
is named after, before a generic ``try_from`` of the same type (http's
``HeaderValue::from_maybe_shared_unchecked`` and ``from_maybe_shared``)."""

from __future__ import annotations

from pathlib import Path

from tests.repo_files import index_files

FILES = {
    "Cargo.toml": '[package]\nname = "hval"\nversion = "1.0.0"\n',
    "src/lib.rs": (
        "pub struct InvalidValue;\n\n"
        "pub struct Value {\n    bytes: Vec<u8>,\n}\n\n"
        "impl Value {\n"
        "    /// Converts bytes into a `Value`, checking them.\n"
        "    pub fn from_shared(src: Vec<u8>) -> Result<Value, InvalidValue> {\n"
        "        if src.contains(&0) {\n"
        "            return Err(InvalidValue);\n"
        "        }\n"
        "        Ok(Value { bytes: src })\n"
        "    }\n\n"
        "    /// Converts bytes into a `Value` without checking them.\n"
        "    pub fn from_shared_unchecked(src: Vec<u8>) -> Value {\n"
        "        if src.contains(&0) {\n"
        '            panic!("from_shared_unchecked() with invalid bytes");\n'
        "        }\n"
        "        Value { bytes: src }\n"
        "    }\n\n"
        "    /// Converts any bytes.\n"
        "    pub fn try_from(src: Vec<u8>) -> Result<Value, InvalidValue> {\n"
        "        Value::from_shared(src)\n"
        "    }\n"
        "}\n"
    ),
}


def test_an_unchecked_panic_points_to_its_checked_twin(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, FILES, "acme/hval")
    (entry,) = [e for e in store.entries() if e.message.startswith("from_shared_unchecked()")]
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    said = [s["text"] for s in stored["analysis"].get("solutions", [])]
    assert said and said[0].startswith(
        "Call `Value::from_shared` instead of `Value::from_shared_unchecked`"
    ), said
