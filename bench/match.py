"""Matching accuracy on real runtime errors from libraries nobody here wrote.

    .venv/bin/python bench/match.py [--jobs N] [--no-auto] [--misses N] [--postgres]

It indexes installed libraries (click, jinja2, pydantic, starlette, rich,
pygments, and the standard library's ``json`` and ``argparse``) into a fresh
SQLite store, then builds a corpus of real errors by running code against
them in sandboxed subprocesses (a temp working directory and HOME, no PATH,
no network, a timeout per call): a hand-written list of realistic misuses,
and automatic bad-argument calls into each library's public API. A case is
kept only when the innermost frame of the raised exception (the raise
frame) is in an indexed library file; that file and line are the ground
truth. Cases are deduplicated by (exception type, message).

For each case it pastes the traceback into ``explain_text``. The headline
row, "answer", reads errordex's first answer for the last part, what a user
sees first: the rank-1 entry when errordex is confident in it, otherwise the
place the runtime raised the error (``raised_in``). It is a hit when that
entry produced the message (below) or that place is the raise frame's file
and line. The 98% / 95% targets are read against it. "answer (message line
only)" pastes the exception line alone, as a user pasting one line would:
only the text can decide, a forwarded site counts by its ``via``, and an
interpreter-raised message (which names no place) is a miss. The misses of
both are split into a wrong answer and no answer.

The entry rows rank the entries of the last part. "errordex" counts a hit at
rank k when the entry at rank k produced the message: one of its sites is
the raise frame, or is a frame of the traceback whose ``via`` (the
forwarder's raise it goes through) is the raise frame. click's
``self.fail(msg)`` call at click/types.py:472 builds the message and goes
through the raise at click/types.py:222; that call is in the same traceback,
so the entry is the site the user needs, not a near miss. "errordex
(strict)" asks for a site at the raise frame itself. "errordex (via counts)"
also accepts a forwarded site whose ``via`` is the raise frame when the call
is not in the traceback. "errordex (any frame)" accepts a site at any
library frame of the raised exception's stack. Each prints hit@1, hit@5,
MRR@5 and latency, overall and split into messages with formatted values and
constant messages, next to two ripgrep baselines on the same cases: the
literal message line (``rg -F``), and its longest constant chunk. "frame
located" asks whether the part's ``raised_in`` is the truth path:line. Nothing
in the corpus is tuned to the targets.

A case is "explicit" when a statement raised it: the raise frame's line is a
``raise``, or an ``assert`` and the exception is an AssertionError. An
``assert`` raises nothing else; a TypeError on an ``assert`` line (starlette's
``assert scope["type"] in ...`` given a float) was raised by the interpreter
evaluating the condition, so it is "interpreter-raised", where no entry can be
right and the runtime location is the answer. So is json's C scanner: it
raises the messages of decoder.py's pure-Python fallback, but the traceback
ends at the call into C (decoder.py:353), which is where it was raised; the
fallback's entry is shown as the same message raised elsewhere.

``--postgres`` indexes the same libraries into a throwaway PostgreSQL server
too (Debian's, started as the tests start it: ``tests/pgserver.py``), pastes
every case there as well, and prints the index time, the latency of
``explain`` and how many answers are the same as on SQLite.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from errordex.explain import explain_text
from errordex.ingest import IngestOptions
from errordex.pipeline import index
from errordex.store import Store, open_store
from errordex.template import Hole

PACKAGES = ("click", "jinja2", "pydantic", "starlette", "rich", "pygments")
TARGET_ALL = 0.98
TARGET_FORMATTED = 0.95
RG = shutil.which("rg") or "/usr/bin/rg"

#: Modules whose public callables get bad arguments (the packages' top-level
#: modules, plus the few submodules where starlette/rich/pygments keep their API).
AUTO_MODULES = (
    "json",
    "argparse",
    "click",
    "jinja2",
    "pydantic",
    "starlette.responses",
    "starlette.requests",
    "starlette.datastructures",
    "starlette.routing",
    "starlette.applications",
    "rich",
    "rich.console",
    "rich.text",
    "rich.table",
    "rich.markup",
    "rich.style",
    "rich.color",
    "pygments",
    "pygments.lexers",
    "pygments.formatters",
    "pygments.styles",
    "pygments.filters",
)

# A hand-written list of realistic misuses: one Python snippet each.
HAND_CASES = [
    "import json; json.loads('')",
    "import json; json.loads('[1,]')",
    "import json; json.loads('{\"a\":}')",
    "import json; json.loads('{\"a\": 1,}')",
    "import json; json.loads(\"{'a': 1}\")",
    "import json; json.loads('[1, 2')",
    "import json; json.loads('nul')",
    "import json; json.loads('\"abc')",
    "import json; json.loads('{\"a\" 1}')",
    "import json; json.loads('[1] x')",
    "import json; json.dumps({1, 2})",
    "import json; json.dumps(float('nan'), allow_nan=False)",
    "import json; json.dumps({(1, 2): 3})",
    "import json; a = []; a.append(a); json.dumps(a)",
    "import click; click.Choice(['a', 'b']).convert('c', None, None)",
    "import click; click.IntRange(0, 10).convert('11', None, None)",
    "import click; click.INT.convert('abc', None, None)",
    "import click; click.FLOAT.convert('x1', None, None)",
    "import click; click.BOOL.convert('maybe', None, None)",
    "import click; click.UUID.convert('not-a-uuid', None, None)",
    "import click; click.DateTime().convert('yesterday', None, None)",
    "import click; click.Path(exists=True).convert('/nonexistent/x', None, None)",
    "import click; click.File('r').convert('/nonexistent/x', None, None)",
    "import click; click.style('x', fg='purplish')",
    "import click; click.style('x', bg='nope')",
    "import click; click.Option(['--x'], is_flag=True, multiple=True)",
    "import click; click.Option(['--x'], count=True, is_flag=True)",
    "import click; click.Option(['--x'], prompt=True, is_flag=True, hide_input=True)",
    "import click; click.Option(['x'])",
    "import click; click.Argument(['a', 'b', 'c'])",
    "import click; click.Argument(['a'], nargs=2, default=(1,))",
    "import click; click.Option(['--x', '--y', 'a', 'b'])",
    "import click\n@click.command()\n@click.option('--n', type=int)\n"
    "def f(n): pass\nf.main(['--n', 'x'], standalone_mode=False)",
    "import click\n@click.command()\n@click.argument('a')\n"
    "def f(a): pass\nf.main([], standalone_mode=False)",
    "import click\n@click.command()\ndef f(): pass\nf.main(['--nope'], standalone_mode=False)",
    "import click\n@click.group()\ndef g(): pass\ng.main(['nope'], standalone_mode=False)",
    "import click\n@click.command()\n@click.option('--n', required=True)\n"
    "def f(n): pass\nf.main([], standalone_mode=False)",
    "import click; click.get_current_context()",
    "from jinja2 import Template; Template('{% for %}')",
    "from jinja2 import Template; Template('{{ x | nofilter }}')",
    "from jinja2 import Template; Template('{% if x %}')",
    "from jinja2 import Template; Template('{% endfor %}')",
    "from jinja2 import Template; Template('{{ x ')",
    "from jinja2 import Template; Template('{% block a %}{% block a %}{% endblock %}{% endblock %}')",
    "from jinja2 import Environment, StrictUndefined\n"
    "Environment(undefined=StrictUndefined).from_string('{{ x }}').render()",
    "from jinja2 import Environment, StrictUndefined\n"
    "Environment(undefined=StrictUndefined).from_string('{{ x.y }}').render(x={})",
    "from jinja2 import Template; Template('{{ x.y.z }}').render()",
    "from jinja2 import Environment, DictLoader; Environment(loader=DictLoader({})).get_template('a.html')",
    "from jinja2 import Environment; Environment().get_template('a.html')",
    "from jinja2 import Template; Template('{% include \"x.html\" %}').render()",
    "from jinja2 import Template; Template('{{ 1 / 0 }}').render()",
    "from jinja2 import Template; Template('{{ [1]|batch(0)|list }}').render()",
    "from jinja2 import Template; Template('{% extends %}')",
    "from jinja2 import Environment; Environment(extensions=['nope.Ext'])",
    "from jinja2.sandbox import SandboxedEnvironment\n"
    "SandboxedEnvironment().from_string('{{ x.__class__.__mro__ }}').render(x=1)",
    "import pydantic\nclass M(pydantic.BaseModel):\n    a: int\nM(a='x')",
    "import pydantic\nclass M(pydantic.BaseModel):\n    a: int\nM()",
    "import pydantic\nclass M(pydantic.BaseModel):\n    a: int\nM.model_validate_json('{')",
    "import pydantic\nclass M(pydantic.BaseModel):\n    a: int\nM(a=1).b = 2",
    "import pydantic\nclass M(pydantic.BaseModel):\n    model_config = pydantic.ConfigDict(frozen=True)\n"
    "    a: int\nm = M(a=1); m.a = 2",
    "import pydantic\nclass M(pydantic.BaseModel):\n    _x: int = 1\n    a: int\nM.model_fields['_x']",
    "import pydantic\nclass M(pydantic.BaseModel):\n    a: 'Undefined'\nM(a=1)",
    "import pydantic\nclass M(pydantic.BaseModel):\n    a: int\n"
    "    @pydantic.field_validator('b')\n    def v(cls, x): return x",
    "import pydantic\nclass M(pydantic.BaseModel):\n    a: object = pydantic.Field(gt='x')\nM(a=1)",
    "import pydantic; pydantic.TypeAdapter(int).validate_python('x')",
    "import pydantic\nclass M(pydantic.BaseModel):\n    a: int\nM.model_construct().model_dump_json(x=1)",
    "import pydantic; pydantic.BaseModel()",
    "import pydantic; pydantic.create_model('M', a=(int, 1, 2))",
    "import pydantic\nclass M(pydantic.BaseModel):\n    model_config = pydantic.ConfigDict(extra='forbid')\n"
    "    a: int\nM(a=1, b=2)",
    "import pydantic\n@pydantic.validate_call\ndef f(a: int): pass\nf('x')",
    "from starlette.responses import JSONResponse; JSONResponse({1, 2})",
    "from starlette.responses import FileResponse; FileResponse('/nonexistent/x', stat_result=None)"
    "\nimport asyncio\nasync def s(m): pass\nasync def r(): return {'type': 'http.request'}\n"
    "asyncio.run(FileResponse('/nonexistent/x')({'type': 'http', 'method': 'GET', 'headers': []}, r, s))",
    "from starlette.requests import Request; Request({'type': 'websocket'})",
    "from starlette.requests import Request; Request({'type': 'http'}).url",
    "from starlette.requests import Request; Request({'type': 'http'}).session",
    "from starlette.requests import Request; Request({'type': 'http'}).auth",
    "from starlette.requests import Request; Request({'type': 'http'}).user",
    "from starlette.datastructures import URL; URL('http://x', scope={'type': 'http'})",
    "from starlette.datastructures import Headers; Headers({'a': 'b'}, raw=[])",
    "from starlette.routing import Router; Router().url_path_for('nope')",
    "from starlette.routing import Route; Route('no-slash', lambda r: None)",
    "from starlette.routing import Route; Route('/a/{x:nope}', lambda r: None)",
    "from starlette.routing import Mount; Mount('/a')",
    "from starlette.applications import Starlette; Starlette().url_path_for('x')",
    "from starlette.testclient import TestClient",
    "from rich.console import Console; Console().print('[bold]x[/italic]')",
    "from rich.console import Console; Console().print('x[/]')",
    "from rich.markup import render; render('[bold]x[/italic]')",
    "from rich.style import Style; Style.parse('bold nocolor')",
    "from rich.style import Style; Style.parse('on')",
    "from rich.color import Color; Color.parse('notacolor')",
    "from rich.color import Color; Color.parse('#12')",
    "from rich.color import Color; Color.parse('rgb(1,2)')",
    "from rich.color import Color; Color.parse('color(300)')",
    "from rich.table import Table; t = Table(); t.add_column('a'); t.add_row('1', '2')",
    "from rich.padding import Padding; Padding.unpack((1, 2, 3))",
    "from rich.console import Console; Console(width=10).print(1, end=1)",
    "from rich.console import Console; Console(color_system='neon')",
    "from rich.console import Console; Console(legacy_windows=False).export_text()",
    "from rich.text import Text; Text('x').stylize('bold nocolor'); "
    "from rich.console import Console; Console().print(Text('x', style='bold nocolor'))",
    "from rich.progress import Progress; Progress().update(99)",
    "from rich.align import Align; Align('x', align='middle')",
    "from rich.box import ROUNDED; ROUNDED.get_row([1], level='x')",
    "from rich.prompt import IntPrompt; IntPrompt.ask('n', stream=__import__('io').StringIO('x\\n'))",
    "from pygments.lexers import get_lexer_by_name; get_lexer_by_name('nope')",
    "from pygments.lexers import get_lexer_for_filename; get_lexer_for_filename('x.nope')",
    "from pygments.lexers import get_lexer_for_mimetype; get_lexer_for_mimetype('x/nope')",
    "from pygments.lexers import guess_lexer; guess_lexer(None)",
    "from pygments.formatters import get_formatter_by_name; get_formatter_by_name('nope')",
    "from pygments.formatters import get_formatter_for_filename; get_formatter_for_filename('a.nope')",
    "from pygments.styles import get_style_by_name; get_style_by_name('nope')",
    "from pygments.filters import get_filter_by_name; get_filter_by_name('nope')",
    "from pygments.lexers import PythonLexer; PythonLexer(tabsize='x')",
    "from pygments.lexers import PythonLexer; PythonLexer(stripnl='maybe')",
    "from pygments.formatters import HtmlFormatter; HtmlFormatter(linenos='weird')",
    "from pygments.lexers import PythonLexer; PythonLexer(filters=['nope'])",
    "from pygments.util import get_choice_opt; get_choice_opt({'a': 'z'}, 'a', ['x', 'y'])",
    "from pygments.util import get_list_opt; get_list_opt({'a': 1}, 'a')",
    "from pygments import highlight; from pygments.lexers import PythonLexer; "
    "highlight('x', PythonLexer, None)",
    "from pygments import highlight; from pygments.formatters import HtmlFormatter; "
    "highlight('x', None, HtmlFormatter())",
    "import argparse; p = argparse.ArgumentParser(exit_on_error=False); "
    "p.add_argument('--n', type=int); p.parse_args(['--n', 'x'])",
    "import argparse; p = argparse.ArgumentParser(exit_on_error=False); "
    "p.add_argument('--n', choices=['a']); p.parse_args(['--n', 'b'])",
    "import argparse; p = argparse.ArgumentParser(); p.add_argument('--x'); p.add_argument('--x')",
    "import argparse; p = argparse.ArgumentParser(); p.add_argument('x', required=True)",
    "import argparse; p = argparse.ArgumentParser(); p.add_argument('--x', action='nope')",
    "import argparse; p = argparse.ArgumentParser(); p.add_argument('--x', type='int')",
    "import argparse; p = argparse.ArgumentParser(); p.add_argument('x', nargs=0)",
    "import argparse; p = argparse.ArgumentParser(); p.add_argument('--x', nargs='%')",
    "import argparse; p = argparse.ArgumentParser(); p.add_argument('x', dest='y')",
    "import argparse; p = argparse.ArgumentParser(); p.add_argument('-x', '--', 'y')",
    "import argparse; p = argparse.ArgumentParser(); p.add_subparsers(); p.add_subparsers()",
    "import argparse; p = argparse.ArgumentParser(); g = p.add_mutually_exclusive_group(); "
    "g.add_argument('x')",
    "import argparse; argparse.FileType('r')('/nonexistent/x')",
    "import argparse; p = argparse.ArgumentParser(); p.add_argument('--x', action='store_const')",
]

# Runs in a child interpreter: reads a JSON job, writes one JSON line per
# exception caught. Sandboxing: cwd/HOME are a temp dir, no PATH, the socket
# API refuses to connect, a timer bounds each call.
WORKER = textwrap.dedent(
    r"""
    import inspect, io, json, os, signal, socket, sys, traceback, warnings
    warnings.simplefilter("ignore")

    def _no_net(*a, **k):
        raise OSError("network disabled by bench/match.py")
    socket.socket.connect = _no_net
    socket.create_connection = _no_net
    socket.getaddrinfo = _no_net

    class _Timeout(BaseException):
        pass

    def _alarm(signum, frame):
        raise _Timeout()
    signal.signal(signal.SIGALRM, _alarm)

    job = json.load(open(sys.argv[1]))
    out = open(sys.argv[2], "w")

    def record(label, e):
        frames = [(f.filename, f.lineno) for f in traceback.extract_tb(e.__traceback__)]
        if not frames:
            return
        out.write(json.dumps({
            "label": label,
            "tb": "".join(traceback.format_exception(e)),
            "type": type(e).__module__ + "." + type(e).__qualname__,
            "msg": str(e),
            "frames": frames,
        }) + "\n")
        out.flush()

    def guarded(label, fn, *args):
        signal.setitimer(signal.ITIMER_REAL, 1.0)
        try:
            return True, fn(*args)
        except _Timeout:
            return False, None
        except (SystemExit, KeyboardInterrupt, GeneratorExit):
            return False, None
        except BaseException as e:
            signal.setitimer(signal.ITIMER_REAL, 0)
            try:
                record(label, e)
            except BaseException:
                pass
            return False, None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    if job["mode"] == "cases":
        for i, code in enumerate(job["cases"]):
            guarded("hand#%d" % i, lambda c=code: exec(compile(c, "<case>", "exec"), {}))
    else:
        import importlib
        mod = importlib.import_module(job["module"])
        top = job["module"].split(".")[0]
        bad = [(), (None,), (-1,), ("",), (object(),), ([],), ({"a": 1},), ("x", -1),
               (None, None), (b"\x00",), ("nope",), (1.5,)]
        names = getattr(mod, "__all__", None) or dir(mod)
        for name in sorted(set(names)):
            if name.startswith("_"):
                continue
            try:
                obj = getattr(mod, name)
            except BaseException:
                continue
            if not callable(obj) or not (getattr(obj, "__module__", "") or "").startswith(top):
                continue
            for args in bad:
                ok, made = guarded("%s.%s%r" % (job["module"], name, args), obj, *args)
                if ok and inspect.isclass(obj) and args == ():
                    for meth in sorted(dir(made)):
                        if meth.startswith("_"):
                            continue
                        try:
                            m = getattr(made, meth)
                        except BaseException:
                            continue
                        if not callable(m) or inspect.isclass(m):
                            continue
                        for margs in bad[:6]:
                            guarded("%s.%s().%s%r" % (job["module"], name, meth, margs), m, *margs)
    out.close()
    os._exit(0)
    """
)


@dataclass
class Case:
    label: str
    tb: str
    exc_type: str
    message: str
    truth: tuple[str, str, int]  # (repo, path in the index, line)
    stack: set[tuple[str, str, int]]  # library frames of the raised exception
    explicit: bool  # a raise statement, or an assert that raised AssertionError, raised it
    formatted: bool = False
    ranks: dict[str, int | None] = field(default_factory=dict)
    file_ranks: dict[str, int | None] = field(default_factory=dict)
    ms: dict[str, float] = field(default_factory=dict)
    first: str = ""
    answered: dict[str, bool] = field(default_factory=dict)  # an answer was given


@dataclass
class Root:
    repo: str
    directory: Path  # index paths are relative to this
    search: Path  # the real files it covers (a directory or one file); what ripgrep searches

    def claims(self, p: Path) -> bool:
        return p == self.search or self.search in p.parents


def build_store(
    tmp: Path, jobs: int | None, db: str | None = None
) -> tuple[Store, list[Root], float]:
    store = open_store(db or str(tmp / "store.db"), write=True)
    site = Path(sysconfig.get_paths()["purelib"])
    roots: list[Root] = []
    t0 = time.perf_counter()
    for pkg in PACKAGES:
        res = index(f"pkg:{pkg}", store, jobs=jobs)
        top = site / pkg
        roots.append(Root(res.snapshot.repo.slug, site, top))
    jdir = Path(json.__file__).resolve().parent
    index(str(jdir), store, name="python/cpython-json", jobs=jobs)
    roots.append(Root("python/cpython-json", jdir, jdir))
    afile = Path(argparse.__file__).resolve()
    adir = tmp / "argparse-src"
    adir.mkdir(exist_ok=True)  # a second store (--postgres) reads the same copy
    shutil.copy(afile, adir / "argparse.py")
    index(
        str(adir),
        store,
        name="python/cpython-argparse",
        jobs=jobs,
        options=IngestOptions(wanted=lambda p: p.endswith("argparse.py")),
    )
    roots.append(Root("python/cpython-argparse", adir, afile))
    return store, roots, time.perf_counter() - t0


def locate(roots: Sequence[Root], filename: str, line: int) -> tuple[str, str, int] | None:
    p = Path(filename)
    if not p.is_absolute():
        return None
    p = p.resolve()
    for r in roots:
        if r.claims(p):
            rel = (
                "argparse.py"
                if r.repo == "python/cpython-argparse"
                else str(p.relative_to(r.directory))
            )
            return (r.repo, rel, line)
    return None


def run_worker(job: dict[str, Any], sandbox: Path, timeout: float) -> list[dict[str, Any]]:
    fd, jpath = tempfile.mkstemp(suffix=".json", dir=sandbox)
    with os.fdopen(fd, "w") as f:
        json.dump(job, f)
    opath = jpath + ".out"
    env = {
        "HOME": str(sandbox),
        "PATH": str(sandbox / "no-bin"),
        "EDITOR": "/bin/false",
        "VISUAL": "/bin/false",
        "BROWSER": "/bin/false",
        "PAGER": "cat",
        "TERM": "dumb",
        "PYTHONHASHSEED": "0",
        "TMPDIR": str(sandbox),
    }
    # on a timeout, what it wrote so far is kept
    with contextlib.suppress(subprocess.TimeoutExpired):
        subprocess.run(
            [sys.executable, "-c", WORKER, jpath, opath],
            cwd=sandbox,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=timeout,
            start_new_session=True,
            check=False,
        )
    rows: list[dict[str, Any]] = []
    try:
        for ln in Path(opath).read_text().splitlines():
            try:
                rows.append(json.loads(ln))
            except json.JSONDecodeError:
                break
    except OSError:
        pass
    return rows


def build_corpus(
    roots: Sequence[Root], sandbox: Path, auto: bool, jobs: int
) -> tuple[list[Case], dict[str, int]]:
    jobs_list: list[dict[str, Any]] = [{"mode": "cases", "cases": HAND_CASES}]
    if auto:
        jobs_list += [{"mode": "auto", "module": m} for m in AUTO_MODULES]
    with ThreadPoolExecutor(max(1, jobs)) as ex:
        results = list(ex.map(lambda j: run_worker(j, sandbox, 120.0), jobs_list))
    counts = {"raised": 0, "outside": 0, "dupes": 0}
    seen: set[tuple[str, str]] = set()
    cases: list[Case] = []
    for rows in results:
        for row in rows:
            counts["raised"] += 1
            fname, line = row["frames"][-1]
            truth = locate(roots, fname, line)
            if truth is None:
                counts["outside"] += 1
                continue
            key = case_key(row["type"], row["msg"])
            if key in seen:
                counts["dupes"] += 1
                continue
            seen.add(key)
            stack = {k for f, n in row["frames"] if (k := locate(roots, f, n)) is not None}
            cases.append(
                Case(
                    label=row["label"],
                    tb=row["tb"],
                    exc_type=row["type"],
                    message=row["msg"],
                    truth=truth,
                    stack=stack,
                    explicit=raised_by_statement(Path(fname), line, row["type"]),
                )
            )
    return cases, counts


def case_key(exc_type: str, message: str) -> tuple[str, str]:
    """What cases are deduplicated by: the type and the message, addresses masked."""
    return (exc_type, re.sub(r"0x[0-9a-fA-F]+", "0x?", message))


def raised_by_statement(path: Path, line: int, exc_type: str) -> bool:
    """Whether a statement raised it ("explicit"): the raise frame's line is a
    ``raise``, or an ``assert`` and the error is an AssertionError."""
    src = ""
    with contextlib.suppress(OSError, IndexError, UnicodeDecodeError):
        src = path.read_text(encoding="utf-8").splitlines()[line - 1].strip()
    return src.startswith("raise") or (
        src.startswith("assert") and exc_type.endswith(".AssertionError")
    )


def compare_stores(lite: Store, shared: Store, cases: list[Case]) -> None:
    """``explain`` on both stores, in turn per case: latency and answers."""
    ms: dict[str, list[float]] = {"SQLite": [], "PostgreSQL": []}
    same = 0
    for c in cases:
        outs = []
        for name, store in (("SQLite", lite), ("PostgreSQL", shared)):
            t0 = time.perf_counter()
            outs.append(explain_text(store, c.tb))
            ms[name].append((time.perf_counter() - t0) * 1000)
        same += outs[0] == outs[1]
    print(f"\nexplain on SQLite and on PostgreSQL, {len(cases)} cases, in turn:")
    for name, xs in ms.items():
        xs.sort()
        p50, p99 = xs[len(xs) // 2], xs[min(len(xs) - 1, int(len(xs) * 0.99))]
        print(
            f"  {name:<11} p50 {p50:7.1f} ms  p99 {p99:7.1f} ms  mean {sum(xs) / len(xs):7.1f} ms"
        )
    print(f"  the same answer (the whole JSON) on both: {same} of {len(cases)}")


def classify(store: Store, cases: list[Case], repos: Sequence[str]) -> None:
    """formatted: the true entry's template has placeholders, or the message
    differs from every constant template's literal."""
    holes_at: dict[tuple[str, str, int], bool] = {}
    constants: set[str] = set()
    for repo in repos:
        for e in store.entries(repo=repo):
            has_holes = any(isinstance(p, Hole) for p in e.template.parts)
            if not has_holes:
                constants.add(e.template.literal_text().strip())
            for s in e.catalog_sites:
                holes_at[(repo, s.path, s.line)] = has_holes
    for c in cases:
        first = c.message.strip().splitlines()[0].strip() if c.message.strip() else ""
        c.formatted = holes_at.get(c.truth, False) or (
            first not in constants and c.message.strip() not in constants
        )


