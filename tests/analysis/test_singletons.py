"""A module-level instance (``_default_decoder = JSONDecoder(...)``) types
the calls made on it, so a call chain goes through it (issue 16, session 12):
read on the stdlib this interpreter ships."""

from __future__ import annotations

import codecs
import json
import random
import secrets
from pathlib import Path

from errordex.analysis.scan import scan
from errordex.views import entry_json
from tests.repo_files import index_files


def _stdlib(*modules: Path) -> dict[str, str]:
    """The files of these stdlib modules (a package's directory, or one
    file), under ``Lib/`` as in CPython's tree."""
    files: dict[str, str] = {}
    for m in modules:
        if m.name == "__init__.py":
            for f in sorted(m.parent.glob("*.py")):
                files[f"Lib/{m.parent.name}/{f.name}"] = f.read_text(encoding="utf-8")
        else:
            files[f"Lib/{m.name}"] = m.read_text(encoding="utf-8")
    return files


def test_module_level_instances_are_read_with_their_class() -> None:
    for module, name, cls in (
        (json, "_default_decoder", "JSONDecoder"),
        (json, "_default_encoder", "JSONEncoder"),
        (secrets, "_sysrand", "SystemRandom"),
        (random, "_inst", "Random"),
    ):
        path = Path(str(module.__file__))
        ev = scan(f"Lib/{path.name}", path.read_text(encoding="utf-8"), "python")
        assert (name, cls) in ev.instances, (module.__name__, ev.instances)


def test_a_name_bound_twice_is_not_typed() -> None:
    ev = scan("m.py", "x = Decoder()\nx = Other()\ny = Decoder()\nz = make()\n", "python")
    assert ev.instances == (("y", "Decoder"),)


def test_json_loads_leads_through_its_module_level_decoder(tmp_path: Path) -> None:
    # codecs defines `decode` many times, as a whole stdlib does: by name,
    # `_default_decoder.decode(s)` in json.loads could be any of them; the
    # instance's class says it is JSONDecoder.decode, which calls raw_decode
    files = _stdlib(Path(str(json.__file__)), Path(str(codecs.__file__)))
    store, sid = index_files(tmp_path, files, "python/cpython")
    (entry,) = [e for e in store.entries() if e.message.startswith("Expecting value")]
    page = entry_json(entry, store.snapshot(sid), store)
    reach = next(
        r for r in page["facts"]["reachability"] if r["function"] == "JSONDecoder.raw_decode"
    )
    assert ["loads", "JSONDecoder.decode"] in [
        [hop["function"] for hop in chain] for chain in reach["paths"]
    ]
    summary = page["analysis"]["summary"]["text"]
    assert summary.startswith("You called `json.loads` (`Lib/json/__init__.py`), and on its way")
    assert "`JSONDecoder.raw_decode`" in summary
