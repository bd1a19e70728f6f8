"""The LLM writer against a real model: llama.cpp's server with
SmolLM2-135M-Instruct. A model this small often writes what the facts do
not back; the checks must keep every such section off the page, and the
test says what share passed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.llm.conftest import cli, entry_id, show
from tests.llm.llamaserver import MODEL, llama_server, missing
from tests.llm.test_faults import PASTE
from tests.llm.test_prose import FORBIDDEN, _without_reasons

pytestmark = [
    pytest.mark.skipif(missing() is not None, reason=str(missing())),
    pytest.mark.slow,
]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with llama_server() as url:
        yield url


def test_smollm2_writes_checked_pages_and_none_ungrounded(
    db: Path, server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    r = cli(
        "write", "--db", str(db), "--repo", "acme/scaler", "--limit", "1",
        "--llm-url", server, "--llm-model", MODEL, "--timeout", "900", "--json",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    got: dict[str, Any] = json.loads(r.output)
    sections = got["sections"]["accepted"] + got["sections"]["rejected"]
    # one page: on two shared cores SmolLM2 takes a minute or more a page
    assert got["pages"] == 1 and got["failed"] == 0 and sections >= 3
    assert got["tokens"] > 0
    with capsys.disabled():
        print(
            f"\n  SmolLM2-135M: {got['sections']['accepted']} of {sections} sections passed the"
            f" checks; rejections: {got['rejections']}"
        )
    # every page is grounded as shown, the model's sections included
    v = cli("verify", "--db", str(db), "--json")
    assert v.exit_code == 0, v.output
    assert all(repo["ungrounded"] == 0 for repo in json.loads(v.output)["repos"])
    # the hostile package's comments are nowhere in its pages' prose
    for text in ("factor must",):
        analysis: dict[str, Any] = show(db, entry_id(db, text))["analysis"]  # type: ignore[assignment]
        for bad in FORBIDDEN:
            assert bad not in _without_reasons(analysis), bad


def test_explain_llm_streams_a_page_from_the_real_server(db: Path, server: str) -> None:
    r = cli(
        "explain", "--db", str(db), "--llm", "--llm-url", server, "--llm-model", MODEL,
        "-", input=PASTE,
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert f"{MODEL} wrote" in r.output and "passed the checks" in r.output
    assert "factor must not be zero" in r.output
