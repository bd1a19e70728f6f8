"""An OpenAI-compatible chat completions client (Ollama, vLLM, the llama.cpp
server, a cloud API), on the standard library: the only I/O of the LLM writer.

One ``complete`` call is one answer. It retries what may pass (a timeout, a
dropped connection, a stream that stops halfway, 429 and 5xx), waiting as a
429's ``Retry-After`` says or with exponential backoff, and starts at most
``requests_per_minute`` requests a minute across threads. What cannot pass
(no server at the URL, 401, 404) raises ``LlmUnreachable`` at once: every
page would fail the same way. What failed for this answer only raises
``AnswerFailed``, and the page keeps its static text.

A server that refuses ``response_format`` with a JSON schema (a 400, 422
or even 500 whose body names it) is asked again with ``json_object`` and
the schema (llama.cpp's Python server), then with none (``answer`` reads the JSON tolerantly);
the client remembers what the server took.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import logging
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from errordex.errors import LlmUnreachable
from errordex.llm.config import LlmConfig

log = logging.getLogger(__name__)

Message = dict[str, str]

#: the longest wait a ``Retry-After`` is obeyed for, and the backoff's cap
MAX_WAIT = 60.0
#: the first backoff; it doubles on each retry
BACKOFF = 1.0
#: HTTP statuses worth asking again
_TRANSIENT = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
#: ``response_format`` ways, from the most to the least the server must support
_FORMATS = ("json_schema", "json_object", "none")


class AnswerFailed(Exception):
    """This answer could not be had (after the retries); ``reason`` says why
    in one line, for the page's ``llm_rejected``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Retry(Exception):
    def __init__(self, reason: str, wait: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait = wait


class _Refused(Exception):
    """The server refused the request's ``response_format`` (a 400 or 422 naming it)."""


@dataclass(frozen=True, slots=True)
class Completion:
    text: str
    prompt_tokens: int
    completion_tokens: int
    #: whether the server reported the counts (else they are estimated from the length)
    counted: bool
    attempts: int
    seconds: float

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta seconds or an HTTP date.

    >>> retry_after("3")
    3.0
    >>> retry_after("soon") is None
    True
    """
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def estimate_tokens(text: str) -> int:
    """About four characters a token, when the server does not count them."""
    return max(1, len(text) // 4)


class Client:
    """``Client(config).complete(messages, schema)``. ``sleep`` and ``clock``
    are the test's to replace; one client is shared by the threads of a batch."""

    def __init__(
        self,
        config: LlmConfig,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.sleep = sleep
        self.clock = clock
        self._format = 0  # index into _FORMATS: what the server takes
        self._lock = threading.Lock()
        self._next_start = 0.0

    # -- the one public call ---------------------------------------------
    def complete(
        self,
        messages: list[Message],
        schema: dict[str, Any] | None = None,
        on_text: Callable[[str], None] | None = None,
        on_retry: Callable[[str], None] | None = None,
    ) -> Completion:
        """The model's answer to ``messages``; streamed to ``on_text`` piece
        by piece when it is given (``on_retry`` hears why an attempt is
        made again, after which the text starts over). Raises
        ``AnswerFailed`` or ``LlmUnreachable``."""
        started = self.clock()
        attempts = 0
        last = ""
        while True:
            attempts += 1
            self._pace()
            try:
                text, usage = self._once(messages, schema, on_text)
            except _Refused:
                if self._format + 1 < len(_FORMATS):
                    self._format += 1
                    log.info("the server refused response_format; now %s", _FORMATS[self._format])
                    attempts -= 1
                    continue
                raise AnswerFailed("the server refused the request (400)") from None
            except _Retry as exc:
                last = exc.reason
                if attempts > self.config.retries:
                    raise AnswerFailed(f"{last} (after {attempts} attempts)") from None
                wait = exc.wait if exc.wait is not None else BACKOFF * 2 ** (attempts - 1)
                if on_retry is not None:
                    on_retry(last)
                self.sleep(min(wait, MAX_WAIT))
                continue
            prompt = usage.get("prompt_tokens") if usage else None
            done = usage.get("completion_tokens") if usage else None
            counted = isinstance(prompt, int) and isinstance(done, int)
            return Completion(
                text=text,
                prompt_tokens=prompt
                if isinstance(prompt, int)
                else estimate_tokens("".join(m["content"] for m in messages)),
                completion_tokens=done if isinstance(done, int) else estimate_tokens(text),
                counted=counted,
                attempts=attempts,
                seconds=self.clock() - started,
            )

    # -- one request -----------------------------------------------------
    def _pace(self) -> None:
        """Start at most ``requests_per_minute`` requests a minute."""
        rpm = self.config.requests_per_minute
        if not rpm:
            return
        with self._lock:
            now = self.clock()
            start = max(now, self._next_start)
            self._next_start = start + 60.0 / rpm
        if start > now:
            self.sleep(start - now)

    def _body(self, messages: list[Message], schema: dict[str, Any] | None, stream: bool) -> bytes:
        body: dict[str, Any] = {
            "model": self.config.model,
            "messages": messages,
            "temperature": 0,
            "max_tokens": self.config.max_tokens,
            "stream": stream,
        }
        way = _FORMATS[self._format]
        if schema is not None and way == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "page", "schema": schema, "strict": True},
            }
        elif schema is not None and way == "json_object":
            body["response_format"] = {"type": "json_object", "schema": schema}
        if stream:
            body["stream_options"] = {"include_usage": True}
        return json.dumps(body).encode()

    def _once(
        self,
        messages: list[Message],
        schema: dict[str, Any] | None,
        on_text: Callable[[str], None] | None,
    ) -> tuple[str, dict[str, Any] | None]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.config.key:
            headers["Authorization"] = f"Bearer {self.config.key}"
        stream = on_text is not None
        req = urllib.request.Request(
            self.config.endpoint,
            data=self._body(messages, schema, stream),
            headers=headers,
            method="POST",
        )
        try:
            resp = urllib.request.urlopen(req, timeout=self.config.timeout)
        except urllib.error.HTTPError as exc:
            self._http_error(exc)
            raise AssertionError("unreachable") from None  # _http_error always raises
        except urllib.error.URLError as exc:
            reason = exc.reason
            if isinstance(reason, (TimeoutError, socket.timeout)):
                raise _Retry(f"no answer within {self.config.timeout:g} s") from None
            if isinstance(reason, ConnectionRefusedError):
                raise LlmUnreachable(
                    f"nothing answers at {self.config.url} (connection refused)"
                ) from None
            if isinstance(reason, socket.gaierror):
                raise LlmUnreachable(
                    f"cannot resolve the host of {self.config.url}: {reason.strerror}"
                ) from None
            raise _Retry(f"cannot reach {self.config.url}: {reason}") from None
        except TimeoutError:
            raise _Retry(f"no answer within {self.config.timeout:g} s") from None
        except (ConnectionError, http.client.HTTPException) as exc:
            raise _Retry(f"the connection failed: {exc.__class__.__name__}") from None
        with resp:
            try:
                if stream:
                    assert on_text is not None
                    return self._read_stream(resp, on_text)
                return self._read_whole(resp)
            except TimeoutError:
                raise _Retry(f"the answer stopped for {self.config.timeout:g} s") from None
            except (ConnectionError, http.client.HTTPException) as exc:
                raise _Retry(f"the connection broke mid-answer: {exc.__class__.__name__}") from None

    def _http_error(self, exc: urllib.error.HTTPError) -> None:
        try:
            detail = exc.read(2000).decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            detail = ""
        code = exc.code
        # llama.cpp's Python server refuses an unknown response_format with a 500
        refused = "response_format" in detail or "json_schema" in detail
        if refused and (code in (400, 422) or code >= 500) and self._format < len(_FORMATS) - 1:
            raise _Refused()
        if code in _TRANSIENT:
            wait = retry_after(exc.headers.get("Retry-After")) if exc.headers else None
            raise _Retry(f"the server answered {code}", wait)
        if code == 404:
            raise LlmUnreachable(
                f"{self.config.endpoint} does not exist (404): is {self.config.url} the API's"
                " base URL (often ending in /v1)?"
            )
        if code in (401, 403):
            raise LlmUnreachable(
                f"the server refused the key ({code}): set ERRORDEX_LLM_KEY to one it accepts"
            )
        first = detail.strip().splitlines()[0][:200] if detail.strip() else ""
        raise AnswerFailed(f"the server answered {code}" + (f": {first}" if first else ""))

    def _read_whole(self, resp: Any) -> tuple[str, dict[str, Any] | None]:
        raw = resp.read()
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise _Retry("the server's response is not JSON") from None
        text = _choice_text(data)
        if text is None:
            raise AnswerFailed("the server's response has no choices[0].message.content")
        usage = data.get("usage") if isinstance(data, dict) else None
        return text, usage if isinstance(usage, dict) else None

    def _read_stream(
        self, resp: Any, on_text: Callable[[str], None]
    ) -> tuple[str, dict[str, Any] | None]:
        """Server-sent events: ``data: {chunk}`` lines, then ``data: [DONE]``.
        A stream that ends before ``[DONE]`` (or a finish reason) stopped
        halfway: it is asked again."""
        parts: list[str] = []
        usage: dict[str, Any] | None = None
        finished = False
        for raw in resp:
            line = raw.decode("utf-8", "replace").strip()
            if not line.startswith("data:"):
                continue
            payload = line[5:].strip()
            if payload == "[DONE]":
                finished = True
                break
            try:
                chunk = json.loads(payload)
            except ValueError:
                raise _Retry("the stream sent a chunk that is not JSON") from None
            if not isinstance(chunk, dict):
                continue
            if isinstance(chunk.get("usage"), dict):
                usage = chunk["usage"]
            for choice in chunk.get("choices") or []:
                if not isinstance(choice, dict):
                    continue
                delta = choice.get("delta") or {}
                piece = delta.get("content") if isinstance(delta, dict) else None
                if isinstance(piece, str) and piece:
                    parts.append(piece)
                    on_text(piece)
                if choice.get("finish_reason"):
                    finished = True
        if not finished:
            raise _Retry("the stream stopped before the answer ended")
        return "".join(parts), usage


def _choice_text(data: Any) -> str | None:
    if not isinstance(data, dict):
        return None
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return None
    message = choices[0].get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return content if isinstance(content, str) else None
