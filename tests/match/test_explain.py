from pathlib import Path

import pytest

from errordex.match.explain import explain, rank
from errordex.match.index import MemoryIndex
from errordex.paste import Frame
from errordex.store.candidates import StoreIndex
from errordex.store.sqlite import SqliteStore
from errordex.template import Hole, Template, Text

from .conftest import corpus, entry, fmt

FIXTURES = Path(__file__).parent.parent / "paste" / "fixtures"

JSON_TB = """Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/usr/lib/python3.11/json/decoder.py", line 355, in raw_decode
    raise JSONDecodeError("Expecting value", s, err.value) from None
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
"""


def memory() -> MemoryIndex:
    return MemoryIndex.from_entries(corpus())


def test_explain_traceback_finds_entry_with_values() -> None:
    [part] = explain(JSON_TB, memory())
    top = part.matches[0]
    assert part.found
    assert top.entry_id == "aaaaaaaaaaaaaaa1"
    assert top.values == {"lineno": "1", "colno": "1", "pos": "0"}
    assert top.exact and not top.partial
    assert top.type_agrees is True
    assert top.frame_path == "Lib/json/decoder.py"
    assert top.message == "Expecting value: line %d column %d (char %d)"


def test_explain_uses_the_store_index_too(store: SqliteStore) -> None:
    [part] = explain(JSON_TB, StoreIndex(store))
    assert part.matches[0].entry_id == "aaaaaaaaaaaaaaa1"


def test_explain_specific_template_beats_generic() -> None:
    [part] = explain("index out of bounds: the len is 3 but the index is 5", memory())
    ids = [m.entry_id for m in part.matches]
    assert ids[0] == "aaaaaaaaaaaaaaa2"
    assert part.matches[0].values == {"len": "3", "index": "5"}
    # "{}: {}" has no word of its own: its text alone verifies nothing
    assert [m for m in part.matches if m.entry_id == "aaaaaaaaaaaaaaa4" and m.exact] == []


def test_explain_rust_panic_fixture() -> None:
    text = (FIXTURES / "rust_index_oob.txt").read_text()
    [part] = explain(text, memory())
    assert part.matches[0].entry_id == "aaaaaaaaaaaaaaa2"


def test_explain_expect_message_matches_partially() -> None:
    idx = MemoryIndex.from_entries(
        [entry("e" * 16, Template.literal("failed to parse config value"))]
    )
    [part] = explain((FIXTURES / "rust_expect.txt").read_text(), idx)
    top = part.matches[0]
    assert top.exact and top.partial and top.entry_id == "e" * 16


def test_explain_chained_error_gives_one_explanation_per_part() -> None:
    idx = MemoryIndex.from_entries(
        [
            entry(
                "1" * 16,
                fmt(
                    "invalid literal for int() with base ",
                    Hole("base", "%d"),
                    ": ",
                    Hole("s", "%.200R"),
                ),
                ("ValueError",),
                ("Objects/longobject.c",),
            ),
            entry(
                "2" * 16, Template.literal("invalid port setting"), ("ConfigError",), ("cause.py",)
            ),
        ]
    )
    parts = explain((FIXTURES / "python_cause.txt").read_text(), idx)
    assert [p.matches[0].entry_id for p in parts] == ["1" * 16, "2" * 16]
    assert parts[0].matches[0].values == {"base": "10", "s": "'abc'"}
    assert parts[1].matches[0].frame_path == "cause.py"


def test_frames_choose_between_identical_messages_even_if_line_moved() -> None:
    t = Template.literal("connection reset")
    idx = MemoryIndex.from_entries(
        [
            entry("a" * 16, t, paths=("src/net/client.rs",), repo="x/a"),
            entry("b" * 16, t, paths=("src/net/server.rs",), repo="x/b"),
        ]
    )
    frames = [Frame("/home/u/src/net/server.rs", 999, 1, None)]
    got = rank("connection reset", idx, frames=frames)
    assert [m.repo for m in got] == ["x/b", "x/a"]
    assert got[0].frame_path == "src/net/server.rs"


def test_exception_type_chooses_between_identical_messages() -> None:
    t = Template.literal("bad input")
    idx = MemoryIndex.from_entries(
        [
            entry("a" * 16, t, ("pkg.errors.TypeError",), repo="x/a"),
            entry("b" * 16, t, ("pkg.ValueError",), repo="x/b"),
        ]
    )
    got = rank("bad input", idx, exception_type="ValueError")
    assert got[0].repo == "x/b" and got[0].type_agrees
    assert got[1].type_agrees is False


