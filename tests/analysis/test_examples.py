"""Example code from real pieces: negated guards, handled patterns, call arguments."""

from __future__ import annotations

import pytest

from errordex.languages.python import examples as python_examples
from errordex.languages.rust import examples as rust_examples


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
    assert python_examples.negate_python(cond) == holds


def test_handled_patterns_drop_bindings_but_keep_literals() -> None:
    got = rust_examples.handled_patterns(["Kind::Float(x)", "Some(0)", "Point { x, y }"])
    assert got == "Kind::Float(..) | Some(0) | Point { .. }"
    assert rust_examples.handled_patterns(["n if n > 3"]) is None


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
    assert rust_examples.scrutinee_at_call(scrutinee, params, call) == value


def test_expect_receiver_is_the_unwrapped_expression() -> None:
    assert rust_examples.expect_receiver('u8::try_from(n).expect("fits")') == "u8::try_from(n)"
    assert rust_examples.expect_receiver("f(x)") is None


def test_referenced_paths_are_the_paths_of_facts_nested_ones_too() -> None:
    from errordex.analysis.analyse import facts_json, referenced_paths
    from errordex.analysis.facts import Fact

    facts: dict[str, list[Fact]] = {
        "guards": [{"path": "src/x.rs", "line": 3, "site": "src/x.rs:4", "text": "tests/a.rs:12"}],
        # a "path" in text is not a path; an escaped one is read as it is
        "when": [{"text": '{"path": "not/a/file.rs"}', "path": 'src/odd "name"\\\u00e9.rs'}],
        "features": [
            {"path": "src/x.rs", "line": 1, "manifest": {"path": "Cargo.toml", "line": 7}}
        ],
        "reachability": [
            {"path": "src/x.rs", "line": 2, "paths": [[{"path": "src/y.py", "line": 1}]]}
        ],
    }
    assert referenced_paths([facts_json(facts)]) == {
        "src/x.rs",
        "Cargo.toml",
        "src/y.py",
        'src/odd "name"\\\u00e9.rs',
    }


@pytest.mark.parametrize(
    ("body", "params", "condition", "check"),
    [
        (
            'let mut hello = Bytes::from(&b"helloworld"[..]);\nlet _ = hello.split_to(33);',
            ["self", "at"],
            "at <= self.len()",
            "33 <= hello.len()",
        ),
        ("let v = Wrapper::new(&mut buf, 3);", ["inner", "n"], "n > 0", "3 > 0"),
    ],
)
def test_guard_rust_call_writes_the_assert_in_the_call_arguments(
    body: str, params: list[str], condition: str, check: str
) -> None:
    name = "split_to" if "split_to" in body else "new"
    got = rust_examples.guard_rust_call(body, name, params, condition)
    assert got is not None and got[0] == check
    assert f"if {check} {{" in got[1]


@pytest.mark.parametrize(
    ("body", "condition"),
    [
        ("let _ = b.split_to(2);", "begin <= end"),  # a local of the callee
        ('let x = b.split_to(2);\nprintln!("{x:?}");', "at <= self.len()"),  # x used below
        ("b.split_to(f(2));", "at <= self.len()"),  # not a place or a literal
        ("b.split_to(1);\nb.split_to(2);", "at <= self.len()"),  # which call?
    ],
)
def test_guard_rust_call_gives_up_rather_than_invent(body: str, condition: str) -> None:
    assert rust_examples.guard_rust_call(body, "split_to", ["self", "at"], condition) is None
