"""Golden tests: the full facts + analysis JSON of the fixture entries.

Regenerate with ERRORDEX_UPDATE_GOLDEN=1 and review the diff by eye.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from errordex.cli import main
from errordex.errors import EXIT_UNGROUNDED
from errordex.store.sqlite import SqliteStore
from errordex.views import entry_json
from tests.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"


def _by_message(store: SqliteStore, sid: int) -> dict[str, dict[str, Any]]:
    out = {}
    for entry_id, data in store.analyses(sid):
        out[store.entry(entry_id).message] = data
    return out


def _check_golden(name: str, data: dict[str, Any]) -> None:
    check_golden(GOLDEN / f"{name}.json", data, indent=2, sort_keys=True)


def test_cfg_stub_page_names_the_forwarding_feature_golden(ws: tuple[SqliteStore, int]) -> None:
    store, sid = ws
    data = _by_message(store, sid)["Requires `autodiff` feature"]
    feature = data["facts"]["features"][0]
    assert feature["crate"] == "inner" and feature["negated"] and not feature["default"]
    assert feature["top"] == {"crate": "top", "feature": "autodiff", "default": False}
    assert feature["dependency_line"] == 'top = { version = "1.4.0", features = ["autodiff"] }'
    assert data["facts"]["features"][0]["chains"][0][0]["entry"] == "inner/autodiff"
    fix = data["analysis"]["example_fix"]
    assert fix["after"]["code"].endswith(feature["dependency_line"])
    _check_golden("ws-cfg-stub", data)


def test_catch_all_arm_page_lists_handled_variants_golden(ws: tuple[SqliteStore, int]) -> None:
    store, sid = ws
    data = _by_message(store, sid)["Requires a plain tensor."]
    (arm,) = data["facts"]["arms"]
    assert arm["handled"] == ["Kind::Float(_)", "Kind::Int(_)", "Kind::Bool(_)"]
    (reach,) = data["facts"]["reachability"]
    assert not reach["public"] and reach["paths"][0][0]["function"] == "element_size"
    (test,) = data["facts"]["tests"]
    assert test["kind"] == "should_panic" and test["matched_by"] == "message"
    patterns = data["analysis"]["defensive_patterns"]
    assert patterns[0]["strategy"] == "isolate" and "element_size(&t);" in patterns[0]["code"]
    _check_golden("ws-catch-all", data)


def test_python_raise_page_has_hierarchy_catch_and_reproduction_golden(
    py: tuple[SqliteStore, int],
) -> None:
    store, sid = py
    data = _by_message(store, sid)["shape name must be a string"]
    facts = data["facts"]
    assert [h["name"] for h in facts["hierarchy"]] == ["ShapeError", "ShapesError", "Exception"]
    assert [(c["function"], c["line"]) for c in facts["catches"]] == [("describe", 30)]
    assert facts["guards"][0]["text"] == "not isinstance(name, str)"
    repro = data["analysis"]["reproductions"][0]
    assert repro["test"] == "test_label_rejects_numbers" and repro["code"] == "label(42)"
    _check_golden("py-isinstance", data)


def test_entry_json_carries_facts_analysis_and_related(py: tuple[SqliteStore, int]) -> None:
    store, sid = py
    entry = next(e for e in store.entries() if e.message == "shape name must be a string")
    data = entry_json(entry, store.snapshot(sid), store)
    assert data["analysis"]["summary"]["text"].startswith(
        "You called `shapes.label(name=…)` (`shapes/__init__.py`), and it raises `ShapeError` when "
        "`not isinstance(name, str)`"
    )
    # A traceback names a repository class by its module (shapes/errors.py).
    assert data["printed"].endswith("\nshapes.errors.ShapeError: shape name must be a string")
    builtin = next(e for e in store.entries() if e.message == "negative size: {value}")
    assert entry_json(builtin, store.snapshot(sid), store)["printed"].endswith(
        "\nValueError: negative size: {value}"
    )
    assert data["facts"]["tests"]
    # `_check`'s ValueError shares only the file with it: not related
    assert data["related"] == []


def test_verify_fixtures_report_nothing_ungrounded(
    ws: tuple[SqliteStore, int], tmp_path: Path
) -> None:
    store, _ = ws
    result = CliRunner().invoke(main, ["verify", "--json", "--db", str(store.path)])
    assert result.exit_code == 0, result.output
    (repo,) = json.loads(result.output)["repos"]
    assert repo["ungrounded"] == 0 and repo["checked"]["features"] >= 3


def test_verify_flags_an_invented_name(ws: tuple[SqliteStore, int]) -> None:
    store, sid = ws
    entry_id, data = next(iter(store.analyses(sid)))
    data["analysis"]["summary"]["text"] += " Call `make_it_work` instead."
    data["analysis"]["summary"]["evidence"].append("crates/inner/src/lib.rs:9999")
    store.conn.execute(
        "UPDATE analyses SET data = ? WHERE snapshot_id = ? AND entry_id = ?",
        (json.dumps(data), sid, entry_id),
    )
    result = CliRunner().invoke(main, ["verify", "--db", str(store.path)])
    assert result.exit_code == EXIT_UNGROUNDED
    assert "'make_it_work'" in result.output and "lib.rs:9999 is past the end" in result.output


@pytest.mark.parametrize("name", ["ws", "py"])
def test_every_code_block_parses(name: str, tmp_path: Path) -> None:
    from errordex.analysis.sections import parses
    from tests.analysis.conftest import index_fixture

    store, sid = index_fixture(name, tmp_path)
    for _, data in store.analyses(sid):
        stack: list[Any] = [data["analysis"]]
        while stack:
            x = stack.pop()
            if isinstance(x, dict):
                if "code" in x and "language" in x:
                    assert parses(x["code"], x["language"]), x["code"]
                stack.extend(x.values())
            elif isinstance(x, list):
                stack.extend(x)


def test_internal_invariant_page_says_report_upstream_not_change_input(
    ws: tuple[SqliteStore, int],
) -> None:
    store, sid = ws
    data = _by_message(store, sid)["Bug! Unexpectedly failed to encode!"]
    (inv,) = data["facts"]["invariant"]
    assert inv["words"] == "Bug"
    (up,) = data["facts"]["upstream"]
    assert up["issues"] == "https://github.com/example/codec/issues" and up["line"] == 5
    solutions = data["analysis"]["solutions"]
    assert "report it upstream at https://github.com/example/codec/issues" in solutions[0]["text"]
    assert not any("Pass a value" in s["text"] for s in solutions)
    assert "example_fix" not in data["analysis"]


def test_expect_page_offers_no_fix_that_edits_the_library(
    ws: tuple[SqliteStore, int],
) -> None:
    # `expect` turned into `?` is a change to the library's code, not to the caller's.
    store, sid = ws
    analysis = _by_message(store, sid)["level must be a small number"]["analysis"]
    assert "example_fix" not in analysis


def test_catch_all_fix_needs_a_tests_call_and_the_defence_checks_the_callers_argument(
    ws: tuple[SqliteStore, int],
) -> None:
    # The only call of `size_of_kind` is the library's own (`element_size`):
    # no example fix rests on it, but the check of its argument is a defence.
    store, sid = ws
    analysis = _by_message(store, sid)["Requires a plain tensor."]["analysis"]
    assert "example_fix" not in analysis
    check = next(p for p in analysis["defensive_patterns"] if p["strategy"] == "validation")
    assert (
        "if !matches!(&tensor.kind, Kind::Float(..) | Kind::Int(..) | Kind::Bool(..)) {"
        in check["code"]
    )


def test_python_fix_is_the_tests_call_run_only_when_the_negated_guard_holds(
    py: tuple[SqliteStore, int],
) -> None:
    store, sid = py
    fix = _by_message(store, sid)["shape name must be a string"]["analysis"]["example_fix"]
    assert fix["before"]["code"].endswith("\nlabel(42)")
    assert fix["after"]["code"].endswith("\nname = 42\nif isinstance(name, str):\n    label(name)")
    assert "tests/test_shapes.py:9" in fix["text"]
