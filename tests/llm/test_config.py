"""Where the model is: flags, then ERRORDEX_LLM_* variables, then the
config file's [llm] table; none of them set means no model at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from errordex.errors import InputError, LlmNotConfigured
from errordex.llm.client import retry_after
from errordex.llm.config import load


def test_nothing_set_means_no_model(tmp_path: Path) -> None:
    assert load(env={"ERRORDEX_CONFIG": str(tmp_path / "none.toml")}) is None


def test_flags_win_over_variables_and_variables_over_the_file(tmp_path: Path) -> None:
    conf = tmp_path / "config.toml"
    conf.write_text(
        '[llm]\nurl = "http://file/v1"\nmodel = "file-model"\nkey = "k1"\nconcurrency = 3\n'
        "token_budget = 5000\n"
    )
    env = {"ERRORDEX_CONFIG": str(conf)}
    got = load(env=env)
    assert got is not None and (got.url, got.model, got.key) == (
        "http://file/v1",
        "file-model",
        "k1",
    )
    assert got.concurrency == 3 and got.token_budget == 5000
    env |= {"ERRORDEX_LLM_URL": "http://env/v1", "ERRORDEX_LLM_MODEL": "env-model"}
    got = load(env=env)
    assert got is not None and (got.url, got.model, got.key) == ("http://env/v1", "env-model", "k1")
    got = load(url="http://flag/v1", env=env)
    assert (
        got is not None
        and got.url == "http://flag/v1"
        and got.endpoint == "http://flag/v1/chat/completions"
    )


def test_half_a_configuration_or_a_bad_file_is_a_clear_error(tmp_path: Path) -> None:
    env = {"ERRORDEX_CONFIG": str(tmp_path / "none.toml"), "ERRORDEX_LLM_URL": "http://x/v1"}
    with pytest.raises(LlmNotConfigured, match="ERRORDEX_LLM_MODEL"):
        load(env=env)
    conf = tmp_path / "bad.toml"
    conf.write_text('[llm]\nurl = "http://x/v1"\nmodel = "m"\nconcurrency = 0\n')
    with pytest.raises(InputError, match=r"\[llm\] concurrency"):
        load(env={"ERRORDEX_CONFIG": str(conf)})
    conf.write_text('[llm]\nurl = "ftp://x"\nmodel = "m"\n')
    with pytest.raises(InputError, match="http:// or https://"):
        load(env={"ERRORDEX_CONFIG": str(conf)})


def test_retry_after_reads_seconds_and_dates() -> None:
    assert retry_after("7") == 7.0
    assert retry_after("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0) == 10.0
    assert retry_after("later") is None and retry_after(None) is None


def test_the_rate_limit_spaces_the_requests_out() -> None:
    from errordex.llm.client import Client
    from errordex.llm.config import LlmConfig

    now = [100.0]
    slept: list[float] = []

    def sleep(s: float) -> None:
        slept.append(s)
        now[0] += s

    client = Client(
        LlmConfig(url="http://x/v1", model="m", requests_per_minute=30),
        sleep=sleep,
        clock=lambda: now[0],
    )
    for _ in range(3):
        client._pace()
    assert slept == [2.0, 2.0]  # 30 a minute: one every 2 s
