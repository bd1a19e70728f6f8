"""Real node output pasted into ``errordex explain``: small scripts that
call express and zod (npm's packages, zod's with its TypeScript sources)
wrongly are run with ``node``, and what they print on stderr leads to the
right page (the library function and the CLI), ``[cause]`` chains included.
The layouts node prints (``Uncaught``, ``TypeError [ERR_X]``, ``at async``)
are read from real runs too."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from errordex.cli import main
from errordex.explain import explain_text
from errordex.paste import parse
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.npm_corpus import node_modules

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("npm") / "errordex.db"
    store = SqliteStore(path)
    index(str(node_modules() / "express"), store, name="expressjs/express", jobs=1)
    index(str(node_modules() / "zod"), store, name="colinhacks/zod", jobs=1)
    store.close()
    return path


def run_node(tmp_path: Path, script: str) -> str:
    """What node prints on stderr running ``script`` (which fails), the
    packages found in the npm corpus."""
    path = tmp_path / "misuse.js"
    path.write_text(script, encoding="utf-8")
    done = subprocess.run(
        ["node", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "NODE_PATH": str(node_modules())},
    )
    assert done.returncode != 0, done.stdout
    return done.stderr


def explain(db: Path, text: str) -> list[dict[str, Any]]:
    store = SqliteStore(db)
    try:
        parts: list[dict[str, Any]] = explain_text(store, text)["parts"]
    finally:
        store.close()
    return parts


def test_an_express_misuse_leads_to_its_page(db: Path, tmp_path: Path) -> None:
    stderr = run_node(tmp_path, "const express = require('express');\nexpress().use();\n")
    assert "TypeError: app.use() requires a middleware function" in stderr
    (part,) = explain(db, stderr)
    answer = part["answer"]
    assert answer["kind"] == "entry" and answer["repo"] == "expressjs/express"
    assert answer["message"] == "app.use() requires a middleware function"
    assert (answer["path"], answer["line"], answer["symbol"]) == (
        "lib/application.js",
        217,
        "app.use",
    )


def test_a_message_built_in_a_local_reads_the_values_node_printed(db: Path, tmp_path: Path) -> None:
    """express builds ``var msg = 'Route.' + method + '() requires ...' + type``
    and throws ``new Error(msg)``: the local is the message, with its holes."""
    stderr = run_node(tmp_path, "require('express')().get('/', 'nope');\n")
    assert "Error: Route.get() requires a callback function but got a [object String]" in stderr
    (part,) = explain(db, stderr)
    assert part["answer"]["message"] == (
        "Route.${method}() requires a callback function but got a ${type}"
    )
    assert (part["answer"]["path"], part["answer"]["line"]) == ("lib/router/route.js", 216)
    assert part["matches"][0]["values"] == {"method": "get", "type": "[object String]"}


def test_the_cli_reads_node_stderr_and_shows_the_page(db: Path, tmp_path: Path) -> None:
    stderr = run_node(tmp_path, "const express = require('express');\nexpress().use();\n")
    res = CliRunner().invoke(
        main, ["explain", "-"], input=stderr, env={"ERRORDEX_DB": str(db), "COLUMNS": "200"}
    )
    assert res.exit_code == 0, res.output
    assert "  your error: lib/application.js:217 in app.use\n" in res.stdout
    assert "You called `app.use` (`lib/application.js`), and it throws `TypeError`" in res.stdout


def test_a_cause_chain_answers_with_the_librarys_cause(db: Path, tmp_path: Path) -> None:
    """The script's own error has no page; its ``[cause]``, thrown by express, has."""
    stderr = run_node(
        tmp_path,
        "const express = require('express');\n"
        "try {\n  express().use();\n} catch (e) {\n"
        "  throw new Error('server setup failed', { cause: e });\n}\n",
    )
    assert "[cause]: TypeError: app.use() requires a middleware function" in stderr
    outer, cause = explain(db, stderr)
    assert outer["message"] == "server setup failed" and outer["answer"] is None
    assert cause["relation"] == "cause" and cause["exception_type"] == "TypeError"
    assert cause["answer"]["message"] == "app.use() requires a middleware function"
    assert cause["answer"]["line"] == 217


def test_a_typescript_package_answers_from_the_code_node_ran(db: Path, tmp_path: Path) -> None:
    """zod ships its .ts sources beside the .cjs node runs: the page is the
    entry they share, and the answer the site the stack points at."""
    stderr = run_node(
        tmp_path, "const { z } = require('zod');\nz.enum(['red', 'green']).extract(['blue']);\n"
    )
    assert "Error: Key blue not found in enum" in stderr
    (part,) = explain(db, stderr)
    assert part["answer"]["message"] == "Key ${value} not found in enum"
    assert part["answer"]["path"] == "v4/classic/schemas.cjs"
    assert part["matches"][0]["values"] == {"value": "blue"}
    paths = {s["path"] for s in part["matches"][0]["sites"]}
    assert "src/v4/classic/schemas.ts" in paths


