"""A trait impl a user runs by writing an operator is named as the operator,
and only std's operator traits are: a crate's own trait of the same name
(serde_json's sealed ``Index``, implemented for ``usize`` and ``str``) is
not ``usize[…]``, which no user writes."""

from __future__ import annotations

import pytest

from errordex.analysis.traits import by_syntax


@pytest.mark.parametrize(
    ("symbol", "shown"),
    [
        ("<IndexMap as Index<&Q>>::index", "IndexMap[…]"),
        ("<Value as ops::IndexMut<I>>::index_mut", "Value[…] = …"),
        ("<Tensor as AddAssign<f64>>::add_assign", "Tensor += …"),
        ("<Flags as BitAnd>::bitand", "Flags & …"),
        ("<Version as PartialEq>::eq", "Version == …"),
        ("<Version as PartialOrd>::partial_cmp", "Version < …"),
        ("<Version as PartialEq>::ne", None),
        ("werkzeug.datastructures.Headers.__eq__", "werkzeug.datastructures.Headers == …"),
        ("click.Context.__exit__", None),
        ("<usize as Index>::index_or_insert", None),
        ("<str as Index>::index_into_mut", None),
        ("<Bytes as Buf>::advance", None),
    ],
)
def test_only_std_operator_methods_are_written_as_operators(symbol: str, shown: str | None) -> None:
    assert by_syntax(symbol) == shown
