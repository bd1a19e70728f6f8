"""An exception class a library defines for its users to raise (issue 16):
werkzeug's HTTP errors carry their text in `description`, and werkzeug
raises many of them nowhere itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from errordex.views import entry_json
from tests.repo_files import index_files

#: the shape of werkzeug/exceptions.py's HTTPException subclasses
_HTTP = {
    "web/exceptions.py": (
        "class HTTPException(Exception):\n"
        '    """The base class for all HTTP exceptions."""\n\n'
        "    code = None\n"
        "    description = None\n\n"
        "    def __str__(self):\n"
        '        return f"{self.code}: {self.description}"\n\n\n'
        "class Conflict(HTTPException):\n"
        '    """*409* `Conflict`\n\n'
        "    Raise to signal that a request cannot be completed because it conflicts\n"
        "    with the current state on the server.\n"
        '    """\n\n'
        "    code = 409\n"
        "    description = (\n"
        '        "A conflict happened while processing the request."\n'
        "    )\n\n\n"
        "class NotFound(HTTPException):\n"
        '    """*404* `Not Found`\n\n'
        "    Raise if a resource does not exist and never existed.\n"
        '    """\n\n'
        "    code = 404\n"
        '    description = "The requested URL was not found on the server."\n\n\n'
        "def lookup(table, key):\n"
        "    if key not in table:\n"
        "        raise NotFound()\n"
        "    return table[key]\n"
    ),
}

#: werkzeug's ``abort``: ``Aborter.__call__`` raises a class picked from a table
_ABORT = {
    "web/exceptions.py": _HTTP["web/exceptions.py"]
    + (
        "\n\n"
        "default_exceptions = {409: Conflict, 404: NotFound}\n\n\n"
        "class Aborter:\n"
        "    def __init__(self):\n"
        "        self.mapping = dict(default_exceptions)\n\n"
        "    def __call__(self, code, *args, **kwargs):\n"
        "        raise self.mapping[code](*args, **kwargs)\n"
    ),
}


def _pages(tmp_path: Path, files: dict[str, str] = _HTTP) -> dict[str, dict[str, Any]]:
    store, sid = index_files(tmp_path, files, "acme/web")
    snap = store.snapshot(sid)
    return {
        e.exception_types[0]: entry_json(e, snap, store)
        for e in store.entries()
        if e.exception_types
    }


def test_a_class_raised_nowhere_by_the_library_is_raised_by_its_user(tmp_path: Path) -> None:
    page = _pages(tmp_path)["Conflict"]
    summary = page["analysis"]["summary"]["text"]
    assert summary.startswith(
        "`web.exceptions.Conflict` was raised by code that uses web, yours or another library's"
    )
    assert "The code at" not in summary
    assert page["analysis"]["solutions"][0]["text"].startswith(
        "Look in your traceback for the `raise` of `web.exceptions.Conflict`"
    )
    # its docstring's title alone says nothing; the sentence after it does
    assert (
        "“*409* `Conflict`: Raise to signal that a request cannot be completed because it "
        "conflicts with the current state on the server”" in page["analysis"]["meaning"]["text"]
    )


def test_a_class_the_library_raises_leads_with_its_call(tmp_path: Path) -> None:
    page = _pages(tmp_path)["NotFound"]
    assert "raised by code that uses" not in page["analysis"]["summary"]["text"]


def test_a_class_raised_from_a_table_of_classes_says_where(tmp_path: Path) -> None:
    summary = _pages(tmp_path, _ABORT)["Conflict"]["analysis"]["summary"]
    assert summary["text"].startswith(
        "web raises `web.exceptions.Conflict` in `Aborter.__call__` (web/exceptions.py:"
    )
    assert "raises it nowhere" not in summary["text"]
    solutions = _pages(tmp_path, _ABORT)["Conflict"]["analysis"].get("solutions", [])
    assert not any("nowhere" in s["text"] for s in solutions)
