"""An error every public way in catches (issue 16, point 5), and the call
graph through an import alias. The small repository copies the shape of
packaging 26: ``Requirement.__init__`` calls ``parse_requirement``, imported
``as _parse_requirement``, inside ``try`` … ``except ParserSyntaxError as
e: raise InvalidRequirement(str(e)) from e``; the parser's helpers raise
through ``Tokenizer.raise_syntax_error``, whose class builds the message in
``__str__``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.repo_files import index_files

_TOKENIZER = (
    "class ParserSyntaxError(Exception):\n"
    "    def __init__(self, message, *, source, span):\n"
    "        self.message = message\n"
    "        self.source = source\n"
    "        self.span = span\n"
    "        super().__init__()\n\n"
    "    def __str__(self):\n"
    "        marker = ' ' * self.span[0] + '^'\n"
    "        return f'{self.message}\\n    {self.source}\\n    {marker}'\n\n\n"
    "class Tokenizer:\n"
    "    def __init__(self, source):\n"
    "        self.source = source\n\n"
    "    def raise_syntax_error(self, message):\n"
    "        raise ParserSyntaxError(message, source=self.source, span=(0, 1))\n"
)
_PARSER = (
    "from ._tokenizer import Tokenizer\n\n\n"
    "def parse_requirement(source):\n"
    "    return _parse_requirement(Tokenizer(source))\n\n\n"
    "def _parse_requirement(tokenizer):\n"
    "    return _parse_extras(tokenizer)\n\n\n"
    "def _parse_extras(tokenizer):\n"
    "    return _parse_extras_list(tokenizer)\n\n\n"
    "def _parse_extras_list(tokenizer):\n"
    "    if tokenizer.source == 'x':\n"
    "        tokenizer.raise_syntax_error('Expected comma between extra names')\n"
    "    return []\n"
)


def _requirements(caught: bool) -> str:
    head = "from ._parser import parse_requirement as _parse_requirement\n"
    if not caught:
        return head + (
            "\n\nclass Requirement:\n"
            "    def __init__(self, requirement_string):\n"
            "        self.parsed = _parse_requirement(requirement_string)\n"
        )
    return head + (
        "from ._tokenizer import ParserSyntaxError\n\n\n"
        "class InvalidRequirement(ValueError):\n    pass\n\n\n"
        "class Requirement:\n"
        "    def __init__(self, requirement_string):\n"
        "        try:\n"
        "            parsed = _parse_requirement(requirement_string)\n"
        "        except ParserSyntaxError as e:\n"
        "            raise InvalidRequirement(str(e)) from e\n"
        "        self.parsed = parsed\n"
    )


def _page(tmp_path: Path, caught: bool) -> tuple[str, dict[str, Any]]:
    files = {
        "pk/__init__.py": "",
        "pk/_tokenizer.py": _TOKENIZER,
        "pk/_parser.py": _PARSER,
        "pk/requirements.py": _requirements(caught),
    }
    store, sid = index_files(tmp_path, files, "acme/pk")
    entry = next(e for e in store.entries() if e.message.startswith("Expected comma"))
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    return entry.message, stored


def test_a_message_forwarded_to_a_helper_is_shaped_by_its_class_once(tmp_path: Path) -> None:
    message, _ = _page(tmp_path, caught=False)
    # the helper's raise already shows `__str__`: the forwarded text is not shaped again
    assert message.count("{self.source}") == 1, message


def test_a_call_through_an_import_alias_is_a_call_of_the_function_it_names(
    tmp_path: Path,
) -> None:
    _, stored = _page(tmp_path, caught=False)
    chains = stored["facts"]["reachability"][0]["paths"]
    hops = [[h["function"] for h in chain] for chain in chains]
    # `_parse_requirement(...)` in requirements.py is `parse_requirement`, not
    # the parser's own `_parse_requirement`
    assert ["Requirement.__init__", "parse_requirement", "_parse_requirement", "_parse_extras"] in (
        hops
    ), hops
    summary = stored["analysis"]["summary"]["text"]
    assert "You called `pk.requirements.Requirement" in summary, summary
    # the argument the user passed reaches the check through `Tokenizer(source)`
    assert "requirement_string.source" not in summary, summary


def test_an_error_every_way_in_catches_names_what_is_raised_in_its_place(
    tmp_path: Path,
) -> None:
    _, stored = _page(tmp_path, caught=True)
    reach = stored["facts"]["reachability"][0]
    assert not reach["paths"]
    assert reach["caught_paths"], reach
    catch = next(c for c in stored["facts"]["catches"] if c.get("on_path"))
    assert catch["function"] == "Requirement.__init__"
    assert catch["raises"][0]["exception"] == "InvalidRequirement"
    summary = stored["analysis"]["summary"]["text"]
    assert "catches it itself in `Requirement.__init__` (pk/requirements.py:13)" in summary
    assert "raises `InvalidRequirement` in its place (pk/requirements.py:14)" in summary, summary


def test_an_aliased_call_too_long_to_keep_keeps_no_text() -> None:
    from errordex.analysis.scan import scan

    long_arg = "x" * 600
    src = (
        "from ._parser import parse_requirement as _parse_requirement\n\n\n"
        "def f(s):\n"
        f"    short = _parse_requirement(s)\n"
        f"    return _parse_requirement('{long_arg}')\n"
    )
    calls = [c for c in scan("pk/requirements.py", src, "python").calls if c.caller == "f"]
    assert [(c.callee, c.text) for c in calls] == [
        ("parse_requirement", "parse_requirement(s)"),
        ("parse_requirement", ""),
    ]
