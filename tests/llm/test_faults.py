"""What the model's endpoint can do wrong, against a small local server
that misbehaves on purpose (fakeserver.py): each ends with the static page
and a clear message, never a traceback; what can pass is asked again."""

from __future__ import annotations

import json
import re
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from errordex.errors import EXIT_LLM
from tests.llm.conftest import cli, entry_id, show
from tests.llm.fakeserver import serving

PASTE = (
    "Traceback (most recent call last):\n"
    '  File "/app/main.py", line 3, in <module>\n'
    '  File "/site/scaler/core.py", line 10, in scale\n'
    "ValueError: factor must not be zero\n"
)


def good(body: dict[str, Any]) -> str:
    """A grounded answer with every key the prompt asks for, about the
    function the fact sheet names."""
    prompt = next(m["content"] for m in body["messages"] if "Its keys:" in m["content"])
    asked = re.findall(r'"(\w+)" \(', prompt.split("Its keys:")[1])
    found = re.search(r"in `([^`]+)` \(", prompt)
    fn = found.group(1) if found else "scale"
    out: dict[str, Any] = {}
    for key in asked:
        if key == "solutions":
            out[key] = [f"Pass `{fn}` arguments that its guard accepts."]
        elif key == "prevention":
            out[key] = [f"Read the guard of `{fn}` before calling it."]
        elif key == "example_fix":
            out[key] = {"text": f"Check the guard of `{fn}` first.", "before": "scale([1], 0)",
                        "after": "scale([1], 2)"}  # fmt: skip
        elif key == "meaning":
            out[key] = f"The guard of `{fn}` is the check that raises `ValueError`."
        elif key == "trigger":
            out[key] = f"Calling `{fn}` with arguments its guard does not accept."
        else:
            out[key] = f"The guard of `{fn}` raises `ValueError`."
    return json.dumps(out)


def write(db: Path, url: str, *more: str) -> Any:
    return cli(
        "write", "--db", str(db), "--repo", "acme/scaler", "--limit", "1",
        "--llm-url", url, "--llm-model", "fake", *more,
    )  # fmt: skip


def first_page(db: Path) -> dict[str, Any]:
    analysis: dict[str, Any] = show(db, entry_id(db, "factor must"))["analysis"]  # type: ignore[assignment]
    return analysis


def no_traceback(r: Any) -> None:
    """The command ended as errordex means to: its own exit, no exception of its code."""
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "errordex/" not in r.output


def test_a_grounded_answer_is_shown_and_says_it_was_checked(db: Path) -> None:
    with serving([("ok", good)]) as (url, fake):
        r = write(db, url)
    assert r.exit_code == 0, r.output
    assert "1 pages" in r.output and "passed the checks (100%)" in r.output
    page = first_page(db)
    assert page["provenance"]["kind"] == "llm" and page["provenance"]["checked"] is True
    assert page["summary"]["provenance"] == {
        "kind": "llm",
        "model": "fake",
        "prompt_hash": page["provenance"]["prompt_hash"],
    }
    body = fake.requests[0]
    assert body["response_format"]["type"] == "json_schema"
    assert "factor must not be zero" in body["messages"][1]["content"]
    text = cli("show", entry_id(db, "factor must"), "--db", str(db)).output
    assert "Written by a model (fake)" in text and "checked against the commit" in text


@pytest.mark.parametrize(
    ("script", "flags", "reason"),
    [
        ([("sleep", 3)], ["--timeout", "1", "--retries", "0"], "no answer within 1 s"),
        ([("status", (500, {}))], ["--retries", "1"], "the server answered 500 (after 2 attempts)"),
        ([("garbage", None)], ["--retries", "0"], "the server's response is not JSON"),
        (
            [("ok", '{"summary": 42}')],
            [],
            "is not of the page's shape",
        ),
    ],
    ids=["timeout", "500", "malformed-json", "wrong-shape"],
)
def test_a_failed_answer_leaves_the_static_page_and_says_why(
    db: Path, script: list[Any], flags: list[str], reason: str
) -> None:
    before = first_page(db)
    with serving(script) as (url, _):
        r = write(db, url, *flags)
    assert r.exit_code == 0, r.output
    no_traceback(r)
    page = first_page(db)
    assert page["provenance"]["kind"] == "static"
    assert reason in page["provenance"]["llm_rejected"]
    assert reason in page["summary"]["provenance"]["llm_rejected"]
    assert page["summary"]["text"] == before["summary"]["text"]