def test_no_verified_match_returns_closest_flagged_inexact() -> None:
    [part] = explain("Requires autodiff tensors here.", memory())
    assert not part.found
    assert part.matches and part.matches[0].entry_id == "aaaaaaaaaaaaaaa3"
    assert all(not m.exact and m.score < 0.3 for m in part.matches)


def test_dynamic_template_with_only_its_type_in_common_is_not_shown() -> None:
    # KeyError: 'x' in the user's own file: a `raise KeyError(msg)` elsewhere
    # shares nothing with it but the type
    [part] = explain((FIXTURES / "python_keyerr.txt").read_text(), memory())
    assert all(m.entry_id != "aaaaaaaaaaaaaaa5" for m in part.matches)


def test_dynamic_template_in_a_file_of_the_traceback_is_shown() -> None:
    got = rank(
        "'x'",
        memory(),
        exception_type="KeyError",
        frames=[Frame("/usr/lib/python3.11/collections/__init__.py", 5, None, "f")],
    )
    m = next(m for m in got if m.entry_id == "aaaaaaaaaaaaaaa5")
    assert m.type_agrees and not m.specific
    assert m.values == {"msg": "'x'"}


def test_bare_exception_matches_empty_template() -> None:
    got = rank(
        "",
        memory(),
        exception_type="StopIteration",
        frames=[Frame("/usr/lib/python3/itertools.py", 1, None, None)],
    )
    assert got[0].entry_id == "aaaaaaaaaaaaaaa6" and got[0].exact


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\t",
        "\x00\xff\xfe" * 5000,
        bytes(range(256)).decode("latin-1") * 100,
        "x" * 3_000_000,
        "Error: " + "a: " * 500_000,
        "Traceback (most recent call last):\n"
        + '  File "/a/b.py", line 1, in f\n    f()\n' * 10_000
        + "RecursionError: maximum recursion depth exceeded",
        "thread 'main' panicked at src/x.rs:1:1:\n" + "{[(" * 50_000,
    ],
)
def test_explain_never_raises(text: str, store: SqliteStore) -> None:
    for source in (memory(), StoreIndex(store)):
        out = explain(text, source)
        assert all(len(e.matches) <= 5 for e in out)


def test_explain_limit_is_respected() -> None:
    [part] = explain("tensor value w3 mismatch for 1", memory(), limit=2)
    assert len(part.matches) <= 2


def test_a_bare_rust_macro_is_found_by_what_the_runtime_prints(tmp_path: Path) -> None:
    from errordex.group import group
    from errordex.languages.rust.extract import extract
    from tests.repo_files import index_files

    code = "pub fn a() {\n    todo!()\n}\n\npub fn b() {\n    panic!()\n}\n"
    entries = group("acme/bare", extract("src/lib.rs", code).sites)
    store, _ = index_files(
        tmp_path, {"Cargo.toml": '[package]\nname = "bare"\n', "src/lib.rs": code}, "acme/bare"
    )
    for idx in (MemoryIndex.from_entries(entries), StoreIndex(store)):
        for text, line in (("not yet implemented", 2), ("explicit panic", 6)):
            [part] = explain(text, idx)
            assert part.matches and part.matches[0].exact, (text, idx)
            (found,) = [e for e in entries if e.id == part.matches[0].entry_id]
            assert [s.line for s in found.sites] == [line]


def test_the_package_a_qualified_type_names_wins_a_tie_with_a_vendored_copy() -> None:
    # typer 0.29 vendors click as typer/_click: the same texts, the same classes
    idx = MemoryIndex()
    missing = Template.of(
        "py-fstring", Text("Missing parameter: "), Hole("param_name", "{param_name}")
    )
    idx.add(
        "typer", "fastapi/typer", missing, ("MissingParameter",), ("typer/_click/exceptions.py",)
    )
    idx.add("click", "pallets/click", missing, ("MissingParameter",), ("click/exceptions.py",))
    [part] = explain("click.exceptions.MissingParameter: Missing parameter: name", idx)
    assert [m.entry_id for m in part.matches] == ["click", "typer"]
    [part] = explain("typer._click.exceptions.MissingParameter: Missing parameter: name", idx)
    assert part.matches[0].entry_id == "typer"
    # a builtin type names no package: the public copy before the private one
    context = Template.literal("There is no active click context.")
    idx.add("typer2", "fastapi/typer", context, ("RuntimeError",), ("typer/_click/globals.py",))
    idx.add("click2", "pallets/click", context, ("RuntimeError",), ("click/globals.py",))
    [part] = explain("RuntimeError: There is no active click context.", idx)
    assert [m.entry_id for m in part.matches] == ["click2", "typer2"]
