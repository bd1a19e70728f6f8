"""Rust leads that name what the user writes (issue 16, session 11): an impl
of another library's trait (serde's ``Deserializer``) is called by that
library, so the page leads with the repository's public function that
builds the value and hands it over (ron's ``from_str``), not with
``<&mut Deserializer as de::Deserializer>::deserialize_unit``; an impl of a
std trait the user calls on the type (``FromStr``) leads with the inherent
function that calls it (semver's ``Version::parse``)."""

from __future__ import annotations

from pathlib import Path

from errordex.languages.rust.scan import scan
from errordex.store.sqlite import SqliteStore
from tests.repo_files import index_files


def _summary(store: SqliteStore, sid: int, message: str) -> str:
    (entry,) = [e for e in store.entries() if e.message == message]
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    text: str = stored["analysis"]["summary"]["text"]
    return text


#: ron (ron-rs/ron, src/de/mod.rs and src/options.rs), cut down: `from_str`
#: calls `Options::from_str`, whose `from_str_seed` builds the `Deserializer`
#: and hands `&mut` it to serde, which calls `deserialize_unit`
_RON: dict[str, str] = {
    "Cargo.toml": '[package]\nname = "ron"\nversion = "0.9.0"\n',
    "src/lib.rs": (
        "pub mod de;\npub mod error;\npub mod options;\n\n"
        "pub use de::{from_str, Deserializer};\npub use error::{Error, Result};\n"
        "pub use options::Options;\n"
    ),
    "src/error.rs": (
        "use core::fmt;\n\n"
        "pub type Result<T> = core::result::Result<T, Error>;\n\n"
        "#[derive(Debug)]\n"
        "pub enum Error {\n    ExpectedUnit,\n    Message(String),\n}\n\n"
        "impl fmt::Display for Error {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
        "        match self {\n"
        '            Error::ExpectedUnit => f.write_str("Expected unit"),\n'
        "            Error::Message(s) => f.write_str(s),\n"
        "        }\n"
        "    }\n"
        "}\n\n"
        "impl serde::de::Error for Error {\n"
        "    fn custom<T: fmt::Display>(msg: T) -> Self {\n"
        "        Error::Message(msg.to_string())\n"
        "    }\n"
        "}\n"
    ),
    "src/de/mod.rs": (
        "use serde::de::{self, Visitor};\n\n"
        "use crate::error::{Error, Result};\n"
        "use crate::options::Options;\n\n"
        "pub struct Deserializer<'de> {\n    input: &'de str,\n}\n\n"
        "impl<'de> Deserializer<'de> {\n"
        "    pub fn from_str(input: &'de str) -> Result<Self> {\n"
        "        Self::from_str_with_options(input, &Options::default())\n"
        "    }\n\n"
        "    pub fn from_str_with_options(input: &'de str, options: &Options) -> Result<Self> {\n"
        "        Ok(Deserializer { input })\n"
        "    }\n\n"
        "    fn consume_str(&mut self, s: &str) -> bool {\n"
        "        if self.input.starts_with(s) {\n"
        "            self.input = &self.input[s.len()..];\n"
        "            true\n"
        "        } else {\n"
        "            false\n"
        "        }\n"
        "    }\n"
        "}\n\n"
        "/// A convenience function for building a deserializer\n"
        "/// and deserializing a value of type `T` from a string.\n"
        "pub fn from_str<'a, T>(s: &'a str) -> Result<T>\n"
        "where\n"
        "    T: de::Deserialize<'a>,\n"
        "{\n"
        "    Options::default().from_str(s)\n"
        "}\n\n"
        "impl<'de, 'a> de::Deserializer<'de> for &'a mut Deserializer<'de> {\n"
        "    type Error = Error;\n\n"
        "    fn deserialize_unit<V>(self, visitor: V) -> Result<V::Value>\n"
        "    where\n"
        "        V: Visitor<'de>,\n"
        "    {\n"
        '        if self.consume_str("()") {\n'
        "            visitor.visit_unit()\n"
        "        } else {\n"
        "            Err(Error::ExpectedUnit)\n"
        "        }\n"
        "    }\n"
        "}\n"
    ),
    "src/options.rs": (
        "use core::marker::PhantomData;\n\n"
        "use serde::de;\n\n"
        "use crate::de::Deserializer;\n"
        "use crate::error::Result;\n\n"
        "#[derive(Default)]\n"
        "pub struct Options {\n    pub recursion_limit: Option<usize>,\n}\n\n"
        "impl Options {\n"
        "    pub fn from_str<'a, T>(&self, s: &'a str) -> Result<T>\n"
        "    where\n"
        "        T: de::Deserialize<'a>,\n"
        "    {\n"
        "        self.from_str_seed(s, PhantomData)\n"
        "    }\n\n"
        "    pub fn from_str_seed<'a, S, T>(&self, s: &'a str, seed: S) -> Result<T>\n"
        "    where\n"
        "        S: de::DeserializeSeed<'a, Value = T>,\n"
        "    {\n"
        "        let mut deserializer = Deserializer::from_str_with_options(s, self)?;\n"
        "        let value = seed.deserialize(&mut deserializer)?;\n"
        "        Ok(value)\n"
        "    }\n"
        "}\n"
    ),
}


