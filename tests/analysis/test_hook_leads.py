"""A method the library or the runtime calls on the user's behalf is not
"what you called" (issue 16): an ``on_…`` hook its own object's methods call
is led by the public call that fires it (werkzeug's
``Request.on_json_loading_failed``, called by ``get_json``), and a method
Python or Rust runs by itself (``__del__``, ``__exit__``, ``Drop::drop``)
is said to run so. The small repositories copy the shape of real code."""

from __future__ import annotations

from pathlib import Path

from tests.repo_files import index_files


def _summary(tmp_path: Path, files: dict[str, str], message: str) -> str:
    store, sid = index_files(tmp_path, files, "acme/x")
    entry = next(e for e in store.entries() if e.message == message)
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    return str(stored["analysis"]["summary"]["text"])


#: werkzeug/wrappers/request.py and werkzeug/middleware/lint.py, cut down
_WEB = {
    "weblib/__init__.py": "from weblib.request import Request\nfrom weblib.lint import Guarded\n",
    "weblib/request.py": (
        "import json\n\n\n"
        "class BadRequest(Exception):\n    pass\n\n\n"
        "class Request:\n"
        "    def __init__(self, data):\n"
        "        self.data = data\n\n"
        "    def get_json(self):\n"
        "        try:\n"
        "            return json.loads(self.data)\n"
        "        except ValueError as e:\n"
        "            return self.on_json_loading_failed(e)\n\n"
        "    def on_json_loading_failed(self, e):\n"
        '        raise BadRequest(f"Failed to decode JSON object: {e}")\n'
    ),
    "weblib/lint.py": (
        "class Guarded:\n"
        "    def __init__(self, iterator):\n"
        "        self.closed = False\n"
        "        self.iterator = iterator\n\n"
        "    def __del__(self):\n"
        "        if not self.closed:\n"
        '            raise RuntimeError("Iterator was garbage collected before it was closed.")\n'
    ),
}


def test_an_on_hook_the_library_calls_is_led_by_the_call_that_fires_it(tmp_path: Path) -> None:
    summary = _summary(tmp_path, _WEB, "Failed to decode JSON object: {e}")
    assert summary.startswith("You called `weblib.Request.get_json`"), summary
    assert "`Request.on_json_loading_failed` raises" in summary


def test_a_del_is_said_to_run_on_garbage_collection(tmp_path: Path) -> None:
    summary = _summary(tmp_path, _WEB, "Iterator was garbage collected before it was closed.")
    assert summary.startswith(
        "The garbage collection of a `Guarded` (`Guarded.__del__`) raises `RuntimeError`"
    ), summary
    assert "You called" not in summary


#: reqwest's blocking/client.rs: a `Drop` impl that panics
_DROP = {
    "Cargo.toml": '[package]\nname = "fetch"\nversion = "0.12.0"\n',
    "src/lib.rs": (
        "pub struct Handle {\n    pub thread: Option<u32>,\n}\n\n"
        "impl Drop for Handle {\n"
        "    fn drop(&mut self) {\n"
        '        self.thread.take().expect("runtime thread panicked");\n'
        "    }\n"
        "}\n"
    ),
}


def test_a_drop_impl_is_said_to_run_when_the_value_is_dropped(tmp_path: Path) -> None:
    summary = _summary(tmp_path, _DROP, "runtime thread panicked")
    assert summary.startswith("Dropping a `Handle` (`<Handle as Drop>::drop`) panics"), summary


