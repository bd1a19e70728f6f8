"""Where the model is: ``--llm-url``/``--llm-model``/``--llm-key`` flags, then
``ERRORDEX_LLM_URL``/``ERRORDEX_LLM_MODEL``/``ERRORDEX_LLM_KEY``, then the
``[llm]`` table of the config file (``$ERRORDEX_CONFIG``, else
``$XDG_CONFIG_HOME/errordex/config.toml``)::

    [llm]
    url = "http://127.0.0.1:8080/v1"
    model = "smollm2"
    key = "..."                 # optional; sent as a bearer token
    concurrency = 2             # requests in flight
    requests_per_minute = 60    # at most this many started per minute
    retries = 3                 # per request, on timeouts, 429 and 5xx
    timeout = 120               # seconds per request
    token_budget = 200000       # prompt + completion tokens for one `write`
    max_tokens = 700            # per answer

With no URL and no model anywhere, the LLM writer is off and nothing changes.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from platformdirs import user_config_dir
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from errordex.errors import InputError, LlmNotConfigured


@dataclass(frozen=True, slots=True)
class LlmConfig:
    url: str
    model: str
    key: str | None = None
    concurrency: int = 2
    requests_per_minute: float | None = None
    retries: int = 3
    timeout: float = 120.0
    token_budget: int | None = None
    max_tokens: int = 700

    @property
    def endpoint(self) -> str:
        """The chat completions URL under the base URL."""
        return self.url.rstrip("/") + "/chat/completions"


class _FileLlm(BaseModel):
    """The ``[llm]`` table of the config file (input from outside: pydantic)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str | None = None
    model: str | None = None
    key: str | None = None
    concurrency: int = Field(default=2, ge=1, le=64)
    requests_per_minute: float | None = Field(default=None, gt=0)
    retries: int = Field(default=3, ge=0, le=10)
    timeout: float = Field(default=120.0, gt=0)
    token_budget: int | None = Field(default=None, ge=1)
    max_tokens: int = Field(default=700, ge=16)


def config_path(env: Mapping[str, str] = os.environ) -> Path:
    named = env.get("ERRORDEX_CONFIG")
    return Path(named) if named else Path(user_config_dir("errordex")) / "config.toml"


def _read_file(path: Path) -> _FileLlm:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return _FileLlm()
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"cannot read the config file {path}: {exc}") from None
    try:
        return _FileLlm.model_validate(data.get("llm", {}))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError(f"{path}: [llm] {where}: {first['msg']}") from None


def load(
    url: str | None = None,
    model: str | None = None,
    key: str | None = None,
    env: Mapping[str, str] = os.environ,
) -> LlmConfig | None:
    """The configuration in force, or None when no URL and no model is set
    anywhere (the writer is off). Half a configuration is an error."""
    file = _read_file(config_path(env))
    url = url or env.get("ERRORDEX_LLM_URL") or file.url
    model = model or env.get("ERRORDEX_LLM_MODEL") or file.model
    key = key or env.get("ERRORDEX_LLM_KEY") or file.key
    if not url and not model:
        return None
    if not url or not model:
        missing = "ERRORDEX_LLM_URL (--llm-url)" if not url else "ERRORDEX_LLM_MODEL (--llm-model)"
        raise LlmNotConfigured(f"the LLM writer needs {missing} as well")
    if not url.startswith(("http://", "https://")):
        raise InputError(f"the LLM URL must start with http:// or https://: {url!r}")
    return LlmConfig(
        url=url,
        model=model,
        key=key or None,
        concurrency=file.concurrency,
        requests_per_minute=file.requests_per_minute,
        retries=file.retries,
        timeout=file.timeout,
        token_budget=file.token_budget,
        max_tokens=file.max_tokens,
    )


def required(config: LlmConfig | None) -> LlmConfig:
    if config is None:
        raise LlmNotConfigured(
            "no model is configured: set ERRORDEX_LLM_URL and ERRORDEX_LLM_MODEL"
            " (or --llm-url/--llm-model, or [llm] in the config file)"
        )
    return config


def with_overrides(config: LlmConfig, **changes: object) -> LlmConfig:
    """``config`` with the flags that were given (None: not given)."""
    given = {k: v for k, v in changes.items() if v is not None}
    return replace(config, **given)  # type: ignore[arg-type]
