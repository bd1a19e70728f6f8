"""The terminal view of one error (``errordex show``)."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from errordex.termview import print_entry


def entry(**site_extra: Any) -> dict[str, Any]:
    site = {
        "path": "click/types.py",
        "line": 472,
        "kind": "raise",
        "language": "python",
        "symbol": "Choice.convert",
        "guards": [],
        **site_extra,
    }
    return {
        "id": "00000000000000aa",
        "repo": "pallets/click",
        "commit": "0123456789abcdef",
        "title": "bad choice",
        "message": "bad choice",
        "printed": "click.exceptions.BadParameter: bad choice",
        "template": {"dynamic": False},
        "kinds": ["raise"],
        "exception_types": ["BadParameter"],
        "sites": [site],
    }


def shown(data: dict[str, Any]) -> str:
    console = Console(record=True, width=200, color_system=None)
    print_entry(console, data)
    return console.export_text()


def test_forwarded_site_names_the_raise_it_goes_through() -> None:
    out = shown(entry(via="click/types.py:222 ParamType.fail"))
    assert (
        "Thrown at click/types.py:472 in Choice.convert — raised by ParamType.fail at "
        "click/types.py:222" in out
    )


def test_site_without_via_reads_as_before() -> None:
    out = shown(entry())
    assert "Thrown at click/types.py:472 in Choice.convert  (raise)" in out
    assert "raised by" not in out


def test_via_without_a_symbol_and_markup_in_it() -> None:
    out = shown(entry(via="[bold]x.py:3"))
    assert "— raised at [bold]x.py:3" in out
