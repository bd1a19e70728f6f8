"""The Debug form of a Rust error as a paste: its names, how deep, and what
each printed; the layouts it comes in (bare, ``Error: ..`` from ``main``,
inside an unwrap panic)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from errordex.languages.rust.debug import is_debug, named
from errordex.paste import parse


def _names(text: str) -> list[tuple[str, int]]:
    return [(n.name, n.depth) for n in named(text)]


def test_derived_struct_and_unit_variant_are_named_with_their_depth() -> None:
    assert _names("ParseError { kind: InvalidDigit }") == [("ParseError", 0), ("InvalidDigit", 1)]
    assert named("ParseError { kind: InvalidDigit }")[0].fields == (("kind", "InvalidDigit"),)


def test_wrappers_are_not_names_and_do_not_nest() -> None:
    text = "Error(Deserialize { pos: Some(Position { byte: 3 }), err: DeserializeError { field: Some(3), kind: ParseBool(ParseBoolError) } })"
    assert _names(text) == [
        ("Error", 0),
        ("Deserialize", 1),
        ("Position", 2),
        ("DeserializeError", 2),
        ("ParseBool", 3),
        ("ParseBoolError", 4),
    ]


def test_pretty_debug_over_lines_reads_the_same() -> None:
    pretty = "ParseError {\n    kind: InvalidDigit,\n}"
    assert _names(pretty) == [("ParseError", 0), ("InvalidDigit", 1)]
    assert is_debug(pretty)


def test_a_bare_debug_paste_is_one_part_with_its_names() -> None:
    (part,) = parse("FromStrError { inner: MissingQuote }")
    assert part.language == "rust" and part.kind == "debug"
    assert [n.name for n in part.named] == ["FromStrError", "MissingQuote"]


def test_hand_written_debug_with_the_message_first_gives_the_message() -> None:
    (part,) = parse('Error("key must be a string", line: 1, column: 2)')
    assert part.values["error_message"] == "key must be a string"
    assert dict(part.named[0].fields) == {"line": "1", "column": "2"}


def test_main_error_reads_a_debug_value_over_lines_and_no_type_from_its_outer_name() -> None:
    text = "Error: Syntax(\n~~~~\nregex parse error:\n    a(b\n     ^\nerror: unclosed group\n~~~~\n)\n"
    (part,) = parse(text)
    assert part.kind == "err-return" and part.exception_type is None
    assert part.values["error_message"] == "unclosed group"
    (unit,) = parse("Error: Empty")
    assert [n.name for n in unit.named] == ["Empty"]


def test_unwrap_panic_names_the_values_of_its_err() -> None:
    text = (
        "\nthread 'main' (16450) panicked at src/main.rs:12:15:\n"
        "called `Result::unwrap()` on an `Err` value: CompiledTooBig(10)\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    )
    (part,) = parse(text)
    assert part.kind == "unwrap"
    assert [(n.name, n.items) for n in part.named] == [("CompiledTooBig", ("10",))]


def test_a_hand_written_debug_that_brackets_its_fields_after_the_name_is_named() -> None:
    # itertools 0.10's `impl Debug for ExactlyOneError`, as exactly_one() printed it
    text = "ExactlyOneError[First: 1, Second: 2, RemainingIter: IntoIter([])]"
    assert is_debug(text)
    for pasted in (text, f"Error: {text}"):
        (part,) = parse(pasted)
        assert part.named[0].name == "ExactlyOneError"
        assert dict(part.named[0].fields) == {
            "First": "1",
            "Second": "2",
            "RemainingIter": "IntoIter([])",
        }
    # a name and a list apart are no such value
    assert not is_debug("Errors [A, B]")


def test_plain_words_are_not_debug() -> None:
    assert not is_debug("invalid digit found in string")
    assert not is_debug("Error { unbalanced")
    (part,) = parse("invalid digit found in string")
    assert part.named == ()


@given(st.text(max_size=300))
def test_reading_any_text_never_raises(text: str) -> None:
    named(text)
    is_debug(text)


@given(
    st.recursive(
        st.sampled_from(["A", "B(1)", '"s"', "C { x: 1 }"]),
        lambda c: c.map(lambda x: f"N({x})") | c.map(lambda x: f"M {{ f: {x} }}"),
        max_leaves=80,
    )
)
def test_deep_values_never_raise(text: str) -> None:
    assert all(n.depth >= 0 for n in named(text))


def test_a_python_repr_is_not_read_as_rust_debug() -> None:
    """``'text'`` is no Rust value (a char is one character): Python's repr."""
    assert not is_debug("ValueError('bad value')")
    (part,) = parse("ValueError('bad value')")
    assert part.language != "rust" and part.named == ()
    assert is_debug("InvalidHexCharacter { c: 'z', index: 0 }")


def test_names_in_a_list_are_data_not_the_errors_own() -> None:
    text = "ErrorInner { kind: ValueValidation, context: FlatMap { keys: [InvalidArg, InvalidValue] } }"
    assert [n for n, _ in _names(text)] == ["ErrorInner", "ValueValidation", "FlatMap"]


