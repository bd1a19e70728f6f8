"""What ``explain`` prints for the messages that travel (issue 15): a
re-raised error names the library whose text it carries, and Python's own
keyword error names the signature the call missed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ERRORDEX = Path(sys.executable).parent / "errordex"

#: a library (abridged from requests 2.34 and urllib3 2.8, and marshmallow
#: 4.4's Field) laid out as two packages of one checkout
FILES = {
    "urllib3/exceptions.py": "class LocationParseError(ValueError):\n    pass\n",
    "urllib3/url.py": (
        "from .exceptions import LocationParseError\n\n\n"
        "def parse_url(url):\n"
        "    if '[' in url:\n"
        "        raise LocationParseError(f'Failed to parse: {url!r} is not a valid host or port')\n"
    ),
    "requests/exceptions.py": "class InvalidURL(ValueError):\n    pass\n",
    "requests/models.py": (
        "from urllib3.exceptions import LocationParseError\n"
        "from urllib3.url import parse_url\n\n"
        "from .exceptions import InvalidURL\n\n\n"
        "def prepare_url(url):\n"
        "    if not url:\n"
        "        raise InvalidURL('Invalid URL: No host supplied')\n"
        "    try:\n"
        "        return parse_url(url)\n"
        "    except LocationParseError as e:\n"
        "        raise InvalidURL(*e.args)\n"
    ),
    "marshmallow/fields.py": (
        "class Field:\n"
        "    def __init__(self, *, load_default=None, dump_default=None, data_key=None):\n"
        "        if load_default is not None and dump_default is not None:\n"
        "            raise ValueError('load_default and dump_default are both set')\n"
    ),
}


def explain(tmp_path: Path, pasted: str) -> str:
    src = tmp_path / "src"
    for rel, text in FILES.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    db = str(tmp_path / "errordex.db")
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR")}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(ERRORDEX), *args, "--db", db], env=env, capture_output=True, text=True, check=False
        )

    assert run("index", str(src), "--name", "acme/web").returncode == 0
    # no entry answers Python's own TypeError: explain exits 5 (not found)
    return run("explain", pasted).stdout


def test_a_re_raised_text_names_the_error_it_carries(tmp_path: Path) -> None:
    out = explain(
        tmp_path,
        "requests.exceptions.InvalidURL: Failed to parse: '[::1' is not a valid host or port",
    )
    assert "requests/models.py:13" in out
    assert (
        "raises again the text of acme/web's LocationParseError:"
        " 'Failed to parse: {url!r} is not a valid host or port' (urllib3/url.py:6)"
    ) in out


def test_an_unexpected_keyword_names_the_parameters_it_may_have_meant(tmp_path: Path) -> None:
    out = explain(
        tmp_path, "TypeError: Field.__init__() got an unexpected keyword argument 'default'"
    )
    assert "your call to Field.__init__ (acme/web marshmallow/fields.py:2) passed default=" in out
    assert "it takes: load_default, dump_default, data_key" in out
    assert "did you mean: load_default, dump_default?" in out
