"""A small OpenAI-compatible server that misbehaves on purpose: the test
double of the LLM writer's fault tests (a real server cannot be made to
send a 429 or stop a stream halfway). The real model is tested against the
real llama.cpp server (test_llama_server.py)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: what the server does with one request: a name from ``Handler.do_POST``,
#: with its argument (the answer's content, a Retry-After, a delay)
Step = tuple[str, Any]


class FakeLlm:
    """Answers each request with the next step of ``script`` (the last one
    repeats), and records the requests' bodies."""

    def __init__(self, script: list[Step]) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def next_step(self, body: dict[str, Any]) -> Step:
        with self.lock:
            self.requests.append(body)
            i = min(len(self.requests) - 1, len(self.script) - 1)
            return self.script[i]


def _completion(content: str) -> dict[str, Any]:
    return {
        "id": "x",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
    }


def _handler(fake: FakeLlm) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _send(self, code: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:
            size = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(size) or b"{}")
            if self.path != "/v1/chat/completions":
                self._send(404, b'{"error": "not found"}')
                return
            step, arg = fake.next_step(body)
            if step == "ok":
                content = arg(body) if callable(arg) else arg
                if body.get("stream"):
                    self._stream(content, complete=True)
                else:
                    self._send(200, json.dumps(_completion(content)).encode())
            elif step == "status":
                code, headers = arg
                self._send(code, b'{"error": "busy"}', headers)
            elif step == "sleep":
                time.sleep(arg)
                self._send(200, json.dumps(_completion("{}")).encode())
            elif step == "garbage":
                self._send(200, b"{this is not json")
            elif step == "cut":
                self._stream(arg, complete=False)
            elif step == "refuse_schema":
                if "response_format" in body:
                    self._send(400, b'{"error": "response_format is not supported"}')
                else:
                    content = arg(body) if callable(arg) else arg
                    self._send(200, json.dumps(_completion(content)).encode())

        def _stream(self, content: str, complete: bool) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            pieces = [content[i : i + 7] for i in range(0, len(content), 7)]
            if not complete:
                pieces = pieces[: len(pieces) // 2]
            for p in pieces:
                chunk = {"choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]}
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.flush()
            if complete:
                end = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
                self.wfile.write(f"data: {json.dumps(end)}\n\ndata: [DONE]\n\n".encode())
            self.wfile.flush()
            self.close_connection = True

    return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that left (a timeout test's) is no error of the test's."""


@contextmanager
def serving(script: list[Step]) -> Iterator[tuple[str, FakeLlm]]:
    """(base URL, the fake) of a server on a free loopback port, for the block."""
    fake = FakeLlm(script)
    server = _Server(("127.0.0.1", 0), _handler(fake))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


Answer = Callable[[dict[str, Any]], str]
