"""A check read through its function's own ``let`` bindings (``lift.through_lets``)."""

from __future__ import annotations

from errordex.analysis.evidence import FuncDef
from errordex.analysis.lift import through_lets


def _weights_new() -> FuncDef:
    # rand's WeightedIndex::new reads its first weight through two lets
    return FuncDef(
        "new",
        "W::new",
        "a.rs",
        1,
        9,
        True,
        params=("weights",),
        lets=(
            ("iter", "weights.into_iter()", 2, 0),
            ("total", "iter.next().ok_or(Error::InvalidInput)?.clone()", 3, 5),
        ),
    )


def test_a_check_reads_through_the_lets_before_it() -> None:
    got = through_lets("!(total >= zero)", _weights_new(), 4, "rust")
    assert got == ("!(weights.into_iter().next() >= zero)", [2, 3])


def test_a_let_changed_before_the_check_is_not_read_through() -> None:
    # `total` is assigned again at line 5: at line 6 its value is not known
    text, used = through_lets("!(total >= zero)", _weights_new(), 6, "rust")
    assert "total" in text and 3 not in used


def test_a_function_without_lets_leaves_the_check_as_written() -> None:
    fn = FuncDef("f", "f", "a.rs", 1, 3, True, params=("x",))
    assert through_lets("x > 1", fn, 2, "rust") == ("x > 1", [])
