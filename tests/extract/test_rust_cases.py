"""Golden snapshots of the Rust extractor: one small source file per
construct in ``rust/cases``, with the JSON it must produce beside it.

Regenerate with ``ERRORDEX_UPDATE_GOLDEN=1 pytest tests/extract/test_rust_cases.py``
and review every changed golden by eye before committing it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from errordex.extract import extractor_for
from errordex.languages.rust import extract as rust
from errordex.languages.rust.cargo import parse_manifest
from errordex.languages.rust.fmt import parse_format, unescape
from errordex.template import Hole, Text
from tests.golden import check_golden

CASES = Path(__file__).parent / "rust" / "cases"


def case_names() -> list[str]:
    return sorted(p.stem for p in CASES.glob("*.rs"))


@pytest.mark.parametrize("name", case_names())
def test_rust_case_matches_golden(name: str) -> None:
    source = (CASES / f"{name}.rs").read_text(encoding="utf-8")
    got = [s.to_json() for s in rust.extract(f"src/{name}.rs", source).sites]
    check_golden(CASES / f"{name}.json", got, indent=2)


def test_rust_every_case_has_a_golden_and_a_site() -> None:
    for name in case_names():
        assert (CASES / f"{name}.json").exists(), name
        assert json.loads((CASES / f"{name}.json").read_text(encoding="utf-8")), name


def test_rust_extractor_is_registered_for_rs_files() -> None:
    found = extractor_for("src/lib.rs")
    assert found is not None
    assert found[0] == "rust"


def test_rust_test_path_marks_every_site_in_test() -> None:
    sites = rust.extract("tests/it.rs", 'fn f() { panic!("x") }').sites
    assert [s.in_test for s in sites] == [True]


def test_rust_broken_source_still_yields_sites() -> None:
    sites = rust.extract("src/lib.rs", 'fn f( { panic!("still found"); ').sites
    assert [s.template.display() for s in sites] == ["still found"]


def test_rust_empty_file_yields_nothing() -> None:
    assert rust.extract("src/lib.rs", "").sites == ()


def test_rust_fmt_binds_holes_to_arguments() -> None:
    t = parse_format("{} and {1} and {name} and {x:?}", ["a", "b"], {"name": "n + 1"})
    assert t.syntax == "rust-fmt"
    assert t.parts == (
        Hole("a", "{}"),
        Text(" and "),
        Hole("b", "{1}"),
        Text(" and "),
        Hole("n + 1", "{name}"),
        Text(" and "),
        Hole("x", "{x:?}"),
    )


def test_rust_fmt_without_holes_is_literal_with_single_braces() -> None:
    t = parse_format("a {{b}} c", [], {})
    assert (t.syntax, t.display()) == ("literal", "a {b} c")


def test_rust_fmt_unclosed_brace_is_kept_as_text() -> None:
    assert parse_format("oops {", [], {}).display() == "oops {"


def test_rust_unescape_reads_each_literal_form() -> None:
    assert unescape('"a\\nb"') == "a\nb"
    assert unescape('"x\\\n      y"') == "xy"
    assert unescape('r##"a "# b"##') == 'a "# b'
    assert unescape('b"bytes"') == "bytes"
    assert unescape('"\\u{1F600}\\x41"') == "\U0001f600A"
    assert unescape("ident") is None


def test_cargo_manifest_reads_name_version_and_features() -> None:
    text = """
[package]
name = "demo"
version = "0.3.1"

[features]
default = ["std"]
std = []
fast = ["dep:simd"]

