from errordex.template import Hole, Template, Text


def test_display_keeps_placeholders_as_written() -> None:
    t = Template.of(
        "rust-fmt", Text("bad index "), Hole("idx", "{idx:?}"), Text(" of "), Hole("", "{}")
    )
    assert t.display() == "bad index {idx:?} of {}"


def test_key_normalizes_placeholders_and_whitespace() -> None:
    a = Template.of("py-percent", Text("bad   value %s"[:12]), Hole("x", "%s"))
    b = Template.of("py-fstring", Text("bad value "), Hole("x", "{x!r}"))
    assert a.key() == b.key() == "bad value {}"


def test_key_merges_adjacent_placeholders() -> None:
    t = Template.of("py-percent", Hole("a", "%s"), Hole("b", "%s"), Text(" failed"))
    assert t.key() == "{} failed"


def test_only_placeholders_is_dynamic() -> None:
    assert Template.of("rust-fmt", Hole("msg", "{}")).dynamic
    assert not Template.of("rust-fmt", Text("x: "), Hole("msg", "{}")).dynamic
    assert Template.runtime("msg").dynamic


def test_adjacent_text_parts_are_merged() -> None:
    t = Template.of("concat", Text("a"), Text("b"), Hole("c", "{c}"), Text(""))
    assert t.parts == (Text("ab"), Hole("c", "{c}"))


def test_json_round_trip_is_lossless() -> None:
    t = Template.of("py-format", Text("x "), Hole("name", "{name!r:>10}"))
    assert Template.from_json(t.to_json()) == t


def test_empty_template_has_no_message() -> None:
    t = Template.empty()
    assert t.is_empty and not t.dynamic and t.display() == "" and t.key() == ""
