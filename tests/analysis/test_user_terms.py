"""Pages in the user's terms (issue 16): what the user called, the check in
that call's arguments, no filler, and only tests that really reproduce it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from errordex.store.sqlite import SqliteStore
from errordex.views import entry_json
from tests.repo_files import index_files


def _page(store: SqliteStore, sid: int, message: str) -> dict[str, Any]:
    (entry,) = [e for e in store.entries() if e.message == message]
    stored = store.analysis(sid, entry.id)
    assert stored is not None
    return stored


def _text(stored: dict[str, Any]) -> str:
    return json.dumps(stored["analysis"], ensure_ascii=False)


_SHAPES = {
    "shapes/__init__.py": (
        "def _check(size):\n"
        "    if size < 0:\n"
        '        raise ValueError("negative size")\n'
        "    return size\n\n\n"
        "def area(width, height):\n"
        "    return _check(width) * _check(height)\n\n\n"
        "def scale(factor):\n"
        "    if factor == 0:\n"
        '        raise ValueError("zero factor")\n'
        "    return factor\n\n\n"
        "def resize(shape, factor):\n"
        "    try:\n"
        "        return scale(factor)\n"
        "    except ValueError:\n"
        "        return shape\n"
    ),
    "tools/report.py": (
        "def main():\n    try:\n        int('x')\n    except ValueError:\n        return 1\n"
    ),
    "tests/test_shapes.py": (
        "import pytest\n\nfrom shapes import area, scale\n\n\n"
        "def test_negative():\n"
        '    with pytest.raises(KeyError, match="negative size"):\n'
        "        area(-1, 2)\n\n\n"
        "def test_zero():\n"
        '    with pytest.raises(ValueError, match="zero factor"):\n'
        "        scale(0)\n\n\n"
        "def test_zero_message_is_not_internal():\n"
        "    try:\n"
        "        scale(0)\n"
        "    except ValueError as exc:\n"
        '        assert "zero factor" not in str(exc.__cause__)\n'
    ),
}


def test_a_builtin_exception_page_has_no_builtin_or_add_a_test_filler(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _SHAPES, "acme/shapes")
    text = _text(_page(store, sid, "zero factor"))
    assert "It is a builtin exception" not in text
    assert "Add a test like" not in text
    assert "does not hold for your input" not in text


def test_a_catch_in_an_unrelated_function_is_not_offered(tmp_path: Path) -> None:
    # tools/report.py's `main` catches ValueError, but never calls `scale`.
    store, sid = index_files(tmp_path, _SHAPES, "acme/shapes")
    text = _text(_page(store, sid, "zero factor"))
    assert "as the repo itself does" not in text
    assert "tools/report.py" not in text


def test_a_catch_on_the_way_to_the_site_says_the_library_catches_it(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _SHAPES, "acme/shapes")
    stored = _page(store, sid, "zero factor")
    (on_path,) = [c for c in stored["facts"]["catches"] if c.get("on_path")]
    assert (on_path["function"], on_path["calls"]) == ("resize", "scale")
    assert stored["analysis"]["summary"]["text"].endswith(
        " The library catches it itself in `resize` (shapes/__init__.py:20): "
        "a caller of `resize` does not see it."
    )
    assert (
        "The library catches it itself: `resize` calls `scale` inside `try` … "
        "`except ValueError` (shapes/__init__.py:20)" in stored["analysis"]["meaning"]["text"]
    )


def test_the_summary_leads_with_the_public_call_and_its_argument(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _SHAPES, "acme/shapes")
    summary = _page(store, sid, "zero factor")["analysis"]["summary"]["text"]
    assert summary.startswith(
        "You called `shapes.scale(factor=…)` (`shapes/__init__.py`), and it raises `ValueError` "
        "when `factor == 0`"
    )


def test_a_private_helpers_check_is_lifted_to_the_public_calls_arguments(
    tmp_path: Path,
) -> None:
    # `_check(size)` is private; `area` calls it as `_check(width) * _check(height)`:
    # the check reads in what the user passed to `area`, never in `size`.
    store, sid = index_files(tmp_path, _SHAPES, "acme/shapes")
    stored = _page(store, sid, "negative size")
    analysis = stored["analysis"]
    assert analysis["summary"]["text"] == (
        "You called `shapes.area(width=…, height=…)` (`shapes/__init__.py`), and on its way `_check` "
        "raises `ValueError` when `width < 0 or height < 0` for the arguments you passed."
    )
    assert "shapes/__init__.py:8" in analysis["summary"]["evidence"]  # the call it went through
    assert analysis["trigger"]["text"].endswith(
        " when `width < 0 or height < 0` for the arguments you pass."
    )
    texts = [s["text"] for s in analysis.get("solutions", []) + analysis["defensive_patterns"]]
    assert texts and not any("size" in t for t in texts)


def test_a_private_check_that_cannot_be_lifted_is_located_never_given_as_advice(
    tmp_path: Path,
) -> None:
    files = {
        "shapes/__init__.py": (
            "def _check(size):\n"
            "    limit = size * 2\n"
            "    if limit < 0:\n"
            '        raise ValueError("negative size")\n'
            "    return size\n\n\n"
            "def area(width, height):\n"
            "    w = width\n"
            "    return _check(w + height)\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/shapes")
    analysis = _page(store, sid, "negative size")["analysis"]
    assert analysis["summary"]["text"] == (
        "You called `shapes.area` (`shapes/__init__.py`), and on its way `_check` raises `ValueError` "
        "when its own check finds `limit < 0` (shapes/__init__.py:3)."
    )
    assert not any("limit" in s["text"] for s in analysis.get("solutions", []))


_RESIZE = {
    "img/__init__.py": (
        "def _check_size(n):\n"
        "    if n > 100:\n"
        '        raise ValueError("too wide")\n'
        "    return n\n\n\n"
        "def _scale(image, columns):\n"
        "    return _check_size(n=columns * 2)\n\n\n"
        "def resize(image, width):\n"
        "    return _scale(image, width)\n"
    ),
    "tests/test_img.py": (
        "import pytest\n\nfrom img import resize\n\n\n"
        "def test_too_wide():\n"
        '    with pytest.raises(ValueError, match="too wide"):\n'
        "        resize(None, 60)\n"
    ),
}


def test_a_check_is_lifted_through_two_calls_and_the_fix_guards_the_public_call(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _RESIZE, "acme/img")
    stored = _page(store, sid, "too wide")
    (up,) = stored["facts"]["lifted"]
    assert (up["condition"], up["text"], up["function"]) == (
        "n > 100",
        "(width * 2) > 100",
        "resize",
    )
    assert [c["text"] for c in up["calls"]] == [
        "_scale(image, width)",
        "_check_size(n=columns * 2)",
    ]
    analysis = stored["analysis"]
    assert analysis["summary"]["text"].startswith(
        "You called `img.resize(width=…)` (`img/__init__.py`), and on its way `_check_size` raises "
        "`ValueError` when `(width * 2) > 100` for the arguments you passed."
    )
    fix = analysis["example_fix"]
    assert fix["before"]["code"].endswith("\nresize(None, 60)")
    assert fix["after"]["code"].endswith("if width * 2 <= 100:\n    resize(None, width)")


def test_a_rust_helpers_assert_is_lifted_through_a_method_call_on_self(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "buf"\nversion = "1.0.0"\n',
        "src/lib.rs": (
            "pub struct Buf {\n    len: usize,\n}\n\n"
            "impl Buf {\n"
            "    fn check(&self, at: usize) {\n"
            '        assert!(at <= self.len, "split out of bounds");\n'
            "    }\n\n"
            "    pub fn split_to(&mut self, at: usize) -> usize {\n"
            "        self.check(at);\n"
            "        at\n"
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/buf")
    summary = _page(store, sid, "split out of bounds")["analysis"]["summary"]["text"]
    assert summary.startswith(
        "You called `buf::Buf::split_to(at)` (`src/lib.rs`), and on its way `Buf::check` panics"
    )
    assert "when `at <= self.len` is false for the arguments you passed" in summary


def test_a_test_expecting_another_exception_type_is_no_reproduction(tmp_path: Path) -> None:
    # test_negative expects KeyError: it shares the words, not the error.
    store, sid = index_files(tmp_path, _SHAPES, "acme/shapes")
    stored = _page(store, sid, "negative size")
    assert stored["facts"]["tests"] == []


def test_an_assertion_that_the_text_is_absent_is_no_reproduction(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _SHAPES, "acme/shapes")
    tests = _page(store, sid, "zero factor")["facts"]["tests"]
    assert [(t["test"], t["kind"]) for t in tests] == [("test_zero", "pytest.raises")]


def test_the_example_fix_is_the_tests_call_run_only_when_the_check_passes(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _SHAPES, "acme/shapes")
    fix = _page(store, sid, "zero factor")["analysis"]["example_fix"]
    assert fix["before"]["code"].endswith("\nscale(0)")
    assert fix["after"]["code"].endswith("factor = 0\nif factor != 0:\n    scale(factor)")


def test_identical_snippets_of_many_sites_are_shown_once(tmp_path: Path) -> None:
    # The same stub in three kernels, each in a function of its own name.
    kernel = 'fn run{i}() {{\n    unimplemented!("flash-attn is not compiled in")\n}}\n'
    files = {f"kernels/k{i}/src/lib.rs": kernel.format(i=i) for i in range(3)}
    store, sid = index_files(tmp_path, files, "acme/kernels")
    (entry,) = list(store.entries())
    data = entry_json(entry, store.snapshot(sid), store, with_snippets=True)
    shown = [s for s in data["sites"] if "snippet" in s]
    same = [s["same_code_as"] for s in data["sites"] if "same_code_as" in s]
    assert len(shown) == 1 and len(same) == 2
    assert set(same) == {f"{shown[0]['path']}:{shown[0]['line']}"}


def test_a_cargo_line_carries_the_workspace_version(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n\n[workspace.package]\nversion = "0.19.1"\n',
        "crates/top/Cargo.toml": (
            '[package]\nname = "top"\nversion.workspace = true\n\n'
            "[features]\ndefault = []\nautodiff = []\n"
        ),
        "crates/top/src/lib.rs": (
            '#[cfg(not(feature = "autodiff"))]\n'
            "pub fn backward() {\n"
            '    unimplemented!("Requires the autodiff feature")\n'
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/top")
    stored = _page(store, sid, "Requires the autodiff feature")
    (feature,) = stored["facts"]["features"]
    assert feature["dependency_line"] == 'top = { version = "0.19.1", features = ["autodiff"] }'


def test_the_catalog_lists_public_errors_first_and_generic_and_test_support_ones_last(
    tmp_path: Path,
) -> None:
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["core", "core-tests"]\n',
        "core/Cargo.toml": '[package]\nname = "core"\nversion = "1.0.0"\n',
        "core/src/lib.rs": (
            "pub fn open(n: u32) {\n"
            '    if n == 0 { panic!("zero handles") }\n'
            "}\n\n"
            "fn pack(n: u32) {\n"
            '    if n == 1 { panic!("bad packing") }\n'
            '    if n == 2 { panic!("bad packing") }\n'
            "}\n\n"
            "pub fn later() {\n"
            "    todo!()\n"
            "}\n"
        ),
        "core-tests/Cargo.toml": '[package]\nname = "core-tests"\nversion = "1.0.0"\n',
        "core-tests/src/lib.rs": (
            "pub fn check(a: u32, b: u32) {\n"
            '    if a != b { panic!("Test failed. Expected: {} Found: {}", a, b) }\n'
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/core")
    messages = {e.id: e.message for e in store.entries()}
    order = [messages[i] for i in store.catalog_order(sid)]
    assert order == [
        "zero handles",
        "bad packing",
        "",  # the bare todo!(): an entry without a message of its own
        "Test failed. Expected: {} Found: {}",
    ]


def test_the_catalog_puts_an_error_the_tests_reproduce_before_an_untested_one(
    tmp_path: Path,
) -> None:
    """click's "'x' is not a valid integer." is raised at one place and
    tested many times; a deprecation warning raised at two places is not."""
    files = {
        "opts/__init__.py": (
            "import warnings\n\n\n"
            "def convert(value):\n"
            "    if not value.isdigit():\n"
            '        raise ValueError(f"{value!r} is not a valid integer.")\n'
            "    return int(value)\n\n\n"
            "def old_a():\n"
            '    warnings.warn("old_a is deprecated", DeprecationWarning)\n\n\n'
            "def old_b():\n"
            '    warnings.warn("old_a is deprecated", DeprecationWarning)\n'
        ),
        "tests/test_opts.py": (
            "import pytest\nimport opts\n\n\n"
            + "".join(
                f"def test_bad_{n}():\n"
                f'    with pytest.raises(ValueError, match="is not a valid integer"):\n'
                f"        opts.convert({word!r})\n\n\n"
                for n, word in enumerate(["x", "1.5", "-"])
            )
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/opts")
    messages = {e.id: e.message for e in store.entries()}
    order = [messages[i] for i in store.catalog_order(sid)]
    assert order.index("{value!r} is not a valid integer.") < order.index("old_a is deprecated")


def test_the_meaning_quotes_the_numpydoc_reason_for_the_raise(tmp_path: Path) -> None:
    files = {
        "freq/__init__.py": (
            "def infer_freq(index):\n"
            '    """Infer the most likely frequency.\n\n'
            "    Raises\n"
            "    ------\n"
            "    TypeError\n"
            "        If the index is not datetime-like.\n"
            "    ValueError\n"
            "        If there are fewer than three values.\n"
            '    """\n'
            "    if len(index) < 3:\n"
            '        raise ValueError("Need at least 3 dates to infer frequency")\n'
            "    return index\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/freq")
    meaning = _page(store, sid, "Need at least 3 dates to infer frequency")["analysis"]["meaning"]
    assert meaning["text"] == (
        "The docstring of `infer_freq` says it raises: "
        "“ValueError: If there are fewer than three values”. `infer_freq`, the call you made, "
        "is documented as: “Infer the most likely frequency”."
    )
    assert meaning["evidence"] == ["freq/__init__.py:8", "freq/__init__.py:2"]