def test_a_message_held_in_a_field_or_an_inner_variant_is_the_error_message() -> None:
    # printed by cc 1.0.73 (Build::try_compile without OUT_DIR), serde_cbor
    # 0.11.2 (from_slice::<String>(&[0x01])) and serde_yaml 0.8.26's yaml
    # scanner (from_str("a: [")), as the bench's programs ran them
    held = {
        'Error { kind: EnvVarNotFound, message: "Environment variable OUT_DIR not defined." }': (
            "Environment variable OUT_DIR not defined."
        ),
        'ErrorImpl { code: Message("invalid type: integer `1`, expected a string"), offset: 0 }': (
            "invalid type: integer `1`, expected a string"
        ),
        'Scan(ScanError { mark: Marker { index: 4, line: 2, col: 0 }, info: "while parsing a'
        ' node, did not find expected node content" })': (
            "while parsing a node, did not find expected node content"
        ),
    }
    for text, message in held.items():
        (part,) = parse(text)
        assert part.values["error_message"] == message
    # a string that is no sentence is data the error holds
    (part,) = parse('Io(Named { path: "x", kind: Missing("ab") })')
    assert "error_message" not in part.values


def test_std_values_inside_a_crate_error_are_marked_or_left_out() -> None:
    # bincode 1.3.3's deserialize::<u64>(&[1, 2]) and ::<String>(..0xff):
    # std's io::Error of a kind (Kind(UnexpectedEof)) names no crate's
    # error; std's Utf8Error inside bincode's variant is std's, not bstr's
    assert _names("Io(Kind(UnexpectedEof))") == [("Io", 0)]
    inner = named("InvalidUtf8Encoding(Utf8Error { valid_up_to: 0, error_len: Some(1) })")
    assert [(n.name, n.runtime) for n in inner] == [
        ("InvalidUtf8Encoding", False),
        ("Utf8Error", True),
    ]
    # returned alone, it is the crate's own (bstr's Utf8Error)
    assert not named("Utf8Error { valid_up_to: 2, error_len: Some(1) }")[0].runtime


def test_what_a_std_value_holds_inside_a_crate_error_names_no_crate_error() -> None:
    # ordered-float 2.10's "x".parse::<NotNan<f64>>(): std's ParseFloatError
    # inside its variant holds std's FloatErrorKind::Invalid, which
    # num-traits' FloatErrorKind::Invalid must not answer for
    text = "ParseFloatError(ParseFloatError { kind: Invalid })"
    assert [(n.name, n.depth, n.runtime) for n in named(text)] == [
        ("ParseFloatError", 0, False),
        ("ParseFloatError", 1, True),
    ]
    # std's value printed alone keeps its names (the paste is std's error)
    assert _names("ParseIntError { kind: InvalidDigit }") == [
        ("ParseIntError", 0),
        ("InvalidDigit", 1),
    ]


def test_a_std_value_is_told_by_the_shape_std_prints_it_in() -> None:
    # printed by the probe's programs (bench/probe_rust.py): rmp 0.8.11's
    # read_array_len(&mut &[][..]) holds an io::Error of a constant message,
    # plist 1.3.1's Value::from_file("no-such.plist") one of an OS code;
    # both are std's, and so are the names and the message they hold
    rmp = named(
        'InvalidMarkerRead(Error { kind: UnexpectedEof, message: "failed to fill whole buffer" })'
    )
    assert [(n.name, n.runtime) for n in rmp] == [("InvalidMarkerRead", False), ("Error", True)]
    plist = named(
        "Error { inner: ErrorImpl { kind: Io(Os { code: 2, kind: NotFound, message:"
        ' "No such file or directory" }), file_position: None } }'
    )
    assert [(n.name, n.runtime) for n in plist] == [
        ("Error", False),
        ("ErrorImpl", False),
        ("Io", False),
        ("Os", True),
    ]
    # dotenv 0.15's var("UNSET"): std's VarError prints its variant alone
    assert [(n.name, n.runtime) for n in named("EnvVar(NotPresent)")] == [
        ("EnvVar", False),
        ("NotPresent", True),
    ]
    # a crate's own type of a std name, in another shape, is the crate's
    # (a Custom(String) variant, a RecvError that holds a value)
    assert [(n.name, n.runtime) for n in named('Error(Custom("bad map key"))')] == [
        ("Error", False),
        ("Custom", False),
    ]
    assert not named("Closed(RecvError(3))")[1].runtime
    # an Error { kind, message } of a crate's own kind is the crate's
    assert not named('Wrap(Error { kind: EnvVarNotFound, message: "x y" })')[1].runtime


def test_a_std_io_message_is_no_crate_message() -> None:
    for text in (
        'InvalidMarkerRead(Error { kind: UnexpectedEof, message: "failed to fill whole buffer" })',
        'Io(Os { code: 2, kind: NotFound, message: "No such file or directory" })',
    ):
        (part,) = parse(text)
        assert "error_message" not in part.values, text
    # the text a crate gave io::Error::new is its own (flate2's gzip header)
    (part,) = parse('Io(Custom { kind: InvalidInput, error: "invalid gzip header" })')
    assert part.values["error_message"] == "invalid gzip header"