def run_errordex(store: Store, c: Case) -> None:
    t0 = time.perf_counter()
    out = explain_text(store, c.tb)
    c.ms["errordex"] = (time.perf_counter() - t0) * 1000
    parts = out["parts"]
    matches = parts[-1]["matches"] if parts else []
    rank = strict = file_rank = any_rank = via_rank = None
    told = stack_tells(c, matches[:5])
    for k, m in enumerate(matches[:5], 1):
        keys = {(m["repo"], s["path"], s["line"]) for s in m["sites"]}
        vias = {(m["repo"], *v) for s in m["sites"] if (v := via_location(s.get("via")))}
        if rank is None and produced(c, m, told):
            rank = k
        if strict is None and c.truth in keys:
            strict = k
        if via_rank is None and c.truth in keys | vias:
            via_rank = k
        if any_rank is None and keys & c.stack:
            any_rank = k
        if file_rank is None and any(key[:2] == c.truth[:2] for key in keys):
            file_rank = k
    c.ranks["errordex"] = rank
    c.ranks["errordex (strict)"] = strict
    c.ranks["errordex (via counts)"] = via_rank
    c.ranks["errordex (any frame)"] = any_rank
    c.file_ranks["errordex"] = file_rank
    where = parts[-1].get("raised_in") if parts else None
    located = where is not None and (where["repo"], where["path"], where["line"]) == c.truth
    c.ranks["frame located"] = 1 if located else None
    answer = parts[-1].get("answer") if parts else None
    if answer is None:
        c.first = "(no answer)" if parts else "(no part parsed)"
        hit = False
    elif answer["kind"] == "entry":
        m = matches[0]
        c.first = f"entry {m['message']!r} @ {answer['path']}:{answer['line']}"
        hit = m["id"] == answer["id"] and produced(c, m, told)
        # session 12's rule, where a site off the traceback never counted:
        # the same answer, scored as it was scored then
        strict = m["id"] == answer["id"] and produced(c, m, strict=True)
        c.ranks["answer (strict)"] = 1 if strict else None
    else:
        how = "runtime" if answer["raise_frame"] and not answer["raise_statement"] else "frame"
        c.first = f"{how} @ {answer['path']}:{answer['line']}"
        hit = (answer["repo"], answer["path"], answer["line"]) == c.truth
        c.ranks["answer (strict)"] = 1 if hit else None
    c.ranks["answer"] = 1 if hit else None
    c.answered["answer"] = answer is not None