def test_the_meaning_quotes_what_the_public_call_is_documented_to_do(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "bytes"\nversion = "1.5.0"\n',
        "src/lib.rs": (
            "pub struct BytesMut {\n    len: usize,\n}\n\n"
            "impl BytesMut {\n"
            "    /// Splits the buffer into two at the given index.\n"
            "    pub fn split_to(&mut self, at: usize) -> usize {\n"
            '        assert!(at <= self.len, "split_to out of bounds");\n'
            "        at\n"
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/bytes")
    meaning = _page(store, sid, "split_to out of bounds")["analysis"]["meaning"]
    # the summary says what the call does; the assert says when it fails
    assert meaning["text"] == (
        "`BytesMut::split_to` panics at src/lib.rs:8 when `at <= self.len` is false. "
        "`BytesMut::split_to`, the call you made, is documented as: "
        "“Splits the buffer into two at the given index”."
    )
    assert meaning["evidence"] == ["src/lib.rs:8", "src/lib.rs:6"]


def test_an_error_values_display_text_is_not_called_what_you_called(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "paths"\nversion = "0.8.0"\n',
        "src/lib.rs": (
            "use std::fmt;\n\n"
            "pub enum ErrorKind {\n    WrongNumberOfParameters,\n}\n\n"
            "impl fmt::Display for ErrorKind {\n"
            "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
            "        match self {\n"
            '            ErrorKind::WrongNumberOfParameters => write!(f, "Wrong number of path arguments"),\n'
            "        }\n"
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/paths")
    summary = _page(store, sid, "Wrong number of path arguments")["analysis"]["summary"]["text"]
    assert not summary.startswith("You called")
    assert summary.startswith("This is the text a `ErrorKind::WrongNumberOfParameters` prints")


def test_the_lead_names_the_call_as_the_package_re_exports_it(tmp_path: Path) -> None:
    files = {
        "src/clicky/__init__.py": (
            "from .termui import style as style\n"
            "from clicky.data import Dataset\n"
            "from . import _compat\n"
        ),
        "src/clicky/termui.py": (
            "def style(text, fg=None):\n"
            "    if fg not in (None, 'red', 'green'):\n"
            '        raise TypeError("Unknown color")\n'
            "    return text\n"
        ),
        "src/clicky/data.py": (
            "class Dataset:\n"
            "    def isel(self, indexers):\n"
            "        if not indexers:\n"
            '            raise ValueError("no indexers given")\n'
            "        return self\n"
        ),
        "src/clicky/_compat.py": "",
    }
    store, sid = index_files(tmp_path, files, "acme/clicky")
    style = _page(store, sid, "Unknown color")["analysis"]["summary"]["text"]
    assert style.startswith("You called `clicky.style(fg=…)` (`src/clicky/termui.py`)")
    isel = _page(store, sid, "no indexers given")["analysis"]["summary"]["text"]
    assert isel.startswith("You called `clicky.Dataset.isel(indexers=…)` (`src/clicky/data.py`)")


def test_names_a_package_imports_in_a_top_level_if_or_try_are_its_exports(
    tmp_path: Path,
) -> None:
    """anyio's ``__init__`` imports ``sleep`` under ``if TYPE_CHECKING or not
    install_lazy_importer():``; a package that falls back to pure Python
    imports in a ``try``. A ``def``'s own imports are not exports."""
    import anyio

    init = Path(anyio.__file__).read_text()
    assert "if TYPE_CHECKING or not install_lazy_importer():" in init
    files = {
        "lazy/__init__.py": (
            "from typing import TYPE_CHECKING\n\n"
            "if TYPE_CHECKING or not _install():\n"
            "    from ._core._loop import sleep as sleep\n"
            "try:\n    from ._speed import parse\nexcept ImportError:\n"
            "    from ._slow import parse\n\n\n"
            "def _install():\n    from ._core._loop import hidden\n    return hidden\n"
        ),
        "lazy/_core/__init__.py": "",
        "lazy/_core/_loop.py": (
            "def sleep(delay):\n    if not delay >= 0:\n"
            "        raise ValueError('delay must be a non-negative number')\n\n\n"
            "def hidden(x):\n    if x is None:\n        raise ValueError('hidden is never exported')\n"
        ),
        "lazy/_slow.py": (
            "def parse(text):\n    if not text:\n        raise ValueError('nothing to parse')\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/lazy")
    sleep = _page(store, sid, "delay must be a non-negative number")["analysis"]["summary"]
    assert sleep["text"].startswith("You called `lazy.sleep(delay=…)`")
    parse = _page(store, sid, "nothing to parse")["analysis"]["summary"]
    assert parse["text"].startswith("You called `lazy.parse(text=…)`")
    hidden = _page(store, sid, "hidden is never exported")["analysis"]["summary"]
    assert "lazy.hidden" not in hidden["text"]


def test_a_re_exported_name_on_a_page_is_grounded(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from errordex.cli import main

    files = {
        "pkg/__init__.py": "from .core import run\n",
        "pkg/core.py": (
            "def run(n):\n    if n < 0:\n        raise ValueError('negative run')\n    return n\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/pkg")
    assert _page(store, sid, "negative run")["analysis"]["summary"]["text"].startswith(
        "You called `pkg.run(n=…)`"
    )
    result = CliRunner().invoke(main, ["verify", "--json", "--db", str(tmp_path / "db.sqlite")])
    assert json.loads(result.output)["repos"][0]["problems"] == []


def test_the_lead_names_a_rust_type_as_the_crate_root_re_exports_it(tmp_path: Path) -> None:
    files = {
        "candle-nn/Cargo.toml": '[package]\nname = "candle-nn"\nversion = "0.9.1"\n',
        "candle-nn/src/lib.rs": "pub mod group_norm;\npub use group_norm::{group_norm, GroupNorm};\n",
        "candle-nn/src/group_norm.rs": (
            "pub struct GroupNorm {\n    groups: usize,\n}\n\n"
            "impl GroupNorm {\n"
            "    pub fn new(num_channels: usize, num_groups: usize) -> GroupNorm {\n"
            "        if num_channels % num_groups != 0 {\n"
            '            panic!("num_groups must divide num_channels")\n'
            "        }\n"
            "        GroupNorm { groups: num_groups }\n"
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/candle")
    stored = _page(store, sid, "num_groups must divide num_channels")
    assert stored["analysis"]["summary"]["text"].startswith(
        "You called `candle_nn::GroupNorm::new(num_channels, num_groups)` "
        "(`candle-nn/src/group_norm.rs`)"
    )
    (reach,) = stored["facts"]["reachability"]
    assert reach["exported"] == {
        "name": "candle_nn::GroupNorm::new",
        "path": "candle-nn/src/lib.rs",
        "line": 2,
    }


def test_the_meaning_quotes_the_exception_classs_docstring(tmp_path: Path) -> None:
    files = {
        "fmt/__init__.py": (
            "class CannotTransform(Exception):\n"
            '    """Base class for errors raised by Transformers."""\n\n\n'
            "def run(line):\n"
            "    if not line:\n"
            '        raise CannotTransform("Line transformer returned an unchanged result")\n'
            "    return line\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/fmt")
    stored = _page(store, sid, "Line transformer returned an unchanged result")
    meaning = stored["analysis"]["meaning"]
    assert (
        "The docstring of `CannotTransform` says: “Base class for errors raised by Transformers”."
        in meaning["text"]
    )
    assert "fmt/__init__.py:2" in meaning["evidence"]


def test_a_hidden_rust_helper_is_not_the_call_the_page_leads_with() -> None:
    from errordex.analysis import scan

    ev = scan(
        "src/lib.rs",
        "#[doc(hidden)]\npub fn helper() {}\n\npub fn __private_validate(p: &str) {}\n\n"
        "pub fn route(p: &str) {}\n",
        "rust",
    )
    assert [(f.name, f.public) for f in ev.functions] == [
        ("helper", False),
        ("__private_validate", False),
        ("route", True),
    ]


def test_a_docstring_summary_is_its_whole_first_sentence() -> None:
    from errordex.analysis import scan

    ev = scan(
        "pkg/m.py",
        'def unstack(dim=None):\n    """\n    Unstack existing dimensions into\n'
        '    multiple new dimensions.\n\n    More.\n    """\n',
        "python",
    )
    (doc,) = ev.functions[0].docs
    assert (doc.text, doc.line) == ("Unstack existing dimensions into multiple new dimensions.", 3)


_GEOMETRY = {
    "geo/__init__.py": (
        "class GeoError(Exception):\n    pass\n\n\n"
        "def _check(size):\n"
        "    if size < 0:\n"
        '        raise ValueError("negative size")\n'
        "    if size > 100:\n"
        '        raise ValueError("size over the limit")\n'
        "    return size\n\n\n"
        "def area(width, height):\n"
        "    if width is None:\n"
        '        raise ValueError("no width")\n'
        "    return _check(width) * _check(height)\n\n\n"
        "def render(text):\n"
        "    if not text:\n"
        '        raise KeyError("nothing to render")\n'
        "    return text\n\n\n"
        "def load(path):\n"
        "    if not path:\n"
        '        raise GeoError("no path given")\n'
        "    return path\n"
    ),
    "geo/io.py": (
        "from geo import GeoError\n\n\n"
        "def save(path):\n"
        "    if path.endswith('/'):\n"
        '        raise GeoError("cannot save to a directory")\n'
        "    return path\n"
    ),
}


def test_related_errors_are_the_same_call_and_exception_family_not_the_same_file(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _GEOMETRY, "acme/geo")
    related = _page(store, sid, "negative size")["facts"]["related"]
    got = [(r["message"], r["reason"]) for r in related]
    # the same check on `size` first, then what `area` (the public call) raises itself;
    # `render`'s KeyError, only in the same file, is not related
    assert got == [
        ("size over the limit", "same function `_check`, checks `size` too"),
        ("no width", "also thrown by `area`"),
    ]
    # a class of the repository's own relates its raises across files
    saved = _page(store, sid, "no path given")["facts"]["related"]
    assert [(r["message"], r["reason"]) for r in saved] == [
        ("cannot save to a directory", "same exception `GeoError`")
    ]


_DOCUMENTED = {
    "geo/__init__.py": (
        "class MergeError(ValueError):\n    pass\n\n\n"
        "def merge(a, b):\n"
        "    if a != b:\n"
        '        raise MergeError("conflicting values for variable found in objects")\n'
        "    return a\n"
    ),
    "README.md": (
        "# geo\n\n"
        "Merging objects whose values differ fails with\n"
        "conflicting values for variable found in objects, so align them first.\n"
    ),
    "docs/guide/combining.md": (
        "## Merging\n\n"
        "This ensures that `geo.merge` is non-destructive. `MergeError` is raised\n"
        "if you attempt to merge two variables with the same name but different values.\n\n"
        "```python\n"
        "geo.merge(a, b)  # conflicting values for variable found in objects\n"
        "```\n"
    ),
    "docs/changelog.md": "- `geo.merge` raises MergeError with conflicting values for variable found in objects\n",
}


def test_the_meaning_quotes_the_repositorys_docs_on_the_message_and_the_call(
    tmp_path: Path,
) -> None:
    from click.testing import CliRunner

    from errordex.cli import main

    store, sid = index_files(tmp_path, _DOCUMENTED, "acme/geo")
    stored = _page(store, sid, "conflicting values for variable found in objects")
    # a sentence wrapped over two lines is found whole; the changelog and the
    # code sample are not the docs' word on it
    assert [(p["path"], p["line"]) for p in stored["facts"]["prose"]] == [
        ("README.md", 3),
        ("docs/guide/combining.md", 3),
    ]
    meaning = stored["analysis"]["meaning"]
    assert (
        "The repository's docs say (README.md:3): “Merging objects whose values differ fails "
        "with conflicting values for variable found in objects, so align them first”."
        in meaning["text"]
    )
    assert (
        "The repository's docs say (docs/guide/combining.md:3): “This ensures that `geo.merge` "
        "is non-destructive. `MergeError` is raised if you attempt to merge two variables with "
        "the same name but different values”." in meaning["text"]
    )
    assert {"README.md:3", "docs/guide/combining.md:3"} <= set(meaning["evidence"])
    result = CliRunner().invoke(main, ["verify", "--json", "--db", str(tmp_path / "db.sqlite")])
    assert json.loads(result.output)["repos"][0]["problems"] == []


_COLORS = {
    "tint/__init__.py": (
        "_names = {'red': 31, 'green': 32}\n\n\n"
        "def _code(color):\n"
        "    if isinstance(color, str) and color in _names:\n"
        "        return _names[color]\n"
        "    elif isinstance(color, int):\n"
        "        if 0 <= color <= 255:\n"
        "            return color\n"
        '    raise ValueError(f"Unknown color {color!r}")\n\n\n'
        "def style(text, fg=None):\n"
        "    return f'{_code(fg)}{text}'\n"
    ),
    "tests/test_tint.py": (
        "import pytest\n\nfrom tint import style\n\n\n"
        "def test_unknown_color():\n"
        '    with pytest.raises(ValueError, match="Unknown color"):\n'
        '        style("x", fg="purplish")\n'
    ),
}


def test_a_check_too_long_for_a_sentence_is_stated_by_what_it_reads_and_where(
    tmp_path: Path,
) -> None:
    # click's colour check, grown past a sentence (an (r, g, b) form too):
    # the page names the argument and the checks' place, not the expression
    files = dict(_COLORS)
    files["tint/__init__.py"] = files["tint/__init__.py"].replace(
        "    raise ValueError",
        "    elif (\n"
        "        isinstance(color, (tuple, list))\n"
        "        and len(color) == 3\n"
        "        and all(isinstance(c, int) and 0 <= c <= 255 for c in color)\n"
        "    ):\n"
        "        return color\n"
        "    raise ValueError",
    )
    store, sid = index_files(tmp_path, files, "acme/tint")
    analysis = _page(store, sid, "Unknown color {color!r}")["analysis"]
    summary = analysis["summary"]["text"]
    assert "isinstance" not in summary
    assert (
        "`fg` is none of what its earlier returns take (the checks from tint/__init__.py:5 on)"
        in summary
    )
    assert analysis["solutions"][0]["text"] == (
        "Pass `tint.style(fg=…)` a `fg` that the checks from tint/__init__.py:5 on accept: "
        "it raises `ValueError` otherwise."
    )


def test_a_raise_after_early_returns_is_explained_as_none_of_them_matching(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _COLORS, "acme/tint")
    stored = _page(store, sid, "Unknown color {color!r}")
    (guard,) = [g for g in stored["facts"]["guards"] if g["kind"] == "fall-through"]
    assert guard["siblings"] == [
        "isinstance(color, str) and color in _names",
        "isinstance(color, int) and 0 <= color <= 255",
    ]
    analysis = stored["analysis"]
    assert analysis["summary"]["text"] == (
        "You called `tint.style(fg=…)` (`tint/__init__.py`), and on its way `_code` raises "
        "`ValueError` when none of its earlier returns matched (`isinstance(fg, str) and fg in "
        "_names or isinstance(fg, int) and 0 <= fg <= 255` is false) for the arguments you passed."
    )
    assert analysis["solutions"][0]["text"].startswith(
        "Pass `tint.style(fg=…)` arguments for which `isinstance(fg, str) and fg in _names or "
        "isinstance(fg, int) and 0 <= fg <= 255` holds"
    )
    # a fix would have the user read the private `_names`: none is shown
    assert "example_fix" not in analysis


_TWO_BUFFERS = {
    "Cargo.toml": '[package]\nname = "buf"\nversion = "1.0.0"\n',
    "src/lib.rs": "mod bytes;\nmod bytes_mut;\npub use bytes::Bytes;\npub use bytes_mut::BytesMut;\n",
    "src/bytes.rs": (
        "pub struct Bytes {\n    len: usize,\n}\n\n"
        "impl Bytes {\n"
        "    /// Splits the bytes into two at the given index.\n"
        "    pub fn split_to(&mut self, at: usize) -> usize {\n"
        '        assert!(at <= self.len, "split_to out of bounds: {:?} <= {:?}", at, self.len);\n'
        "        at\n"
        "    }\n"
        "}\n"
    ),
    "src/bytes_mut.rs": (
        "pub struct BytesMut {\n    len: usize,\n}\n\n"
        "impl BytesMut {\n"
        "    /// Splits the buffer into two at the given index.\n"
        "    pub fn split_to(&mut self, at: usize) -> usize {\n"
        '        assert!(at <= self.len, "split_to out of bounds: {:?} <= {:?}", at, self.len);\n'
        "        at\n"
        "    }\n"
        "}\n"
    ),
    "tests/test_buf.rs": (
        "use buf::{Bytes, BytesMut};\n\n"
        "#[test]\n"
        '#[should_panic(expected = "split_to out of bounds")]\n'
        "fn split_to_oob() {\n"
        "    let mut b = Bytes::new();\n"
        "    let _ = b.split_to(33);\n"
        "}\n\n"
        "#[test]\n"
        '#[should_panic(expected = "split_to out of bounds")]\n'
        "fn split_to_oob_mut() {\n"
        "    let mut b = BytesMut::new();\n"
        "    let _ = b.split_to(33);\n"
        "}\n"
    ),
}


def test_a_paste_from_one_of_two_types_gets_that_sites_page_and_test(tmp_path: Path) -> None:
    from errordex.explain import explain_text

    store, _ = index_files(tmp_path, _TWO_BUFFERS, "acme/buf")
    paste = (
        "thread 'main' panicked at /home/u/.cargo/registry/src/buf-1.0.0/src/bytes_mut.rs:8:9:\n"
        "split_to out of bounds: 9 <= 2\n"
    )
    (part,) = explain_text(store, paste)["parts"]
    page = part["matches"][0]
    assert (page["sites"][0]["path"], page["site"]["path"]) == ("src/bytes_mut.rs",) * 2
    assert "snippet" in page["sites"][0]  # its own code, not "the same code as" Bytes'
    assert page["printed"].startswith("thread 'main' panicked at src/bytes_mut.rs:8:")
    analysis = page["analysis"]
    assert analysis["summary"]["text"].startswith("You called `buf::BytesMut::split_to(at)`")
    assert [r["test"] for r in analysis["reproductions"]] == ["split_to_oob_mut"]
    assert "Bytes::split_to`, the call you made" not in analysis["meaning"]["text"]
    assert "`BytesMut::split_to`, the call you made" in analysis["meaning"]["text"]
    # without a paste, the page leads with its first site, as before
    stored = _page(store, 1, "split_to out of bounds: {:?} <= {:?}")
    assert stored["analysis"]["summary"]["text"].startswith("You called `buf::Bytes::split_to(at)`")


def test_a_click_error_is_shown_as_click_prints_it(tmp_path: Path) -> None:
    files = {
        "tool/cli.py": (
            "import click\n\n\n"
            "def check_n(ctx, param, value):\n"
            "    if value < 0:\n"
            '        raise click.BadParameter("must not be negative")\n'
            "    return value\n\n\n"
            "def load(path):\n"
            "    if not path:\n"
            '        raise click.ClickException("no configuration found")\n'
            "    return path\n\n\n"
            "def parse(n):\n"
            "    if n is None:\n"
            '        raise ValueError("n is required")\n'
            "    return n\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/tool")
    printed = {
        e.message: entry_json(e, store.snapshot(sid), store)["printed"] for e in store.entries()
    }
    assert printed["must not be negative"] == (
        "Usage: PROG [OPTIONS] ...\nTry 'PROG --help' for help.\n\n"
        "Error: Invalid value for {param_hint}: must not be negative"
    )
    assert printed["no configuration found"] == "Error: no configuration found"
    assert printed["n is required"].startswith("Traceback (most recent call last):")


_AUTODIFF = {
    "Cargo.toml": '[workspace]\nmembers = ["dispatch", "tensor"]\n',
    "dispatch/Cargo.toml": '[package]\nname = "dispatch"\nversion = "0.9.0"\n',
    "dispatch/src/lib.rs": (
        "pub trait AutodiffBackend {\n    fn backward(tensor: u32) -> u32;\n}\n\n"
        "pub struct Dispatch;\n\n"
        "impl AutodiffBackend for Dispatch {\n"
        "    fn backward(tensor: u32) -> u32 {\n"
        "        match tensor {\n"
        "            0 => 1,\n"
        '            _ => panic!("Requires autodiff tensor."),\n'
        "        }\n"
        "    }\n"
        "}\n\n"
        "pub struct Other;\n\n"
        "impl AutodiffBackend for Other {\n"
        "    fn backward(tensor: u32) -> u32 {\n        tensor\n    }\n"
        "}\n"
    ),
    "tensor/Cargo.toml": '[package]\nname = "tensor"\nversion = "0.9.0"\n',
    "tensor/src/lib.rs": (
        "use dispatch::{AutodiffBackend, Dispatch};\n\n"
        "pub struct Tensor {\n    primitive: u32,\n}\n\n"
        "impl Tensor {\n"
        "    /// Backward pass of the tensor.\n"
        "    pub fn backward(&self) -> u32 {\n"
        "        backward_impl(self.primitive)\n"
        "    }\n"
        "}\n\n"
        "fn backward_impl(p: u32) -> u32 {\n"
        "    Dispatch::backward(p)\n"
        "}\n"
    ),
}


def test_a_trait_impl_is_led_by_the_public_method_that_calls_it_by_its_type(
    tmp_path: Path,
) -> None:
    # `backward` is defined three times: only `Dispatch::backward(p)` names the
    # impl that panics, and `Tensor::backward` reaches it through `backward_impl`
    store, sid = index_files(tmp_path, _AUTODIFF, "acme/burn")
    stored = _page(store, sid, "Requires autodiff tensor.")
    (reach,) = stored["facts"]["reachability"]
    assert [[h["function"] for h in c] for c in reach["paths"]] == [
        ["Tensor::backward", "backward_impl"]
    ]
    summary = stored["analysis"]["summary"]["text"]
    assert summary.startswith(
        "You called `tensor::Tensor::backward` (`tensor/src/lib.rs`), and on its way "
        "`<Dispatch as AutodiffBackend>::backward` panics"
    )


def test_a_re_raise_trigger_reads_as_a_sentence(tmp_path: Path) -> None:
    files = {
        "hosts/__init__.py": (
            "import ipaddress\n\n\n"
            "class InvalidURL(Exception):\n    pass\n\n\n"
            "def _encode_host(host):\n"
            "    try:\n"
            "        ipaddress.IPv4Address(host)\n"
            "    except ipaddress.AddressValueError:\n"
            '        raise InvalidURL(f"Invalid IPv4 address: {host!r}")\n'
            "    return host\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/hosts")
    trigger = _page(store, sid, "Invalid IPv4 address: {host!r}")["analysis"]["trigger"]["text"]
    assert trigger == (
        "Reaching `_encode_host`, when its `try` block raises `ipaddress.AddressValueError` "
        "(`except ipaddress.AddressValueError` at line 11)."
    )


def test_an_undocumented_rust_error_means_what_its_guards_say(tmp_path: Path) -> None:
    """candle's ``bail!``s have no docs: what they mean is the check they are
    the failing branch of, the arm they sit in, and the values the message
    shows from them (as in candle-nn/src/group_norm.rs, candle-core/src/pickle.rs)."""
    files = {
        "Cargo.toml": '[package]\nname = "norm"\nversion = "0.1.0"\n',
        "src/lib.rs": (
            "#[macro_export]\nmacro_rules! bail {\n"
            "    ($($t:tt)*) => { return Err(format!($($t)*)) };\n}\n\n"
            "pub struct GroupNorm;\n\npub enum Object { List(Vec<u8>), Int(i64) }\n\n"
            "impl GroupNorm {\n"
            "    pub fn forward(&self, x_shape: &[usize]) -> Result<(), String> {\n"
            "        if x_shape.len() <= 2 {\n"
            '            bail!("input rank for GroupNorm should be at least 3")\n'
            "        }\n"
            "        Ok(())\n"
            "    }\n\n"
            "    pub fn read(&self, op: u8, pylist: Object) -> Result<(), String> {\n"
            "        match op {\n"
            "            1 => {\n"
            "                let Object::List(d) = pylist else {\n"
            '                    bail!("expected a list, got {pylist:?}")\n'
            "                };\n"
            "                drop(d);\n"
            "            }\n"
            "            _ => {}\n"
            "        }\n"
            "        Ok(())\n"
            "    }\n"
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/norm")
    meaning = _page(store, sid, "input rank for GroupNorm should be at least 3")["analysis"][
        "meaning"
    ]
    assert meaning["text"] == (
        "`GroupNorm::forward` returns this error at src/lib.rs:13 when"
        " `x_shape.len() <= 2` holds (line 12)."
    )
    assert meaning["evidence"] == ["src/lib.rs:12"]
    meaning = _page(store, sid, "expected a list, got {pylist:?}")["analysis"]["meaning"]
    assert meaning["text"] == (
        "`GroupNorm::read` returns this error at src/lib.rs:22 when the value its `match`"
        " reads at line 20 is `1` and `pylist` is not `Object::List(d)` (line 21)."
        " The message shows `pylist`: the value checked there."
    )


def test_a_debug_assert_eq_page_is_grounded(tmp_path: Path) -> None:
    """tracing-core's ``debug_assert_eq!``: the page says it is a
    ``debug_assert!``, a std macro, which ``verify`` accepts."""
    from click.testing import CliRunner

    from errordex.cli import main

    files = {
        "Cargo.toml": '[package]\nname = "reg"\nversion = "0.1.0"\n',
        "src/lib.rs": (
            "pub fn register(state: u8) {\n"
            '    debug_assert_eq!(state, 1, "weird callsite registration state");\n'
            "}\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/reg")
    meaning = _page(store, sid, "weird callsite registration state")["analysis"]["meaning"]
    assert "It is a `debug_assert!`" in meaning["text"]
    res = CliRunner().invoke(main, ["verify", "--db", str(store.path)])
    assert res.exit_code == 0, res.output


#: a package whose modules are private and whose `__init__` re-exports their
#: names by `*` and `__all__`, as httpx's does
_WEB = {
    "web/__init__.py": (
        "from ._api import *\nfrom ._models import *\n\n"
        '__all__ = ["AsyncClient", "Client", "Request", "post", "request"]\n'
    ),
    "web/_content.py": (
        "def encode_request(content=None, data=None):\n"
        "    if data is not None and not isinstance(data, dict):\n"
        "        raise TypeError(\"Use 'content=<...>' to upload raw bytes.\")\n"
        "    return data\n"
    ),
    "web/_models.py": (
        "from ._content import encode_request\n\n"
        '__all__ = ["AsyncClient", "Client", "Request"]\n\n\n'
        "class Request:\n"
        "    def __init__(self, method, url, content=None, data=None):\n"
        "        self.stream = encode_request(\n"
        "            content=content,\n"
        "            data=data,\n"
        "        )\n\n\n"
        "class Client:\n"
        "    def request(self, method, url, data=None):\n"
        "        return self.build_request(method, url, data=data)\n\n"
        "    def build_request(self, method, url, data=None):\n"
        "        return Request(method, url, data=data)\n\n"
        "    def send(self, request):\n"
        "        return self._send_single_request(request)\n\n"
        "    def _send_single_request(self, request):\n"
        "        if not request.sync:\n"
        '            raise RuntimeError("Attempted to send an async request with a sync Client.")\n\n\n'
        "class AsyncClient:\n"
        "    async def send(self, request):\n"
        '        """Send a request, without blocking."""\n'
        "        return await self._send_single_request(request)\n\n"
        "    async def _send_single_request(self, request):\n"
        "        if request.sync:\n"
        '            raise RuntimeError("Attempted to send a sync request with an AsyncClient.")\n'
    ),
    "web/_api.py": (
        "from ._models import Client\n\n"
        '__all__ = ["post", "request"]\n\n\n'
        "def request(method, url, data=None):\n"
        "    client = Client()\n"
        "    return client.request(method, url, data=data)\n\n\n"
        "def post(url, content=None, data=None):\n"
        '    return request("POST", url, data=data)\n'
    ),
    "web/validators.py": (
        "class _OrValidator:\n"
        "    def __init__(self, validators):\n"
        "        self.validators = validators\n\n"
        "    def __call__(self, value):\n"
        "        for v in self.validators:\n"
        "            if v(value):\n"
        "                return\n"
        '        raise ValueError("None of the validators was satisfied.")\n\n\n'
        "def or_(*validators):\n"
        '    """A validator that composes several into one."""\n'
        "    return _OrValidator(validators)\n\n\n"
        "def define(maybe_cls=None, frozen=False):\n"
        "    def wrap(cls):\n"
        "        if frozen:\n"
        '            raise ValueError("Can\'t freeze this class.")\n'
        "        return cls\n\n"
        "    return wrap\n"
    ),
}


def test_a_check_in_a_private_module_leads_with_the_call_the_package_exports(
    tmp_path: Path,
) -> None:
    # `encode_request` is in a private module and not exported; `web.Request`
    # is (by `*` and `__all__`), and `Client.request` and `web.post` hand it `data`.
    store, sid = index_files(tmp_path, _WEB, "acme/web")
    summary = _page(store, sid, "Use 'content=<...>' to upload raw bytes.")["analysis"]["summary"]
    assert summary["text"].startswith(
        "You called `web.post(data=…)` (`web/_api.py`), and on its way `encode_request` raises "
        "`TypeError` when `data is not None and not isinstance(data, dict)`"
    )
    assert (
        "`web.Request`, `web.Client.build_request`, `web.Client.request` and `web.request` "
        "pass `data` on to it the same way." in summary["text"]
    )
    assert "web/_api.py:12" in summary["evidence"]  # post's call of request
    trigger = _page(store, sid, "Use 'content=<...>' to upload raw bytes.")["analysis"]["trigger"]
    assert trigger["text"].startswith(
        "Calling `web.post`, which reaches `Request` → `encode_request` when "
    )


def test_a_private_method_leads_with_the_public_method_of_its_own_class(tmp_path: Path) -> None:
    # Both clients have a `_send_single_request`; the async one is reached by
    # `AsyncClient.send`, never by `Client.send`.
    store, sid = index_files(tmp_path, _WEB, "acme/web")
    stored = _page(store, sid, "Attempted to send a sync request with an AsyncClient.")
    summary = stored["analysis"]["summary"]["text"]
    assert summary.startswith(
        "You called `web.AsyncClient.send(request=…)` (`web/_models.py`), and on its way "
        "`AsyncClient._send_single_request` raises `RuntimeError` when `request.sync`"
    )
    assert "Client.send`" not in summary.replace("AsyncClient.send`", "")
    # its docstring, though its module is private, is what the call is documented as
    assert (
        "`AsyncClient.send`, the call you made, is documented as: “Send a request, without "
        "blocking”." in stored["analysis"]["meaning"]["text"]
    )


def test_a_private_validators_check_leads_with_the_function_that_builds_it(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _WEB, "acme/web")
    analysis = _page(store, sid, "None of the validators was satisfied.")["analysis"]
    assert analysis["summary"]["text"].startswith(
        "You called `web.validators.or_` (`web/validators.py`), and later the `_OrValidator` "
        "it built ran: `_OrValidator.__call__` raises `ValueError`"
    )


def test_a_nested_functions_check_is_lifted_to_its_outer_public_function(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _WEB, "acme/web")
    analysis = _page(store, sid, "Can't freeze this class.")["analysis"]
    assert analysis["summary"]["text"].startswith(
        "You called `web.validators.define(frozen=…)` (`web/validators.py`), and on its way "
        "`define.wrap` raises `ValueError` when `frozen`"
    )


_VALID = {
    "val/validators.py": (
        "import re\n\nNOTHING = object()\n\n\n"
        "def matches_re(regex, flags=0, func=None):\n"
        "    valid_funcs = (re.fullmatch, None, re.search)\n"
        "    if func not in valid_funcs:\n"
        "        raise ValueError(\"'func' must be one of the re functions.\")\n"
        "    return regex\n\n\n"
        "def default_if_none(default=NOTHING, factory=None):\n"
        "    if default is NOTHING and factory is None:\n"
        '        raise TypeError("Must pass either `default` or `factory`.")\n'
        "    return default\n"
    ),
    "tests/test_val.py": (
        "import pytest\n\nfrom val.validators import default_if_none, matches_re\n\n\n"
        "def test_catches_invalid_func():\n"
        "    with pytest.raises(ValueError):\n"
        '        matches_re("a", 0, lambda: None)\n\n\n'
        "def test_missing_default():\n"
        '    with pytest.raises(TypeError, match="Must pass either"):\n'
        "        default_if_none()\n"
    ),
}


def test_a_local_the_check_reads_is_replaced_by_its_value(tmp_path: Path) -> None:
    # `valid_funcs` is a local: the page never asks the user about it, it
    # reads its value, and `re` (a module) reads the same in the user's code
    store, sid = index_files(tmp_path, _VALID, "acme/val")
    analysis = _page(store, sid, "'func' must be one of the re functions.")["analysis"]
    assert analysis["summary"]["text"].startswith(
        "You called `val.validators.matches_re(func=…)` (`val/validators.py`), and it raises "
        "`ValueError` when `func not in (re.fullmatch, None, re.search)`"
    )
    assert "valid_funcs" not in _text({"analysis": analysis})


def test_a_check_on_a_module_constant_is_in_the_calls_arguments(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _VALID, "acme/val")
    summary = _page(store, sid, "Must pass either `default` or `factory`.")["analysis"]["summary"]
    assert summary["text"].startswith(
        "You called `val.validators.default_if_none(default=…, factory=…)` (`val/validators.py`), "
        "and it raises `TypeError` when `default is NOTHING and factory is None`"
    )


def test_the_example_fix_gives_the_tests_argument_a_value_the_check_accepts(
    tmp_path: Path,
) -> None:
    # the test pins no text, but `matches_re` raises ValueError only here
    store, sid = index_files(tmp_path, _VALID, "acme/val")
    fix = _page(store, sid, "'func' must be one of the re functions.")["analysis"]["example_fix"]
    assert fix["before"]["code"].endswith('matches_re("a", 0, lambda: None)')
    assert fix["after"]["code"].endswith('matches_re("a", 0, re.fullmatch)')
    assert "tests/test_val.py:8" in fix["evidence"]


def test_solutions_say_what_to_change_in_the_call_and_what_the_message_advises(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _WEB, "acme/web")
    texts = [
        s["text"]
        for s in _page(store, sid, "Use 'content=<...>' to upload raw bytes.")["analysis"][
            "solutions"
        ]
    ]
    assert texts[0] == (
        "The message says what to do: “Use 'content=<...>' to upload raw bytes”. "
        "That is, pass it to `web.post(content=…)` instead of `data=`."
    )
    assert texts[1].startswith(
        "Leave `data` out (or `None`), or pass `data` as a `dict` when you call "
        "`web.post(data=…)`: `encode_request` raises `TypeError` when "
        "`data is not None and not isinstance(data, dict)` (web/_content.py:2)."
    )
    assert not any("arguments for which" in t for t in texts)


_DOCTESTED = {
    "lim/__init__.py": (
        "def at_most(value, bound):\n"
        "    if value > bound:\n"
        "        raise ValueError(f\"'x' must be <= {bound}: {value}\")\n"
        "    return value\n\n\n"
        "def short(value, bound):\n"
        "    if len(value) > bound:\n"
        "        raise ValueError(f\"Length of 'x' must be <= {bound}: {len(value)}\")\n"
        "    return value\n"
    ),
    "docs/api.md": (
        "# Limits\n\n"
        "```python\n"
        ">>> from lim import at_most\n"
        ">>> at_most(42, 42)\n"
        "42\n"
        ">>> at_most(43, 42)\n"
        "Traceback (most recent call last):\n"
        "   ...\n"
        "ValueError: 'x' must be <= 42: 43\n"
        "```\n"
    ),
}


def test_a_documented_example_that_raises_gives_the_example_fix_the_docs_show(
    tmp_path: Path,
) -> None:
    store, sid = index_files(tmp_path, _DOCTESTED, "acme/lim")
    analysis = _page(store, sid, "'x' must be <= {bound}: {value}")["analysis"]
    fix = analysis["example_fix"]
    assert fix["text"] == (
        "The docs show both (docs/api.md:7 and 5): `at_most(43, 42)` raises it, "
        "and `at_most(42, 42)` does not."
    )
    assert fix["before"]["code"].endswith("from lim import at_most\nat_most(43, 42)")
    assert fix["after"]["code"].endswith("from lim import at_most\nat_most(42, 42)")
    assert "docs/api.md:7" in fix["evidence"] and "docs/api.md:5" in fix["evidence"]
    assert any(
        r["text"].startswith("the documented example at docs/api.md:7 (doctest")
        for r in analysis["reproductions"]
    )


def test_a_documented_example_is_matched_by_its_whole_message_only(tmp_path: Path) -> None:
    # "'x' must be <= 42: 43" is a part of "Length of 'x' must be <= …": not its example
    store, sid = index_files(tmp_path, _DOCTESTED, "acme/lim")
    stored = _page(store, sid, "Length of 'x' must be <= {bound}: {len(value)}")
    assert not [t for t in stored["facts"]["tests"] if t["kind"] == "doctest"]
    assert "example_fix" not in stored["analysis"]


def test_the_examples_in_the_page_helpers_docstrings_hold() -> None:
    import doctest

    from errordex.analysis import lift, textmatch, write
    from errordex.languages.python import advice, doctests, examples

    for module in (advice, doctests, examples, lift, textmatch, write):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_a_public_classs_method_is_not_led_by_code_that_builds_the_class(
    tmp_path: Path,
) -> None:
    # `Dataset` is public: a user builds it themselves; a benchmark's
    # `Dataset()` says nothing of how `_inplace_binary_op` is reached
    files = {
        "geo/__init__.py": (
            "class Dataset:\n"
            "    def _inplace_binary_op(self, other):\n"
            "        if other is None:\n"
            '            raise TypeError("in-place operations with None are not permitted")\n'
        ),
        "bench/io.py": "from geo import Dataset\n\n\ndef setup():\n    return Dataset()\n",
    }
    store, sid = index_files(tmp_path, files, "acme/geo")
    summary = _page(store, sid, "in-place operations with None are not permitted")["analysis"]
    assert "setup" not in summary["summary"]["text"]


def test_a_warning_whose_category_a_helper_hands_on_is_not_called_an_exception(
    tmp_path: Path,
) -> None:
    # xarray's emit_user_level_warning(message, category=None) passes its
    # category on to warnings.warn: the class is not known at the call
    files = {
        "geo/__init__.py": (
            "import warnings\n\n\n"
            "def _emit(message, category=None):\n"
            "    warnings.warn(message, category=category, stacklevel=3)\n\n\n"
            "def resample(origin):\n"
            '    if origin != "start":\n'
            '        _emit("The origin keyword does not take effect here")\n'
            "    return origin\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/geo")
    text = _text(_page(store, sid, "The origin keyword does not take effect here"))
    assert "an exception" not in text
    summary = _page(store, sid, "The origin keyword does not take effect here")["analysis"][
        "summary"
    ]["text"]
    assert " warns when " in summary, summary


def test_a_docstring_paragraph_is_quoted_only_on_the_page_of_the_class_it_says_is_raised(
    tmp_path: Path,
) -> None:
    files = {
        "geo/__init__.py": (
            "def load(path, strict=True):\n"
            '    """Load a grid.\n\n'
            "    Parameters\n"
            "    ----------\n"
            "    path : str\n"
            "        Where it is. A missing file raises FileNotFoundError.\n"
            "    strict : bool\n"
            "        If True, raise a ValueError on a ragged grid.\n"
            '    """\n'
            "    if strict and path.endswith('.ragged'):\n"
            '        raise ValueError("ragged grid")\n'
            "    if not path:\n"
            '        raise KeyError("no path")\n'
            "    return path\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/geo")
    meaning = _page(store, sid, "ragged grid")["analysis"]["meaning"]["text"]
    assert (
        "The docstring of `load` says: “strict : bool If True, raise a ValueError on a "
        "ragged grid”." in meaning
    )
    assert "FileNotFoundError" not in meaning
    assert "raise a ValueError" not in _text(_page(store, sid, "no path"))


def test_a_package_below_a_directory_that_is_no_package_is_named_as_imported(
    tmp_path: Path,
) -> None:
    # candle's Python package lives in candle-pyo3/py_src/candle: a user
    # imports `candle.nn`, not `candle-pyo3.py_src.candle.nn`
    files = {
        "candle-pyo3/py_src/candle/__init__.py": "",
        "candle-pyo3/py_src/candle/nn/__init__.py": "from .container import Sequential\n",
        "candle-pyo3/py_src/candle/nn/container.py": (
            "class Sequential:\n"
            "    def __mul__(self, other):\n"
            "        if other <= 0:\n"
            '            raise ValueError("Non-positive multiplication factor")\n'
            "        return self\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/candle")
    summary = _page(store, sid, "Non-positive multiplication factor")["analysis"]["summary"]
    # `Sequential * 3` runs `__mul__`: the operator, on the class as imported
    assert summary["text"].startswith("You wrote `candle.nn.Sequential * other`"), summary["text"]


def test_a_method_handed_to_another_as_a_value_is_reached_by_the_call_that_hands_it(
    tmp_path: Path,
) -> None:
    # xarray's Weighted.quantile runs `self._implementation(self._weighted_quantile, …)`
    files = {
        "geo/__init__.py": "from geo.weighted import Weighted\n",
        "geo/weighted.py": (
            "class Weighted:\n"
            "    def _implementation(self, func, q):\n"
            "        return func(q)\n\n"
            "    def _weighted_quantile(self, q):\n"
            "        if q < 0 or q > 1:\n"
            '            raise ValueError("q values must be between 0 and 1")\n'
            "        return q\n\n"
            "    def quantile(self, q):\n"
            "        return self._implementation(self._weighted_quantile, q=q)\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/geo")
    summary = _page(store, sid, "q values must be between 0 and 1")["analysis"]["summary"]
    assert summary["text"].startswith("You called `geo.Weighted.quantile`"), summary["text"]


def test_a_module_level_raise_names_its_place_once(tmp_path: Path) -> None:
    files = {
        "geo/__init__.py": (
            "try:\n    import numpy\nexcept ImportError:\n"
            '    raise ImportError("geo needs numpy")\n'
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/geo")
    summary = _page(store, sid, "geo needs numpy")["analysis"]["summary"]["text"]
    assert summary.count("geo/__init__.py:4") == 1, summary


def test_the_example_fix_turns_a_flag_that_must_not_be_false_on(tmp_path: Path) -> None:
    # xarray's date_range(..., calendar="noleap", use_cftime=False) raises
    # when `use_cftime is False`: the fix passes use_cftime=True, not a guard
    # that never calls it
    files = {
        "geo/__init__.py": (
            "def date_range(start, calendar='standard', use_cftime=None):\n"
            "    if calendar == 'standard':\n"
            "        return start\n"
            "    if use_cftime is False:\n"
            '        raise ValueError("Invalid calendar for pandas DatetimeIndex")\n'
            "    return start\n"
        ),
        "tests/test_geo.py": (
            "import pytest\n\nfrom geo import date_range\n\n\n"
            "def test_errors():\n"
            '    with pytest.raises(ValueError, match="Invalid calendar"):\n'
            '        date_range("1900-01-01", calendar="noleap", use_cftime=False)\n'
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/geo")
    fix = _page(store, sid, "Invalid calendar for pandas DatetimeIndex")["analysis"]["example_fix"]
    assert fix["after"]["code"].endswith(
        'date_range("1900-01-01", calendar="noleap", use_cftime=True)'
    ), fix["after"]["code"]
