"""Golden JSON snapshots, shared by every snapshot test.

``ERRORDEX_UPDATE_GOLDEN=1 pytest ...`` rewrites the files; review every
changed golden by eye before committing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

UPDATE = os.environ.get("ERRORDEX_UPDATE_GOLDEN") == "1"


def check_golden(path: Path, got: Any, *, indent: int = 1, sort_keys: bool = False) -> None:
    """Assert that ``got`` equals the JSON stored at ``path``."""
    text = json.dumps(got, indent=indent, ensure_ascii=False, sort_keys=sort_keys) + "\n"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden {path.name}: run with ERRORDEX_UPDATE_GOLDEN=1"
    assert json.loads(text) == json.loads(path.read_text(encoding="utf-8"))
