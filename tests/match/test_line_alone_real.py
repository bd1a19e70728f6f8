"""The exception line alone, pasted from a log, on real libraries installed
from PyPI (issue 15): the library really raises, and the first answer is an
entry whose site (or its ``via``) is the line that raised it."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from errordex.explain import explain_text
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore

pytestmark = pytest.mark.corpus

LIBRARIES = (
    "requests",
    "jsonschema",
    "pyparsing",
    "packaging",
    "marshmallow",
    "toml",
    "werkzeug",
    "jinja2",
    "urllib3",
)


def raised(fn: Callable[[], object]) -> tuple[str, str, int]:
    """The exception line as printed (its first line, for a message of
    several), and the raise frame's path and line."""
    try:
        fn()
    except Exception as e:  # the error under test
        frame = traceback.extract_tb(e.__traceback__)[-1]
        line = "".join(traceback.format_exception_only(e)).strip().splitlines()[0]
        return line, frame.filename, frame.lineno or 0
    raise AssertionError("did not raise")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    s = SqliteStore(tmp_path_factory.mktemp("line-alone") / "store.db")
    for pkg in LIBRARIES:
        pytest.importorskip(pkg)
        index(f"pkg:{pkg}", s, jobs=1)
    return s


def first_match(store: SqliteStore, line: str) -> dict[str, Any]:
    part = explain_text(store, line)["parts"][-1]
    assert part.get("answer") is not None, f"no answer for {line!r}"
    assert part["answer"]["kind"] == "entry", part["answer"]
    match: dict[str, Any] = part["matches"][0]
    return match


def answer_sites(store: SqliteStore, line: str) -> set[str]:
    """``path:line`` of the first answer's sites and their vias."""
    sites = first_match(store, line)["sites"]
    return {f"{s['path']}:{s['line']}" for s in sites} | {
        s["via"].split(" ")[0] for s in sites if s.get("via")
    }


def assert_answers(store: SqliteStore, fn: Callable[[], object]) -> str:
    line, path, number = raised(fn)
    where = f"{Path(path).parent.name}/{Path(path).name}:{number}"
    assert any(s.endswith(where) for s in answer_sites(store, line)), (line, where)
    return line


def test_requests_message_assigned_on_two_branches_answers_both_lines(
    store: SqliteStore,
) -> None:
    import requests

    def status(code: int, reason: str) -> Callable[[], object]:
        r = requests.Response()
        r.status_code, r.url, r.reason = code, "http://example.org/x", reason
        return r.raise_for_status

    line = assert_answers(store, status(404, "Not Found"))
    assert line == (
        "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: http://example.org/x"
    )
    assert first_match(store, line)["message"].endswith(
        "Client Error: {reason} for url: {self.url}"
    )
    assert_answers(store, status(503, "Unavailable"))


def test_jsonschema_word_picked_by_a_conditional_answers_both_lines(store: SqliteStore) -> None:
    import jsonschema  # type: ignore[import-untyped]

    line = assert_answers(store, lambda: jsonschema.validate("ab", {"minLength": 3}))
    assert line == "jsonschema.exceptions.ValidationError: 'ab' is too short"
    line = assert_answers(store, lambda: jsonschema.validate([], {"minItems": 1}))
    assert line == "jsonschema.exceptions.ValidationError: [] should be non-empty"


def test_marshmallow_errors_a_schema_collects_answer_the_line_alone(store: SqliteStore) -> None:
    from marshmallow import Schema, fields

    class S(Schema):
        n = fields.Int(required=True)
        tags = fields.List(fields.Email())

    line = assert_answers(store, lambda: S().load({"n": "x"}))
    assert line == "marshmallow.exceptions.ValidationError: {'n': ['Not a valid integer.']}"
    best = first_match(store, line)
    assert best["message"] == "Not a valid integer."
    # the field's raise, collected by Schema._do_load
    vias = {s["via"].split(" ")[1] for s in best["sites"] if s.get("via")}
    assert "Schema._do_load.collect:ValidationError" in vias
    line = assert_answers(store, lambda: S().load({}))
    assert line.endswith("{'n': ['Missing data for required field.']}")
    line = assert_answers(store, lambda: fields.List(fields.Email()).deserialize(["x"]))
    assert line.endswith("{0: ['Not a valid email address.']}")


def test_toml_error_wrapped_with_its_place_answers_the_line_alone(store: SqliteStore) -> None:
    import toml  # type: ignore[import-untyped]

    line = assert_answers(store, lambda: toml.loads("a = "))
    assert line == "toml.decoder.TomlDecodeError: Empty value is invalid (line 1 column 1 char 0)"
    # the inner raise, where the text is written, wrapped by loads
    best = first_match(store, line)
    assert best["message"].startswith("Empty value is invalid (line {} column {} char ")
    assert_answers(store, lambda: toml.loads("a = [1, 'x']"))