def run_message_only(store: Store, c: Case) -> None:
    """The first answer for the exception line alone, as a user pastes one line:
    only the text can decide, and a forwarded site counts by its ``via``."""
    out = explain_text(store, exception_line(c))
    parts = out["parts"]
    answer = parts[-1].get("answer") if parts else None
    hit = False
    if answer is not None and answer["kind"] == "entry":
        hit = at_truth(c, parts[-1]["matches"][0])
    c.ranks["answer (message line only)"] = 1 if hit else None
    c.answered["answer (message line only)"] = answer is not None and answer["kind"] == "entry"


def exception_line(c: Case) -> str:
    """The exception line alone, as a user pastes it from a log: ``Type: message``."""
    head = c.exc_type.removeprefix("builtins.")
    return f"{head}: {c.message}" if c.message else head


def at_truth(c: Case, m: dict[str, Any]) -> bool:
    """Whether one of the entry's sites, or its ``via``, is the raise frame."""
    keys = {(m["repo"], s["path"], s["line"]) for s in m["sites"]}
    vias = {(m["repo"], *v) for s in m["sites"] if (v := via_location(s.get("via")))}
    return c.truth in keys | vias


def produced(c: Case, m: dict[str, Any], stack_tells: bool = True, strict: bool = False) -> bool:
    """Whether the entry's site produced the message: it is at the raise frame,
    or its ``via`` is the raise frame and it is a frame of the traceback (the
    call of a helper that raises: click's ``self.fail(...)``), or its ``via``
    is the raise frame and it made the error that frame raises: a ``yield``
    of an exception whose ``via`` is a re-raise point (``….raise``:
    jsonschema's keyword yields, raised by ``validate``), a class's text
    raised through a table (werkzeug's ``Forbidden.description``), or, when
    no frame of the traceback is such a helper's call (``stack_tells`` is
    False, see ``stack_tells``), any site whose error the raise frame raises
    again (voluptuous' validators, collected into ``MultipleInvalid``).
    ``strict``: session 12's rule, where only a frame of the traceback counts
    by its ``via``."""
    for s in m["sites"]:
        key = (m["repo"], s["path"], s["line"])
        via = s.get("via")
        v = via_location(via)
        at = v is not None and (m["repo"], *v) == c.truth
        made = not strict and (
            s.get("kind") == "exception-message" or _reraised(via) or not stack_tells
        )
        if key == c.truth or (at and (key in c.stack or made)):
            return True
    return False


