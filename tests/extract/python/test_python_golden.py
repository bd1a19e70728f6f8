"""Golden snapshots for the Python extractor.

Each ``cases/<name>.py`` is a small source file for one construct; the
Extraction found in it is compared with ``cases/<name>.json``. Regenerate
with ``ERRORDEX_UPDATE_GOLDEN=1 pytest tests/extract/python`` and review the
diff by eye: a golden file must be right, not merely what the code printed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from errordex.extract import python

CASES = Path(__file__).parent / "cases"
UPDATE = os.environ.get("ERRORDEX_UPDATE_GOLDEN") == "1"


def snapshot(name: str, text: str) -> dict[str, Any]:
    # The bare file name, so that the "tests/" directory of the fixtures
    # does not mark every site as test code.
    found = python.extract(name, text)
    return {
        "sites": [s.to_json() for s in found.sites],
        "classes": [c.to_json() for c in found.classes],
    }


@pytest.mark.parametrize("case", sorted(CASES.glob("*.py")), ids=lambda p: p.stem)
def test_case_matches_golden(case: Path) -> None:
    got = snapshot(case.name, case.read_text(encoding="utf-8"))
    golden = case.with_suffix(".json")
    if UPDATE:
        golden.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert golden.exists(), f"no golden for {case.name}: run with ERRORDEX_UPDATE_GOLDEN=1"
    assert got == json.loads(golden.read_text(encoding="utf-8"))


def test_cases_each_have_a_golden_file() -> None:
    stems = {p.stem for p in CASES.glob("*.py")}
    assert stems == {p.stem for p in CASES.glob("*.json")}