def test_wrong_shape_is_repaired_with_one_retry(db: Path) -> None:
    with serving([("ok", '["not", "an", "object"]'), ("ok", good)]) as (url, fake):
        r = write(db, url)
    assert r.exit_code == 0, r.output
    assert len(fake.requests) == 2
    assert "cannot be used" in fake.requests[1]["messages"][-1]["content"]
    assert first_page(db)["provenance"]["kind"] == "llm"


def test_a_429_waits_as_retry_after_says(db: Path) -> None:
    with serving([("status", (429, {"Retry-After": "2"})), ("ok", good)]) as (url, fake):
        started = time.monotonic()
        r = write(db, url)
        waited = time.monotonic() - started
    assert r.exit_code == 0, r.output
    assert len(fake.requests) == 2 and waited >= 2
    assert first_page(db)["provenance"]["kind"] == "llm"


def test_a_server_without_schema_support_is_asked_without_it(db: Path) -> None:
    with serving([("refuse_schema", good)]) as (url, fake):
        r = write(db, url)
    assert r.exit_code == 0, r.output
    assert "response_format" not in fake.requests[-1]
    assert fake.requests[1]["response_format"]["type"] == "json_object"
    assert first_page(db)["provenance"]["kind"] == "llm"


def test_a_stream_that_stops_halfway_is_asked_again(db: Path) -> None:
    with serving(
        [("cut", good({"messages": [{"content": 'Its keys: "summary" ('}]})), ("ok", good)]
    ) as (
        url,
        fake,
    ):
        r = cli(
            "explain",
            "--db",
            str(db),
            "--llm",
            "--llm-url",
            url,
            "--llm-model",
            "fake",
            "-",
            input=PASTE,
        )
    assert r.exit_code == 0, r.output
    no_traceback(r)
    assert len(fake.requests) == 2 and all(b["stream"] for b in fake.requests)
    assert "fake wrote" in r.output


def test_a_stream_that_always_stops_keeps_the_static_page(db: Path) -> None:
    answer = good({"messages": [{"content": 'Its keys: "summary" ('}]})
    with serving([("cut", answer)]) as (url, _):
        r = cli(
            "explain", "--db", str(db), "--llm", "--llm-url", url, "--llm-model", "fake",
            "-", input=PASTE,
        )  # fmt: skip
    assert r.exit_code == 0, r.output
    no_traceback(r)
    assert "the stream stopped before the answer ended" in r.output
    assert "factor must not be zero" in r.output  # the page, in its static words
    assert first_page(db)["provenance"]["kind"] == "static"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_endpoint_that_does_not_exist_stops_with_a_clear_error(db: Path) -> None:
    with serving([("ok", good)]) as (url, fake):
        r = write(db, url.removesuffix("/v1") + "/nowhere")
    assert r.exit_code == EXIT_LLM
    assert "does not exist (404)" in r.output and "/v1" in r.output
    no_traceback(r)
    assert fake.requests == []
    r = write(db, f"http://127.0.0.1:{_closed_port()}/v1")
    assert r.exit_code == EXIT_LLM
    assert "nothing answers at" in r.output and "connection refused" in r.output
    no_traceback(r)
    assert first_page(db)["provenance"] == {"kind": "static"}


def test_no_model_configured_changes_nothing(db: Path) -> None:
    r = cli("write", "--db", str(db))
    assert r.exit_code == EXIT_LLM and "no model is configured" in r.output
    r = cli("explain", "--db", str(db), "-", input=PASTE)
    assert r.exit_code == 0 and "Static analysis" in r.output
