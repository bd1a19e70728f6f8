"""`errordex explain` leads with the public call the pasted stack shows the
user made, when the page's own call chains do not know that way in: real
tracebacks from running installed fastapi, requests and jinja2, against the
packages indexed from site-packages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from errordex.cli import main


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("called") / "db.sqlite")
    for pkg in ("pkg:fastapi", "pkg:requests", "pkg:jinja2"):
        res = CliRunner().invoke(main, ["index", pkg], env={"ERRORDEX_DB": path})
        assert res.exit_code == 0, res.output
    return path


def explained(db: str, script: Path, code: str) -> dict[str, Any]:
    script.write_text(code)
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert proc.returncode != 0 and str(script) in proc.stderr
    res = CliRunner().invoke(
        main, ["explain", "--json"], input=proc.stderr, env={"ERRORDEX_DB": db}
    )
    assert res.exit_code == 0, res.output
    best: dict[str, Any] = json.loads(res.stdout)["parts"][-1]["matches"][0]
    return best


def test_the_re_exported_function_the_user_called_leads(db: str, tmp_path: Path) -> None:
    """``fastapi.Path(default=3)`` runs ``fastapi/param_functions.py``'s
    ``Path``, which builds a ``fastapi.params.Path`` whose ``__init__``
    asserts: the page leads with that class; the user called ``fastapi.Path``
    (re-exported by fastapi/__init__.py), and the paste says so."""
    best = explained(
        db,
        tmp_path / "app.py",
        "from fastapi import FastAPI, Path\n\napp = FastAPI()\n\n\n"
        "@app.get('/items/{item_id}')\ndef read(item_id: int = Path(default=3)):\n"
        "    return item_id\n",
    )
    assert best["message"] == "Path parameters cannot have a default value"
    via = best["your_call"]["via"]
    assert via["name"] == "fastapi.Path"
    assert (via["path"], via["function"]) == ("fastapi/param_functions.py", "Path")
    analysis = best["analysis"]
    assert analysis["summary"]["text"].startswith("You called `fastapi.Path` ")
    assert "fastapi/param_functions.py:" in " ".join(analysis["summary"]["evidence"])
    # the page's own lead stays, as the general way to the raise
    assert "`fastapi.params.Path" in analysis["general_summary"]["text"]
    # and what it says of the arguments of the call it leads with
    assert any("`default`" in s["text"] for s in analysis["solutions"])


def test_the_users_call_leads_over_the_library_method_that_raises(db: str, tmp_path: Path) -> None:
    """``requests.get("nope://x")`` goes through ``Session.request`` and
    ``Session.send`` to ``Session.get_adapter``, which raises: the page
    leads with ``get_adapter``; the user called ``requests.get``."""
    best = explained(db, tmp_path / "fetch.py", "import requests\n\nrequests.get('nope://x')\n")
    assert best["exception_types"] == ["InvalidSchema"]
    assert best["your_call"]["via"]["name"] == "requests.get"
    summary = best["analysis"]["summary"]["text"]
    assert summary.startswith("You called `requests.get` (`requests/api.py`), and on its way ")
    assert "Session.get_adapter" in best["analysis"]["general_summary"]["text"]


def test_the_terminal_names_the_call(db: str, tmp_path: Path) -> None:
    script = tmp_path / "fetch.py"
    script.write_text("import requests\n\nrequests.get('nope://x')\n")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    res = CliRunner().invoke(main, ["explain", proc.stderr], env={"ERRORDEX_DB": db})
    assert res.exit_code == 0, res.output
    assert "→ requests.get (requests/api.py:" in res.output


def test_the_users_call_leads_over_a_deeper_chain_head(db: str, tmp_path: Path) -> None:
    """``env.get_template("a.html")`` goes down through ``BaseLoader.load``,
    where one of the page's chains starts: the user called
    ``Environment.get_template``, and the error got out to them, so a catch
    on another way in (``PrefixLoader.load``) is not said of it."""
    best = explained(
        db,
        tmp_path / "render.py",
        "import jinja2\n\nenv = jinja2.Environment(loader=jinja2.DictLoader({}))\n"
        "env.get_template('a.html')\n",
    )
    assert best["exception_types"] == ["TemplateNotFound"]
    assert best["your_call"]["via"]["name"] == "jinja2.Environment.get_template"
    summary = best["analysis"]["summary"]["text"]
    assert summary.startswith("You called `jinja2.Environment.get_template` ")
    assert "catches it itself" not in summary
    # the chain the stack went down, from the page's own chain head
    assert best["analysis"]["trigger"]["text"].startswith("Calling `BaseLoader.load` → ")
