"""A catch-all arm of a ``match`` on the public call's own argument: the
page's solution names the values the arms take (the shapes of burn-flex's
``compare_elem``, which matches ``dtype``, and ``matmul``, which matches
``lhs.dtype()``); a value the user's call does not hand in gets none."""

from __future__ import annotations

from typing import Any

import pytest

from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore

LIB = """\
pub enum DType {
    F32,
    F64,
    I64,
}

pub struct Tensor {
    dtype: DType,
}

impl Tensor {
    pub fn dtype(&self) -> &DType {
        &self.dtype
    }

    /// The size of one element.
    pub fn element_size(&self) -> usize {
        match self.dtype {
            DType::F32 => 4,
            DType::F64 => 8,
            _ => panic!("element_size: not a float tensor"),
        }
    }
}

pub enum Stored {
    F32(Vec<f32>),
    F64(Vec<f64>),
    I64(Vec<i64>),
}

pub fn compare_elem(dtype: DType) -> u8 {
    match dtype {
        DType::F32 => 1,
        DType::F64 => 2,
        _ => panic!("compare_elem: unsupported dtype"),
    }
}

pub fn matmul(lhs: &Tensor, rhs: &Tensor) -> usize {
    match lhs.dtype() {
        DType::F32 | DType::F64 => rhs.element_size(),
        _ => panic!("matmul: lhs must be a float tensor"),
    }
}

pub fn total(storage: &Stored) -> f64 {
    match storage {
        Stored::F32(values) => values.iter().map(|v| *v as f64).sum(),
        Stored::F64(values) => values.iter().sum(),
        _ => panic!("total: integer storage"),
    }
}

pub enum Arg {
    Local { pos: u32, ty: u8 },
    Global(u32),
}

pub fn write_scalar(arg: Arg) -> u32 {
    match arg {
        Arg::Local { pos, ty } => pos + ty as u32,
        _ => panic!("write_scalar: not a local"),
    }
}

impl Tensor {
    pub fn to_kind(&self, kind: DType) -> u8 {
        match (self.dtype(), kind) {
            (&DType::F32, DType::F64) => 1,
            _ => panic!("to_kind: unsupported pair"),
        }
    }
}

pub fn size_of(t: &Tensor) -> usize {
    match t.dtype {
        DType::F32 => 4,
        _ => panic!("size_of: not an f32 tensor"),
    }
}

pub fn width(kind: u8) -> usize {
    pick(DType::I64, kind)
}

fn pick(dtype: DType, kind: u8) -> usize {
    match dtype {
        DType::F32 => kind as usize,
        _ => panic!("pick: handed an integer type"),
    }
}
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    root = tmp_path_factory.mktemp("arms")
    src = root / "acme"
    (src / "src").mkdir(parents=True)
    (src / "Cargo.toml").write_text('[package]\nname = "acme"\nversion = "0.1.0"\n')
    (src / "src" / "lib.rs").write_text(LIB)
    store = SqliteStore(root / "errordex.db")
    sid = index(str(src), store, name="fixture/arms", jobs=1).snapshot_id
    return {store.entry(eid).message: data for eid, data in store.analyses(sid)}


def solutions(page: dict[str, Any]) -> list[str]:
    return [s["text"] for s in page["analysis"].get("solutions", [])]


def test_the_values_of_the_arguments_own_match_are_the_solution(
    pages: dict[str, dict[str, Any]],
) -> None:
    said = solutions(pages["compare_elem: unsupported dtype"])
    assert said and said[0].startswith(
        "Call `acme::compare_elem(dtype)` only with `dtype` among `DType::F32`, `DType::F64`: "
        "any other reaches the catch-all `_` arm, where `compare_elem` panics"
    )
    assert said[0].endswith("(src/lib.rs:36).")


def test_a_value_read_off_the_argument_says_which(pages: dict[str, dict[str, Any]]) -> None:
    said = solutions(pages["matmul: lhs must be a float tensor"])
    assert said and said[0].startswith(
        "Call `acme::matmul(lhs)` only with `lhs` whose `lhs.dtype()` is among "
        "`DType::F32 | DType::F64`: "
    )


def test_the_librarys_binding_names_are_left_out(pages: dict[str, dict[str, Any]]) -> None:
    """``Stored::F32(values)``: ``values`` is the library's local name."""
    said = solutions(pages["total: integer storage"])
    assert said and "among `Stored::F32(..)`, `Stored::F64(..)`:" in said[0]
    assert "values" not in said[0]


def test_a_struct_patterns_bindings_are_left_out(pages: dict[str, dict[str, Any]]) -> None:
    said = solutions(pages["write_scalar: not a local"])
    assert said and "only with `arg` among `Arg::Local { .. }`:" in said[0]


def test_no_values_for_a_match_the_user_hands_nothing_to(
    pages: dict[str, dict[str, Any]],
) -> None:
    """``width`` passes its own constant to the private ``pick``;
    ``element_size`` matches its receiver's private field, and ``size_of``
    its argument's, which a user cannot read; ``to_kind`` matches the
    receiver's state together with its argument."""
    for message in (
        "pick: handed an integer type",
        "element_size: not a float tensor",
        "size_of: not an f32 tensor",
        "to_kind: unsupported pair",
    ):
        assert not any("only with" in s for s in solutions(pages[message]))
