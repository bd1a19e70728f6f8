"""A paste from one of several sites in one function gets that site's page
(issue 16, point 5): packaging's ``Version.__init__`` raises
``InvalidVersion`` after an ``except TypeError`` and after ``if not match``;
``Version("1.x")`` fails at the second, and the page must say so."""

from __future__ import annotations

from pathlib import Path

from errordex.explain import explain_text
from tests.repo_files import index_files

#: the shape of packaging/version.py's ``Version.__init__``
_VERSION = {
    "ver/__init__.py": "from ver.version import InvalidVersion, Version\n",
    "ver/version.py": (
        "import re\n\n\n"
        "class InvalidVersion(ValueError):\n"
        '    """Raised when a version string is not a valid version."""\n\n\n'
        "class Version:\n"
        '    _regex = re.compile(r"\\d+(\\.\\d+)*")\n\n'
        "    def __init__(self, version):\n"
        "        try:\n"
        "            version = version.strip()\n"
        "        except TypeError:\n"
        '            raise InvalidVersion(f"Invalid version: {version!r}") from None\n'
        "        match = self._regex.fullmatch(version)\n"
        "        if not match:\n"
        '            raise InvalidVersion(f"Invalid version: {version!r}")\n'
        "        self._version = version\n"
    ),
}


def test_the_site_the_paste_came_from_leads_the_page(tmp_path: Path) -> None:
    store, _ = index_files(tmp_path, _VERSION, "acme/ver")
    lines = _VERSION["ver/version.py"].splitlines()
    line = next(i for i, t in enumerate(lines, 1) if "if not match" in t) + 1
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/app/run.py", line 3, in <module>\n'
        '    Version("1.x")\n'
        f'  File "/venv/site-packages/ver/version.py", line {line}, in __init__\n'
        '    raise InvalidVersion(f"Invalid version: {version!r}")\n'
        "ver.version.InvalidVersion: Invalid version: '1.x'\n"
    )
    best = explain_text(store, paste)["parts"][-1]["matches"][0]
    assert (best["site"]["path"], best["site"]["line"]) == ("ver/version.py", line)
    summary = best["analysis"]["summary"]
    assert "fullmatch(version)" in summary["text"] and "TypeError" not in summary["text"]
    assert f"ver/version.py:{line - 1}" in summary["evidence"]
    # the page alone still leads with its own first site
    page_alone = explain_text(store, "ver.version.InvalidVersion: Invalid version: 2")
    assert "TypeError" in page_alone["parts"][-1]["matches"][0]["analysis"]["summary"]["text"]