def stack_tells(c: Case, matches: list[dict[str, Any]]) -> bool:
    """Whether a frame of the traceback is a site (of one of ``matches``)
    whose ``via`` is the raise frame: the call of a shared helper that tells
    which of its callers made the message."""
    for m in matches:
        for s in m["sites"]:
            v = via_location(s.get("via"))
            at = v is not None and (m["repo"], *v) == c.truth
            if at and (m["repo"], s["path"], s["line"]) in c.stack:
                return True
    return False


def _reraised(via: str | None) -> bool:
    """``"jsonschema/validators.py:1332 validate.raise"``: a re-raise point."""
    return (via or "").rsplit(" ", 1)[-1].endswith(".raise")


def via_location(via: str | None) -> tuple[str, int] | None:
    """``"click/types.py:222 ParamType.fail"`` -> ``("click/types.py", 222)``."""
    path, _, line = (via or "").split(" ", 1)[0].rpartition(":")
    return (path, int(line)) if path and line.isdigit() else None


_VALUES = re.compile(
    r"'[^']*'|\"[^\"]*\"|`[^`]*`|<[^>]*>|\(.*?\)|\[.*?\]|\{.*?\}|0x[0-9a-fA-F]+|\d+(?:\.\d+)?|[:;,=|]"
)


def constant_chunk(message: str) -> str:
    pieces = (p.strip(" .!?-") for p in _VALUES.split(message))
    return max(pieces, key=len, default="")


