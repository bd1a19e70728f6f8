"""Pages that start from the call a user typed and end in what to change
(issue 16, session 10): a missing optional package is installed, a private
helper's advice is not given, and a framework-called method is not "what
you called". The small repositories copy the shape of real code (httpx's
guarded imports, xarray's ``module_available`` checks)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from errordex.store.sqlite import SqliteStore
from tests.repo_files import index_files


def _page(store: SqliteStore, sid: int, message: str) -> dict[str, Any]:
    (entry,) = [e for e in store.entries() if e.message == message]
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    return dict(stored["analysis"])


def _solutions(page: dict[str, Any]) -> list[str]:
    return [s["text"] for s in page.get("solutions", [])]


#: httpx/_client.py and xarray/core/dataset.py, cut down
_OPTIONAL = {
    "netlib/__init__.py": "from netlib.client import Client\nfrom netlib.ranks import rank\n",
    "netlib/client.py": (
        "class Client:\n"
        "    def __init__(self, http2=False):\n"
        "        if http2:\n"
        "            try:\n"
        "                import h2  # noqa\n"
        "            except ImportError:  # pragma: no cover\n"
        "                raise ImportError(\n"
        "                    \"Using http2=True, but the 'h2' package is not installed. \"\n"
        "                    \"Make sure to install netlib using `pip install netlib[http2]`.\"\n"
        "                ) from None\n"
        "        self.http2 = http2\n"
    ),
    "netlib/ranks.py": (
        "from importlib.util import find_spec\n\n\n"
        "def rank(values):\n"
        '    if find_spec("bottleneck") is None:\n'
        '        raise ImportError("rank requires bottleneck to be installed.")\n'
        "    return sorted(values)\n"
    ),
}


def test_a_missing_optional_package_is_installed_with_the_messages_own_command(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _OPTIONAL, "acme/netlib")
    page = _page(
        store,
        sid,
        "Using http2=True, but the 'h2' package is not installed. "
        "Make sure to install netlib using `pip install netlib[http2]`.",
    )
    said = _solutions(page)
    assert said[0] == (
        "Install the missing package (“h2”) as the message says: “pip install netlib[http2]”, "
        "then call `netlib.Client` again."
    )
    # the re-raise is not a reason to "give input that does not cause it"
    assert "input that does not cause it" not in json.dumps(page)


def test_a_package_a_message_names_as_required_is_installed(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _OPTIONAL, "acme/netlib")
    said = _solutions(_page(store, sid, "rank requires bottleneck to be installed."))
    assert said[0].startswith("Install “bottleneck” in the environment your code runs in")
