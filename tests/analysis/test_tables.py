"""Table-driven tests: each row of a table around a raises-check is an expectation,
and the page shows the rows as the repo's own failing inputs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from errordex.analysis import scan
from errordex.analysis.index import Index
from errordex.analysis.textmatch import pins
from errordex.cli import main
from errordex.group import group
from errordex.model import ErrorEntry
from errordex.store.sqlite import SqliteStore
from tests.analysis.conftest import FIXTURES
from tests.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"
GRID_TESTS = FIXTURES / "tables" / "tests" / "test_grid.py_"


def _rows(code: str) -> list[tuple[Any, ...]]:
    ev = scan("tests/test_x.py", code, "python")
    return [(t.line, t.pattern, t.is_regex, t.body, t.inputs) for t in ev.tests]


def test_table_rows_each_become_an_expectation_with_the_rows_line_and_literal_call() -> None:
    ev = scan("tests/test_grid.py", GRID_TESTS.read_text(), "python")
    got = [
        (t.test, t.line, t.kind, t.pattern, t.is_regex, t.body, t.body_line, t.inputs)
        for t in ev.tests
    ]
    assert got == [
        # a local list and its `+=`, run in a subTest; the message is assertIn's
        # other argument. The row whose input is a call (line 17) is left out.
        ("TestParse.test_bad_sizes", 15, "assertRaises", "Expecting a size", False,
         'parse("")', 25, ('""',)),
        ("TestParse.test_bad_sizes", 16, "assertRaises", "Expecting 'x' between width and height",
         False, 'parse("3")', 25, ('"3"',)),
        ("TestParse.test_bad_sizes", 20, "assertRaises", "Expecting digits on both sides of 'x'",
         False, 'parse("ax4")', 25, ('"ax4"',)),
        # enumerate() over a literal list; the message is a constant every row expects
        ("TestParse.test_position", 29, "assertRaises", "Expecting digits on both sides of 'x'",
         False, 'parse("x4")', 31, ('"x4"',)),
        ("TestParse.test_position", 29, "assertRaises", "Expecting digits on both sides of 'x'",
         False, 'parse("3x")', 31, ('"3x"',)),
        # not a table of literals: the one expectation as before
        ("TestParse.test_generated", 37, "assertRaises", None, True, "parse(text)", 38, ()),
        # parametrize with match=msg (a regex); the xfail row is left out
        ("test_parse_rejects", 44, "pytest.raises", "Expecting a size", True, "parse(None)", 51,
         ("None",)),
        ("test_parse_rejects", 45, "pytest.raises", "Expecting digits", True, 'parse("3x4x5")',
         51, ('"3x4x5"',)),
        # one parameter, a bare value per row
        ("test_parse_not_a_type_error", 54, "pytest.raises", "Expecting a size", True,
         'parse("")', 58, ('""',)),
        ("test_parse_not_a_type_error", 54, "pytest.raises", "Expecting a size", True,
         'parse("  ")', 58, ('"  "',)),
    ]  # fmt: skip


def test_a_table_reassigned_from_a_call_gives_no_rows() -> None:
    code = """
def test_it():
    cases = [("", "Expecting value")]
    cases = load_cases()
    for data, msg in cases:
        with pytest.raises(ValueError, match=msg):
            loads(data)
"""
    assert _rows(code) == [(6, None, True, "loads(data)", ())]


def test_a_block_that_reads_an_outer_loop_variable_gives_no_rows() -> None:
    code = """
def test_it():
    for mode in modes():
        for data, msg in [("", "Expecting value")]:
            with pytest.raises(ValueError, match=msg):
                loads(data, mode)
"""
    assert _rows(code) == [(5, None, True, "loads(data, mode)", ())]


def test_a_constant_match_applies_to_every_row_of_an_inline_table() -> None:
    code = """
def test_it():
    for data in ["", b"["]:
        with pytest.raises(ValueError, match="Expecting value"):
            loads(data)
"""
    assert _rows(code) == [
        (3, "Expecting value", True, 'loads("")', ('""',)),
        (3, "Expecting value", True, 'loads(b"[")', ('b"["',)),
    ]


def test_a_row_whose_message_is_not_a_string_literal_gives_no_row() -> None:
    code = """
def test_it():
    cases = [("", MESSAGE), ("[", "Expecting value")]
    for data, msg in cases:
        with pytest.raises(ValueError, match=re.escape(msg)):
            loads(data)
