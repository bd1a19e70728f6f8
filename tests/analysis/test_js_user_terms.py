"""JavaScript pages in the user's terms (issue 16): a method defined under a
computed name in a loop (express's ``Route.prototype[method]``) leads with
the method a user calls, and a ``typeof`` check says what kind of value to
pass, in the user's call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from errordex.store.sqlite import SqliteStore
from tests.repo_files import index_files


def _page(store: SqliteStore, sid: int, message: str) -> dict[str, Any]:
    (entry,) = [e for e in store.entries() if e.message == message]
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    return stored


_ROUTE = {
    "package.json": '{"name": "router", "version": "4.0.0", "main": "lib/route.js"}\n',
    "lib/route.js": (
        "'use strict';\n\n"
        "var methods = require('methods');\n\n"
        "module.exports = Route;\n\n"
        "function Route(path) {\n  this.path = path;\n  this.stack = [];\n}\n\n"
        "methods.forEach(function (method) {\n"
        "  Route.prototype[method] = function () {\n"
        "    var handles = Array.prototype.slice.call(arguments);\n"
        "    for (var i = 0; i < handles.length; i++) {\n"
        "      var handle = handles[i];\n"
        "      if (typeof handle !== 'function') {\n"
        "        var msg = 'Route.' + method + '() requires a callback function';\n"
        "        throw new Error(msg);\n"
        "      }\n"
        "      this.stack.push(handle);\n"
        "    }\n"
        "    return this;\n"
        "  };\n"
        "});\n\n"
        "Route.prototype.use = function use(fn) {\n"
        "  if (typeof fn !== 'function') {\n"
        "    throw new TypeError('Route.use() requires a middleware function');\n"
        "  }\n"
        "  this.stack.push(fn);\n"
        "};\n"
    ),
}


def test_a_method_defined_under_a_computed_name_leads_with_the_method_a_user_calls(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _ROUTE, "acme/router")
    page = _page(store, sid, "Route.${method}() requires a callback function")["analysis"]
    assert page["summary"]["text"].startswith("You called `Route.get` (`lib/route.js`)")
    assert page["solutions"][0]["text"].startswith(
        "Pass a function to `Route.get(…)`: it throws when what it checks at "
        "lib/route.js:17 is not a function"
    )


def test_a_typeof_check_on_a_parameter_says_pass_a_function_as_it(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _ROUTE, "acme/router")
    solutions = _page(store, sid, "Route.use() requires a middleware function")["analysis"][
        "solutions"
    ]
    assert solutions[0]["text"] == (
        "Pass a function as `fn` to `Route.use(…)`: it checks `typeof fn !== 'function'` "
        "at lib/route.js:28."
    )