def test_a_type_only_one_place_raises_answers_its_line_alone(store: SqliteStore) -> None:
    from packaging.markers import Marker
    from werkzeug.routing import Map, Rule

    urls = Map([Rule("/a/<int:x>", endpoint="a")]).bind("example.org")
    # the message is built at run time (BuildError's __str__), but only one
    # raise in werkzeug raises a BuildError, and the line names werkzeug
    line = assert_answers(store, lambda: urls.build("a"))
    assert line.startswith("werkzeug.routing.exceptions.BuildError: Could not build url")
    assert first_match(store, line)["values"] == {}  # built from them, not them
    line = assert_answers(store, lambda: Marker("python_version >"))
    assert line.startswith("packaging.markers.InvalidMarker: Expected a marker variable")


def test_a_type_raised_in_several_places_is_not_answered_by_its_name(store: SqliteStore) -> None:
    part = explain_text(store, "jinja2.exceptions.TemplateNotFound: a.html")["parts"][-1]
    assert part["answer"] is None
    # an unqualified builtin type names no package, so no one place
    part = explain_text(store, "KeyError: 'name'")["parts"][-1]
    assert part["answer"] is None


def test_pyparsing_error_raised_again_without_its_traceback_answers_the_line_alone(
    store: SqliteStore,
) -> None:
    import pyparsing as pp

    parser = pp.Literal("a") - pp.Literal("b")
    line = assert_answers(store, lambda: parser.parse_string("a c"))
    assert line == (
        "pyparsing.exceptions.ParseSyntaxException: Expected 'b', found 'c'  (at char 2), (line:1, col:3)"
    )
    # the text ParseBaseException.__str__ builds (through formatted_message)
    assert first_match(store, line)["message"].endswith(
        ", found {self.found}  (at char {self.loc}), (line:{self.lineno}, col:{self.column})"
    )


def test_a_message_of_several_lines_answers_its_first_line_alone(store: SqliteStore) -> None:
    from werkzeug.utils import import_string

    # (its traceback is the import's, kept by with_traceback: the page is the point)
    line, _, _ = raised(lambda: import_string("no_such_module_here.attr"))
    assert line == (
        "werkzeug.utils.ImportStringError: import_string() failed for"
        " 'no_such_module_here.attr'. Possible reasons are:"
    )
    best = first_match(store, line)
    assert best["message"].startswith("import_string() failed for {import_name!r}. Possible")
    assert "\n" in best["message"] and best["exception_types"] == ["ImportStringError"]


def test_a_class_raised_under_an_import_alias_answers_by_its_own_name(store: SqliteStore) -> None:
    import requests

    def decode() -> object:
        r = requests.Response()
        r._content = b"x"
        return r.json()

    # models.py raises RequestsJSONDecodeError, the name it imports JSONDecodeError as
    line = assert_answers(store, decode)
    assert line == "requests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"
    assert first_match(store, line)["exception_types"] == ["JSONDecodeError"]


def test_an_error_raised_again_with_another_librarys_text_answers_the_wrapping_raise(
    store: SqliteStore,
) -> None:
    import requests
    from packaging.requirements import Requirement

    # requests raises InvalidURL(*e.args) of urllib3's LocationParseError; it
    # raises InvalidURL in two other places from what they catch, and with
    # texts of its own in four more
    line = assert_answers(store, lambda: requests.Request("GET", "http://[::1").prepare())
    assert line == (
        "requests.exceptions.InvalidURL: Failed to parse: '[::1' is not a valid host or port"
    )
    best = first_match(store, line)
    assert best["exception_types"] == ["InvalidURL"]
    assert best["wraps"]["repo"] == "urllib3/urllib3"
    assert best["wraps"]["exception_types"] == ["LocationParseError"]
    assert best["wraps"]["message"] == "Failed to parse: {host_port!r} is not a valid host or port"
    # packaging: InvalidRequirement(str(e)) of its tokenizer's ParserSyntaxError
    line = assert_answers(store, lambda: Requirement("foo["))
    assert line.startswith("packaging.requirements.InvalidRequirement: Expected matching")
    assert first_match(store, line)["wraps"]["exception_types"] == ["ParserSyntaxError"]


