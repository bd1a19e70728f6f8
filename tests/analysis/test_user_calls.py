"""Pages that start from the call a user typed and end in what to change
(issue 16, session 10): a missing optional package is installed, a private
helper's advice is not given, and a framework-called method is not "what
you called". The small repositories copy the shape of real code (httpx's
guarded imports, xarray's ``module_available`` checks)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from errordex.store.sqlite import SqliteStore
from tests.repo_files import index_files


def _page(store: SqliteStore, sid: int, message: str) -> dict[str, Any]:
    (entry,) = [e for e in store.entries() if e.message == message]
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    return dict(stored["analysis"])


def _solutions(page: dict[str, Any]) -> list[str]:
    return [s["text"] for s in page.get("solutions", [])]


#: httpx/_client.py and xarray/core/dataset.py, cut down
_OPTIONAL = {
    "netlib/__init__.py": "from netlib.client import Client\nfrom netlib.ranks import rank\n",
    "netlib/client.py": (
        "class Client:\n"
        "    def __init__(self, http2=False):\n"
        "        if http2:\n"
        "            try:\n"
        "                import h2  # noqa\n"
        "            except ImportError:  # pragma: no cover\n"
        "                raise ImportError(\n"
        "                    \"Using http2=True, but the 'h2' package is not installed. \"\n"
        '                    "Make sure to install netlib using `pip install netlib[http2]`."\n'
        "                ) from None\n"
        "        self.http2 = http2\n"
    ),
    "netlib/ranks.py": (
        "from importlib.util import find_spec\n\n\n"
        "def rank(values):\n"
        '    if find_spec("bottleneck") is None:\n'
        '        raise ImportError("rank requires bottleneck to be installed.")\n'
        "    return sorted(values)\n"
    ),
}


def test_a_missing_optional_package_is_installed_with_the_messages_own_command(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _OPTIONAL, "acme/netlib")
    page = _page(
        store,
        sid,
        "Using http2=True, but the 'h2' package is not installed. "
        "Make sure to install netlib using `pip install netlib[http2]`.",
    )
    said = _solutions(page)
    assert said[0] == (
        "Install the missing package (“h2”) as the message says: “pip install netlib[http2]”, "
        "then call `netlib.Client` again."
    )
    # the re-raise is not a reason to "give input that does not cause it"
    assert "input that does not cause it" not in json.dumps(page)


def test_a_package_a_message_names_as_required_is_installed(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _OPTIONAL, "acme/netlib")
    said = _solutions(_page(store, sid, "rank requires bottleneck to be installed."))
    assert said[0].startswith("Install “bottleneck” in the environment your code runs in")


#: indexmap's src/map.rs, cut down: `map[key]` runs the `Index` impl, whose
#: docs say when it panics in an inline "***Panics***" paragraph; and an
#: error type's `Display` impl that panics on a state it never expects
_MAP = {
    "Cargo.toml": '[package]\nname = "ordmap"\nversion = "2.1.0"\n',
    "src/lib.rs": (
        "use std::fmt;\n"
        "use std::ops::Index;\n\n"
        "pub struct OrdMap {\n    keys: Vec<String>,\n}\n\n"
        "impl OrdMap {\n"
        "    /// Return a reference to the value stored for `key`, if it is present.\n"
        "    pub fn get(&self, key: &str) -> Option<&String> {\n"
        "        self.keys.iter().find(|k| *k == key)\n"
        "    }\n\n"
        "    /// Swaps the position of two entries in the map.\n"
        "    ///\n"
        "    /// ***Panics*** if `a` or `b` are out of bounds.\n"
        "    pub fn swap_indices(&mut self, a: usize, b: usize) {\n"
        "        if a >= self.keys.len() || b >= self.keys.len() {\n"
        '            panic!("indices not found");\n'
        "        }\n"
        "        self.keys.swap(a, b);\n"
        "    }\n"
        "}\n\n"
        "impl Index<&str> for OrdMap {\n"
        "    type Output = String;\n\n"
        "    /// Returns a reference to the value corresponding to the supplied `key`.\n"
        "    ///\n"
        "    /// ***Panics*** if `key` is not present in the map.\n"
        "    fn index(&self, key: &str) -> &String {\n"
        '        self.get(key).expect("no entry found for key")\n'
        "    }\n"
        "}\n\n"
        "pub enum Code {\n    Eof,\n    Other,\n}\n\n"
        "impl fmt::Display for Code {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
        "        match self {\n"
        '            Code::Eof => f.write_str("end of input"),\n'
        '            Code::Other => unreachable!("no text for Other"),\n'
        "        }\n"
        "    }\n"
        "}\n"
    ),
}


def test_an_index_impl_leads_as_the_indexing_the_user_wrote_with_its_panics_doc(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _MAP, "acme/ordmap")
    page = _page(store, sid, "no entry found for key")
    summary = page["summary"]["text"]
    assert summary.startswith("You wrote `OrdMap[…]` (`src/lib.rs`)"), summary
    assert "<OrdMap as Index" not in summary
    # the impl's inline "***Panics***" paragraph is what it means
    assert "***Panics*** if `key` is not present in the map" in page["meaning"]["text"]


def test_an_inline_panics_paragraph_is_quoted_as_the_calls_panics_doc(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _MAP, "acme/ordmap")
    page = _page(store, sid, "indices not found")
    assert "***Panics*** if `a` or `b` are out of bounds" in page["meaning"]["text"]


def test_a_panic_in_a_display_impl_is_not_a_call_the_user_made(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _MAP, "acme/ordmap")
    page = _page(store, sid, "no text for Other")
    text = json.dumps(page)
    assert "You called" not in text
    assert "Calling `<Code as fmt::Display>::fmt`" not in text
    assert page["summary"]["text"].startswith("Printing a `Code` (its `Display` impl")


def test_a_panicking_operator_points_to_the_types_fallible_method(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _MAP, "acme/ordmap")
    said = _solutions(_page(store, sid, "no entry found for key"))
    assert said[0] == (
        "Call `OrdMap::get` instead of `OrdMap[…]`: it returns an `Option` "
        "(`Option<&String>`) where `OrdMap[…]` panics, so your code can handle the `None` "
        "(src/lib.rs:10)."
    )


def test_a_method_with_a_try_sibling_points_to_it(tmp_path: Path) -> None:
    # bytes' `Buf::get_u8` panics; `Buf::try_get_u8` returns a `Result`
    files = {
        "Cargo.toml": '[package]\nname = "bufs"\nversion = "1.0.0"\n',
        "src/lib.rs": (
            "pub struct TryGetError;\n\n"
            "pub struct Buf {\n    data: Vec<u8>,\n}\n\n"
            "impl Buf {\n"
            "    /// Gets an unsigned 8 bit integer from `self`.\n"
            "    pub fn get_u8(&mut self) -> u8 {\n"
            "        if self.data.is_empty() {\n"
            '            panic!("no more remaining data");\n'
            "        }\n"
            "        self.data.remove(0)\n"
            "    }\n\n"
            "    /// Gets an unsigned 8 bit integer from `self`, or an error.\n"
            "    pub fn try_get_u8(&mut self) -> Result<u8, TryGetError> {\n"
            "        if self.data.is_empty() {\n"
            "            return Err(TryGetError);\n"
            "        }\n"
            "        Ok(self.data.remove(0))\n"
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/bufs")
    said = _solutions(_page(store, sid, "no more remaining data"))
    assert said[0].startswith(
        "Call `Buf::try_get_u8` instead of `Buf::get_u8`: it returns a `Result` "
        "(`Result<u8, TryGetError>`)"
    ), said


def test_a_method_the_constructor_runs_leads_with_the_class_the_user_built(
    tmp_path: Path,
) -> None:
    # a response class renders its content in `__init__`: the user wrote
    # `YamlResponse(content)`, never `.render`
    files = {
        "webkit/__init__.py": "from webkit.responses import YamlResponse\n",
        "webkit/responses.py": (
            "class YamlResponse:\n"
            "    def __init__(self, content):\n"
            "        self.body = self.render(content)\n\n"
            "    def render(self, content):\n"
            "        if not isinstance(content, dict):\n"
            '            raise TypeError("content must be a dict")\n'
            "        return str(content)\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/webkit")
    summary = _page(store, sid, "content must be a dict")["summary"]["text"]
    assert summary.startswith("You called `webkit.YamlResponse`"), summary
    assert "`YamlResponse.render`" in summary


def test_a_special_method_leads_as_the_operator(tmp_path: Path) -> None:
    files = {
        "tables/__init__.py": "from tables.core import Table\n",
        "tables/core.py": (
            "class Table:\n"
            "    def __init__(self, rows):\n"
            "        self.rows = rows\n\n"
            "    def __getitem__(self, name):\n"
            "        if name not in self.rows:\n"
            '            raise KeyError(f"no row called {name!r}")\n'
            "        return self.rows[name]\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/tables")
    summary = _page(store, sid, "no row called {name!r}")["summary"]["text"]
    assert summary.startswith(
        "You wrote `tables.Table[name]` (`tables/core.py`), and it raises `KeyError` when `name not in self.rows`"
    ), summary


def test_a_must_be_called_first_error_says_what_to_call_first(tmp_path: Path) -> None:
    # burn-train's AUC metric: `value` before `compute` panics
    files = {
        "Cargo.toml": '[package]\nname = "metrics"\nversion = "0.3.0"\n',
        "src/lib.rs": (
            "pub struct Auc {\n    area: Option<f64>,\n}\n\n"
            "impl Auc {\n"
            "    /// Computes the area from the points seen so far.\n"
            "    pub fn compute(&mut self) {\n"
            "        self.area = Some(0.5);\n"
            "    }\n\n"
            "    /// The final value.\n"
            "    pub fn value(&self) -> f64 {\n"
            '        self.area.expect("Compute must be called to get final value")\n'
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/metrics")
    said = _solutions(_page(store, sid, "Compute must be called to get final value"))
    assert said[0] == (
        "Call `Auc::compute` first, as the message says it must be (src/lib.rs:7), "
        "then call `metrics::Auc::value` again."
    ), said


def test_a_never_set_value_points_to_its_setter(tmp_path: Path) -> None:
    # candle's wasm examples: "image embeddings have not been set" and `set_image_embeddings`
    files = {
        "Cargo.toml": '[package]\nname = "vision"\nversion = "0.1.0"\n',
        "src/lib.rs": (
            "pub struct Model {\n    embeddings: Option<Vec<f32>>,\n}\n\n"
            "impl Model {\n"
            "    pub fn set_image_embeddings(&mut self, image: Vec<f32>) {\n"
            "        self.embeddings = Some(image);\n"
            "    }\n\n"
            "    pub fn mask(&self) -> Result<usize, String> {\n"
            "        match &self.embeddings {\n"
            "            Some(e) => Ok(e.len()),\n"
            '            None => Err("image embeddings have not been set".to_string()),\n'
            "        }\n"
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/vision")
    said = _solutions(_page(store, sid, "image embeddings have not been set"))
    assert said[0].startswith("Set it first with `Model::set_image_embeddings` (src/lib.rs:6)"), (
        said
    )


def test_a_debug_build_check_is_not_the_cause_of_a_panic(tmp_path: Path) -> None:
    # bytes' `vptr`: `if cfg!(debug_assertions) { NonNull::new(ptr).expect(…) }`
    files = {
        "Cargo.toml": '[package]\nname = "ptrs"\nversion = "1.0.0"\n',
        "src/lib.rs": (
            "pub fn vptr(ptr: Option<usize>) -> usize {\n"
            "    if cfg!(debug_assertions) {\n"
            '        ptr.expect("Vec pointer should be non-null")\n'
            "    } else {\n"
            "        ptr.unwrap_or(0)\n"
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/ptrs")
    page = _page(store, sid, "Vec pointer should be non-null")
    assert "debug_assertions" not in page["summary"]["text"]
    assert "debug_assertions" not in page.get("trigger", {}).get("text", "")


def test_a_check_of_the_objects_own_state_is_not_shown_as_the_cause(tmp_path: Path) -> None:
    # starlette-like: adding middleware after the app has started
    files = {
        "webapp/__init__.py": "from webapp.app import App\n",
        "webapp/app.py": (
            "class App:\n"
            "    def __init__(self):\n"
            "        self.stack = None\n\n"
            "    def add_middleware(self, middleware):\n"
            "        if self.stack is not None:\n"
            '            raise RuntimeError("Cannot add middleware after an application has started")\n'
            "        self.middleware = middleware\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/webapp")
    page = _page(store, sid, "Cannot add middleware after an application has started")
    trigger = page["trigger"]["text"]
    assert "self.stack" not in trigger, trigger
    assert "on a `App` whose state the check at webapp/app.py:6 rejects" in trigger


def test_an_error_built_in_its_own_constructor_counts_the_returns_that_build_it(
    tmp_path: Path,
) -> None:
    # http's `InvalidMethod::new` builds `InvalidMethod { _priv: () }`; the
    # user meets it where `Method::from_bytes` returns `Err(InvalidMethod::new())`
    files = {
        "Cargo.toml": '[package]\nname = "verbs"\nversion = "1.0.0"\n',
        "src/lib.rs": (
            "use std::fmt;\n\n"
            "pub struct InvalidMethod {\n    _priv: (),\n}\n\n"
            "impl InvalidMethod {\n"
            "    fn new() -> InvalidMethod {\n"
            "        InvalidMethod { _priv: () }\n"
            "    }\n"
            "}\n\n"
            "impl fmt::Display for InvalidMethod {\n"
            "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
            '        f.write_str("invalid HTTP method")\n'
            "    }\n"
            "}\n\n"
            "impl std::error::Error for InvalidMethod {}\n\n"
            "pub struct Method(u8);\n\n"
            "impl Method {\n"
            "    /// Converts a slice of bytes to an HTTP method.\n"
            "    pub fn from_bytes(src: &[u8]) -> Result<Method, InvalidMethod> {\n"
            "        if src.is_empty() {\n"
            "            return Err(InvalidMethod::new());\n"
            "        }\n"
            "        if src.len() > 16 {\n"
            "            return Err(InvalidMethod::new());\n"
            "        }\n"
            "        Ok(Method(src[0]))\n"
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/verbs")
    page = _page(store, sid, "invalid HTTP method")
    assert page["summary"]["text"].startswith("You called `verbs::Method::from_bytes`"), page[
        "summary"
    ]["text"]
    meaning = page["meaning"]["text"]
    assert (
        "2 places outside tests build it, through `InvalidMethod::new` (src/lib.rs:27, src/lib.rs:30)"
        in meaning
    ), meaning


def test_a_generic_message_says_its_sites_are_unrelated_and_scopes_its_advice(
    tmp_path: Path,
) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "shapes"\nversion = "1.0.0"\n',
        "src/lib.rs": (
            "pub fn area(w: i32) -> i32 {\n"
            "    if w < 0 {\n"
            "        unreachable!()\n"
            "    }\n"
            "    w * w\n"
            "}\n\n"
            "pub fn parse(s: &str) -> u8 {\n"
            "    match s {\n"
            '        "a" => 1,\n'
            "        _ => unreachable!(),\n"
            "    }\n"
            "}\n\n"
            "#[cfg(test)]\n"
            "mod tests {\n"
            "    #[test]\n"
            "    fn squares() {\n"
            "        assert!(super::area(2) == 4);\n"
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/shapes")
    page = _page(store, sid, "")
    assert page["summary"]["text"].startswith(
        "“internal error: entered unreachable code” says nothing of its own: 2 unrelated "
        "places in 1 files throw it."
    ), page["summary"]["text"]
    for s in page.get("solutions", []):
        assert s["text"].startswith("If your traceback points at src/lib.rs:"), s["text"]


def test_a_tests_own_asserts_are_not_counted_as_thrown_in_test_code(tmp_path: Path) -> None:
    files = {
        "calc/__init__.py": "def half(x):\n    assert x % 2 == 0\n    return x // 2\n",
        "tests/test_calc.py": (
            "from calc import half\n\n\n"
            "def test_half():\n    assert half(4) == 2\n    assert half(2) == 1\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/calc")
    (entry,) = [e for e in store.entries() if any(not s.in_test for s in e.sites)]
    from errordex.views import entry_json

    data = entry_json(entry, store.snapshot(sid), store)
    assert data["test_sites"] == []
    assert any(s.in_test for s in entry.sites)  # the tests' asserts are there, not counted


def test_an_undocumented_checks_meaning_is_said_in_the_calls_arguments(tmp_path: Path) -> None:
    # xarray's save_mfdataset: nothing documents the ValueError
    files = {
        "geo/__init__.py": "from geo.writers import save_all\n",
        "geo/writers.py": (
            "def save_all(datasets, paths):\n"
            '    """Write multiple datasets to disk at once."""\n'
            "    if len(datasets) != len(paths):\n"
            '        raise ValueError("must supply lists of the same length")\n'
            "    return list(zip(datasets, paths))\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/geo")
    meaning = _page(store, sid, "must supply lists of the same length")["meaning"]["text"]
    assert meaning.startswith(
        "It means that for the `datasets` and `paths` you passed to "
        "`geo.save_all(datasets=…, paths=…)`, `len(datasets) != len(paths)` held: "
        "geo/writers.py:3 rejects that."
    ), meaning


def test_an_override_a_base_class_method_calls_is_reached_through_that_method(
    tmp_path: Path,
) -> None:
    # marshmallow: `Field.deserialize` calls `self._deserialize`, which `List` overrides
    files = {
        "forms/__init__.py": "from forms.fields import Field, List\n",
        "forms/fields.py": (
            "class Field:\n"
            "    def deserialize(self, value):\n"
            '        """Deserialize ``value``."""\n'
            "        return self._deserialize(value)\n\n"
            "    def _deserialize(self, value):\n"
            "        return value\n\n\n"
            "class List(Field):\n"
            "    def _deserialize(self, value):\n"
            "        if not isinstance(value, list):\n"
            '            raise TypeError("Not a valid list.")\n'
            "        return value\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/forms")
    summary = _page(store, sid, "Not a valid list.")["summary"]["text"]
    assert summary.startswith("You called `forms.Field.deserialize(value=…)`"), summary
    assert "`List._deserialize`" in summary


def test_a_hook_the_library_calls_through_its_trait_leads_with_the_call_that_runs_it(
    tmp_path: Path,
) -> None:
    # candle's CustomOp3: `Tensor::apply_op3` calls `op.cpu_fwd(…)` on a `&dyn CustomOp3`
    files = {
        "Cargo.toml": '[package]\nname = "tensors"\nversion = "0.9.0"\n',
        "src/lib.rs": (
            "pub trait CustomOp3 {\n"
            "    fn cpu_fwd(&self, n: usize) -> usize;\n"
            "}\n\n"
            "pub struct Tensor(usize);\n\n"
            "impl Tensor {\n"
            "    /// Applies a custom op to the tensor.\n"
            "    pub fn apply_op3(&self, op: &dyn CustomOp3) -> usize {\n"
            "        op.cpu_fwd(self.0)\n"
            "    }\n"
            "}\n\n"
            "pub struct Where;\n\n"
            "impl CustomOp3 for Where {\n"
            "    fn cpu_fwd(&self, n: usize) -> usize {\n"
            "        if n == 0 {\n"
            '            panic!("where needs a non-empty tensor");\n'
            "        }\n"
            "        n\n"
            "    }\n"
            "}\n\n"
            "pub struct Select;\n\n"
            "impl CustomOp3 for Select {\n"
            "    fn cpu_fwd(&self, n: usize) -> usize {\n"
            "        n + 1\n"
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/tensors")
    summary = _page(store, sid, "where needs a non-empty tensor")["summary"]["text"]
    assert summary.startswith("You called `tensors::Tensor::apply_op3`"), summary


def test_a_message_about_a_calls_arguments_is_no_order_to_call_it_first(tmp_path: Path) -> None:
    # candle's ModuleDict.update: "should be called with an iterable", and a
    # message naming a module in passing is no package to install
    files = {
        "nets/__init__.py": "from nets.container import ModuleDict\n",
        "nets/container.py": (
            "class ModuleDict:\n"
            "    def update(self, modules):\n"
            "        if not isinstance(modules, (list, dict)):\n"
            '            raise TypeError("ModuleDict.update should be called with an iterable, '
            'not used in the nets module")\n'
            "        self.modules = modules\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/nets")
    page = _page(
        store,
        sid,
        "ModuleDict.update should be called with an iterable, not used in the nets module",
    )
    text = json.dumps(page, ensure_ascii=False)
    assert "first, as the message says" not in text
    assert "Install" not in text


def test_a_functions_own_except_around_deeper_calls_is_no_catch_of_its_later_raise(
    tmp_path: Path,
) -> None:
    # marshmallow's List._deserialize catches each item's ValidationError and
    # raises them all together afterwards: the error does reach the caller
    files = {
        "forms/__init__.py": "from forms.fields import Field, List\n",
        "forms/fields.py": (
            "class ValidationError(Exception):\n    pass\n\n\n"
            "class Field:\n"
            "    def deserialize(self, value):\n"
            '        """Deserialize ``value``."""\n'
            "        return self._deserialize(value)\n\n"
            "    def _deserialize(self, value):\n"
            "        return value\n\n\n"
            "class List(Field):\n"
            "    def __init__(self, inner):\n"
            "        self.inner = inner\n\n"
            "    def _deserialize(self, value):\n"
            "        errors = {}\n"
            "        for i, each in enumerate(value):\n"
            "            try:\n"
            "                self.inner.deserialize(each)\n"
            "            except ValidationError as error:\n"
            "                errors[i] = error\n"
            "        if errors:\n"
            '            raise ValidationError("some items are invalid")\n'
            "        return value\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/forms")
    page = _page(store, sid, "some items are invalid")
    assert "catches it itself" not in json.dumps(page, ensure_ascii=False)


#: jinja2/runtime.py and jinja2/exceptions.py, cut down: the exception class's
#: ``__init__`` also reaches the raise, but nobody calls an error to get one
_UNDEFINED = {
    "tmpl/__init__.py": (
        "from tmpl.runtime import Undefined\nfrom tmpl.errors import NotFound\n"
        "from tmpl.env import select\n"
    ),
    "tmpl/env.py": (
        "from tmpl.runtime import Undefined, UndefinedError\n\n\n"
        "def select(names):\n"
        "    if isinstance(names, Undefined):\n"
        "        try:\n"
        "            names._fail_with_undefined_error()\n"
        "        except UndefinedError:\n"
        "            return None\n"
        "    return names\n"
    ),
    "tmpl/errors.py": (
        "from tmpl.runtime import Undefined\n\n\n"
        "class NotFound(IOError, LookupError):\n"
        "    def __init__(self, name):\n"
        "        if isinstance(name, Undefined):\n"
        "            name._fail_with_undefined_error()\n"
        "        super().__init__(name)\n"
    ),
    "tmpl/runtime.py": (
        "class UndefinedError(Exception):\n    pass\n\n\n"
        "class Undefined:\n"
        "    def __init__(self, name=None, exc=UndefinedError):\n"
        "        self._undefined_name = name\n"
        "        self._undefined_exception = exc\n\n"
        "    def _fail_with_undefined_error(self):\n"
        '        raise self._undefined_exception(f"{self._undefined_name!r} is undefined")\n\n'
        "    def __getattr__(self, name):\n"
        "        return self._fail_with_undefined_error()\n"
    ),
}


def test_an_exception_class_is_not_the_call_you_made_and_an_operator_is_written(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _UNDEFINED, "acme/tmpl")
    page = _page(store, sid, "{self._undefined_name!r} is undefined")
    lead = page["summary"]["text"]
    assert lead.startswith("You wrote `tmpl.Undefined.…`"), lead
    assert "NotFound" not in lead
    # `select` catches it, but the lead's way in (`Undefined.…`) does not pass there
    assert "catches it itself" not in lead
    (entry,) = [e for e in store.entries() if e.message.endswith(" is undefined")]
    assert entry.exception_types[0] == "UndefinedError"  # the `exc=` default


def test_a_panic_in_a_module_compiled_for_debug_builds_only_says_so(tmp_path: Path) -> None:
    # clap 4's `#[cfg(debug_assertions)] mod debug_asserts;`, whose `assert_app`
    # panics on two arguments of one name when a `Command` is built
    files = {
        "Cargo.toml": '[package]\nname = "cli"\nversion = "4.0.0"\n',
        "src/lib.rs": "pub mod builder;\npub use builder::Command;\n",
        "src/builder/mod.rs": (
            "mod command;\n\n#[cfg(debug_assertions)]\nmod debug_asserts;\n\n"
            "pub use command::Command;\n"
        ),
        "src/builder/command.rs": (
            "pub struct Command {\n    pub names: Vec<String>,\n}\n\n"
            "impl Command {\n"
            "    pub fn build(&mut self) {\n"
            "        #[cfg(debug_assertions)]\n"
            "        super::debug_asserts::assert_app(self);\n"
            "    }\n"
            "}\n"
        ),
        "src/builder/debug_asserts.rs": (
            "use super::command::Command;\n\n"
            "pub(crate) fn assert_app(cmd: &Command) {\n"
            "    for (i, n) in cmd.names.iter().enumerate() {\n"
            "        if cmd.names[..i].contains(n) {\n"
            "            panic!(\"Argument names must be unique, but '{}' is in use\", n);\n"
            "        }\n"
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/cli")
    page = _page(store, sid, "Argument names must be unique, but '{}' is in use")
    meaning = page["meaning"]["text"]
    assert "compiled only with debug assertions on" in meaning, meaning
    assert "src/builder/mod.rs:3" in meaning, meaning
    # a module a release build has is said nothing of
    files["src/builder/mod.rs"] = "mod command;\nmod debug_asserts;\n\npub use command::Command;\n"
    other = tmp_path / "release"
    other.mkdir()
    store, sid = index_files(other, files, "acme/cli")
    page = _page(store, sid, "Argument names must be unique, but '{}' is in use")
    assert "debug assertions" not in page.get("meaning", {}).get("text", "")


def test_a_panic_in_a_function_compiled_for_debug_builds_only_says_so(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "grid"\nversion = "1.0.0"\n',
        "src/lib.rs": (
            "#[cfg(debug_assertions)]\n"
            "pub fn check_shape(rows: usize, cols: usize) {\n"
            "    if rows * cols == 0 {\n"
            '        panic!("a grid of {} by {} holds nothing", rows, cols);\n'
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/grid")
    page = _page(store, sid, "a grid of {} by {} holds nothing")
    meaning = page["meaning"]["text"]
    assert "compiled only with debug assertions on (`#[cfg(debug_assertions)]`, src/lib.rs:1)" in (
        meaning
    ), meaning


def test_a_mixins_method_is_named_on_the_class_users_hold(tmp_path: Path) -> None:
    # redis-py: `Redis(CoreCommands)`, `CoreCommands(DataAccessCommands)`,
    # `DataAccessCommands(StreamCommands)`; `redis.commands` exports `CoreCommands`
    files = {
        "kv/__init__.py": "from kv.client import Redis\n\n__all__ = ['Redis']\n",
        "kv/client.py": (
            "from kv.commands import CoreCommands\n\n\n"
            "class Redis(CoreCommands):\n"
            "    def execute_command(self, *args):\n"
            "        return args\n"
        ),
        "kv/commands/__init__.py": (
            "from kv.commands.core import CoreCommands\n\n__all__ = ['CoreCommands']\n"
        ),
        "kv/commands/core.py": (
            "class DataError(Exception):\n    pass\n\n\n"
            "class StreamCommands:\n"
            "    def xadd(self, name, ref_policy=None):\n"
            '        if ref_policy not in ("KEEPREF", "DELREF"):\n'
            '            raise DataError("XADD ref_policy must be one of: KEEPREF, DELREF")\n'
            "        return self.execute_command('XADD', name, ref_policy)\n\n\n"
            "class DataAccessCommands(StreamCommands):\n    pass\n\n\n"
            "class CoreCommands(DataAccessCommands):\n    pass\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/kv")
    page = _page(store, sid, "XADD ref_policy must be one of: KEEPREF, DELREF")
    summary = page["summary"]["text"]
    assert summary.startswith("You called `kv.Redis.xadd(ref_policy=…)`"), summary


def test_a_subclass_of_another_files_class_of_the_same_name_does_not_name_it(
    tmp_path: Path,
) -> None:
    # redis-py's redis/asyncio/connection.py defines its own `AbstractConnection`
    # and `Connection(AbstractConnection)`: not a subclass of the sync one
    files = {
        "kv/__init__.py": "",
        "kv/aio/__init__.py": "from kv.aio.conn import Connection\n\n__all__ = ['Connection']\n",
        "kv/aio/conn.py": (
            "class AbstractConnection:\n    pass\n\n\n"
            "class Connection(AbstractConnection):\n    pass\n"
        ),
        "kv/conn.py": (
            "class AbstractConnection:\n"
            "    def connect(self, port):\n"
            "        if port < 0:\n"
            '            raise ValueError("port must not be negative")\n'
            "        return port\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/kv")
    page = _page(store, sid, "port must not be negative")
    summary = page["summary"]["text"]
    assert "kv.aio" not in summary, summary