def test_an_error_class_that_sets_no_name_is_found_by_what_node_prints(
    db: Path, tmp_path: Path
) -> None:
    """zod's ``class $ZodAsyncError extends Error`` sets no ``name``: its
    ``stack``, as a program logs it, reads ``Error: Encountered Promise ...``
    for ``throw new core.$ZodAsyncError()`` (node's own report of an
    uncaught one writes the class's name there). The class (defined alike
    in .ts, .js and .cjs) gives the throw its message, and ``Error`` does
    not rule the class out (it answered "raised by the JavaScript runtime,
    not by a throw")."""
    stderr = run_node(
        tmp_path,
        "const { z } = require('zod');\n"
        "try {\n  z.string().refine(async () => true).parse('x');\n"
        "} catch (err) {\n  console.error(err.stack);\n  process.exit(1);\n}\n",
    )
    assert stderr.startswith("Error: Encountered Promise during synchronous parse.")
    (part,) = explain(db, stderr)
    assert part["exception_type"] == "Error"
    answer = part["answer"]
    assert answer["kind"] == "entry"
    assert answer["message"] == (
        "Encountered Promise during synchronous parse. Use .parseAsync() instead."
    )
    assert (answer["path"], answer["line"]) == ("v4/core/schemas.cjs", 78)
    assert part["matches"][0]["exception_types"] == ["core.$ZodAsyncError"]


def test_node_layouts_are_read_from_real_runs(tmp_path: Path) -> None:
    coded = subprocess.run(
        ["node", "-e", "Buffer.alloc(-1)"], capture_output=True, text=True, timeout=60
    ).stderr
    (err,) = parse(coded)
    assert (err.exception_type, err.values) == ("RangeError", {"code": "ERR_OUT_OF_RANGE"})
    assert err.message.startswith('The value of "size" is out of range.')
    assert err.frames[0].path == "node:buffer"

    script = tmp_path / "later.js"
    script.write_text(
        "async function inner() { await null; throw new Error('async failure'); }\n"
        "async function outer() { await inner(); }\nouter();\n",
        encoding="utf-8",
    )
    later = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=60)
    (err,) = parse(later.stderr)
    assert err.message == "async failure"
    assert [(f.function, f.line) for f in err.frames] == [("inner", 1), ("outer", 2)]

    subclass = tmp_path / "subclass.js"
    subclass.write_text(
        "class PortError extends TypeError {}\nthrow new PortError('bad port');\n",
        encoding="utf-8",
    )
    uncaught = subprocess.run(["node", str(subclass)], capture_output=True, text=True)
    assert "PortError [TypeError]: bad port" in uncaught.stderr
    (err,) = parse(uncaught.stderr)
    assert (err.exception_type, err.message, err.values) == ("PortError", "bad port", {})

    repl = subprocess.run(
        ["node", "-i"],
        input="throw new RangeError('from the repl')\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    (err,) = parse(repl.stdout)
    assert (err.exception_type, err.message) == ("RangeError", "from the repl")


def test_explain_json_of_node_output_keeps_version_1(db: Path, tmp_path: Path) -> None:
    stderr = run_node(tmp_path, "require('express')().use();\n")
    res = CliRunner().invoke(
        main, ["explain", "--json", "-"], input=stderr, env={"ERRORDEX_DB": str(db)}
    )
    data = json.loads(res.stdout)
    assert res.exit_code == 0 and data["version"] == 1
    assert data["parts"][0]["language"] == "javascript"


def test_a_class_that_sets_its_name_is_found_by_that_name(tmp_path: Path) -> None:
    """``this.name = 'BadValueError'`` in ``class Renamed``: its stack, as a
    program logs it, reads ``BadValueError: ...`` and node's report of it
    uncaught ``Renamed [BadValueError]: ...`` (the class, then its name): the
    entry's type is the name, and both lead to it."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "package.json").write_text('{"name": "renamed", "version": "1.0.0"}\n')
    (lib / "index.js").write_text(
        "class Renamed extends Error {\n"
        "  constructor(key) {\n"
        "    super(`bad value for ${key}`);\n"
        "    this.name = 'BadValueError';\n"
        "  }\n"
        "}\n"
        "exports.check = function check(key) {\n"
        "  if (key !== 'ok') throw new Renamed(key);\n"
        "};\n",
        encoding="utf-8",
    )
    db = tmp_path / "errordex.db"
    store = SqliteStore(db)
    index(str(lib), store, name="acme/renamed", jobs=1)
    (entry,) = store.entries()
    assert (entry.message, entry.exception_types) == ("bad value for ${key}", ("BadValueError",))
    store.close()
    uncaught = run_node(tmp_path, f"require({str(lib)!r}).check('nope');\n")
    assert "Renamed [BadValueError]: bad value for nope" in uncaught
    logged = run_node(
        tmp_path,
        f"try {{ require({str(lib)!r}).check('nope'); }}\n"
        "catch (err) { console.error(err.stack); process.exit(1); }\n",
    )
    assert logged.startswith("BadValueError: bad value for nope")
    for stderr in (uncaught, logged):
        (part,) = explain(db, stderr)
        assert part["exception_type"] == "BadValueError"
        assert part["answer"]["kind"] == "entry" and part["answer"]["line"] == 8
        assert part["matches"][0]["values"] == {"key": "nope"}