#: werkzeug/routing: converters a module-level table holds, looked up by a
#: rule's `<any(a, b):x>` and called as `self._converters[name].to_url(value)`
_ROUTES = {
    "routes/__init__.py": (
        "from routes.converters import AnyConverter\nfrom routes.rules import Rule\n"
    ),
    "routes/converters.py": (
        "class BaseConverter:\n"
        "    def to_url(self, value):\n"
        "        return str(value)\n\n\n"
        "class AnyConverter(BaseConverter):\n"
        "    def __init__(self, *items):\n"
        "        self.items = set(items)\n\n"
        "    def to_url(self, value):\n"
        "        if value in self.items:\n"
        "            return str(value)\n"
        "        raise ValueError(f\"'{value}' is not one of {self.items}\")\n\n\n"
        "class PathConverter(BaseConverter):\n"
        "    def to_url(self, value):\n"
        "        return value.lstrip('/')\n\n\n"
        'DEFAULT_CONVERTERS = {"any": AnyConverter, "path": PathConverter}\n'
    ),
    "routes/rules.py": (
        "from routes.converters import DEFAULT_CONVERTERS\n\n\n"
        "class Rule:\n"
        "    def __init__(self, name, args):\n"
        "        self._converters = {name: DEFAULT_CONVERTERS[name](*args)}\n\n"
        "    def build(self, name, value):\n"
        "        return self._converters[name].to_url(value)\n"
    ),
}


def test_a_method_reached_through_a_table_of_classes_is_led_by_the_call_that_reads_it(
    tmp_path: Path,
) -> None:
    summary = _summary(tmp_path, _ROUTES, "'{value}' is not one of {self.items}")
    assert summary.startswith("You called `routes.Rule.build"), summary
    assert "`AnyConverter.to_url` raises" in summary


#: a table of converter instances, each looked up by a path's `{x:float}`
#: and bound to a name before its method is called (the shape of routing
#: libraries that keep `{"float": FloatConvertor(), …}`)
_CONVERTORS = {
    "paths/__init__.py": "from paths.routing import url_path_for\n",
    "paths/convertors.py": (
        "class Convertor:\n"
        "    def to_string(self, value):\n"
        "        return str(value)\n\n\n"
        "class FloatConvertor(Convertor):\n"
        "    def to_string(self, value):\n"
        "        value = float(value)\n"
        '        assert value >= 0.0, "Negative floats are not supported"\n'
        "        return str(value)\n\n\n"
        "class IntegerConvertor(Convertor):\n"
        "    def to_string(self, value):\n"
        "        return str(int(value))\n\n\n"
        'CONVERTOR_TYPES = {"float": FloatConvertor(), "int": IntegerConvertor()}\n'
    ),
    "paths/routing.py": (
        "from paths.convertors import CONVERTOR_TYPES\n\n\n"
        "def url_path_for(kind, value):\n"
        "    convertor = CONVERTOR_TYPES[kind]\n"
        "    return convertor.to_string(value)\n"
    ),
}


def test_a_method_of_a_table_item_bound_to_a_name_is_led_by_the_call_that_reads_it(
    tmp_path: Path,
) -> None:
    summary = _summary(tmp_path, _CONVERTORS, "Negative floats are not supported")
    assert summary.startswith("You called `paths.url_path_for"), summary
    assert "`FloatConvertor.to_string`" in summary


def test_an_item_taken_by_position_is_no_table_lookup(tmp_path: Path) -> None:
    # xarray's accessor_str: `x[-1].join(x[:-1])` is a string's join, not
    # a lookup in a table of classes that define `join`
    files = dict(_ROUTES)
    files["routes/rules.py"] = files["routes/rules.py"].replace(
        "self._converters[name].to_url(value)", "list(self._converters.values())[-1].to_url(value)"
    )
    summary = _summary(tmp_path, files, "'{value}' is not one of {self.items}")
    assert not summary.startswith("You called `routes.Rule.build"), summary


def test_when_it_happens_goes_through_the_call_that_fires_the_hook(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _WEB, "acme/x")
    entry = next(e for e in store.entries() if e.message == "Failed to decode JSON object: {e}")
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    trigger = stored["analysis"]["trigger"]["text"]
    assert trigger.startswith("Calling `Request.get_json` → `Request.on_json_loading_failed`")
