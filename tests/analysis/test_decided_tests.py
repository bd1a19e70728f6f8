"""A test that expects a class and no text reproduces the raise whose checks
its literal arguments fail, when every other raise of that class in the
function it calls is known to pass (issue 16, point 4):

- psycopg's ``Xid.from_parts`` raises ``ValueError`` three times (a bad
  ``format_id``, a long ``bqual``, a long ``gtrid``): ``from_parts(-1, …)``
  is a test of the first and of no other; a long ``bqual`` of the second;
- a call whose argument is a variable decides nothing, and links nothing;
  nor does a call of a name two classes define, made on a value of a type
  the test does not show (xarray's ``array.to_dataset("x")`` is
  ``DataArray``'s, not the ``DataTree.to_dataset`` whose check "x" fails);
- marshmallow's ``validate.Length(1, None, equal=3)("foo")`` builds the
  validator and calls it: its ``__init__``'s check (``equal is not None and
  any([min, max])``) holds, so the test is of that raise;
- the example fix of such a test passes a value the check names, not a
  sibling call that leaves the checked argument out: the value another
  test passes for that keyword where no error is expected;
- a ``#[should_panic]`` test with no expected text that calls a method a
  dozen types define (``advance``) reproduces the panic of the type the
  test binds its local to (bytes' ``let mut a = BytesMut::from(…);
  a.advance(20)``), and its fix checks what that type's ``advance``
  asserts (``a.remaining()``), not what ``Bytes``'s does.

Real code: psycopg and marshmallow from site-packages, with tests written
as theirs are; bytes 1.2.1 from Debian's cargo registry, with its own
tests. The checks themselves (``languages/python/evaluate``) are tested by
their doctests here too.
"""

from __future__ import annotations

import doctest
from pathlib import Path
from typing import Any

import marshmallow
import psycopg
import pytest

from errordex import plugins
from errordex.analysis.calledon import called_by_path
from errordex.languages.python import evaluate, examples
from errordex.languages.python.evaluate import check_on_call, fires_on_call
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.repo_files import index_files

PSYCOPG = Path(psycopg.__file__).parent
MARSHMALLOW = Path(marshmallow.__file__).parent
BYTES = Path("/usr/share/cargo/registry/bytes-1.2.1")
LONG = "b" * 65


def _pages(store: SqliteStore, sid: int) -> dict[str, dict[str, Any]]:
    return {store.entry(i).message: data for i, data in store.analyses(sid)}


def _tested(page: dict[str, Any]) -> list[tuple[str, int]]:
    return [(t["path"], t["line"]) for t in page["facts"]["tests"]]


def _psycopg_repo(tmp_path: Path, tests: str) -> tuple[SqliteStore, int]:
    files = {
        "psycopg/_tpc.py": (PSYCOPG / "_tpc.py").read_text(encoding="utf-8"),
        "psycopg/__init__.py": "from ._tpc import Xid\n",
        "tests/test_tpc.py": tests,
    }
    return index_files(tmp_path, files, "psycopg/psycopg")


def test_the_raise_whose_check_the_literals_fail_is_the_one_tested(tmp_path: Path) -> None:
    tests = (
        "import pytest\nfrom psycopg import Xid\n\n\n"
        "def test_xid_bad_format_id():\n"
        "    with pytest.raises(ValueError):\n"
        '        Xid.from_parts(-1, "gtrid", "bqual")\n\n\n'
        "def test_xid_long_bqual():\n"
        "    with pytest.raises(ValueError):\n"
        f'        Xid.from_parts(1, "gtrid", "{LONG}")\n\n\n'
        "def test_xid_roundtrip():\n"
        '    Xid.from_parts(1, "gtrid", "bqual")\n'
    )
    store, sid = _psycopg_repo(tmp_path, tests)
    pages = _pages(store, sid)
    format_id = pages["format_id must be a non-negative 32-bit integer"]
    bqual = pages["bqual must be not longer than 64 chars"]
    gtrid = pages["gtrid must be not longer than 64 chars"]
    assert _tested(format_id) == [("tests/test_tpc.py", 6)]
    assert _tested(bqual) == [("tests/test_tpc.py", 11)]
    assert _tested(gtrid) == []
    fact = format_id["facts"]["tests"][0]
    assert fact["matched_by"] == "exception type and call" and fact["decided"]
    # the fix is the same call as the passing test makes it
    fix = format_id["analysis"]["example_fix"]
    assert 'Xid.from_parts(-1, "gtrid", "bqual")' in fix["before"]["code"]
    assert 'Xid.from_parts(1, "gtrid", "bqual")' in fix["after"]["code"]