"""
    assert _rows(code) == [(3, "Expecting value", False, 'loads("[")', ('"["',))]


def _entry(store: SqliteStore, sid: int, message: str) -> dict[str, Any]:
    for entry_id, data in store.analyses(sid):
        if store.entry(entry_id).message == message:
            return data
    raise AssertionError(message)


def test_table_rows_are_the_pages_reproductions_and_own_cases_golden(
    tables: tuple[SqliteStore, int],
) -> None:
    store, sid = tables
    data = _entry(store, sid, "Expecting a size")
    facts = data["facts"]["tests"]
    # test_parse_not_a_type_error's rows expect a TypeError, which GridError is
    # not; test_generated's `assertRaises(GridError)` has no text, and `parse`
    # raises GridError with three messages: it reproduces none in particular.
    assert [(t["test"], t["line"], t.get("inputs"), t["matched_by"]) for t in facts] == [
        ("TestParse.test_bad_sizes", 15, ['""'], "message"),
        ("test_parse_rejects", 44, ["None"], "message"),
    ]
    a = data["analysis"]
    repro = [(r["text"], r.get("code"), r["evidence"]) for r in a["reproductions"][:2]]
    assert repro == [
        (
            '`TestParse.test_bad_sizes`, the row `""` (assertRaises, expects “Expecting a size”)',
            'parse("")',
            ["tests/test_grid.py:15", "tests/test_grid.py:25"],
        ),
        (
            "`test_parse_rejects`, the row `None` (pytest.raises, expects “Expecting a size”)",
            "parse(None)",
            ["tests/test_grid.py:44", "tests/test_grid.py:51"],
        ),
    ]
    own = [s for s in a["solutions"] if "own cases" in s["text"]]
    assert own == [
        {
            "text": 'Compare your input with the repo\'s own cases: `""` raises it '
            "(tests/test_grid.py:15, in `TestParse.test_bad_sizes`), and so does `None` "
            "(tests/test_grid.py:44).",
            "provenance": "static",
            "evidence": ["tests/test_grid.py:15", "tests/test_grid.py:44"],
        }
    ]
    fix = a["example_fix"]
    assert fix["before"]["code"].endswith('\nparse("")')
    assert fix["text"].startswith(
        "The failing input is the repo's own case at tests/test_grid.py:15"
    )
    check_golden(GOLDEN / "tables-row.json", data, indent=2, sort_keys=True)


def test_one_tables_rows_take_turns_with_another_tables(
    tables: tuple[SqliteStore, int],
) -> None:
    # test_position's second row comes after each other table's first.
    store, sid = tables
    data = _entry(store, sid, "Expecting digits on both sides of 'x'")
    assert [(t["test"], t["line"]) for t in data["facts"]["tests"]] == [
        ("TestParse.test_bad_sizes", 20),
        ("TestParse.test_position", 29),
        ("test_parse_rejects", 45),
        ("TestParse.test_position", 29),
    ]


def test_verify_tables_fixture_reports_nothing_ungrounded(
    tables: tuple[SqliteStore, int],
) -> None:
    store, _ = tables
    result = CliRunner().invoke(main, ["verify", "--json", "--db", str(store.path)])
    assert result.exit_code == 0, result.output
    (repo,) = json.loads(result.output)["repos"]
    assert repo["ungrounded"] == 0 and repo["entries"] == 3


def test_a_variable_inside_an_f_string_is_not_replaced() -> None:
    # f"class{"\t"}" is not Python before 3.12: keep the one expectation instead.
    code = """
@pytest.mark.parametrize("sep", ("\\t", "/"))
def test_it(sep):
    with pytest.raises(ValueError, match="Invalid character"):
        render(key=f"class{sep}onclick")
"""
    assert _rows(code) == [(4, "Invalid character", True, 'render(key=f"class{sep}onclick")', ())]


def _index(code: str) -> tuple[Index, dict[str, ErrorEntry]]:
    from errordex.languages.python import extract as python

    entries = group("o/r", python.extract("lib.py", code).sites)
    return Index([scan("lib.py", code, "python")], [], [], entries), {e.message: e for e in entries}


def test_a_short_row_text_counts_only_when_few_messages_have_it() -> None:
    ix, by_message = _index(
        "def f(x):\n"
        "    if x == 1:\n        raise ValueError('Extra data: line 1')\n"
        "    if x == 2:\n        raise ValueError('bad value: far too big for the field')\n"
        "    if x == 3:\n        raise ValueError('bad value: far too small for the field')\n"
        "    if x == 4:\n        raise ValueError('bad value: negative')\n"
        "    raise ValueError('bad value: not a number')\n"
    )
    assert ix.matches_few("Extra data", False)  # one message has it
    assert not ix.matches_few("bad value", False)  # four have it: it names none of them
    assert not pins("bad value", False, by_message["bad value: far too big for the field"].template)