[dependencies]
serde = { version = "1", optional = true }
simd = { version = "1", optional = true }
"""
    pkg = parse_manifest("crates/demo/Cargo.toml", text)
    assert pkg is not None
    assert (pkg.name, pkg.version, pkg.root) == ("demo", "0.3.1", "crates/demo")
    assert pkg.features == {
        "default": ("std",),
        "std": (),
        "fast": ("dep:simd",),
        "serde": ("dep:serde",),
    }


def test_cargo_workspace_version_is_resolved_from_the_root_manifest() -> None:
    member = '[package]\nname = "m"\nversion.workspace = true\n'
    root = '[workspace]\nmembers = ["m"]\n[workspace.package]\nversion = "2.0.0"\n'
    assert parse_manifest("m/Cargo.toml", member) == parse_manifest("m/Cargo.toml", member, None)
    pkg = parse_manifest("m/Cargo.toml", member, root)
    assert pkg is not None
    assert pkg.version == "2.0.0"
    plain = parse_manifest("m/Cargo.toml", member)
    assert plain is not None
    assert plain.version is None


def test_cargo_malformed_or_workspace_only_manifest_is_none() -> None:
    assert parse_manifest("Cargo.toml", "[package\nname = ") is None
    assert parse_manifest("Cargo.toml", '[workspace]\nmembers = ["a"]\n') is None
    assert parse_manifest("Cargo.toml", "[package]\nname = 3\n") is None


def test_rust_match_arm_guards_leave_comments_out() -> None:
    """object's ``match`` on file magic comments its patterns (``[0x64,
    0x86, ..] // COFF x86-64``): a guard shows the code, not the comment,
    whose words are no identifiers of the commit (``verify``)."""
    source = (
        "pub fn kind(data: &[u8]) -> Result<u8, Error> {\n"
        "    match data {\n"
        "        [0x4c, 0x01, ..] // COFF x86\n"
        "        | [0x64, 0x86, ..] => Ok(1),\n"
        "        /* PE */ [b'M', b'Z', ..] => Ok(2),\n"
        '        _ => Err(Error("Unknown file magic")),\n'
        "    }\n"
        "}\n"
    )
    (site,) = [s for s in rust.extract("src/lib.rs", source).sites if s.kind == "construct"]
    (arm,) = [g for g in site.guards if g.kind == "match-arm"]
    assert arm.siblings == ("[0x4c, 0x01, ..] | [0x64, 0x86, ..]", "[b'M', b'Z', ..]")


def test_a_macro_that_formats_its_string_into_an_error_is_a_fmt_rule() -> None:
    # the sites of message_macro.rs are kept only for a macro with such a rule
    source = (CASES / "message_macro.rs").read_text(encoding="utf-8")
    got = rust.extract("src/message_macro.rs", source)
    rules = {c.name for c in got.classes if c.name.startswith("macro:")}
    assert rules == {"macro:self_error:fmt"}
    from errordex.languages.rust.construct import class_messages

    _, apply = class_messages(got.classes)
    kept = [apply(s) for s in got.sites]
    assert [(s.kind, s.template.display()) for s in kept if s is not None] == [
        ("err-return", "Unexpected closing tag: {}, expected {}"),
        ("err-return", "Unexpected end of stream"),
    ]


def test_a_text_given_to_the_field_a_display_prints_is_that_sites_message() -> None:
    source = (CASES / "struct_field_message.rs").read_text(encoding="utf-8")
    got = rust.extract("src/struct_field_message.rs", source)
    from errordex.languages.rust.construct import class_messages

    _, apply = class_messages(got.classes)
    kept = [s for s in map(apply, got.sites) if s is not None and s.kind == "construct"]
    assert [(s.exception_type, s.template.display()) for s in kept] == [
        ("Error::Other", "empty name"),
        ("Error::GenericError", "Unknown template '{}'"),
    ]


def test_syn_s_parse_stream_error_is_a_site_of_its_text() -> None:
    # syn 1.0.107 (Debian's registry): `Err(cursor.error("expected identifier"))`,
    # what `syn::parse_str::<syn::Ident>("fn")` prints
    path = Path("/usr/share/cargo/registry/syn-1.0.107/src/ident.rs")
    if not path.is_file():
        pytest.skip("needs Debian's librust-syn-dev")
    sites = rust.extract("src/ident.rs", path.read_text(encoding="utf-8")).sites
    assert ("err-return", "expected identifier") in {(s.kind, s.template.display()) for s in sites}


def test_a_display_that_prints_the_debug_gives_each_variant_its_derived_debug() -> None:
    # bytemuck 1.12 (`write!(f, "{:?}", self)` for PodCastError) and fasteval
    # 0.2 (the same for its Error): `try_cast_slice` fails printing
    # `OutputSliceWouldHaveSlop`, fasteval's parser `EofWhileParsing("value")`
    source = (CASES / "display_is_debug.rs").read_text(encoding="utf-8")
    got = rust.extract("src/display_is_debug.rs", source)
    from errordex.languages.rust.construct import class_messages

    _, apply = class_messages(got.classes)
    kept = [s for s in map(apply, got.sites) if s is not None and s.kind == "construct"]
    assert [(s.exception_type, s.template.display()) for s in kept] == [
        ("PodCastError::SizeMismatch", "SizeMismatch"),
        (
            "PodCastError::TargetAlignmentGreaterAndInputNotAligned",
            "TargetAlignmentGreaterAndInputNotAligned",
        ),
        ("Error::EofWhileParsing", 'EofWhileParsing("value")'),
        ("Error::InvalidValue", "InvalidValue"),
        ("Error::TooBig", "TooBig { size: {:?}, len: {:?} }"),
    ]


def test_a_hand_written_debug_is_not_read_as_derived() -> None:
    source = (CASES / "display_is_debug.rs").read_text(encoding="utf-8")
    source = source.replace("#[derive(Debug, Clone, Copy, PartialEq, Eq)]", "")
    got = rust.extract("src/display_is_debug.rs", source)
    assert "SizeMismatch" not in {c.message.display() for c in got.classes if c.message}
