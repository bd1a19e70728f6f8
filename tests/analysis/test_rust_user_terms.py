"""Rust pages in the user's terms (issue 16): the public call that builds an
error leads (not its ``Display`` impl), a generic call reaches the impls of
the trait method it names, the doc comments of the variant and of the call
say what it means, and a check reads through the function's own ``let``s."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from errordex.store.sqlite import SqliteStore
from tests.repo_files import index_files


def _page(store: SqliteStore, sid: int, message: str) -> dict[str, Any]:
    (entry,) = [e for e in store.entries() if e.message == message]
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    return stored


#: rand's `Uniform::new`: a generic call (`S::new`) of a trait method that a
#: macro implements, returning a variant whose text only a Display impl holds
_UNIFORM = {
    "Cargo.toml": '[package]\nname = "dice"\nversion = "0.9.2"\n',
    "src/lib.rs": "pub mod uniform;\n\npub use uniform::Uniform;\n",
    "src/uniform.rs": (
        "use core::fmt;\n\n"
        "/// Error type returned from `Uniform::new`.\n"
        "pub enum Error {\n"
        "    /// `low > high`\n"
        "    EmptyRange,\n"
        "    /// Input or range `high - low` is non-finite.\n"
        "    NonFinite,\n"
        "}\n\n"
        "impl fmt::Display for Error {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
        "        f.write_str(match self {\n"
        '            Error::EmptyRange => "low > high in uniform distribution",\n'
        '            Error::NonFinite => "Non-finite range in uniform distribution",\n'
        "        })\n"
        "    }\n"
        "}\n\n"
        "pub trait UniformSampler: Sized {\n"
        "    fn new(low: f64, high: f64) -> Result<Self, Error>;\n"
        "}\n\n"
        "pub struct Uniform<S>(S);\n\n"
        "impl<S: UniformSampler> Uniform<S> {\n"
        "    /// Create a new `Uniform` instance over `[low, high)`.\n"
        "    ///\n"
        "    /// # Errors\n"
        "    ///\n"
        "    /// - [`Error::EmptyRange`] if `low >= high`\n"
        "    /// - [`Error::NonFinite`] if `low`, `high` or `high - low` are non-finite\n"
        "    pub fn new(low: f64, high: f64) -> Result<Uniform<S>, Error> {\n"
        "        S::new(low, high).map(Uniform)\n"
        "    }\n"
        "}\n\n"
        "pub struct UniformFloat {\n    low: f64,\n}\n\n"
        "macro_rules! uniform_float_impl {\n"
        "    ($ty:ty) => {\n"
        "        impl UniformSampler for UniformFloat {\n"
        "            fn new(low: $ty, high: $ty) -> Result<Self, Error> {\n"
        "                if !low.is_finite() || !high.is_finite() {\n"
        "                    return Err(Error::NonFinite);\n"
        "                }\n"
        "                if !(low < high) {\n"
        "                    return Err(Error::EmptyRange);\n"
        "                }\n"
        "                Ok(UniformFloat { low })\n"
        "            }\n"
        "        }\n"
        "    };\n"
        "}\n\n"
        "uniform_float_impl!(f64);\n"
    ),
}


def test_a_variant_built_in_a_macro_impl_is_led_by_the_public_generic_caller(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _UNIFORM, "acme/dice")
    summary = _page(store, sid, "Non-finite range in uniform distribution")["analysis"]["summary"]
    assert "Display" not in summary["text"]
    assert summary["text"].startswith("You called `dice::Uniform::new`")


def _show(tmp_path: Path, files: dict[str, str], message: str) -> dict[str, Any]:
    store, sid = index_files(tmp_path, files, "acme/x")
    return _page(store, sid, message)


def test_the_meaning_quotes_the_variants_doc_and_only_its_own_errors_item(
    tmp_path: Path,
) -> None:
    meaning = _show(tmp_path, _UNIFORM, "Non-finite range in uniform distribution")["analysis"][
        "meaning"
    ]["text"]
    assert (
        "The doc comment of `Error::NonFinite` says: “Input or range `high - low` is non-finite”"
        in meaning
    )
    assert "The doc comment of `Error` says: “Error type returned from `Uniform::new`”" in meaning
    assert "“[`Error::NonFinite`] if `low`, `high` or `high - low` are non-finite”" in meaning
    assert "EmptyRange" not in meaning


_CHOOSE = {
    "Cargo.toml": '[package]\nname = "pick"\nversion = "0.3.0"\n',
    "src/lib.rs": (
        "use core::fmt;\n\n"
        "pub struct Choose<'a, T> {\n    slice: &'a [T],\n}\n\n"
        "impl<'a, T> Choose<'a, T> {\n"
        "    /// Create a new `Choose` instance which samples uniformly from the slice.\n"
        "    ///\n"
        "    /// Returns error [`Empty`] if the slice is empty.\n"
        "    pub fn new(slice: &'a [T]) -> Result<Self, Empty> {\n"
        "        if slice.is_empty() {\n            return Err(Empty);\n        }\n"
        "        Ok(Self { slice })\n"
        "    }\n"
        "}\n\n"
        "/// Error: empty slice\n"
        "///\n"
        "/// This error is returned when [`Choose::new`] is given an empty slice.\n"
        "#[derive(Debug)]\n"
        "pub struct Empty;\n\n"
        "impl fmt::Display for Empty {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
        '        write!(f, "Tried to create a `Choose` with an empty slice")\n'
        "    }\n"
        "}\n\n"
        "impl std::error::Error for Empty {}\n\n"
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum EncodeError {\n"
        '    #[error("unsupported color type")]\n'
        "    Color,\n"
        "}\n\n"
        "pub struct Image;\n\n"
        "impl Image {\n"
        "    /// Writes the image.\n"
        "    ///\n"
        "    /// # Panics\n"
        "    ///\n"
        "    /// Panics if the buffer does not hold exactly the number of bytes required\n"
        "    /// for the given `width` and `height`.\n"
        "    pub fn write(&self, color: u8) -> Result<(), EncodeError> {\n"
        "        match color {\n"
        "            1 | 2 => Ok(()),\n"
        "            _ => Err(EncodeError::Color),\n"
        "        }\n"
        "    }\n"
        "}\n"
    ),
}


def test_a_unit_error_types_page_quotes_its_doc_comment(tmp_path: Path) -> None:
    meaning = _show(tmp_path, _CHOOSE, "Tried to create a `Choose` with an empty slice")[
        "analysis"
    ]["meaning"]["text"]
    assert (
        "The doc comment of `Empty` says: “Error: empty slice: This error is returned when "
        "[`Choose::new`] is given an empty slice”"
    ) in meaning


def test_a_returned_errors_page_quotes_no_panics_section(tmp_path: Path) -> None:
    page = _show(tmp_path, _CHOOSE, "unsupported color type")["analysis"]
    assert "buffer" not in str(page)
    assert "Panics" not in str(page)


_WEIGHTS = {
    "Cargo.toml": '[package]\nname = "weights"\nversion = "0.1.0"\n',
    "src/lib.rs": (
        "use core::fmt;\n\n"
        "pub enum Error {\n    InvalidInput,\n    InvalidWeight,\n}\n\n"
        "impl fmt::Display for Error {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n"
        "        f.write_str(match *self {\n"
        '            Error::InvalidInput => "Weights sequence is empty",\n'
        '            Error::InvalidWeight => "A weight is negative or not a valid number",\n'
        "        })\n"
        "    }\n"
        "}\n\n"
        "impl std::error::Error for Error {}\n\n"
        "pub struct WeightedIndex {\n    total: f64,\n}\n\n"
        "impl WeightedIndex {\n"
        "    pub fn new(weights: Vec<f64>) -> Result<WeightedIndex, Error> {\n"
        "        let mut iter = weights.into_iter();\n"
        "        let mut total_weight = iter.next().ok_or(Error::InvalidInput)?.clone();\n"
        "        if !(total_weight >= 0.0) {\n"
        "            return Err(Error::InvalidWeight);\n"
        "        }\n"
        "        for w in iter {\n"
        "            total_weight += w;\n"
        "        }\n"
        "        Ok(WeightedIndex { total: total_weight })\n"
        "    }\n"
        "}\n"
    ),
}


def test_a_check_on_a_local_reads_in_the_public_calls_parameters(tmp_path: Path) -> None:
    summary = _show(tmp_path, _WEIGHTS, "A weight is negative or not a valid number")["analysis"][
        "summary"
    ]["text"]
    assert "total_weight" not in summary
    assert summary.startswith(
        "You called `weights::WeightedIndex::new(weights)` (`src/lib.rs`), and it returns this error "
        "when `!(weights.into_iter().next() >= 0.0)` for the arguments you passed."
    )


_BLUR = {
    "Cargo.toml": '[package]\nname = "blur"\nversion = "0.25.0"\n',
    "src/lib.rs": (
        "pub struct Image {\n    w: u32,\n    h: u32,\n}\n\n"
        "impl Image {\n"
        "    pub fn dimensions(&self) -> (u32, u32) {\n        (self.w, self.h)\n    }\n"
        "}\n\n"
        "/// Approximation of Gaussian blur.\n"
        "pub fn fast_blur(input: &Image, sigma: f32) -> Vec<u8> {\n"
        "    let (width, height) = input.dimensions();\n"
        "    horizontal_pass_strategy(\n"
        "        sigma,\n"
        "        width,\n"
        "    )\n"
        "}\n\n"
        "fn horizontal_pass_strategy(sigma: f32, width: u32) -> Vec<u8> {\n"
        "    horizontal_pass::<u8, 1>(\n        sigma, width,\n    )\n"
        "}\n\n"
        "fn horizontal_pass<P, const CN: usize>(sigma: f32, width: u32) -> Vec<u8> {\n"
        '    assert!(width > 0, "Width must be sanitized before this method");\n'
        "    vec![0; width as usize]\n"
        "}\n"
    ),
}


def test_a_helpers_assert_lifts_through_calls_over_several_lines_and_a_tuple_let(
    tmp_path: Path,
) -> None:
    summary = _show(tmp_path, _BLUR, "Width must be sanitized before this method")["analysis"][
        "summary"
    ]["text"]
    assert summary.startswith(
        "You called `blur::fast_blur(input)` (`src/lib.rs`), and on its way `horizontal_pass` panics "
        "(assert) when `input.dimensions().0 > 0` is false for the arguments you passed."
    )


_FACADE = {
    "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n',
    "crates/tensor/Cargo.toml": '[package]\nname = "burn-tensor"\nversion = "0.22.0"\n',
    "crates/tensor/src/lib.rs": "mod tensor;\n\npub use tensor::*;\n",
    "crates/tensor/src/tensor/mod.rs": "mod api;\n\npub use api::*;\n",
    "crates/tensor/src/tensor/api.rs": (
        "pub struct Tensor {\n    tracked: bool,\n}\n\n"
        "impl Tensor {\n"
        "    /// Backward pass of the tensor.\n"
        "    pub fn backward(&self) -> u32 {\n"
        '        assert!(self.tracked, "Requires autodiff tensor.");\n'
        "        1\n"
        "    }\n"
        "}\n"
    ),
    "crates/core/Cargo.toml": '[package]\nname = "burn-core"\nversion = "0.22.0"\n',
    "crates/core/src/lib.rs": "pub mod tensor;\n\npub use tensor::Tensor;\n",
    "crates/core/src/tensor.rs": "pub use burn_tensor::*;\n",
    "crates/burn/Cargo.toml": '[package]\nname = "burn"\nversion = "0.22.0"\n',
    "crates/burn/src/lib.rs": "pub use burn_core::*;\n",
}


def test_the_lead_is_the_path_a_user_types_through_pub_use_of_modules_and_crates(
    tmp_path: Path,
) -> None:
    stored = _show(tmp_path, _FACADE, "Requires autodiff tensor.")
    summary = stored["analysis"]["summary"]["text"]
    assert summary.startswith("You called `burn::tensor::Tensor::backward`")
    (reach,) = stored["facts"]["reachability"]
    assert reach["exported"] == {
        "name": "burn::tensor::Tensor::backward",
        "path": "crates/burn/src/lib.rs",
        "line": 1,
    }


_ROUTER = {
    "Cargo.toml": '[package]\nname = "router"\nversion = "0.8.4"\n',
    "src/docs/route.md": (
        "Add another route to the router.\n\n"
        "# Example\n\n"
        "Routes are matched in order.\n\n"
        "# Panics\n\n"
        "Panics if the route overlaps with another route:\n\n"
        "```rust,should_panic\n"
        'let app = Router::new().route("/").route("/");\n'
        "```\n"
    ),
    "src/lib.rs": (
        "pub struct Router {\n    routes: Vec<String>,\n}\n\n"
        "impl Router {\n"
        '    #[doc = include_str!("docs/route.md")]\n'
        "    pub fn route(mut self, path: &str) -> Self {\n"
        "        if self.routes.iter().any(|r| r == path) {\n"
        '            panic!("Overlapping method route. Cannot add two routes for one path");\n'
        "        }\n"
        "        self.routes.push(path.to_owned());\n"
        "        self\n"
        "    }\n"
        "}\n"
    ),
}


def test_the_meaning_quotes_panics_docs_read_through_include_str(tmp_path: Path) -> None:
    page = _show(tmp_path, _ROUTER, "Overlapping method route. Cannot add two routes for one path")
    meaning = page["analysis"]["meaning"]
    assert (
        "The # Panics docs of `Router::route` say: “Panics if the route overlaps with another "
        "route:”"
    ) in meaning["text"]
    assert "src/docs/route.md:9" in meaning["evidence"]
    assert "matched in order" not in meaning["text"]


def test_a_trait_impl_nobody_calls_by_name_is_not_what_you_called(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "paths"\nversion = "0.1.0"\n',
        "src/lib.rs": (
            "pub struct Segment(u32);\n\n"
            "impl std::str::FromStr for Segment {\n"
            "    type Err = String;\n\n"
            "    fn from_str(s: &str) -> Result<Self, String> {\n"
            "        if s.is_empty() {\n"
            '            panic!("empty path segment");\n'
            "        }\n"
            "        Ok(Segment(1))\n"
            "    }\n"
            "}\n"
        ),
    }
    summary = _show(tmp_path, files, "empty path segment")["analysis"]["summary"]["text"]
    assert summary.startswith("`<Segment as std::str::FromStr>::from_str` panics (`panic!`)")


def test_an_unrelated_panics_section_does_not_hide_what_the_guard_means(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "nest"\nversion = "0.1.0"\n',
        "src/lib.rs": (
            "pub struct Router;\n\n"
            "impl Router {\n"
            "    /// Nest a router at `path`.\n"
            "    ///\n"
            "    /// # Panics\n"
            "    ///\n"
            "    /// Panics if the router has a fallback already.\n"
            "    pub fn nest(&self, path: &str) -> Result<(), String> {\n"
            "        if path.len() < 2 {\n"
            '            return Err("Nesting at the root is not supported.".to_owned());\n'
            "        }\n"
            "        Ok(())\n"
            "    }\n"
            "}\n"
        ),
    }
    meaning = _show(tmp_path, files, "Nesting at the root is not supported.")["analysis"][
        "meaning"
    ]["text"]
    assert "fallback" not in meaning
    assert "returns this error at src/lib.rs:11 when `path.len() < 2` holds (line 10)" in meaning


def test_an_impl_of_the_crates_own_trait_is_what_you_called(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "sched"\nversion = "0.1.0"\n',
        "src/lib.rs": (
            "pub trait Scheduler {\n    fn step(&self, t: usize) -> usize;\n}\n\n"
            "pub struct Euler;\n\n"
            "impl Scheduler for Euler {\n"
            "    fn step(&self, t: usize) -> usize {\n"
            "        if t > 1000 {\n"
            '            panic!("timestep out of this schedulers bounds");\n'
            "        }\n"
            "        t\n"
            "    }\n"
            "}\n"
        ),
    }
    summary = _show(tmp_path, files, "timestep out of this schedulers bounds")["analysis"][
        "summary"
    ]["text"]
    assert summary.startswith("You called `sched::Euler::step(t)` (`src/lib.rs`)")


def test_a_unit_error_struct_passed_as_a_value_is_built_there_and_leads(tmp_path: Path) -> None:
    files = dict(_CHOOSE)
    files["src/lib.rs"] = files["src/lib.rs"].replace(
        "        if slice.is_empty() {\n            return Err(Empty);\n        }\n",
        "        let n = (!slice.is_empty()).then_some(slice.len()).ok_or(Empty)?;\n",
    )
    page = _show(tmp_path, files, "Tried to create a `Choose` with an empty slice")["analysis"]
    assert page["summary"]["text"].startswith("You called `pick::Choose::new` (`src/lib.rs`)")
    assert (
        "The doc comment of `Choose::new` says: “Returns error [`Empty`] if the slice is empty”"
        in page["meaning"]["text"]
    )


def test_an_impl_of_the_crates_trait_is_named_by_its_types_public_path(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "imagery"\nversion = "0.25.0"\n',
        "src/lib.rs": (
            "pub mod codecs;\n\n"
            "pub trait ImageDecoder {\n    fn read_image(&self, buf: &mut [u8]);\n}\n"
        ),
        "src/codecs/mod.rs": "pub mod gif;\n",
        "src/codecs/gif.rs": (
            "use crate::ImageDecoder;\n\n"
            "pub struct GifDecoder;\n\n"
            "impl ImageDecoder for GifDecoder {\n"
            "    fn read_image(&self, buf: &mut [u8]) {\n"
            "        if buf.is_empty() {\n"
            '            panic!("the GIF frame buffer is empty");\n'
            "        }\n"
            "    }\n"
            "}\n"
        ),
    }
    summary = _show(tmp_path, files, "the GIF frame buffer is empty")["analysis"]["summary"]["text"]
    assert summary.startswith("You called `imagery::codecs::gif::GifDecoder::read_image(buf)`")


def test_a_method_of_a_private_or_foreign_type_gets_no_crate_path(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "quant"\nversion = "0.9.0"\n',
        "src/lib.rs": "pub mod quantized;\n",
        "src/quantized.rs": (
            "pub trait QuantizedType {\n    fn embedding(&self, n: usize) -> usize;\n}\n\n"
            "impl QuantizedType for Vec<f32> {\n"
            "    fn embedding(&self, n: usize) -> usize {\n"
            "        if n > self.len() {\n"
            '            panic!("embedding index out of range");\n'
            "        }\n"
            "        n\n"
            "    }\n"
            "}\n"
        ),
    }
    summary = _show(tmp_path, files, "embedding index out of range")["analysis"]["summary"]["text"]
    assert "quant::quantized::Vec" not in summary


def test_a_catch_all_arm_of_another_site_is_not_the_leads(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "codecs"\nversion = "0.25.0"\n',
        "src/lib.rs": (
            "#[derive(Debug, thiserror::Error)]\n"
            "pub enum EncodeError {\n"
            '    #[error("the color type is not supported")]\n'
            "    Color,\n"
            "}\n\n"
            "fn avif_depth(color: u8) -> Result<u8, EncodeError> {\n"
            "    match color {\n"
            "        1 => Ok(8),\n"
            "        2 => Ok(16),\n"
            "        _ => Err(EncodeError::Color),\n"
            "    }\n"
            "}\n\n"
            "pub fn encode_bmp(color: u8) -> Result<(), EncodeError> {\n"
            "    if color > 4 {\n"
            "        return Err(EncodeError::Color);\n"
            "    }\n"
            "    Ok(())\n"
            "}\n"
        ),
    }
    page = _show(tmp_path, files, "the color type is not supported")["analysis"]
    assert page["summary"]["text"].startswith("You called `codecs::encode_bmp(color)`")
    assert "arm" not in page["summary"]["text"] and "arm" not in page["meaning"]["text"]


def test_a_module_declared_inside_an_inline_module_is_on_the_path(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "imagery"\nversion = "0.25.0"\n',
        "src/lib.rs": 'pub mod codecs {\n    #[cfg(feature = "bmp")]\n    pub mod bmp;\n}\n',
        "src/codecs/bmp/mod.rs": "mod encoder;\n\npub use self::encoder::BmpEncoder;\n",
        "src/codecs/bmp/encoder.rs": (
            "pub struct BmpEncoder;\n\n"
            "impl BmpEncoder {\n"
            "    pub fn encode(&self, color: u8) {\n"
            "        if color > 4 {\n"
            '            panic!("unsupported BMP color type");\n'
            "        }\n"
            "    }\n"
            "}\n"
        ),
    }
    summary = _show(tmp_path, files, "unsupported BMP color type")["analysis"]["summary"]["text"]
    assert summary.startswith("You called `imagery::codecs::bmp::BmpEncoder::encode(color)`")


def test_a_method_named_as_many_others_is_reached_by_self_calls_of_its_own_type(
    tmp_path: Path,
) -> None:
    # burn's every `*Config` has a private `assertions`, called as
    # `self.assertions()` by its own `init`: the name alone is ambiguous
    others = "".join(
        f"pub struct C{i} {{\n    pub x: f64,\n}}\n\n"
        f"impl C{i} {{\n"
        "    pub fn init(&self) {\n        self.assertions();\n    }\n\n"
        f'    fn assertions(&self) {{\n        assert!(self.x > 0.0, "x{i}");\n    }}\n}}\n\n'
        for i in range(8)
    )
    files = {
        "Cargo.toml": '[package]\nname = "nn"\nversion = "0.1.0"\n',
        "src/lib.rs": "pub mod loss;\npub mod other;\n",
        "src/loss.rs": (
            "pub struct LpLossConfig {\n    pub p: f64,\n}\n\n"
            "impl LpLossConfig {\n"
            "    pub fn init(&self) -> f64 {\n        self.assertions();\n        self.p\n    }\n\n"
            "    fn assertions(&self) {\n"
            '        assert!(self.p > 0.0, "The order of the norm p must be positive.");\n'
            "    }\n}\n"
        ),
        "src/other.rs": others,
    }
    store, sid = index_files(tmp_path, files, "acme/nn")
    summary = _page(store, sid, "The order of the norm p must be positive.")["analysis"]["summary"][
        "text"
    ]
    assert summary.startswith(
        "You called `nn::loss::LpLossConfig::init` (`src/loss.rs`), and on its way "
        "`LpLossConfig::assertions` panics"
    ), summary
    # another type's `init` does not reach it
    assert "C0" not in summary


#: axum's `Event`: `json_data` defines `impl Write for JsonWriter` in its body,
#: whose `write` calls the private helper that panics; `field` is a name
#: every Debug impl calls (`.field(`) and `Event::event` calls as `self.field(`
_SSE = {
    "Cargo.toml": '[package]\nname = "sse"\nversion = "0.8.0"\n',
    "src/lib.rs": "pub mod cookie;\npub mod event;\n",
    "src/event.rs": (
        "pub struct Event {\n    data: bool,\n}\n\n"
        "impl Event {\n"
        "    pub fn json_data(&mut self, n: u8) -> u8 {\n"
        "        struct JsonWriter<'a>(&'a mut Event);\n"
        "        impl std::io::Write for JsonWriter<'_> {\n"
        "            fn write(&mut self, buf: &[u8]) -> usize {\n"
        "                self.0.write_buf(buf)\n"
        "            }\n"
        "        }\n"
        "        n\n"
        "    }\n\n"
        "    fn write_buf(&mut self, buf: &[u8]) -> usize {\n"
        "        if self.data {\n"
        '            panic!("Called `Event::data*` multiple times");\n'
        "        }\n"
        "        buf.len()\n"
        "    }\n\n"
        "    pub fn event(&mut self, name: &str) -> &mut Self {\n"
        '        self.field("event", name);\n'
        "        self\n"
        "    }\n\n"
        "    fn field(&mut self, name: &str, value: &str) {\n"
        "        assert!(!value.contains('\\n'), \"SSE field value cannot contain newlines\");\n"
        "        let _ = name;\n"
        "    }\n"
        "}\n"
    ),
    # more Debug impls than a page keeps call chains (axum-extra's cookie jars)
    "src/cookie.rs": "".join(
        f"pub struct Jar{i} {{\n    n: u8,\n}}\n\n"
        f"impl std::fmt::Debug for Jar{i} {{\n"
        "    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n"
        f'        f.debug_struct("Jar{i}").field("n", &self.n).finish()\n'
        "    }\n"
        "}\n\n"
        for i in range(4)
    ),
}


def test_an_item_in_a_functions_body_is_reached_by_that_function(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _SSE, "acme/sse")
    summary = _page(store, sid, "Called `Event::data*` multiple times")["analysis"]["summary"]
    assert summary["text"].startswith(
        "You called `sse::event::Event::json_data` (`src/event.rs`), and on its way "
        "`Event::write_buf` panics"
    ), summary["text"]


def test_a_self_call_of_the_same_type_leads_before_a_call_of_the_name_elsewhere(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _SSE, "acme/sse")
    summary = _page(store, sid, "SSE field value cannot contain newlines")["analysis"]["summary"]
    assert summary["text"].startswith(
        "You called `sse::event::Event::event(name)` (`src/event.rs`), and on its way `Event::field`"
    ), summary["text"]


def test_an_expect_means_its_receiver_held_no_value_and_a_result_prints_its_error(
    tmp_path: Path,
) -> None:
    # burn's `rx.recv().expect("Can receive callback")` and
    # `points.last().expect("Points are not empty")`: no guard, no docs
    files = {
        "Cargo.toml": '[package]\nname = "chan"\nversion = "0.1.0"\n',
        "src/lib.rs": (
            "use std::sync::mpsc::Receiver;\n\n"
            "pub fn wait(rx: Receiver<u8>) -> u8 {\n"
            '    rx.recv().expect("Can receive callback")\n'
            "}\n\n"
            "pub fn tail(points: Vec<u8>) -> u8 {\n"
            '    *points.last().expect("Points are not empty")\n'
            "}\n\n"
            "pub fn head(points: Vec<u8>) -> u8 {\n"
            "    *points\n"
            "        .first()\n"
            '        .expect("Points are not empty at the head")\n'
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/chan")
    meaning = _page(store, sid, "Can receive callback")["analysis"]["meaning"]
    assert meaning["text"] == (
        "`wait` panics at src/lib.rs:4 when `rx.recv()` is an `Err`. The panic shows the "
        "message, then a colon and the error as debug formatting prints it."
    )
    assert meaning["evidence"] == ["src/lib.rs:4"]
    meaning = _page(store, sid, "Points are not empty")["analysis"]["meaning"]
    assert meaning["text"] == "`tail` panics at src/lib.rs:8 when `points.last()` is `None`."
    # a chain over several lines panics at the line of its `.expect`
    meaning = _page(store, sid, "Points are not empty at the head")["analysis"]["meaning"]
    assert meaning["text"] == "`head` panics at src/lib.rs:14 when `points.first()` is `None`."


def test_a_pub_method_of_a_crate_private_type_is_not_what_you_called(tmp_path: Path) -> None:
    # burn-ndarray's `pub(crate) struct NdArrayMathOps` has `pub fn mean_dim`:
    # no user can call it; the public function that does is what they called
    files = {
        "Cargo.toml": '[package]\nname = "nd"\nversion = "0.1.0"\n',
        "src/lib.rs": (
            "pub(crate) struct MathOps {\n    rank: usize,\n}\n\n"
            "impl MathOps {\n"
            "    pub fn mean_dim(&self, dim: usize) -> usize {\n"
            "        match self.rank {\n"
            "            1 | 2 => dim,\n"
            '            _ => panic!("Unsupported rank"),\n'
            "        }\n"
            "    }\n"
            "}\n\n"
            "pub fn mean(rank: usize, dim: usize) -> usize {\n"
            "    let ops = MathOps { rank };\n"
            "    ops.mean_dim(dim)\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/nd")
    summary = _page(store, sid, "Unsupported rank")["analysis"]["summary"]["text"]
    assert summary.startswith("You called `nd::mean` (`src/lib.rs`), and on its way"), summary


def test_a_function_handed_to_another_as_a_value_is_reached_by_the_call_that_hands_it(
    tmp_path: Path,
) -> None:
    # burn's `TunableSet::new(create_key::<R>, FusionInputGen)`
    files = {
        "Cargo.toml": '[package]\nname = "tune"\nversion = "0.1.0"\n',
        "src/lib.rs": (
            "pub struct TunableSet<K> {\n    key: fn(u8) -> K,\n}\n\n"
            "impl<K> TunableSet<K> {\n"
            "    pub fn new(key: fn(u8) -> K) -> Self {\n        Self { key }\n    }\n}\n\n"
            "fn create_key<R>(input: u8) -> u8 {\n"
            '    assert!(input > 0, "Not supported when generating key");\n'
            "    input\n"
            "}\n\n"
            "pub fn autotune<R>() -> TunableSet<u8> {\n"
            "    TunableSet::new(create_key::<R>)\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/tune")
    summary = _page(store, sid, "Not supported when generating key")["analysis"]["summary"]
    assert summary["text"].startswith("You called `tune::autotune`"), summary["text"]


def test_a_panic_in_a_macro_body_is_said_of_its_expansion_and_its_place_once(
    tmp_path: Path,
) -> None:
    # burn-dispatch's `to_device_arms!`: no function holds the site
    files = {
        "Cargo.toml": '[package]\nname = "disp"\nversion = "0.1.0"\n',
        "src/lib.rs": (
            "macro_rules! to_device_arms {\n"
            "    ($x:expr) => {\n"
            '        panic!("Cannot move a tensor to another backend")\n'
            "    };\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/disp")
    summary = _page(store, sid, "Cannot move a tensor to another backend")["analysis"]["summary"]
    assert summary["text"] == (
        "The expansion of `to_device_arms!` panics (`panic!`) at src/lib.rs:3."
    ), summary["text"]


def test_a_std_traits_impl_is_not_reached_by_any_generic_call_of_its_method(
    tmp_path: Path,
) -> None:
    # burn's `impl Default for RemoteDevice` panics without a feature; a
    # `T::default()` in an unrelated SIMD kernel is no call of it
    files = {
        "Cargo.toml": '[package]\nname = "remote"\nversion = "0.1.0"\n',
        "src/lib.rs": (
            "pub struct RemoteDevice {\n    id: u8,\n}\n\n"
            "impl Default for RemoteDevice {\n"
            "    fn default() -> Self {\n"
            '        panic!("RemoteDevice::default requires the websocket feature")\n'
            "    }\n"
            "}\n\n"
            "pub fn sum_f32<T: Default>(xs: &[f32]) -> T {\n"
            "    let _ = xs;\n"
            "    T::default()\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/remote")
    page = _page(store, sid, "RemoteDevice::default requires the websocket feature")
    assert "sum_f32" not in str(page["analysis"])
    assert not any(r.get("paths") for r in page["facts"]["reachability"])


def test_a_list_of_errors_docs_is_quoted_for_this_error_only_and_as_it_reads(
    tmp_path: Path,
) -> None:
    """Cut down from semver's ``Version::parse``: of the ``# Errors`` list,
    the item about an unexpected character is this error's; rustdoc's
    ``&mdash;`` reads as a dash."""
    files = {
        "Cargo.toml": '[package]\nname = "ver"\nversion = "1.0.0"\n',
        "src/lib.rs": (
            "use std::fmt;\n\n"
            "pub struct Error { ch: char }\n\n"
            "impl fmt::Display for Error {\n"
            "    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n"
            '        write!(f, "unexpected character {} while parsing", self.ch)\n'
            "    }\n"
            "}\n\n"
            "pub struct Version;\n\n"
            "impl Version {\n"
            "    /// Create `Version` by parsing from string representation.\n"
            "    ///\n"
            "    /// # Errors\n"
            "    ///\n"
            "    /// Possible reasons for the parse to fail include:\n"
            "    ///\n"
            "    /// - `1.0` &mdash; too few numeric components.\n"
            "    ///\n"
            "    /// - `1.0.01` &mdash; a numeric component has a leading zero.\n"
            "    ///\n"
            "    /// - `1.0.unknown` &mdash; unexpected character in one of the components.\n"
            "    pub fn parse(text: &str) -> Result<Version, Error> {\n"
            "        match text.chars().find(|c| !c.is_ascii_digit() && *c != '.') {\n"
            "            Some(ch) => Err(Error { ch }),\n"
            "            None => Ok(Version),\n"
            "        }\n"
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/ver")
    page = _page(store, sid, "unexpected character {} while parsing")
    meaning = page["analysis"]["meaning"]["text"]
    assert "“`1.0.unknown` — unexpected character in one of the components”" in meaning
    assert "too few numeric components" not in meaning and "&mdash;" not in meaning
    assert meaning.count("# Errors docs of") == 1
