"""A method of a trait no user can call (a sealed trait's ``#[doc(hidden)]``
method, a trait in a module nobody outside can name) is not what a user
called: the lead goes on up to the public code that calls it through a
type parameter the trait bounds, and an operator's impl there is written as
the operator (issue 16)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from errordex.languages.rust.scan import scan
from tests.repo_files import index_files


def _analysis(tmp_path: Path, files: dict[str, str], message: str) -> dict[str, Any]:
    store, sid = index_files(tmp_path, files, "acme/x")
    entry = next(e for e in store.entries() if e.message == message)
    stored: dict[str, Any] | None = store.analysis(sid, entry.id)
    assert stored is not None
    return dict(stored["analysis"])


def _summary(tmp_path: Path, files: dict[str, str], message: str) -> str:
    return str(_analysis(tmp_path, files, message)["summary"]["text"])


#: serde_yaml's src/value/index.rs (and sonic-rs's src/index.rs): a sealed
#: `Index` whose methods are `#[doc(hidden)]`, implemented for `usize`, and
#: std's `IndexMut` on `Value` for any `I: Index`
_YAML = {
    "Cargo.toml": '[package]\nname = "yamlish"\nversion = "0.9.34"\n',
    "src/lib.rs": (
        "mod value;\n\npub use value::{Index, Value};\n\n"
        "mod private {\n    pub trait Sealed {}\n    impl Sealed for usize {}\n}\n"
    ),
    "src/value.rs": (
        "use std::ops;\n\n"
        "pub enum Value {\n    Null,\n    Sequence(Vec<Value>),\n}\n\n"
        "pub trait Index: crate::private::Sealed {\n"
        "    #[doc(hidden)]\n"
        "    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value;\n"
        "}\n\n"
        "impl Index for usize {\n"
        "    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {\n"
        "        match v {\n"
        "            Value::Sequence(vec) => &mut vec[*self],\n"
        '            _ => panic!("cannot access index {} of YAML value", self),\n'
        "        }\n"
        "    }\n"
        "}\n\n"
        "impl<I> ops::IndexMut<I> for Value\nwhere\n    I: Index,\n{\n"
        "    /// Write into a `Value` using the syntax `value[0] = ...`.\n"
        "    fn index_mut(&mut self, index: I) -> &mut Value {\n"
        "        index.index_or_insert(self)\n"
        "    }\n"
        "}\n"
    ),
}


def test_a_sealed_traits_hidden_method_is_led_by_the_operator_that_calls_it(
    tmp_path: Path,
) -> None:
    page = _analysis(tmp_path, _YAML, "cannot access index {} of YAML value")
    summary = page["summary"]["text"]
    assert summary.startswith("You wrote `Value[…] = …` (`src/value.rs`)"), summary
    assert "`<usize as Index>::index_or_insert` panics" in summary
    assert (
        "`Value[…] = …`, what you wrote, is documented as: “Write into a `Value` using the syntax"
        in page["meaning"]["text"]
    )


def test_the_same_method_documented_is_what_you_called(tmp_path: Path) -> None:
    # hcl-rs's `Evaluate: private::Sealed` documents `evaluate`: users call it
    files = dict(_YAML)
    files["src/value.rs"] = files["src/value.rs"].replace("    #[doc(hidden)]\n", "")
    summary = _summary(tmp_path, files, "cannot access index {} of YAML value")
    assert summary.startswith("You called `<usize as Index>::index_or_insert`"), summary


#: reqwest's src/into_url.rs: `IntoUrlSealed` is `pub` in a module the crate
#: does not make public, and only `IntoUrl: IntoUrlSealed` is re-exported, to
#: bound `Client::get<U: IntoUrl>`
_REQWEST = {
    "Cargo.toml": '[package]\nname = "fetcher"\nversion = "0.12.0"\n',
    "src/lib.rs": (
        "mod into_url;\n\npub use into_url::IntoUrl;\n\n"
        "pub struct Url {\n    pub host: Option<String>,\n}\n\n"
        "pub struct Client;\n\n"
        "impl Client {\n"
        "    pub fn get<U: IntoUrl>(&self, url: U) -> Url {\n"
        "        url.into_url()\n"
        "    }\n"
        "}\n"
    ),
    "src/into_url.rs": (
        "use crate::Url;\n\n"
        "pub trait IntoUrl: IntoUrlSealed {}\n\n"
        "impl IntoUrl for Url {}\n\n"
        "pub trait IntoUrlSealed {\n    fn into_url(self) -> Url;\n}\n\n"
        "impl IntoUrlSealed for Url {\n"
        "    fn into_url(self) -> Url {\n"
        "        if self.host.is_none() {\n"
        '            panic!("URL scheme is not allowed");\n'
        "        }\n"
        "        self\n"
        "    }\n"
        "}\n"
    ),
}


def test_a_trait_in_a_private_module_is_led_by_the_call_bound_by_its_subtrait(
    tmp_path: Path,
) -> None:
    summary = _summary(tmp_path, _REQWEST, "URL scheme is not allowed")
    assert summary.startswith("You called `fetcher::Client::get(url)` (`src/lib.rs`)"), summary
    assert "`<Url as IntoUrlSealed>::into_url` panics" in summary


#: the sealed-trait idiom with the methods on the sealed trait itself, in a
#: private inline module, under a name many types define (`insert`): only the
#: bound `K: IntoName` says which `key.insert(…)` runs it
_SEALED_INSERT = {
    "Cargo.toml": '[package]\nname = "headers"\nversion = "1.0.0"\n',
    "src/lib.rs": (
        "pub struct Map {\n    pub names: Vec<String>,\n}\n\n"
        "impl Map {\n"
        "    pub fn insert<K: IntoName>(&mut self, key: K) {\n"
        "        key.insert(self)\n"
        "    }\n"
        "}\n\n"
        "pub trait IntoName: sealed::Sealed {}\n\n"
        "impl IntoName for &'static str {}\n\n"
        "mod sealed {\n"
        "    pub trait Sealed {\n"
        "        fn insert(self, map: &mut super::Map);\n"
        "    }\n\n"
        "    impl Sealed for &'static str {\n"
        "        fn insert(self, map: &mut super::Map) {\n"
        "            if self.is_empty() {\n"
        '                panic!("a name may not be empty");\n'
        "            }\n"
        "            map.names.push(self.to_string());\n"
        "        }\n"
        "    }\n"
        "}\n"
        + "".join(
            f"\npub struct Other{i};\n\nimpl Other{i} {{\n    pub fn insert(&mut self) {{}}\n}}\n"
            for i in range(8)
        )
    ),
}


def test_a_sealed_traits_method_of_a_common_name_is_led_by_the_bound_caller(
    tmp_path: Path,
) -> None:
    summary = _summary(tmp_path, _SEALED_INSERT, "a name may not be empty")
    assert summary.startswith("You called `headers::Map::insert"), summary


def test_the_scan_reads_a_traits_hidden_methods_supertraits_and_reach() -> None:
    # sonic-rs's src/index.rs and reqwest's `mod sealed` idiom, cut down
    ev = scan(
        "src/index.rs",
        "pub trait Index: Sealed {\n"
        "    #[doc(hidden)]\n"
        "    fn index_or_insert(&self, v: &mut Value) -> &mut Value;\n"
        "    #[doc(hidden)]\n"
        "    fn as_key(&self) -> Option<&str> {\n        None\n    }\n"
        "    fn len(&self) -> usize;\n"
        "}\n\n"
        "mod sealed {\n    pub trait Sealed {\n        fn insert(self);\n    }\n}\n\n"
        "pub(crate) trait Numeric: BasicOps {\n    fn mean(&self);\n}\n",
    )
    decls = {d.name: d for d in ev.trait_decls}
    assert decls["Index"].supertraits == ("Sealed",)
    assert decls["Index"].methods == ("index_or_insert", "as_key", "len")
    assert decls["Index"].hidden == ("index_or_insert", "as_key")
    assert decls["Index"].named
    assert not decls["Sealed"].named  # `pub`, in a private inline module
    assert not decls["Numeric"].named and decls["Numeric"].supertraits == ("BasicOps",)


#: sonic-rs's src/value/node.rs and src/lazyvalue/value.rs, cut down: two
#: types with their own `get_index`, and the lazy one's `self.get_index(i)`
_TWO_GET_INDEX = {
    "Cargo.toml": '[package]\nname = "jsonish"\nversion = "0.5.0"\n',
    "src/lib.rs": "mod value;\nmod lazy;\n\npub use lazy::Lazy;\npub use value::Value;\n",
    "src/value.rs": (
        "pub struct Value {\n    items: Vec<u8>,\n}\n\n"
        "impl Value {\n"
        "    fn get_index(&self, i: usize) -> u8 {\n"
        '        assert!(!self.items.is_empty(), "index out of this array");\n'
        "        self.items[i]\n"
        "    }\n\n"
        "    fn lookup(&self, i: usize) -> u8 {\n"
        "        self.get_index(i)\n"
        "    }\n\n"
        "    pub fn at(&self, i: usize) -> u8 {\n"
        "        self.lookup(i)\n"
        "    }\n"
        "}\n"
    ),
    "src/lazy.rs": (
        "pub struct Lazy {\n    raw: Vec<u8>,\n}\n\n"
        "impl Lazy {\n"
        "    fn get_index(&self, i: usize) -> Option<u8> {\n"
        "        self.raw.get(i).copied()\n"
        "    }\n\n"
        "    pub fn get(&self, i: usize) -> Option<u8> {\n"
        "        self.get_index(i)\n"
        "    }\n"
        "}\n"
    ),
}


def test_another_types_self_call_of_the_same_name_is_not_a_way_in(tmp_path: Path) -> None:
    summary = _summary(tmp_path, _TWO_GET_INDEX, "index out of this array")
    assert summary.startswith("You called `jsonish::Value::at"), summary