def test_a_foreign_trait_impl_is_led_by_the_function_that_hands_it_the_value(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _RON, "ron-rs/ron")
    summary = _summary(store, sid, "Expected unit")
    assert summary.startswith("You called `ron::from_str`"), summary
    assert "deserialize_unit" in summary  # the site is still named, on the way


#: semver (dtolnay/semver, src/impls.rs and src/parse.rs), cut down: the
#: parser is `impl FromStr for Version`, and `Version::parse` calls it
_SEMVER: dict[str, str] = {
    "Cargo.toml": '[package]\nname = "semver"\nversion = "1.0.20"\n',
    "src/lib.rs": (
        "mod parse;\n\nuse core::str::FromStr;\n\n"
        "pub use crate::parse::Error;\n\n"
        "pub struct Version {\n    pub major: u64,\n}\n\n"
        "impl Version {\n"
        "    /// Create `Version` by parsing from string representation.\n"
        "    pub fn parse(text: &str) -> Result<Self, Error> {\n"
        "        Version::from_str(text)\n"
        "    }\n"
        "}\n"
    ),
    "src/parse.rs": (
        "use core::fmt;\nuse core::str::FromStr;\n\nuse crate::Version;\n\n"
        "#[derive(Debug)]\n"
        "pub enum Error {\n    Empty,\n    Overflow,\n}\n\n"
        "impl fmt::Display for Error {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
        "        match self {\n"
        '            Error::Empty => f.write_str("empty string, expected a semver version"),\n'
        '            Error::Overflow => f.write_str("value out of range"),\n'
        "        }\n"
        "    }\n"
        "}\n\n"
        "impl FromStr for Version {\n"
        "    type Err = Error;\n\n"
        "    fn from_str(text: &str) -> Result<Self, Self::Err> {\n"
        "        numeric_identifier(text).map(|major| Version { major })\n"
        "    }\n"
        "}\n\n"
        "fn numeric_identifier(input: &str) -> Result<u64, Error> {\n"
        "    if input.is_empty() {\n"
        "        return Err(Error::Empty);\n"
        "    }\n"
        "    Ok(input.len() as u64)\n"
        "}\n"
    ),
}


def test_a_std_trait_impl_is_led_by_the_inherent_function_that_calls_it(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _SEMVER, "dtolnay/semver")
    summary = _summary(store, sid, "empty string, expected a semver version")
    assert summary.startswith("You called `semver::Version::parse("), summary
    assert "from_str" not in summary