def test_a_private_exception_class_answers_its_line_alone(store: SqliteStore) -> None:
    import jsonschema

    line = assert_answers(store, lambda: jsonschema.validate({}, {"$ref": "#/definitions/nope"}))
    assert line.startswith("jsonschema.exceptions._WrappedReferencingError: PointerToNowhere:")


def test_marshmallow_messages_stored_in_an_error_store_answer_the_line_alone(
    store: SqliteStore,
) -> None:
    from marshmallow import Schema, fields

    class S(Schema):
        n = fields.Int()

    # Schema._deserialize adds [self.error_messages["unknown"]] to its
    # ErrorStore; Schema._do_load raises what it collected
    line = assert_answers(store, lambda: S().load({"n": 1, "z": 2}))
    assert line == "marshmallow.exceptions.ValidationError: {'z': ['Unknown field.']}"
    best = first_match(store, line)
    assert best["message"] == "Unknown field."
    vias = {s["via"].split(" ")[1] for s in best["sites"] if s.get("via")}
    assert "Schema._do_load.collect:ValidationError" in vias
    line = assert_answers(store, lambda: S().load([1]))  # type: ignore[list-item]
    assert line == "marshmallow.exceptions.ValidationError: {'_schema': ['Invalid input type.']}"


def test_marshmallow_validator_texts_formatted_by_a_method_answer_the_line_alone(
    store: SqliteStore,
) -> None:
    from marshmallow import validate

    # Length: message_min, picked into a local, formatted by _format_error
    line = assert_answers(store, lambda: validate.Length(min=3)("ab"))
    assert line == "marshmallow.exceptions.ValidationError: Shorter than minimum length 3."
    assert first_match(store, line)["values"] == {"min": "3"}
    # OneOf: __init__ falls back to the class's default_message
    line = assert_answers(store, lambda: validate.OneOf(["a"])("b"))
    assert line == "marshmallow.exceptions.ValidationError: Must be one of: a."
    # Range: __init__ formats the class's message_min with message_gte first
    line = assert_answers(store, lambda: validate.Range(min=1)(0))
    assert line == "marshmallow.exceptions.ValidationError: Must be greater than or equal to 1."
    assert_answers(store, lambda: validate.Range(min=1, min_inclusive=False)(1))


def test_werkzeug_abort_answers_the_class_it_picks_from_its_table(store: SqliteStore) -> None:
    from werkzeug.exceptions import abort

    # Aborter.__call__ raises self.mapping[code](*args, **kwargs): the text
    # is the class's description, the traceback ends at that raise
    line = assert_answers(store, lambda: abort(404))
    assert line.startswith("werkzeug.exceptions.NotFound: 404 Not Found: The requested URL")
    vias = {s["via"] for s in first_match(store, line)["sites"] if s.get("via")}
    assert any(v.endswith(" Aborter.__call__") for v in vias)
    assert_answers(store, lambda: abort(403))


def test_an_unexpected_keyword_points_at_the_signature_the_call_missed(
    store: SqliteStore,
) -> None:
    from marshmallow import fields

    # Python raises it at the user's call: no raise of marshmallow has the text
    def old_keyword() -> object:
        return fields.Field(default=1)  # type: ignore[call-arg]

    line, _, _ = raised(old_keyword)
    assert line == "TypeError: Field.__init__() got an unexpected keyword argument 'default'"
    tb = ""
    try:
        old_keyword()
    except TypeError:
        tb = traceback.format_exc()
    for pasted in (line, tb):
        part = explain_text(store, pasted)["parts"][-1]
        sig = part["signature"]
        assert (sig["repo"], sig["path"], sig["function"]) == (
            "marshmallow-code/marshmallow",
            "marshmallow/fields.py",
            "Field.__init__",
        )
        assert "load_default" in sig["parameters"] and "default" not in sig["parameters"]
        assert sig["nearest"] == ["load_default", "dump_default"]
    # a keyword another class of the library does not take
    part = explain_text(
        store, "TypeError: Schema.__init__() got an unexpected keyword argument 'strict'"
    )
    assert part["parts"][-1]["signature"]["parameters"][0] == "only"


def test_toml_class_aliased_at_module_level_answers_its_first_line(store: SqliteStore) -> None:
    import toml

    # decoder.py: try: FNFError = FileNotFoundError; ... error_msg = "Load
    # expects ..."; error_msg += linesep; error_msg += (...); raise FNFError(error_msg)
    line = assert_answers(store, lambda: toml.load(["/no/such/file.toml"]))
    assert line == "FileNotFoundError: Load expects a list to contain filenames only."
    best = first_match(store, line)
    assert best["exception_types"] == ["FileNotFoundError"]
    assert best["message"].startswith("Load expects a list to contain filenames only.\nThe list")