def test_a_checked_keyword_takes_the_value_another_test_passes(tmp_path: Path) -> None:
    tests = (
        "import pytest\nfrom psycopg import Xid\n\n\n"
        "def test_xid_bad_format_id():\n"
        "    with pytest.raises(ValueError):\n"
        '        Xid.from_parts(format_id=-1, gtrid="gtrid", bqual="bqual")\n\n\n'
        "def test_xid_roundtrip(name):\n"
        '    Xid.from_parts(format_id=7, gtrid=name, bqual="bqual")\n'
    )
    store, sid = _psycopg_repo(tmp_path, tests)
    page = _pages(store, sid)["format_id must be a non-negative 32-bit integer"]
    fix = page["analysis"]["example_fix"]
    after = fix["after"]["code"].splitlines()[-1]
    assert after == 'Xid.from_parts(format_id=7, gtrid="gtrid", bqual="bqual")'
    assert "tests/test_tpc.py:11" in fix["evidence"]
    assert "`format_id=7`" in fix["text"]


def test_a_call_with_a_variable_decides_nothing(tmp_path: Path) -> None:
    tests = (
        "import pytest\nfrom psycopg import Xid\n\n\n"
        "def test_xid_bad(format_id):\n"
        "    with pytest.raises(ValueError):\n"
        '        Xid.from_parts(format_id, "gtrid", "bqual")\n'
    )
    store, sid = _psycopg_repo(tmp_path, tests)
    pages = _pages(store, sid)
    for message in (
        "format_id must be a non-negative 32-bit integer",
        "bqual must be not longer than 64 chars",
        "gtrid must be not longer than 64 chars",
    ):
        assert _tested(pages[message]) == []


def test_a_name_two_classes_define_called_on_a_value_decides_nothing(tmp_path: Path) -> None:
    tests = (
        "import pytest\nfrom psycopg import Xid\n\n\n"
        "def test_on_a_value(conn):\n"
        "    with pytest.raises(ValueError):\n"
        '        conn.from_parts(-1, "gtrid", "bqual")\n\n\n'
        "def test_on_the_class():\n"
        "    with pytest.raises(ValueError):\n"
        '        Xid.from_parts(-1, "gtrid", "bqual")\n'
    )
    files = {
        "psycopg/_tpc.py": (PSYCOPG / "_tpc.py").read_text(encoding="utf-8"),
        "psycopg/other.py": (
            "class Other:\n    @classmethod\n    def from_parts(cls, a, b, c):\n"
            "        return (a, b, c)\n"
        ),
        "psycopg/__init__.py": "from ._tpc import Xid\nfrom .other import Other\n",
        "tests/test_tpc.py": tests,
    }
    store, sid = index_files(tmp_path, files, "psycopg/psycopg")
    page = _pages(store, sid)["format_id must be a non-negative 32-bit integer"]
    assert _tested(page) == [("tests/test_tpc.py", 11)]


def test_a_validator_built_and_called_is_told_by_its_init(tmp_path: Path) -> None:
    files = {
        "src/marshmallow/validate.py": (MARSHMALLOW / "validate.py").read_text(encoding="utf-8"),
        "src/marshmallow/exceptions.py": (MARSHMALLOW / "exceptions.py").read_text(
            encoding="utf-8"
        ),
        "src/marshmallow/__init__.py": "from . import validate\n",
        "tests/test_validate.py": (
            "import pytest\nfrom marshmallow import validate\n\n\n"
            "def test_length_equal_with_min():\n"
            "    with pytest.raises(ValueError):\n"
            '        validate.Length(1, None, equal=3)("foo")\n'
        ),
    }
    store, sid = index_files(tmp_path, files, "marshmallow-code/marshmallow")
    pages = _pages(store, sid)
    equal = next(p for m, p in pages.items() if m.startswith("The `equal` parameter was provided"))
    assert _tested(equal) == [("tests/test_validate.py", 6)]


