"""A Rust error as users meet it, from a real program: its Display, its
Debug (``{:?}``), the unwrap and expect panics, ``Error: ..`` from ``main``
and anyhow's chains, each leading to the entry of the message the Display
printed. The program (in the fixture) was built with cargo offline against
Debian's crates; the crates are indexed from the same registry."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from errordex.cli import main
from errordex.explain import explain_text
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.analysis.conftest import index_fixture

REGISTRY = Path("/usr/share/cargo/registry")
FIXTURE = json.loads(
    (Path(__file__).parent / "fixtures" / "rust_error_values.json").read_text(encoding="utf-8")
)
CASES: list[dict[str, Any]] = FIXTURE["cases"]
KIND_CASES: list[dict[str, Any]] = FIXTURE["kind_cases"]
CRATES = {
    "semver-1.0.14": "dtolnay/semver",
    "regex-1.7.1": "rust-lang/regex",
    "regex-syntax-0.6.27": "rust-lang/regex-syntax",
    "log-0.4.17": "rust-lang/log",
    "miniz_oxide-0.6.2": "Frommi/miniz_oxide",
    "clap-4.0.32": "clap-rs/clap",
}
FORMS = ("display", "debug", "unwrap", "expect", "main", "anyhow")

pytestmark = pytest.mark.skipif(
    not all((REGISTRY / c).is_dir() for c in CRATES), reason="needs Debian's librust-*-dev crates"
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    store = SqliteStore(tmp_path_factory.mktemp("crates") / "db.sqlite")
    for crate, slug in CRATES.items():
        index(str(REGISTRY / crate), store, name=slug, jobs=1)
    return store


def _answer(store: SqliteStore, text: str, part: int = 0) -> dict[str, Any]:
    parts = explain_text(store, text)["parts"]
    got = parts[part]
    assert got["answer"] is not None and got["answer"]["kind"] == "entry", got["answer"]
    top: dict[str, Any] = got["matches"][0]
    assert top["id"] == got["answer"]["id"]
    return top


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_each_form_of_a_real_error_leads_to_its_entry(
    store: SqliteStore, case: dict[str, Any], form: str
) -> None:
    assert _answer(store, case[form])["message"] == case["message"]


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_anyhow_caused_by_list_ends_with_the_library_error(
    store: SqliteStore, case: dict[str, Any]
) -> None:
    assert _answer(store, case["anyhow-main"], part=-1)["message"] == case["message"]


def test_debug_fields_are_shown_as_your_values(store: SqliteStore) -> None:
    case = next(c for c in CASES if c["case"] == "regex-too-big")
    top = _answer(store, case["debug"])
    assert top["values"] == {"limit": "10"}
    assert top["exception_types"] == ["Error::CompiledTooBig"]


def test_the_innermost_named_variant_with_a_message_wins(store: SqliteStore) -> None:
    """``Parse(Error { kind: RepetitionCountInvalid, .., span: Span(Position(..)) })``:
    ``RepetitionCountInvalid``, not ``Parse``, ``Error`` or ``Position``."""
    case = next(c for c in CASES if c["case"] == "regex-syntax-repetition")
    top = _answer(store, case["unwrap"])
    assert top["exception_types"] == ["ErrorKind::RepetitionCountInvalid"]


def test_a_unit_variant_pasted_alone_leads_to_its_entry(tmp_path: Path) -> None:
    """``{:?}`` of a unit variant is its name alone: ``Empty``."""
    store, _ = index_fixture("errtypes", tmp_path)
    parts = explain_text(store, "Empty\n")["parts"]
    assert parts[0]["answer"] is not None
    assert parts[0]["matches"][0]["message"] == "the tensor is empty"
    parts = explain_text(store, "Error: UnexpectedRank(3)\n")["parts"]
    assert parts[0]["matches"][0]["message"] == "unexpected rank {0}"
    assert parts[0]["matches"][0]["values"] == {"self.0": "3"}


@pytest.mark.parametrize(
    "case", [c for c in CASES if "unwrap-backtrace" in c], ids=lambda c: c["case"]
)
def test_unwrap_panic_with_a_backtrace_leads_to_its_entry(
    store: SqliteStore, case: dict[str, Any]
) -> None:
    assert _answer(store, case["unwrap-backtrace"])["message"] == case["message"]


@pytest.mark.parametrize("case", CASES[::3], ids=lambda c: c["case"])
def test_both_panic_layouts_lead_to_its_entry(store: SqliteStore, case: dict[str, Any]) -> None:
    """Without the thread id (rustc before 1.88), and the message before the
    place (before 1.73), as paste.py documents them."""
    no_id = re.sub(r"thread 'main' \(\d+\)", "thread 'main'", case["unwrap"])
    assert _answer(store, no_id)["message"] == case["message"]
    head, _, rest = case["unwrap"].strip("\n").partition("\n")
    message, _, notes = rest.partition("\nnote: ")
    place = head.removesuffix(":").rsplit(" panicked at ", 1)[1]
    old = f"thread 'main' panicked at '{message}', {place}\nnote: {notes}\n"
    assert _answer(store, old)["message"] == case["message"]


def test_the_errors_a_value_wraps_are_shown_as_a_chain(store: SqliteStore) -> None:
    case = next(c for c in CASES if c["case"] == "regex-syntax-repetition")
    top = _answer(store, case["unwrap"])
    assert top["chain"] == ["Parse", "Error", "RepetitionCountInvalid"]
    res = CliRunner().invoke(
        main,
        ["explain", "-"],
        input=case["main"],
        env={"ERRORDEX_DB": str(store.path), "COLUMNS": "200"},
    )
    assert res.exit_code == 0, res.stdout
    assert "  wrapped: Parse → Error → RepetitionCountInvalid\n" in res.stdout
    assert "invalid repetition count range, the start must be <= the end" in res.stdout


@pytest.mark.parametrize("form", ("debug", "unwrap", "main"))
@pytest.mark.parametrize("case", KIND_CASES, ids=[c["case"] for c in KIND_CASES])
def test_a_debug_value_leads_to_its_kind_not_to_the_names_it_holds_in_lists(
    store: SqliteStore, case: dict[str, Any], form: str
) -> None:
    """clap's ``ErrorInner { kind: ValueValidation, context: FlatMap { keys:
    [InvalidArg, InvalidValue], .. }, source: Some(ParseIntError { .. }) }``:
    ``ValueValidation``, not the ``InvalidValue`` context key in a list."""
    top = _answer(store, case[form])
    assert top["message"] == case["message"]


def test_a_value_that_prints_its_message_is_told_by_it_not_by_its_name(tmp_path: Path) -> None:
    # syn 1.0.107, syn::parse_str::<syn::Type>("&&&") as a program printed it:
    # every error of syn is an `Error`, so the name says nothing; the text does
    found = sorted(REGISTRY.glob("syn-1.*"))
    if not found:
        pytest.skip("needs Debian's librust-syn-dev")
    store = SqliteStore(tmp_path / "db.sqlite")
    index(str(found[-1]), store, name="dtolnay/syn", jobs=1)
    said = (
        "unexpected end of input, expected one of: `for`, parentheses, `fn`, `unsafe`,"
        " `extern`, identifier, `::`, `<`, square brackets, `*`, `&`, `!`, `impl`, `_`, lifetime"
    )
    for text in (
        said,
        f'Error("{said}")',
        f"\nthread 'main' (4242) panicked at src/main.rs:9:30:\n"
        f'called `Result::unwrap()` on an `Err` value: Error("{said}")\n',
    ):
        assert _answer(store, text)["message"] == "unexpected end of input, {}", text


def test_a_std_error_held_inside_leads_to_the_crate_that_holds_it(tmp_path: Path) -> None:
    # bincode 1.3.3 holds std's Utf8Error in InvalidUtf8Encoding; bstr 0.2
    # declares a Utf8Error of its own, with the same fields
    crates = {"bincode-1.3.3": "servo/bincode", "bstr-0.2.17": "BurntSushi/bstr"}
    if not all((REGISTRY / c).is_dir() for c in crates):
        pytest.skip("needs Debian's librust-bincode-dev and librust-bstr-dev")
    store = SqliteStore(tmp_path / "db.sqlite")
    for crate, slug in crates.items():
        index(str(REGISTRY / crate), store, name=slug, jobs=1)
    top = _answer(store, "InvalidUtf8Encoding(Utf8Error { valid_up_to: 0, error_len: Some(1) })")
    assert top["repo"] == "servo/bincode"
    assert top["message"] == "string is not valid utf8"


def test_a_code_the_crate_declares_inside_its_error_is_its_own(tmp_path: Path) -> None:
    # lexical-core 0.7.6's parse::<u8>(b"x") prints Error { code: InvalidDigit,
    # index: 0 }: its own ErrorCode::InvalidDigit, which has no message, not
    # num-bigint's InvalidDigit; syn, cc, object and others have many
    # entries of a type named Error, more than one lookup of the name returns
    crates = {
        "lexical-core-0.7.6": "Alexhuszagh/rust-lexical",
        "num-bigint-0.4.3": "rust-num/num-bigint",
        "syn-1.0.107": "dtolnay/syn",
        "cc-1.0.73": "rust-lang/cc-rs",
        "serde_urlencoded-0.7.1": "nox/serde_urlencoded",
        "object-0.30.0": "gimli-rs/object",
        "quick-xml-0.26.0": "tafia/quick-xml",
        "serde_cbor-0.11.2": "pyfisch/cbor",
    }
    if not all((REGISTRY / c).is_dir() for c in crates):
        pytest.skip("needs Debian's librust-*-dev crates")
    store = SqliteStore(tmp_path / "db.sqlite")
    for crate, slug in crates.items():
        index(str(REGISTRY / crate), store, name=slug, jobs=1)
    value = "Error { code: InvalidDigit, index: 0 }"
    for text in (
        value,
        f"\nthread 'main' (77) panicked at src/main.rs:9:30:\n"
        f"called `Result::unwrap()` on an `Err` value: {value}\n",
    ):
        top = _answer(store, text)
        assert top["repo"] == "Alexhuszagh/rust-lexical", text
        assert top["message"] == "lexical error: {:?} at index {}."


def test_a_bare_name_leads_to_the_crate_whose_type_of_that_name_is_an_error(
    tmp_path: Path,
) -> None:
    # shell-words 1.1's split("a 'b") prints ParseError: its `struct
    # ParseError;` implements Error; num-rational's ParseError is a variant
    # of RatioErrorKind, a kind held inside ParseRatioError
    crates = {
        "shell-words-1.1.0": "tmiasko/shell-words",
        "num-rational-0.4.1": "rust-num/num-rational",
    }
    if not all((REGISTRY / c).is_dir() for c in crates):
        pytest.skip("needs Debian's librust-shell-words-dev and librust-num-rational-dev")
    store = SqliteStore(tmp_path / "db.sqlite")
    for crate, slug in crates.items():
        index(str(REGISTRY / crate), store, name=slug, jobs=1)
    for text in ("ParseError", "Error: ParseError\n"):
        top = _answer(store, text)
        assert (top["repo"], top["message"]) == ("tmiasko/shell-words", "missing closing quote")
        (part,) = explain_text(store, text)["parts"]
        other = next(m for m in part["matches"] if m["repo"] == "rust-num/num-rational")
        assert other["score"] < top["score"]  # not a tie that order happened to break


def test_a_wrapper_that_verifies_the_whole_text_comes_before_a_copy_of_what_it_holds(
    tmp_path: Path,
) -> None:
    # ordered-float 2.10's "x".parse::<NotNan<f64>>() prints "Parse error:
    # invalid float literal": its ParseNotNanError's "Parse error: {}" around
    # std's text, which num-traits 0.2 copies for its own ParseFloatError
    crates = {
        "num-traits-0.2.15": "rust-num/num-traits",
        "ordered-float-2.10.0": "reem/rust-ordered-float",
    }
    if not all((REGISTRY / c).is_dir() for c in crates):
        pytest.skip("needs Debian's librust-num-traits-dev and librust-ordered-float-dev")
    store = SqliteStore(tmp_path / "db.sqlite")
    for crate, slug in crates.items():
        index(str(REGISTRY / crate), store, name=slug, jobs=1)
    (part,) = explain_text(store, "Parse error: invalid float literal")["parts"]
    assert [(m["repo"], m["message"]) for m in part["matches"][:2]] == [
        ("reem/rust-ordered-float", "Parse error: {}"),
        ("rust-num/num-traits", "invalid float literal"),
    ]


def test_a_text_its_own_crate_wraps_stays_first(tmp_path: Path) -> None:
    # serde_cbor 0.11's from_slice::<u8>(&[0x19, 0x01]) prints "EOF while
    # parsing a value at offset 2": its own "{} at offset {}" holds its own
    # "EOF while parsing a value"; another crate's "... at offset ..." wrapper
    # does not push it down
    crates = {
        "serde_cbor-0.11.2": "pyfisch/cbor",
        "gimli-0.27.0": "gimli-rs/gimli",
        "object-0.30.0": "gimli-rs/object",
    }
    if not all((REGISTRY / c).is_dir() for c in crates):
        pytest.skip("needs Debian's librust-serde-cbor-dev, librust-gimli-dev, librust-object-dev")
    store = SqliteStore(tmp_path / "db.sqlite")
    for crate, slug in crates.items():
        index(str(REGISTRY / crate), store, name=slug, jobs=1)
    top = _answer(store, "EOF while parsing a value at offset 2")
    assert (top["repo"], top["message"]) == ("pyfisch/cbor", "EOF while parsing a value")


def test_a_std_value_inside_does_not_take_the_crates_own_name(tmp_path: Path) -> None:
    # plist 1.3.1's Value::from_reader(Cursor::new(b"junk")), as
    # bench/probe_rust.py's program printed it: plist's Error holds std's
    # io::Error, also named Error. The outermost Error is plist's, so Io
    # inside is plist's ErrorKind::Io (plist names it), not xml-rs' Io
    # variant ('I/O error')
    crates = {"plist-1.3.1": "ebarnard/rust-plist", "xml-rs-0.8.3": "netvl/xml-rs"}
    if not all((REGISTRY / c).is_dir() for c in crates):
        pytest.skip("needs Debian's librust-plist-dev and librust-xml-rs-dev")
    store = SqliteStore(tmp_path / "db.sqlite")
    for crate, slug in crates.items():
        index(str(REGISTRY / crate), store, name=slug, jobs=1)
    value = (
        "Error { inner: ErrorImpl { kind: Io(Error { kind: UnexpectedEof, message:"
        ' "failed to fill whole buffer" }), file_position: Some(Offset(0)) } }'
    )
    for text in (
        value,
        "\nthread 'main' panicked at src/main.rs:9:30:\n"
        f"called `Result::unwrap()` on an `Err` value: {value}\n",
    ):
        top = _answer(store, text)
        assert (top["repo"], top["message"]) == ("ebarnard/rust-plist", "{:?} ({})"), text


def _store_of(tmp_path: Path, crates: dict[str, str]) -> SqliteStore:
    if not all((REGISTRY / c).is_dir() for c in crates):
        pytest.skip(f"needs Debian's librust-*-dev crates: {sorted(crates)}")
    store = SqliteStore(tmp_path / "db.sqlite")
    for crate, slug in crates.items():
        index(str(REGISTRY / crate), store, name=slug, jobs=1)
    return store


def test_an_inner_name_the_crate_has_entries_of_is_its_own(tmp_path: Path) -> None:
    # png 0.17.7's Decoder::new(&b"junk"[..]).read_info(), as
    # bench/probe_rust.py's program printed it: the UnexpectedEof inside is
    # png's FormatErrorInner::UnexpectedEof, though jpeg-decoder's code
    # names io's UnexpectedEof (and tiff has an entry of io's)
    store = _store_of(
        tmp_path,
        {
            "png-0.17.7": "image-rs/image-png",
            "jpeg-decoder-0.2.6": "image-rs/jpeg-decoder",
            "tiff-0.7.3": "image-rs/image-tiff",
        },
    )
    value = "Format(FormatError { inner: UnexpectedEof })"
    for text in (value, f"Error: {value}\n"):
        top = _answer(store, text)
        assert (top["repo"], top["message"]) == (
            "image-rs/image-png",
            "Unexpected end of data before image end.",
        ), text


def test_a_name_one_crate_builds_at_many_sites_leaves_room_for_another(tmp_path: Path) -> None:
    # base-x 0.2.3's decode("01", "012") prints its unit struct DecodeError;
    # prost 0.11 builds its DecodeError of a text at more sites than a
    # lookup of the name returns, and its Debug always prints fields
    store = _store_of(
        tmp_path, {"prost-0.11.6": "tokio-rs/prost", "base-x-0.2.3": "OrKoN/base-x-rs"}
    )
    for text in (
        "DecodeError",
        "\nthread 'main' panicked at src/main.rs:9:30:\n"
        "called `Result::unwrap()` on an `Err` value: DecodeError\n",
    ):
        top = _answer(store, text)
        assert (top["repo"], top["message"]) == (
            "OrKoN/base-x-rs",
            "Failed to decode the given data",
        ), text


def test_an_inner_name_is_looked_up_in_its_crate_though_many_have_the_outer_one(
    tmp_path: Path,
) -> None:
    # walkdir 2.3.2's WalkDir::new("/nonexistent").into_iter().next(): its
    # Error { inner: Io { .. } } names Error in code only; the crates with
    # entries of an Error (syn, cc, object, serde_cbor, gimli, ...) are more
    # than are asked which names they know, and serde_cbor and gimli have
    # an Io of their own
    store = _store_of(
        tmp_path,
        {
            "walkdir-2.3.2": "BurntSushi/walkdir",
            "serde_cbor-0.11.2": "pyfisch/cbor",
            "gimli-0.27.0": "gimli-rs/gimli",
            "lexical-core-0.7.6": "Alexhuszagh/rust-lexical",
            "num-bigint-0.4.3": "rust-num/num-bigint",
            "syn-1.0.107": "dtolnay/syn",
            "cc-1.0.73": "rust-lang/cc-rs",
            "serde_urlencoded-0.7.1": "nox/serde_urlencoded",
            "object-0.30.0": "gimli-rs/object",
            "quick-xml-0.26.0": "tafia/quick-xml",
        },
    )
    value = (
        'Error { depth: 0, inner: Io { path: Some("/nonexistent/errordex"), err: Os { code: 2,'
        ' kind: NotFound, message: "No such file or directory" } } }'
    )
    for text in (value, f"Error: {value}\n"):
        top = _answer(store, text)
        assert (top["repo"], top["message"]) == (
            "BurntSushi/walkdir",
            "IO error for operation on {}: {}",
        ), text


def test_a_unit_variant_named_in_capitals_pasted_alone_leads_to_its_entry(
    tmp_path: Path,
) -> None:
    """y4m 0.7's ``Error::EOF`` prints ``EOF`` for ``{:?}`` and ``End of
    file`` for its Display: the capitals are a name as ``Empty`` is."""
    crate = REGISTRY / "y4m-0.7.0"
    if not crate.is_dir():
        pytest.skip("needs Debian's librust-y4m-dev")
    store = SqliteStore(tmp_path / "db.sqlite")
    index(str(crate), store, name="image-rs/y4m", jobs=1)
    parts = explain_text(store, "EOF\n")["parts"]
    assert parts[0]["matches"], parts
    assert parts[0]["matches"][0]["message"] == "End of file"


def test_the_debug_of_a_string_error_leads_to_the_text_it_quotes(tmp_path: Path) -> None:
    """configparser 3.0's ``Ini::load`` returns ``Result<_, String>``: its
    ``{:?}`` is the text quoted, ``"couldn't read ..: No such file .."``,
    and leads where the unwrap panic of it does."""
    crate = REGISTRY / "configparser-3.0.2"
    if not crate.is_dir():
        pytest.skip("needs Debian's librust-configparser-dev")
    store = SqliteStore(tmp_path / "db.sqlite")
    index(str(crate), store, name="QEDK/configparser-rs", jobs=1)
    text = '"couldn\'t read /nonexistent/x.ini: No such file or directory (os error 2)"\n'
    parts = explain_text(store, text)["parts"]
    assert parts[0]["matches"], parts
    top = parts[0]["matches"][0]
    assert top["message"] == "couldn't read {}: {}"
    assert top["values"]["why"] == "No such file or directory (os error 2)"
