"""``called.public_call``: the public function a pasted stack shows the
user called, read against a repository's files (shapes of sqlalchemy's
decorated ``create_engine``, httpx's private modules, requests' ``api``)."""

from __future__ import annotations

from errordex.called import public_call, shown

FILES = {
    # sqlalchemy: a decorator's nested wrapper passes the call on
    "pkg/util/deprecations.py": (
        "def deprecated_params(**specs):\n"
        "    def decorate(fn):\n"
        "        def warned(*args, **kwargs):\n"
        "            return fn(*args, **kwargs)\n"
        "        return warned\n"
        "    return decorate\n"
    ),
    "pkg/engine/create.py": (
        "from ..util.deprecations import deprecated_params\n\n\n"
        "@deprecated_params()\n"
        "def create_engine(url):\n"
        "    return _load(url)\n\n\n"
        "def _load(url):\n"
        "    raise ValueError(url)\n"
    ),
    "pkg/engine/__init__.py": "from .create import create_engine as create_engine\n",
    "pkg/__init__.py": "from .engine import create_engine as create_engine\n",
    # httpx: a class in a private module, re-exported by the package
    "pkg/_client.py": (
        "class Client:\n"
        "    def send(self, request):\n"
        "        return self._send(request)\n\n"
        "    def _send(self, request):\n"
        "        raise RuntimeError(request)\n"
    ),
    "pkg/_hidden.py": "def helper(x):\n    raise KeyError(x)\n",
}


def read(path: str) -> str | None:
    return FILES.get(path)


def test_a_decorators_wrapper_is_passed_over_for_the_call_it_wraps() -> None:
    frames = [
        ("pkg/util/deprecations.py", 4, "warned"),
        ("pkg/engine/create.py", 6, "create_engine"),
        ("pkg/engine/create.py", 10, "_load"),
    ]
    got = public_call(frames, read)
    assert got is not None
    assert (got["path"], got["function"], got["line"], got["called_at"]) == (
        "pkg/engine/create.py",
        "create_engine",
        5,
        6,
    )
    # by the outermost re-export, with its line as the evidence
    assert got["exported"] == {"name": "pkg.create_engine", "path": "pkg/__init__.py", "line": 1}
    assert shown(got) == "pkg.create_engine"


def test_a_private_modules_class_is_called_by_its_exported_name() -> None:
    FILES["pkg/__init__.py"] += "from ._client import Client\n"
    try:
        got = public_call([("pkg/_client.py", 3, "send"), ("pkg/_client.py", 6, "_send")], read)
    finally:
        FILES["pkg/__init__.py"] = FILES["pkg/__init__.py"].replace(
            "from ._client import Client\n", ""
        )
    assert got is not None and shown(got) == "pkg.Client.send"


def test_no_public_function_on_the_stack_is_no_call() -> None:
    """A private module nobody re-exports from, a private method: neither is
    something a user calls."""
    assert public_call([("pkg/_hidden.py", 2, "helper")], read) is None
    assert public_call([("pkg/_client.py", 6, "_send")], read) is None


def test_a_frame_the_store_does_not_hold_proves_nothing_further() -> None:
    frames = [("pkg/missing.py", 3, "go"), ("pkg/engine/create.py", 6, "create_engine")]
    assert public_call(frames, read) is None


def test_a_frame_whose_line_is_in_no_function_of_that_name_is_no_call() -> None:
    """Another version of the file: the printed function is not at that line."""
    assert public_call([("pkg/engine/create.py", 10, "create_engine")], read) is None


RUST = {
    "src/lib.rs": (
        "pub struct Event {\n"
        "    written: bool,\n"
        "}\n\n"
        "impl Event {\n"
        "    pub fn json_data(&mut self, text: &str) -> usize {\n"
        "        self.write_buf(text)\n"
        "    }\n\n"
        "    fn write_buf(&mut self, text: &str) -> usize {\n"
        "        if self.written {\n"
        '            panic!("Called `Event::data*` multiple times");\n'
        "        }\n"
        "        text.len()\n"
        "    }\n"
        "}\n"
    )
}


def test_a_backtraces_frame_runs_the_pub_fn_it_names() -> None:
    """A Rust backtrace prints the function's path (``sse::Event::json_data``)."""
    frames = [
        ("src/lib.rs", 7, "sse::Event::json_data"),
        ("src/lib.rs", 12, "sse::Event::write_buf"),
    ]
    got = public_call(frames, RUST.get)
    assert got is not None
    assert (got["function"], got["line"], got["called_at"]) == ("Event::json_data", 6, 7)
    # the private helper is no call of the user's
    assert public_call(frames[1:], RUST.get) is None
