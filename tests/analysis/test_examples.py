"""Example code from real pieces: negated guards, handled patterns, call arguments."""

from __future__ import annotations

import pytest

from errordex.analysis import examples


@pytest.mark.parametrize(
    ("cond", "holds"),
    [
        ("not isinstance(name, str)", "isinstance(name, str)"),
        ("x is None", "x is not None"),
        ("value <= 0", "value > 0"),
        ("not opts and not secondary_opts", "opts or secondary_opts"),
        ('capture not in {"sys", "fd"}', 'capture in {"sys", "fd"}'),
        ("a or b and c", "not a and (not b or not c)"),
        ("x if y else z", "not (x if y else z)"),
    ],
)
def test_negate_python_keeps_the_codes_own_names(cond: str, holds: str) -> None:
    assert examples.negate_python(cond) == holds


def test_handled_patterns_drop_bindings_but_keep_literals() -> None:
    got = examples.handled_patterns(["Kind::Float(x)", "Some(0)", "Point { x, y }"])
    assert got == "Kind::Float(..) | Some(0) | Point { .. }"
    assert examples.handled_patterns(["n if n > 3"]) is None


@pytest.mark.parametrize(
    ("scrutinee", "params", "call", "value"),
    [
        ("kind", ["kind"], "size_of_kind(&tensor.kind)", "&tensor.kind"),
        ("tensor.kind", ["tensor"], "element_size(&t)", "t.kind"),
        ("self.kind", ["self"], "t.size()", "t.kind"),
        ("kind", ["self", "kind"], "Type::f(a, b)", None),  # UFCS: positions shift
        ("local", ["kind"], "f(x)", None),  # not a parameter: not followed
    ],
)
def test_scrutinee_at_call_follows_only_parameters(
    scrutinee: str, params: list[str], call: str, value: str | None
) -> None:
    assert examples.scrutinee_at_call(scrutinee, params, call) == value


def test_expect_receiver_is_the_unwrapped_expression() -> None:
    assert examples.expect_receiver('u8::try_from(n).expect("fits")') == "u8::try_from(n)"
    assert examples.expect_receiver("f(x)") is None
