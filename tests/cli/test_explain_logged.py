"""Errors a program logs and carries on after (issue 15, pattern 6), on
real celery: its worker's log lines lead to the ``error(...)`` call that
wrote them, through celery's own names for its logger's methods."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from errordex.cli import main

CANNOT_CONNECT = (
    "[2026-12-04 10:00:01,120: INFO/MainProcess] Connected to amqp://guest:**@127.0.0.1:5672//\n"
    "[2026-12-04 10:00:01,123: ERROR/MainProcess] consumer: Cannot connect to "
    "amqp://guest:**@127.0.0.1:5672//: [Errno 111] Connection refused.\n"
    "{next}\n"
    "\n"
    "[2026-12-04 10:00:03,130: INFO/MainProcess] mingle: searching for neighbors\n"
)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("celery") / "db.sqlite")
    res = CliRunner().invoke(main, ["index", "pkg:celery"], env={"ERRORDEX_DB": path})
    assert res.exit_code == 0, res.output
    return path


def _best(db: str, text: str) -> dict[str, Any]:
    res = CliRunner().invoke(main, ["explain", "--json"], input=text, env={"ERRORDEX_DB": db})
    assert res.exit_code == 0, res.output
    [part] = json.loads(res.stdout)["parts"]
    best: dict[str, Any] = part["matches"][0]
    return best


@pytest.mark.parametrize(
    ("next_line", "function"),
    [
        # celery/worker/consumer/consumer.py: `error(CONNECTION_ERROR, ..., 'Trying to reconnect...')`
        ("Trying to reconnect...", "on_connection_error_before_connected"),
        # and `error(CONNECTION_ERROR, ..., next_step)` in ensure_connected's handler
        ("Trying again in 2.00 seconds... (1/100)", "_error_handler"),
    ],
)
def test_a_celery_worker_log_record_leads_to_the_call_that_logged_it(
    db: str, next_line: str, function: str
) -> None:
    best = _best(db, CANNOT_CONNECT.format(next=next_line))
    assert best["kinds"] == ["logged"]
    site = best["sites"][0]
    assert site["path"] == "celery/worker/consumer/consumer.py"
    assert site["symbol"].endswith(function)


def test_the_first_line_of_a_long_logged_message_finds_it(db: str) -> None:
    """``UNKNOWN_TASK_ERROR`` has a dozen lines; a log shows the first
    ones, and a user pastes one or two."""
    for text in (
        "[2026-12-04 10:00:01,123: ERROR/MainProcess] Received unregistered task of type 'tasks.add'.",
        "Received unregistered task of type 'tasks.add'.\n"
        "The message has been ignored and discarded.",
    ):
        best = _best(db, text)
        assert str(best["message"]).startswith("Received unregistered task of type %s.")
        assert best["kinds"] == ["logged"]


def test_a_message_that_opens_with_a_line_break_has_a_one_line_title(db: str) -> None:
    """celery's ``E_RETRY_LIMIT_EXCEEDED = \"\"\"\\nRetry limit exceeded…\"\"\"``:
    its title reads on one line, and its first line of text finds it."""
    best = _best(db, "Retry limit exceeded while trying to reconnect to the Celery result store")
    assert best["message"].startswith("\nRetry limit exceeded")
    assert best["title"] == (
        "Retry limit exceeded while trying to reconnect to the Celery result store "
        "backend. The Celery application must be restarted."
    )
