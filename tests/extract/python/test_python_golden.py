"""Golden snapshots for the Python extractor.

Each ``cases/<name>.py`` is a small source file for one construct; the
Extraction found in it is compared with ``cases/<name>.json``. Regenerate
with ``ERRORDEX_UPDATE_GOLDEN=1 pytest tests/extract/python`` and review the
diff by eye: a golden file must be right, not merely what the code printed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errordex.languages.python import extract as python
from tests.golden import check_golden

CASES = Path(__file__).parent / "cases"


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
    check_golden(case.with_suffix(".json"), got)


def test_cases_each_have_a_golden_file() -> None:
    stems = {p.stem for p in CASES.glob("*.py")}
    assert stems == {p.stem for p in CASES.glob("*.json")}