def test_checks_worked_out_on_a_call() -> None:
    params = ("cls", "format_id", "gtrid", "bqual")
    body = f'Xid.from_parts(1, "g", "{LONG}")'
    assert check_on_call("len(bqual) > 64", body, "from_parts", params, ()) is True
    assert check_on_call("len(gtrid) > 64", body, "from_parts", params, ()) is False
    assert check_on_call("not 0 <= format_id < 2147483648", body, "from_parts", params, ()) is False
    # a name the call does not give, or a call of another function: unknown
    assert check_on_call("len(bqual) > LIMIT", body, "from_parts", params, ()) is None
    assert check_on_call("len(bqual) > 64", body, "to_parts", params, ()) is None
    # a keyword-only parameter is not filled by a positional argument
    kw_only = (("*", "strict"), ("strict", "False"))
    assert check_on_call("strict", "f(1, True)", "f", ("x", "strict"), kw_only) is None
    assert check_on_call("strict", "f(1)", "f", ("x", "strict"), kw_only) is False
    # a class's constant passed by its class's name is the method's `self.X`
    assert (
        check_on_call(
            "unit not in (self.SECONDS, self.DAYS)",
            "fields.TimeDelta(fields.TimeDelta.SECONDS)",
            "TimeDelta",
            ("self", "unit"),
            (),
            "TimeDelta",
        )
        is False
    )
    # a local read as its one value (falcon's `create_scope`), a string's own method
    local = "(q.encode() if q else b'') and (q.encode() if q else b'').startswith(b'?')"
    scope = ("path", "q")
    assert check_on_call(local, "create_scope(q='?a=1')", "create_scope", scope, ()) is True
    assert check_on_call(local, "create_scope(q='a=1')", "create_scope", scope, ()) is False
    assert check_on_call("q.frobnicate()", "create_scope(q='a')", "create_scope", scope, ()) is None
    # a parameter the function assigns again is not the argument any more
    # (marshmallow's `precision = precision.lower()` before its check)
    assert check_on_call('unit == ""', 'f(" ")', "f", ("unit",), ()) is False
    assert check_on_call('unit == ""', 'f(" ")', "f", ("unit",), (), None, ("unit",)) is None
    lang = plugins.find("python")
    assert lang is not None
    ev = lang.scan(
        "src/m/fields.py",
        "def f(precision, kind):\n    precision = precision.lower()\n"
        "    for kind in ():\n        pass\n    self.x = 1\n",
    )
    assert ev.functions[0].rebinds == (("kind", 3), ("precision", 2))
    # an `elif` is only known to fail
    assert fires_on_call([("elif", "x < 0")], "f(-1)", "f", ("x",), ()) is None
    assert fires_on_call([("assert", "x >= 0")], "f(-1)", "f", ("x",), ()) is True


def test_an_alternative_that_names_a_value_gives_it() -> None:
    got = examples.repair_python_call(
        'Panel("x", vertical="center")',
        "Panel",
        ["renderable", "vertical"],
        'vertical is None or vertical in ("top", "middle")',
    )
    assert got == 'Panel("x", vertical="top")'


def test_evaluate_doctests_pass() -> None:
    assert doctest.testmod(evaluate).failed == 0


def test_a_method_is_known_by_the_type_the_test_binds_its_receiver_to() -> None:
    # smallvec's and bytes' tests, as written
    assert called_by_path(
        "let mut sv: SmallVec<[i32; 2]> = smallvec![0];\nsv.remove(usize::MAX);",
        "SmallVec::remove",
    )
    assert called_by_path(
        'let mut a = BytesMut::from("hello world");\na.advance(20);', "<BytesMut as Buf>::advance"
    )
    assert called_by_path("HeaderMap::<u32>::with_capacity(24_577);", "HeaderMap::with_capacity")
    # another type, a value of unknown type, a local bound twice: not this one
    assert not called_by_path(
        'let mut a = Bytes::from("x");\na.advance(20);', "<BytesMut as Buf>::advance"
    )
    assert not called_by_path("let v = make();\nv.remove(1);", "SmallVec::remove")
    # a call chained on the constructor may give another type (burn's
    # `Conv3dConfig::new(…).with_padding(…)`): not known to be that one
    assert not called_by_path(
        "let config = Conv3dConfig::new([4, 4], [2, 2, 2]).with_padding(Same);\n"
        "let _ = config.init(&device);",
        "Conv3dConfig::init",
    )
    assert not called_by_path(
        "let v: SmallVec<[u8; 1]> = x;\nlet v = other();\nv.remove(1);", "SmallVec::remove"
    )


