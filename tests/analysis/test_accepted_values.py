"""A check that passes only for values written in it names them (issue 16,
point 2): "`missing_dims` is none of `"raise"`, `"warn"`, `"ignore"`", not
the first test of an ``if``/``elif`` chain, nor "whose state the check
rejects"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from errordex.analysis.allowed import accepted, chained, none_of
from errordex.store.sqlite import SqliteStore
from errordex.views import entry_json
from tests.repo_files import index_files


def _page(store: SqliteStore, sid: int, message: str) -> dict[str, Any]:
    (entry,) = [e for e in store.entries() if e.message == message]
    return entry_json(entry, store.snapshot(sid), store)


def _text(page: dict[str, Any]) -> str:
    a = page["analysis"]
    parts = [(a.get(k) or {}).get("text", "") for k in ("summary", "trigger", "meaning")]
    return " ".join(parts + [s["text"] for s in a.get("solutions", [])])


#: xarray/core/utils.py's drop_dims_from_indexers: each option has its
#: branch, and the `else` rejects every other
_XARRAY = {
    "dims/__init__.py": (
        "def drop_dims_from_indexers(indexers, dims, missing_dims):\n"
        '    if missing_dims == "raise":\n'
        "        return indexers\n"
        '    elif missing_dims == "warn":\n'
        "        return indexers\n"
        '    elif missing_dims == "ignore":\n'
        "        return {}\n"
        "    else:\n"
        "        raise ValueError(\n"
        '            f"Unrecognised option {missing_dims} for missing_dims argument"\n'
        "        )\n\n\n"
        "def _get_day_of_month(other, day_option):\n"
        '    if day_option == "start":\n'
        "        return 1\n"
        '    if day_option == "end":\n'
        "        return 31\n"
        "    raise ValueError(day_option)\n\n\n"
        "def day_of_month(other, day_option):\n"
        "    return _get_day_of_month(other, day_option)\n"
    ),
}


def test_an_else_after_tests_of_one_value_names_every_value(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _XARRAY, "acme/dims")
    page = _page(store, sid, "Unrecognised option {missing_dims} for missing_dims argument")
    text = _text(page)
    assert (
        '`missing_dims` is none of `"raise"`, `"warn"`, `"ignore"`'
        in page["analysis"]["summary"]["text"]
    )
    # the first test alone ("pass `"raise"`") was the advice before
    assert '`missing_dims == "raise"` is false' not in text
    assert 'pass one of `"raise"`, `"warn"`, `"ignore"` as `missing_dims`' in text.lower()


def test_a_fall_through_past_returns_for_values_names_them(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _XARRAY, "acme/dims")
    page = _page(store, sid, "{day_option}")
    summary = page["analysis"]["summary"]["text"]
    assert '`day_option` is none of `"start"`, `"end"`' in summary
    assert "day_of_month(day_option=…)" in summary  # lifted to the public call


#: werkzeug/http.py's dump_cookie checks `samesite` against a set written in the check
_WERKZEUG = {
    "cookies/__init__.py": (
        "def dump_cookie(key, value='', samesite=None):\n"
        "    if samesite is not None:\n"
        "        samesite = samesite.title()\n"
        '        if samesite not in {"Strict", "Lax", "None"}:\n'
        "            raise ValueError(\"SameSite must be 'Strict', 'Lax', or 'None'.\")\n"
        "    return key\n"
    ),
}


def test_a_membership_check_names_its_values(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _WERKZEUG, "acme/cookies")
    page = _page(store, sid, "SameSite must be 'Strict', 'Lax', or 'None'.")
    # the check reads the parameter as bound again: "lax" is valid input
    assert '`samesite.title()` is none of `"Strict"`, `"Lax"`, `"None"`' in _text(page)


#: werkzeug/security.py: the method's name is the part before the first colon
_HASH = {
    "security/__init__.py": (
        "def _hash_internal(method, salt, password):\n"
        '    method, *args = method.split(":")\n'
        '    if method == "scrypt":\n'
        "        return password, salt\n"
        '    elif method == "pbkdf2":\n'
        "        return password, salt\n"
        "    else:\n"
        "        raise ValueError(f\"Invalid hash method '{method}'.\")\n\n\n"
        'def generate_password_hash(password, method="scrypt", salt_length=16):\n'
        '    return _hash_internal(method, "salt", password)\n'
    ),
}


def test_a_parameter_bound_again_is_checked_as_bound(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _HASH, "acme/security")
    page = _page(store, sid, "Invalid hash method '{method}'.")
    summary = page["analysis"]["summary"]["text"]
    assert "generate_password_hash(method=…)" in summary
    assert '`method.split(":")[0]` is none of `"scrypt"`, `"pbkdf2"`' in summary


#: h11's state machine: a method whose check reads only its object's state
_STATE = {
    "conn/__init__.py": (
        "class Connection:\n"
        "    def __init__(self, role):\n"
        "        self.our_role = role\n\n"
        "    def send(self, data):\n"
        '        if self.our_role == "client":\n'
        "            return data\n"
        '        elif self.our_role == "server":\n'
        "            return data\n"
        "        else:\n"
        "            raise RuntimeError(f\"Unsupported 'our_role' {self.our_role}\")\n"
    ),
}


def test_a_state_check_names_the_values_of_its_attribute(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _STATE, "acme/conn")
    page = _page(store, sid, "Unsupported 'our_role' {self.our_role}")
    trigger = page["analysis"]["trigger"]["text"]
    assert 'whose `our_role` is none of `"client"`, `"server"`' in trigger
    assert "whose state the check" not in trigger


def test_chains_of_other_shapes_name_no_values() -> None:
    # two subjects, a variable, an `isinstance`: no list of values
    assert chained(["x == 1", "y == 2"]) is None
    assert chained(['mode == "a"', "mode == other"]) is None
    assert chained(["isinstance(x, str)", 'y == "a"']) is None
    assert chained(["isinstance(x, str)", "callable(x)"]) is None  # no value at all
    # one value is a tuple of one (`x in ("a")` would test a substring)
    assert chained(["isinstance(x, str)", 'x == "a"']) == 'isinstance(x, str) or x in ("a",)'
    assert chained(['mode == "a"']) is None  # one test is its own sentence
    # a dict's keys are what `in` compares with (packaging's tables)
    got = accepted('name not in {"md5": 1, "sha256": 2}', False)
    assert got is not None and got.values == ('"md5"', '"sha256"')
    # a check that raises for a listed value names no valid values
    assert accepted('name in ("a", "b")', False) is None
    many = accepted("n not in (1, 2, 3, 4, 5, 6, 7, 8)", False)
    assert none_of(many) == "`n` is none of `1`, `2`, `3`, `4`, `5`, `6`, …"


#: xarray/backends/writers.py's get_writable_netcdf_store: the engine is
#: looked up in a module dict and a KeyError becomes the library's error;
#: marshmallow's class_registry fills its `_registry` at run time
_LOOKUPS = {
    "stores/__init__.py": (
        "WRITEABLE_STORES = {\n"
        '    "netcdf4": open_netcdf4,\n'
        '    "scipy": open_scipy,\n'
        '    "h5netcdf": open_h5netcdf,\n'
        "}\n"
        "_registry = {}\n\n\n"
        "def open_netcdf4(path):\n    return path\n\n\n"
        "def open_scipy(path):\n    return path\n\n\n"
        "def open_h5netcdf(path):\n    return path\n\n\n"
        "def register(name, cls):\n"
        "    _registry[name] = cls\n\n\n"
        "def get_writable_netcdf_store(target, engine):\n"
        "    try:\n"
        "        store_open = WRITEABLE_STORES[engine]\n"
        "    except KeyError as err:\n"
        '        raise ValueError(f"unrecognized engine for to_netcdf: {engine!r}") from err\n'
        "    return store_open(target)\n\n\n"
        "def get_class(classname):\n"
        "    try:\n"
        "        return _registry[classname]\n"
        "    except KeyError as error:\n"
        '        raise LookupError(f"Class with name {classname!r} was not found.") from error\n'
    ),
}


def test_a_key_error_of_a_literal_table_names_its_keys(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _LOOKUPS, "acme/stores")
    page = _page(store, sid, "unrecognized engine for to_netcdf: {engine!r}")
    summary = page["analysis"]["summary"]["text"]
    assert (
        '`engine` is none of `"netcdf4"`, `"scipy"`, `"h5netcdf"`, the entries of '
        "`WRITEABLE_STORES`" in summary
    )
    assert "get_writable_netcdf_store(engine=…)" in summary
    # a table filled at run time has no keys written in it: its try block is the cause
    page = _page(store, sid, "Class with name {classname!r} was not found.")
    assert "none of" not in _text(page)
    assert "`try` block raises `KeyError" in page["analysis"]["summary"]["text"]


#: xarray/structure/merge.py's merge_attrs: a callable, or one of the names
_MERGE = {
    "attrs/__init__.py": (
        "def merge_attrs(variable_attrs, combine_attrs):\n"
        "    if callable(combine_attrs):\n"
        "        return combine_attrs(variable_attrs)\n"
        '    elif combine_attrs == "drop":\n'
        "        return {}\n"
        '    elif combine_attrs == "override":\n'
        "        return dict(variable_attrs[0])\n"
        "    else:\n"
        '        raise ValueError(f"Unrecognised value for combine_attrs={combine_attrs}")\n'
    ),
}


def test_a_test_of_what_the_value_is_is_said_with_its_values(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _MERGE, "acme/attrs")
    page = _page(store, sid, "Unrecognised value for combine_attrs={combine_attrs}")
    text = _text(page)
    assert '`combine_attrs` is not callable and none of `"drop"`, `"override"`' in text
    assert "`callable(combine_attrs)` was false" not in text


#: redis-py's `Stream.xadd` (redis/commands/core.py): an optional argument
#: that, when given, must be one of the values the check lists
_REDIS = {
    "kv/__init__.py": "from kv.commands import xadd\n",
    "kv/commands.py": (
        "class DataError(Exception):\n    pass\n\n\n"
        "def xadd(name, fields, ref_policy=None):\n"
        '    if ref_policy is not None and ref_policy not in {"KEEPREF", "DELREF", "ACKED"}:\n'
        '        raise DataError("XADD ref_policy must be one of: KEEPREF, DELREF, ACKED")\n'
        "    return [name, fields, ref_policy]\n"
    ),
}


def test_an_optional_value_checked_against_a_list_names_the_list_and_none(tmp_path: Path) -> None:
    store, sid = index_files(tmp_path, _REDIS, "acme/kv")
    page = _page(store, sid, "XADD ref_policy must be one of: KEEPREF, DELREF, ACKED")
    text = _text(page)
    assert '`ref_policy` is none of `"KEEPREF"`, `"DELREF"`, `"ACKED"`, `None`' in text, text


def test_an_assert_that_lets_none_through_names_none_among_the_values() -> None:
    got = accepted('mode is None or mode in ("r", "w")', True)
    assert got is not None and got.values == ('"r"', '"w"', "None")
    # another name beside the list is no list of what `mode` may be
    assert accepted('mode in ("r", "w") or strict', True) is None


def test_arguments_that_cannot_be_given_together_are_said_to_be_both_given(
    tmp_path: Path,
) -> None:
    # redis-py's `xadd`: `if maxlen is not None and minid is not None: raise DataError(…)`
    files = {
        "kv/__init__.py": "from kv.streams import xtrim\n",
        "kv/streams.py": (
            "class DataError(Exception):\n    pass\n\n\n"
            "def xtrim(name, maxlen=None, minid=None):\n"
            "    if maxlen is not None and minid is not None:\n"
            '        raise DataError("Only one of maxlen or minid may be specified")\n'
            "    return [name, maxlen, minid]\n"
        ),
    }
    store, sid = index_files(tmp_path, files, "acme/kv")
    page = _page(store, sid, "Only one of maxlen or minid may be specified")
    summary = page["analysis"]["summary"]["text"]
    assert "when `maxlen` and `minid` are both given" in summary, summary
