"""A page quotes only the docs about its own error (issue 16, points 3 and
6): a function's lone ``# Errors`` line is another error's unless it names
this one's variant, shares a word with its message or names what its check
reads; a type's doc that only restates its name is no meaning; a
``Display`` impl is no place an error is thrown from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from errordex.store.sqlite import SqliteStore
from errordex.views import entry_json
from tests.repo_files import index_files


def _page(store: SqliteStore, sid: int, message: str) -> dict[str, Any]:
    (entry,) = [e for e in store.entries() if e.message == message]
    return entry_json(entry, store.snapshot(sid), store)


def _meaning(page: dict[str, Any]) -> str:
    return str((page["analysis"].get("meaning") or {}).get("text", ""))


#: cut down from ron's `from_str`: its one `# Errors` line is about
#: deserializing into `T`, and the parser's own errors are syntax errors
_RON = {
    "Cargo.toml": '[package]\nname = "notation"\nversion = "0.8.0"\n',
    "src/lib.rs": (
        "use std::fmt;\n\n"
        "pub enum Error {\n"
        "    /// The input ended before the value did\n"
        "    Eof,\n"
        "    /// A struct's fields did not match\n"
        "    Mismatch,\n"
        "}\n\n"
        "impl fmt::Display for Error {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n"
        "        match self {\n"
        '            Error::Eof => f.write_str("Unexpected end of RON"),\n'
        '            Error::Mismatch => f.write_str("Fields of the struct do not match"),\n'
        "        }\n"
        "    }\n"
        "}\n\n"
        "/// Reads a value from a string.\n"
        "///\n"
        "/// # Errors\n"
        "///\n"
        "/// Fails if the structure does not match `T`.\n"
        "pub fn from_str(s: &str) -> Result<(), Error> {\n"
        "    if s.is_empty() {\n"
        "        return Err(Error::Eof);\n"
        "    }\n"
        '    if s.starts_with("(") {\n'
        "        return Err(Error::Mismatch);\n"
        "    }\n"
        "    Ok(())\n"
        "}\n"
    ),
}


def test_a_lone_errors_line_about_another_error_is_not_quoted(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _RON, "acme/notation")
    eof = _page(store, sid, "Unexpected end of RON")
    assert "does not match" not in _meaning(eof)
    # the line shares "match" with the other error's message: quoted there
    mismatch = _page(store, sid, "Fields of the struct do not match")
    assert "Fails if the structure does not match `T`" in _meaning(mismatch)


#: marshmallow's exceptions.py: the base class's docstring says only its name
_MARSHMALLOW = {
    "shape/exceptions.py": (
        "class ShapeError(Exception):\n"
        '    """Base class for all shape-related errors."""\n\n\n'
        "class ValidationError(ShapeError):\n"
        '    """Raised when validation fails on a field or schema."""\n'
    ),
    "shape/__init__.py": (
        "from shape.exceptions import ValidationError\n\n\n"
        "def validate_integer(value):\n"
        "    if not isinstance(value, int):\n"
        '        raise ValidationError("Not a valid integer.")\n'
        "    return value\n"
    ),
}


def test_a_class_doc_that_restates_its_name_is_not_a_meaning(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _MARSHMALLOW, "acme/shape")
    meaning = _meaning(_page(store, sid, "Not a valid integer."))
    assert "Raised when validation fails on a field or schema" in meaning
    assert "Base class for all shape-related errors" not in meaning


#: falcon's media/base.py: a bare NotImplementedError whose own docstring names it
_FALCON = {
    "media/__init__.py": (
        "class BaseHandler:\n"
        "    def serialize(self, media, content_type):\n"
        '        """Serialize the media object on a response.\n\n'
        "        By default, this method raises an instance of\n"
        "        :class:`NotImplementedError`. Therefore, it must be\n"
        "        overridden in order to work with WSGI apps.\n"
        '        """\n'
        "        raise NotImplementedError()\n"
    ),
}


def test_a_builtin_named_by_the_docstring_of_its_own_wordless_raise_is_quoted(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _FALCON, "acme/media")
    meaning = _meaning(_page(store, sid, ""))
    assert "it must be overridden in order to work with WSGI apps" in meaning


#: xarray's concat documents `join` (a value "override", a `ValueError`) and
#: calls merge_attrs, whose check compares `combine_attrs` with "override" too
_CONCAT = {
    "merging/__init__.py": (
        "def merge_attrs(attrs, combine_attrs):\n"
        '    if combine_attrs == "drop":\n'
        "        return {}\n"
        '    elif combine_attrs == "override":\n'
        "        return attrs\n"
        "    else:\n"
        '        raise ValueError(f"Unrecognised value for combine_attrs={combine_attrs}")\n\n\n'
        "def concat(objs, join, combine_attrs):\n"
        '    """Concatenate objects.\n\n'
        '    join : {"outer", "exact", "override"}\n'
        '        - "exact": instead of aligning, raise `ValueError` when indexes differ\n'
        '        - "override": if indexes are of same size, rewrite indexes\n'
        '    """\n'
        "    return merge_attrs(objs, combine_attrs)\n"
    ),
}


def test_a_value_the_check_compares_with_is_no_word_a_doc_line_shares(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _CONCAT, "acme/merging")
    page = _page(store, sid, "Unrecognised value for combine_attrs={combine_attrs}")
    assert "rewrite indexes" not in _meaning(page)
    assert "rewrite indexes" not in " ".join(s["text"] for s in page["analysis"]["solutions"])
