"""Golden snapshots for forwarders and message calls (Python).

Each ``forwarding/<name>.py`` is compared with ``forwarding/<name>.json``,
which holds only what ``languages.python.forward`` adds to an Extraction. Regenerate
with ``ERRORDEX_UPDATE_GOLDEN=1 pytest tests/extract/python`` and review the
diff by eye.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errordex.languages.python import extract as python
from tests.golden import check_golden

CASES = Path(__file__).parent / "forwarding"


def snapshot(name: str, text: str) -> dict[str, Any]:
    found = python.extract(name, text)
    return {
        "forwarders": [f.to_json() for f in found.forwarders],
        "calls": [c.to_json() for c in found.calls],
        "functions": list(found.functions),
    }


@pytest.mark.parametrize("case", sorted(CASES.glob("*.py")), ids=lambda p: p.stem)
def test_forwarding_case_matches_golden(case: Path) -> None:
    got = snapshot(case.name, case.read_text(encoding="utf-8"))
    check_golden(case.with_suffix(".json"), got)


def test_forwarding_cases_each_have_a_golden_file() -> None:
    stems = {p.stem for p in CASES.glob("*.py")}
    assert stems == {p.stem for p in CASES.glob("*.json")}


def test_test_files_give_no_forwarders_or_calls() -> None:
    text = (CASES / "helper_functions.py").read_text(encoding="utf-8")
    found = python.extract("tests/test_helpers.py", text)
    assert (found.forwarders, found.calls, found.functions) == ((), (), ())