def test_an_assert_eq_on_the_err_variant_reproduces_it_through_the_user_call(
    tmp_path: Path,
) -> None:
    # ron's tests/401_raw_identifier.rs: the call a user makes, and the
    # variant its `Err(…)` names first (inside the spanned error)
    files = {
        **_RON,
        "tests/unit.rs": (
            "use ron::Error;\n\n"
            "#[derive(Debug, PartialEq)]\n"
            "pub struct SpannedError {\n    pub code: Error,\n    pub line: usize,\n}\n\n"
            "#[test]\n"
            "fn test_unit() {\n"
            "    assert_eq!(\n"
            '        ron::from_str::<Unit>("x"),\n'
            "        Err(SpannedError {\n"
            "            code: Error::ExpectedUnit,\n"
            "            line: 1,\n"
            "        })\n"
            "    );\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "ron-rs/ron")
    (entry,) = [e for e in store.entries() if e.message == "Expected unit"]
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    tests = stored["facts"]["tests"]
    assert [(t["test"], t["exception"]) for t in tests] == [("test_unit", "Error::ExpectedUnit")]


def test_a_turbofish_naming_the_unit_type_is_still_the_call() -> None:
    text = (
        "#[test]\nfn unit() {\n"
        '    assert_eq!(ron::from_str::<()>("x"), Err(Error::ExpectedUnit));\n'
        "}\n"
    )
    (t,) = scan("tests/unit.rs", text).tests
    assert (t.calls, t.exception) == (("from_str",), "Error::ExpectedUnit")


#: jsonb (databendlabs/jsonb, src/lib.rs, src/number.rs, src/owned.rs), cut
#: down: `Number` implements serde's `Serialize`, which nothing in the crate
#: calls by name; `to_owned_jsonb<T: serde::ser::Serialize>` runs it
_JSONB: dict[str, str] = {
    "Cargo.toml": '[package]\nname = "jsonb"\nversion = "0.5.5"\n',
    "src/lib.rs": (
        "mod number;\nmod owned;\n\npub use number::Number;\n"
        "pub use owned::to_owned_jsonb;\npub use owned::OwnedJsonb;\n"
    ),
    "src/number.rs": (
        "use serde::ser::Serialize;\nuse serde::ser::Serializer;\n\n"
        "pub enum Number {\n    Int64(i64),\n    Decimal128(i128),\n}\n\n"
        "impl Serialize for Number {\n"
        "    fn serialize<S>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error>\n"
        "    where\n        S: Serializer,\n    {\n"
        "        match self {\n"
        "            Number::Int64(v) => serializer.serialize_i64(*v),\n"
        "            Number::Decimal128(v) => {\n"
        "                if serializer.is_human_readable() {\n"
        '                    return Err(serde::ser::Error::custom(format!("Format decimal128 error: {v}")));\n'
        "                }\n"
        "                serializer.serialize_i128(*v)\n"
        "            }\n        }\n    }\n}\n"
    ),
    "src/owned.rs": (
        "pub struct OwnedJsonb(Vec<u8>);\n\n"
        "/// Serializes a value into an `OwnedJsonb`.\n"
        "pub fn to_owned_jsonb<T>(value: &T) -> Result<OwnedJsonb, String>\n"
        "where\n    T: serde::ser::Serialize,\n{\n"
        "    let mut serializer = Serializer::default();\n"
        "    value.serialize(&mut serializer).map_err(|e| e.to_string())?;\n"
        "    Ok(OwnedJsonb(serializer.into_vec()))\n}\n"
    ),
}


def test_a_generic_functions_bound_is_read_by_its_last_name() -> None:
    ev = scan("src/owned.rs", _JSONB["src/owned.rs"])
    assert [(f.symbol, f.bounds) for f in ev.functions] == [("to_owned_jsonb", ("Serialize",))]


def test_a_foreign_trait_impl_leads_with_the_generic_function_its_bound_dispatches_to(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _JSONB, "databendlabs/jsonb")
    summary = _summary(store, sid, "Format decimal128 error: {v}")
    assert summary.startswith(
        "You called `jsonb::to_owned_jsonb::<Number>` (`src/owned.rs`), and on its way "
        "`<Number as Serialize>::serialize`"
    ), summary


#: quick-xml (tafia/quick-xml, src/name.rs), cut down: a std conversion's
#: impl that nothing in the crate calls; a user calls it on the type
_NAMES: dict[str, str] = {
    "Cargo.toml": '[package]\nname = "quick-xml"\nversion = "0.39.0"\n',
    "src/lib.rs": "pub mod name;\n",
    "src/name.rs": (
        "#[derive(Debug)]\n"
        "pub enum NamespaceError {\n"
        "    /// Specified namespace prefix is unknown, cannot resolve namespace for it\n"
        "    UnknownPrefix(Vec<u8>),\n}\n\n"
        "pub struct Namespace<'ns>(pub &'ns [u8]);\n\n"
        "pub enum ResolveResult<'ns> {\n"
        "    Unbound,\n    Bound(Namespace<'ns>),\n    Unknown(Vec<u8>),\n}\n\n"
        "impl<'ns> TryFrom<ResolveResult<'ns>> for Option<Namespace<'ns>> {\n"
        "    type Error = NamespaceError;\n\n"
        "    fn try_from(result: ResolveResult<'ns>) -> Result<Self, NamespaceError> {\n"
        "        use ResolveResult::*;\n\n"
        "        match result {\n"
        "            Unbound => Ok(None),\n"
        "            Bound(ns) => Ok(Some(ns)),\n"
        '            Unknown(p) => panic!("unknown namespace prefix"),\n'
        "        }\n    }\n}\n"
    ),
}


#: candle (huggingface/candle, candle-core/src/dtype.rs), cut down: `DType`
#: is public and implements `FromStr`; another crate's function calls
#: `DType::from_str` too, but a user's `s.parse::<DType>()` is the direct way in
_DTYPE: dict[str, str] = {
    "Cargo.toml": '[package]\nname = "candle-core"\nversion = "0.9.1"\n',
    "src/lib.rs": "pub mod dtype;\npub use dtype::DType;\n",
    "src/dtype.rs": (
        "#[derive(Clone, Copy, Debug)]\n"
        "pub enum DType {\n    U8,\n    F32,\n}\n\n"
        "#[derive(Debug, PartialEq, Eq)]\n"
        "pub struct DTypeParseError(String);\n\n"
        "impl std::fmt::Display for DTypeParseError {\n"
        "    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n"
        "        write!(f, \"cannot parse '{}' as a dtype\", self.0)\n    }\n}\n\n"
        "impl std::str::FromStr for DType {\n"
        "    type Err = DTypeParseError;\n"
        "    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {\n"
        "        match s {\n"
        '            "u8" => Ok(Self::U8),\n'
        '            "f32" => Ok(Self::F32),\n'
        "            _ => Err(DTypeParseError(s.to_string())),\n"
        "        }\n    }\n}\n"
    ),
}


def test_a_public_types_std_conversion_leads_with_the_users_call(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _DTYPE, "huggingface/candle")
    summary = _summary(store, sid, "cannot parse '{}' as a dtype")
    assert summary.startswith("You wrote `….parse::<DType>()` (`src/dtype.rs`)"), summary


def test_a_conversion_into_a_type_of_std_keeps_its_impl(tmp_path: Path) -> None:
    # `Option` is no type of the crate: `Option::try_from(…)` is not how a user names it
    store, sid = index_files(tmp_path, _NAMES, "tafia/quick-xml")
    summary = _summary(store, sid, "unknown namespace prefix")
    assert "Option::try_from(…)" not in summary
