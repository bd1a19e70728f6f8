"""A page reached from a pasted stack leads with the public call that stack
went through (issue 16, point 5), on real h11: ``conn.send(...)`` fails in
the state machine that ``Connection.next_event`` also reaches, and the page,
which leads with ``next_event``, names the user's way in instead."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from errordex.cli import main
from errordex.store.sqlite import SqliteStore
from errordex.web.app import create_app

#: sending a second request while the first one's body is still due
TWICE = (
    "import h11\n\n"
    "conn = h11.Connection(our_role=h11.CLIENT)\n"
    "req = h11.Request(method='GET', target='/', headers=[('Host', 'example.com')])\n"
    "conn.send(req)\n"
    "conn.send(req)\n"
)
MESSAGE = "can't handle event type {} when role={} and state={}"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("h11") / "db.sqlite")
    res = CliRunner().invoke(main, ["index", "pkg:h11"], env={"ERRORDEX_DB": path})
    assert res.exit_code == 0, res.output
    return path


@pytest.fixture(scope="module")
def traceback(tmp_path_factory: pytest.TempPathFactory) -> str:
    script = tmp_path_factory.mktemp("user") / "twice.py"
    script.write_text(TWICE)
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert "LocalProtocolError" in proc.stderr
    return proc.stderr


def test_the_page_leads_with_the_call_the_stack_went_through(db: str, traceback: str) -> None:
    res = CliRunner().invoke(main, ["explain", "--json"], input=traceback, env={"ERRORDEX_DB": db})
    best = json.loads(res.stdout)["parts"][0]["matches"][0]
    assert best["message"] == MESSAGE
    summary = best["analysis"]["summary"]["text"]
    # the call the user's frame made, not the deeper public method the
    # index's chain starts at (``send_with_data_passthrough``, which ``send`` calls)
    assert summary.startswith("You called `h11.Connection.send` ")
    assert "next_event" not in best["analysis"]["trigger"]["text"]
    called = best["your_call"]
    assert called["function"] == "send" and called["caller"]["line"] == 6
    assert called["via"]["function"] == "Connection.send"
    assert called["via"]["name"] == "h11.Connection.send"
    assert "through" not in called
    # the same entry's page on its own leads with another way in
    alone = CliRunner().invoke(main, ["show", best["id"], "--json"], env={"ERRORDEX_DB": db})
    assert (
        "send_with_data_passthrough" not in json.loads(alone.stdout)["analysis"]["summary"]["text"]
    )


@pytest.fixture(scope="module")
def client(db: str) -> Iterator[TestClient]:
    store = SqliteStore(Path(db))
    app = create_app(store)
    with TestClient(app) as c:
        yield c
    app.state.stores.close()
    store.close()


def test_the_site_takes_the_paste_to_the_page_led_by_its_call(
    client: TestClient, traceback: str
) -> None:
    r = client.post("/explain", data={"q": traceback}, follow_redirects=False)
    assert r.status_code == 303
    location = r.headers["location"]
    assert "call.via=h11%2F_connection.py%3AConnection.send&" in location
    assert "call.stack=h11%2F_connection.py%3A538%3Asend%3B" in location
    page = client.get(location).text
    assert "You called <code>h11.Connection.send</code>" in page
    bare = client.get(location.split("?")[0]).text
    assert "You called <code>h11.Connection.send</code>" not in bare
    # a stack that does not run the page's function changes nothing
    forged = client.get(location.replace("_fire_event_triggered_transitions", "nonexistent")).text
    assert "You called <code>h11.Connection.send</code>" not in forged


def test_the_docstring_of_your_call_reads_as_sphinx_renders_it(db: str, traceback: str) -> None:
    """``send_with_data_passthrough``'s first sentence runs over five lines
    and names code with Sphinx roles (``:meth:`send```, ``:attr:`Data.data```)."""
    res = CliRunner().invoke(main, ["explain", "--json"], input=traceback, env={"ERRORDEX_DB": db})
    meaning = json.loads(res.stdout)["parts"][0]["matches"][0]["analysis"]["meaning"]["text"]
    assert "“Identical to `send`, except that" in meaning
    assert "the exact object you passed in as `Data.data`”" in meaning
    assert ":meth:" not in meaning and ":term:" not in meaning