def test_a_should_panic_test_reaches_the_panic_of_its_receivers_type(
    tmp_path: Path,
) -> None:
    if not BYTES.is_dir():
        pytest.skip("needs Debian's librust-bytes-dev")
    store = SqliteStore(tmp_path / "db.sqlite")
    sid = index(str(BYTES), store, name="tokio-rs/bytes", jobs=1).snapshot_id
    page = _pages(store, sid)["cannot advance past `remaining`: {:?} <= {:?}"]
    tests = {(t["path"], t["test"]) for t in page["facts"]["tests"]}
    assert ("tests/test_bytes.rs", "advance_past_len") in tests
    fix = page["analysis"]["example_fix"]
    assert "a.advance(20);" in fix["before"]["code"]
    assert "if 20 <= a.remaining() {" in fix["after"]["code"]
    assert "src/bytes_mut.rs:1027" in fix["evidence"]


def test_should_panic_with_its_text_after_an_equals_sign_pins_it() -> None:
    # burn's `#[should_panic = "…"]`, the same as `#[should_panic(expected = "…")]`
    lang = plugins.find("rust")
    assert lang is not None
    ev = lang.scan(
        "src/conv.rs",
        '#[test]\n#[should_panic = "Same padding with an even kernel size"]\n'
        "fn same_with_even_kernel_is_invalid() {\n    let c = Config::new();\n    c.init();\n}\n",
    )
    assert [(t.kind, t.pattern) for t in ev.tests] == [
        ("should_panic", "Same padding with an even kernel size")
    ]


def test_a_text_several_panics_print_is_the_one_on_the_way_of_the_tests_call(
    tmp_path: Path,
) -> None:
    # indexmap's shape: `insert_before` and `swap_indices` both panic with
    # "index out of bounds: …", and the test pins that prefix alone
    lib = (
        "pub struct Map { len: usize }\n\n"
        "impl Map {\n"
        "    pub fn new() -> Self { Map { len: 0 } }\n\n"
        "    pub fn insert_before(&mut self, index: usize) {\n"
        "        let len = self.len;\n"
        "        assert!(index <= len, "
        '"index out of bounds: the len is {len} but the index is {index}. Expected index <= len");\n'
        "        self.len += 1;\n"
        "    }\n\n"
        "    pub fn swap_indices(&mut self, a: usize) {\n"
        "        let len = self.len;\n"
        '        assert!(a < len, "index out of bounds: the len is {len} but the index is {a}");\n'
        "    }\n"
        "}\n"
    )
    tests = (
        "use map::Map;\n\n"
        "#[test]\n"
        '#[should_panic = "index out of bounds"]\n'
        "fn insert_before_oob() {\n"
        "    let mut map = Map::new();\n"
        "    map.insert_before(3);\n"
        "}\n"
    )
    files = {
        "Cargo.toml": '[package]\nname = "map"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/lib.rs": lib,
        "tests/oob.rs": tests,
    }
    store, sid = index_files(tmp_path, files, "indexmap-rs/indexmap")
    pages = _pages(store, sid)
    before = next(p for m, p in pages.items() if m.endswith("Expected index <= len"))
    swap = next(p for m, p in pages.items() if m.endswith("but the index is {a}"))
    assert _tested(before) == [("tests/oob.rs", 5)]
    assert _tested(swap) == []


def test_a_function_called_on_its_module_is_that_one(tmp_path: Path) -> None:
    # falcon's shape: `misc.secure_filename` beside a `BodyPart.secure_filename`
    files = {
        "falcon/__init__.py": "",
        "falcon/util/__init__.py": "",
        "falcon/util/misc.py": (
            "def secure_filename(filename, max_length=None):\n"
            "    if not filename:\n"
            "        raise ValueError('filename may not be an empty string')\n"
            "    filename = filename.strip()  # after the check: it still reads the argument\n"
            "    if max_length is not None and max_length < 1:\n"
            "        raise ValueError('max_length must be at least 1')\n"
            "    return filename\n"
        ),
        "falcon/multipart.py": (
            "class BodyPart:\n    def secure_filename(self):\n        return self.filename\n"
        ),
        "tests/test_utils.py": (
            "import pytest\nfrom falcon.util import misc\n\n\n"
            "def test_secure_filename_empty_value():\n"
            "    with pytest.raises(ValueError):\n"
            "        misc.secure_filename('')\n\n\n"
            "def test_on_a_part(part):\n"
            "    with pytest.raises(ValueError):\n"
            "        part.secure_filename('')\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "falconry/falcon")
    pages = _pages(store, sid)
    assert _tested(pages["filename may not be an empty string"]) == [("tests/test_utils.py", 6)]
    assert _tested(pages["max_length must be at least 1"]) == []