def message_line(message: str) -> str:
    lines = [ln for ln in message.splitlines() if ln.strip()]
    return lines[0].strip() if lines else ""


def run_rg(roots: Sequence[Root], c: Case, method: str, needle: str) -> None:
    rank = file_rank = None
    t0 = time.perf_counter()
    if len(needle) >= 3:
        targets = [str(r.search) for r in roots]
        proc = subprocess.run(
            [
                RG,
                "-F",
                "-n",
                "--sort",
                "path",
                "--no-heading",
                "--with-filename",
                "-g",
                "*.py",
                "--",
                needle,
                *targets,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        hits: list[tuple[str, str, int]] = []
        for ln in proc.stdout.splitlines():
            m = re.match(r"(.+?):(\d+):", ln)
            if m is None:
                continue
            hit = locate(roots, m.group(1), int(m.group(2)))
            if hit is not None:
                hits.append(hit)
            if len(hits) >= 5:
                break
        for k, h in enumerate(hits, 1):
            if rank is None and h == c.truth:
                rank = k
            if file_rank is None and h[:2] == c.truth[:2]:
                file_rank = k
    c.ms[method] = (time.perf_counter() - t0) * 1000
    c.ranks[method] = rank
    c.file_ranks[method] = file_rank


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def row(name: str, cases: list[Case], method: str, target: float | None) -> str:
    n = len(cases)
    if n == 0:
        return f"  {name:<34} {'n=0':>5}"
    ranks = [c.ranks.get(method) for c in cases]
    if method in ("frame located", "answer", "answer (message line only)"):
        h1 = sum(1 for r in ranks if r == 1) / n
        tgt = f"{target:.0%}" if target is not None else ""
        return f"  {name:<34} {n:>5} {h1:>7.1%}{'':>57}   {tgt}"
    base = method.split(" (")[0]
    franks = [c.file_ranks.get(base) for c in cases]
    h1 = sum(1 for r in ranks if r == 1) / n
    h5 = sum(1 for r in ranks if r is not None) / n
    mrr = sum(1 / r for r in ranks if r is not None) / n
    f1 = sum(1 for r in franks if r == 1) / n
    f5 = sum(1 for r in franks if r is not None) / n
    ms = [c.ms[base] for c in cases if base in c.ms]
    tgt = f"{target:.0%}" if target is not None else ""
    return (
        f"  {name:<34} {n:>5} {h1:>7.1%} {h5:>7.1%} {mrr:>6.3f} {f1:>7.1%} {f5:>7.1%}"
        f" {pct(ms, 0.5):>7.1f} {pct(ms, 0.99):>7.1f}   {tgt}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--jobs", type=int, default=min(6, os.cpu_count() or 1))
    ap.add_argument("--no-auto", action="store_true", help="hand-written cases only")
    ap.add_argument("--misses", type=int, default=15)
    ap.add_argument(
        "--postgres", action="store_true", help="the same on a throwaway PostgreSQL server too"
    )
    args = ap.parse_args()
    pg = None
    if args.postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests.pgserver import PgServer

        pg = PgServer.start()
    try:
        run(args, pg.create_database("bench_match") if pg else None)
    finally:
        if pg is not None:
            pg.stop()


def run(args: argparse.Namespace, pg_url: str | None) -> None:

    with tempfile.TemporaryDirectory(prefix="errordex-bench-match-") as td:
        tmp = Path(td)
        sandbox = tmp / "sandbox"
        sandbox.mkdir()
        os.chdir(sandbox)
        store, roots, index_s = build_store(tmp, None)
        print(
            f"indexed {len(roots)} libraries in {index_s:.1f}s: " + ", ".join(r.repo for r in roots)
        )
        shared: Store | None = None
        if pg_url:
            shared, _, pg_s = build_store(tmp, None, pg_url)
            print(f"indexed them into PostgreSQL in {pg_s:.1f}s (SQLite: {index_s:.1f}s)")

        t0 = time.perf_counter()
        cases, counts = build_corpus(roots, sandbox, not args.no_auto, args.jobs)
        classify(store, cases, [r.repo for r in roots])
        hand = sum(1 for c in cases if c.label.startswith("hand#"))
        print(
            f"corpus in {time.perf_counter() - t0:.1f}s: {counts['raised']} exceptions raised, "
            f"{counts['outside']} raised outside the indexed files, {counts['dupes']} duplicates; "
            f"{len(cases)} cases ({hand} of {len(HAND_CASES)} hand-written, {len(cases) - hand} "
            f"automatic); {sum(c.formatted for c in cases)} with formatted values, "
            f"{sum(not c.explicit for c in cases)} raised by the interpreter inside library code "
            f"(no raise statement, or an assert's condition, raised it)"
        )
        by_repo: dict[str, int] = {}
        for c in cases:
            by_repo[c.truth[0]] = by_repo.get(c.truth[0], 0) + 1
        print("cases per library: " + ", ".join(f"{k} {v}" for k, v in sorted(by_repo.items())))

        for c in cases:
            run_errordex(store, c)
            run_message_only(store, c)
            run_rg(roots, c, "rg -F message", message_line(c.message))
            run_rg(roots, c, "rg -F constant chunk", constant_chunk(message_line(c.message)))

        methods = [
            "answer",
            "answer (message line only)",
            "errordex",
            "errordex (strict)",
            "errordex (via counts)",
            "errordex (any frame)",
            "frame located",
            "rg -F message",
            "rg -F constant chunk",
        ]
        subsets: list[tuple[str, list[Case], float | None]] = [
            ("all", cases, TARGET_ALL),
            ("formatted values", [c for c in cases if c.formatted], TARGET_FORMATTED),
            ("constant messages", [c for c in cases if not c.formatted], None),
            ("explicit raise/assert", [c for c in cases if c.explicit], TARGET_ALL),
            (
                "  ... with formatted values",
                [c for c in cases if c.explicit and c.formatted],
                TARGET_FORMATTED,
            ),
            ("interpreter-raised in library", [c for c in cases if not c.explicit], None),
            ("hand-written", [c for c in cases if c.label.startswith("hand#")], None),
            ("automatic", [c for c in cases if not c.label.startswith("hand#")], None),
        ]
        head = (
            f"  {'subset':<34} {'n':>5} {'hit@1':>7} {'hit@5':>7} {'MRR@5':>6} {'file@1':>7}"
            f" {'file@5':>7} {'p50 ms':>7} {'p99 ms':>7}   target hit@1"
        )
        for method in methods:
            print(f"\n{method}")
            print(head)
            for name, sub, target in subsets:
                print(row(name, sub, method, target if method == "answer" else None))
            if method == "frame located":
                print("  (raised_in = the truth path:line; hit@1 only)")
            if method == "answer":
                print("  (the part's first answer, entry or location, is the truth; hit@1 only)")
            if method == "answer (message line only)":
                print("  (an interpreter-raised message alone names no place: those are misses)")
            if method.startswith("answer"):
                for name, sub, _ in (subsets[0], subsets[3], subsets[5]):
                    miss = [c for c in sub if c.ranks.get(method) != 1]
                    wrong = sum(1 for c in miss if c.answered.get(method))
                    print(
                        f"  misses, {name.strip(' .')}: {len(miss)} ({wrong} a wrong answer,"
                        f" {len(miss) - wrong} no answer)"
                    )

        if shared is not None:
            compare_stores(store, shared, cases)
            shared.close()
        misses = [c for c in cases if c.ranks.get("answer") != 1]
        print(f"\nanswer misses: {len(misses)} (first {args.misses} shown)")
        for c in misses[: args.misses]:
            r = c.ranks.get("errordex")
            print(f"- [{c.label}] {c.exc_type}: {message_line(c.message)[:120]!r}")
            print(
                f"    truth {c.truth[0]} {c.truth[1]}:{c.truth[2]}"
                f" ({'formatted' if c.formatted else 'constant'},"
                f" {'raise' if c.explicit else 'interpreter'}); entry rank {r or '>5'};"
                f" first: {c.first[:140]}"
            )
        store.close()


if __name__ == "__main__":
    main()
