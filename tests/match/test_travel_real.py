"""Python messages that travel (issue 15), on real libraries installed from
PyPI: the library really raises, and the exception line alone, as a user
pastes it from a log, finds the site that raised it (or the call where the
text is written, whose ``via`` is the raise)."""

from __future__ import annotations

import shutil
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from errordex.explain import explain_text
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore

pytestmark = pytest.mark.corpus

LIBRARIES = ("marshmallow", "pydantic", "packaging", "werkzeug", "jinja2", "jsonschema")


def raised(fn: Callable[[], object]) -> tuple[str, str, int]:
    """The exception line as printed, and the raise frame's path and line."""
    try:
        fn()
    except Exception as e:  # the error under test
        frame = traceback.extract_tb(e.__traceback__)[-1]
        line = traceback.format_exception_only(e)[-1].strip()
        return line, frame.filename, frame.lineno or 0
    raise AssertionError("did not raise")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    s = SqliteStore(tmp_path_factory.mktemp("travel") / "store.db")
    for pkg in LIBRARIES:
        pytest.importorskip(pkg)
        index(f"pkg:{pkg}", s, jobs=1)
    return s


def answer_sites(store: SqliteStore, line: str) -> set[str]:
    """``path:line`` of the first answer's sites and their vias."""
    part = explain_text(store, line)["parts"][-1]
    answer: dict[str, Any] | None = part.get("answer")
    assert answer is not None and answer["kind"] == "entry", f"no answer for {line!r}"
    sites = part["matches"][0]["sites"]
    return {f"{s['path']}:{s['line']}" for s in sites} | {
        s["via"].split(" ")[0] for s in sites if s.get("via")
    }


def assert_answers(store: SqliteStore, fn: Callable[[], object]) -> str:
    line, path, number = raised(fn)
    where = f"{Path(path).parent.name}/{Path(path).name}:{number}"
    assert any(s.endswith(where) for s in answer_sites(store, line)), (line, where)
    return line


def test_marshmallow_key_of_a_subclass_table_answers_the_line_alone(store: SqliteStore) -> None:
    from marshmallow import fields

    line = assert_answers(store, lambda: fields.Integer().deserialize("x"))
    assert line == "marshmallow.exceptions.ValidationError: Not a valid integer."


def test_marshmallow_key_of_the_base_table_answers_the_line_alone(store: SqliteStore) -> None:
    from marshmallow import fields

    assert_answers(store, lambda: fields.Boolean().deserialize("x"))
    assert_answers(store, lambda: fields.DateTime().deserialize("x"))


def test_pydantic_code_first_error_answers_the_line_alone(store: SqliteStore) -> None:
    from pydantic import ByteSize, IPvAnyAddress

    line = assert_answers(store, lambda: ByteSize(1).to("parsec"))
    assert line.endswith("PydanticCustomError: Could not interpret byte unit: parsec")
    assert_answers(store, lambda: IPvAnyAddress("x"))  # type: ignore[operator]


def test_pydantic_message_a_mock_was_built_with_answers_the_line_alone(
    store: SqliteStore,
) -> None:
    from pydantic import BaseModel

    class M(BaseModel):
        x: Undefined  # type: ignore[name-defined]  # noqa: F821

    line = assert_answers(store, lambda: M(x=1))
    assert "`M` is not fully defined; you should define `Undefined`" in line
    assert_answers(store, lambda: BaseModel())


def test_packaging_error_a_helper_built_answers_the_line_alone(store: SqliteStore) -> None:
    from packaging.metadata import Metadata

    def member() -> None:
        try:
            Metadata.from_raw({"metadata_version": "9", "name": "x", "version": "1"})
        except ExceptionGroup as group:
            raise group.exceptions[0] from None

    line = assert_answers(store, member)
    assert line == "packaging.metadata.InvalidMetadata: '9' is not a valid metadata version"
    # the class the helper builds, not the helper's name
    best = explain_text(store, line)["parts"][-1]["matches"][0]
    assert best["exception_types"] == ["InvalidMetadata"]


def test_werkzeug_description_a_subclass_sets_answers_the_line_alone(store: SqliteStore) -> None:
    from werkzeug.routing import Map, Rule

    urls = Map([Rule("/a", endpoint="a", methods=["GET"])]).bind("example.org")
    line = assert_answers(store, lambda: urls.match("/a", method="POST"))
    assert line.endswith(
        "MethodNotAllowed: 405 Method Not Allowed: The method is not allowed for the requested URL."
    )
    # the page is the subclass's text, not the base's all-placeholder format
    best = explain_text(store, line)["parts"][-1]["matches"][0]
    assert best["message"].endswith(": The method is not allowed for the requested URL.")


def test_jinja_fail_with_a_default_class_answers_the_line_alone(store: SqliteStore) -> None:
    import jinja2

    # jinja rewrites the traceback to end in the template, so the answer is
    # read from the line: the parser's call, through ``Parser.fail``'s raise
    line, _, _ = raised(lambda: jinja2.Template("{% if %}{% endif %}"))
    assert line == (
        "jinja2.exceptions.TemplateSyntaxError: Expected an expression, got 'end of statement block'"
    )
    sites = answer_sites(store, line)
    fail = jinja2.parser.Parser.fail.__code__
    assert any(s.startswith("jinja2/parser.py:") for s in sites)
    assert any(
        s.startswith("jinja2/parser.py:")
        and fail.co_firstlineno < int(s.rsplit(":", 1)[1]) < fail.co_firstlineno + 15
        for s in sites
    )


def test_jinja_undefined_variable_answers_the_property_text_and_its_default_class(
    store: SqliteStore,
) -> None:
    import jinja2

    # ``raise self._undefined_exception(self._undefined_message)``: the text is
    # a property's return, the class the ``exc=UndefinedError`` default
    line, _, _ = raised(lambda: jinja2.Template("{{ user.name }}").render())
    assert line == "jinja2.exceptions.UndefinedError: 'user' is undefined"
    part = explain_text(store, line)["parts"][-1]
    assert part["answer"] is not None and part["answer"]["kind"] == "entry"
    best = part["matches"][0]
    assert best["message"].endswith(" is undefined")
    assert best["exception_types"][0].endswith("UndefinedError")
    fail = jinja2.runtime.Undefined._fail_with_undefined_error.__code__
    assert any(
        s["path"] == "jinja2/runtime.py"
        and fail.co_firstlineno < s["line"] < fail.co_firstlineno + 10
        for s in best["sites"]
    )


def test_jsonschema_yielded_error_answers_the_line_alone(store: SqliteStore) -> None:
    import jsonschema  # type: ignore[import-untyped]

    line = assert_answers(store, lambda: jsonschema.validate(1, {"type": "string"}))
    assert line.startswith("jsonschema.exceptions.ValidationError: 1 is not of type 'string'")
    assert_answers(store, lambda: jsonschema.validate({}, {"required": ["a"]}))
    # the site is the keyword's yield, where the text is written
    best = explain_text(store, line)["parts"][-1]["matches"][0]
    assert any(s["path"] == "jsonschema/_keywords.py" for s in best["sites"])
    assert best["exception_types"] == ["ValidationError"]


def test_jsonschema_traceback_answers_the_yield_its_raise_frame_raises(
    store: SqliteStore,
) -> None:
    import jsonschema

    try:
        jsonschema.validate(1, {"type": "string"})
    except jsonschema.ValidationError as e:
        tb = "".join(traceback.format_exception(e))
        frame = traceback.extract_tb(e.__traceback__)[-1]
    # ``raise error`` at the raise frame has no text: the answer is the
    # keyword's yield that wrote it, reached through that raise
    part = explain_text(store, tb)["parts"][-1]
    answer = part["answer"]
    assert answer is not None and answer["kind"] == "entry"
    assert answer["path"] == "jsonschema/_keywords.py"
    assert answer["via"].startswith(f"jsonschema/validators.py:{frame.lineno} ")
    assert part["matches"][0]["values"]["reprs"] == "'string'"
    # the raise frame's own entry (``raise error``) follows it
    assert any(
        s["path"] == "jsonschema/validators.py" and s["line"] == frame.lineno
        for m in part["matches"][1:]
        for s in m["sites"]
    )


def test_werkzeug_abort_line_answers_the_class_that_sets_its_text(store: SqliteStore) -> None:
    from werkzeug.exceptions import Forbidden, abort

    line, _, _ = raised(lambda: abort(403))
    assert line.startswith("werkzeug.exceptions.Forbidden: 403 Forbidden: You don't have")
    # raised from a table of classes (``self.mapping[code]``): the answer is
    # the class whose description the message shows
    part = explain_text(store, line)["parts"][-1]
    assert part["answer"] is not None and part["answer"]["path"] == "werkzeug/exceptions.py"
    best = part["matches"][0]
    assert best["exception_types"] == ["Forbidden"]
    assert Forbidden.description is not None and best["message"].endswith(Forbidden.description)


def test_werkzeug_abort_traceback_answers_the_class_its_raise_frame_raises(
    store: SqliteStore,
) -> None:
    from werkzeug.exceptions import Forbidden, HTTPException, abort

    try:
        abort(403)
    except HTTPException as e:
        tb = "".join(traceback.format_exception(e))
        frame = traceback.extract_tb(e.__traceback__)[-1]
    # ``raise self.mapping[code](...)`` at the raise frame has no text: the
    # answer is the class whose description the message shows, raised there
    part = explain_text(store, tb)["parts"][-1]
    answer = part["answer"]
    assert answer is not None and answer["kind"] == "entry"
    assert answer["via"].startswith(f"werkzeug/exceptions.py:{frame.lineno} ")
    assert part["matches"][0]["values"]["code"] == str(Forbidden.code)
    assert "permission" in part["matches"][0]["message"]


def test_stdlib_text_a_helper_returns_answers_the_line_alone(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    import zoneinfo

    # _tzpath.py: raise ValueError(_get_invalid_paths_message(tzpaths)), whose
    # return is "Paths should be absolute but found ...:" + indented_str
    tmp = tmp_path_factory.mktemp("returned")
    shutil.copytree(Path(zoneinfo.__file__).parent, tmp / "src" / "zoneinfo")
    s = SqliteStore(tmp / "store.db")
    index(str(tmp / "src"), s, name="python/cpython-zoneinfo", jobs=1)
    line = assert_answers(s, lambda: zoneinfo.reset_tzpath(["relative/dir"]))
    assert line.startswith("ValueError: Paths should be absolute but found the following")
    part = explain_text(s, line)["parts"][-1]
    assert part["matches"][0]["message"].startswith("Paths should be absolute but found")


@pytest.fixture(scope="module")
def appended_store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    s = SqliteStore(tmp_path_factory.mktemp("appended") / "store.db")
    for pkg in ("pytest", "hypothesis"):
        pytest.importorskip(pkg)
        index(f"pkg:{pkg}", s, jobs=1)
    return s


def test_pytest_message_built_up_by_appends_answers_the_line_alone(
    appended_store: SqliteStore,
) -> None:
    # _pytest/raises.py: msg = "Unexpected keyword arguments passed to pytest.raises: "
    # msg += ", ".join(sorted(kwargs)); msg += "\nUse context-manager form instead?"
    line = assert_answers(appended_store, lambda: pytest.raises(nope=1))  # type: ignore[call-overload]
    assert line == (
        "TypeError: Unexpected keyword arguments passed to pytest.raises: nope\n"
        "Use context-manager form instead?"
    )


def test_hypothesis_suffix_an_if_appends_answers_both_lines(appended_store: SqliteStore) -> None:
    from hypothesis import strategies as st

    # numbers.py: msg = (f"There are no {width}-bit floating-point values between ...")
    # if exclude_min or exclude_max: msg += f", {exclude_min=} and {exclude_max=}"
    def floats(**kwargs: Any) -> Callable[[], object]:
        return lambda: st.floats(min_value=2.0, max_value=1.0, width=32, **kwargs).validate()

    line = assert_answers(appended_store, floats())
    assert line.endswith(
        "There are no 32-bit floating-point values between min_value=2.0 and max_value=1.0"
    )
    line = assert_answers(appended_store, floats(exclude_min=True))
    assert line.endswith(", exclude_min=True and exclude_max=False")
    # f"{exclude_min=}" prints the name and "=" as text, then the value
    values = explain_text(appended_store, line)["parts"][-1]["matches"][0]["values"]
    assert values["exclude_min"] == "True" and values["exclude_max"] == "False"


def test_celery_constant_stripped_and_formatted_answers_the_line_alone(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    pytest.importorskip("celery")
    from celery import Celery

    # app/backends.py: raise ImproperlyConfigured(UNKNOWN_BACKEND.strip().format(
    #     backend, 'is a Python module, not a backend class.')), the constant
    # written between triple quotes on a line of its own
    s = SqliteStore(tmp_path_factory.mktemp("stripped") / "store.db")
    index("pkg:celery", s, jobs=1)
    line = assert_answers(s, lambda: Celery(backend="os").backend)
    assert line.startswith("celery.exceptions.ImproperlyConfigured: Unknown result backend: 'os'.")
    best = explain_text(s, line)["parts"][-1]["matches"][0]
    assert (
        best["message"] == "Unknown result backend: {0!r}.  Did you spell that correctly? ({1!r})"
    )


def test_pytest_fail_instance_called_as_a_function_answers_the_line_alone(
    appended_store: SqliteStore,
) -> None:
    # outcomes.py: fail: _Fail = _Fail(), whose __call__ raises Failed(msg=reason);
    # raises.py: fail(f"DID NOT RAISE {self.expected_exceptions[0].__name__}")
    try:
        with pytest.raises(ValueError):
            pass
    except pytest.fail.Exception as e:  # a BaseException: raised() does not catch it
        frame = traceback.extract_tb(e.__traceback__)[-1]
        line = traceback.format_exception_only(e)[-1].strip()
    assert line == "Failed: DID NOT RAISE ValueError"
    where = f"{Path(frame.filename).parent.name}/{Path(frame.filename).name}:{frame.lineno}"
    assert where.startswith("_pytest/outcomes.py:")
    assert any(s.endswith(where) for s in answer_sites(appended_store, line)), (line, where)
    best = explain_text(appended_store, line)["parts"][-1]["matches"][0]
    assert best["message"].startswith("DID NOT RAISE {")
    assert best["exception_types"] == ["Failed"]


def test_pydantic_message_picked_on_two_branches_then_appended_answers_both_lines(
    store: SqliteStore,
) -> None:
    from typing import Generic, TypeVar

    from pydantic import BaseModel, RootModel

    t = TypeVar("t")
    u = TypeVar("u")

    # _model_construction.py: if ...: error_message = (f"{cls.__name__} is a subclass
    # of `RootModel`, ...") else: error_message = (f"All parameters must be present
    # ..."); if Generic not in bases: error_message += ...; then raise TypeError(error_message)
    class A(BaseModel, Generic[t]):
        pass

    def generic() -> None:
        class B(A[t], Generic[u]):  # type: ignore[misc]
            pass

    def root() -> None:
        class C(RootModel, Generic[t]):  # type: ignore[type-arg]
            root: t

    line = assert_answers(store, generic)
    assert line.startswith("TypeError: All parameters must be present on typing.Generic;")
    line = assert_answers(store, root)
    assert line.startswith("TypeError: C is a subclass of `RootModel`, but does not include")


def test_pytest_reason_one_method_sets_and_another_raises_answers_the_line_alone(
    appended_store: SqliteStore,
) -> None:
    # raises.py: matches() sets self._fail_reason = (f"Regex pattern did not
    # match{maybe_specify_type}.\n" ...); __exit__ raises AssertionError(self._fail_reason)
    def no_match() -> None:
        with pytest.raises(ValueError, match="x"):
            raise ValueError("y")

    line = assert_answers(appended_store, no_match)
    assert line.startswith("AssertionError: Regex pattern did not match.")


def test_hypothesis_text_init_stores_and_a_method_raises_answers_the_line_alone(
    appended_store: SqliteStore,
) -> None:
    from hypothesis.database import GitHubArtifactDatabase

    # database.py: __init__ sets self._read_only_message = ("This database is
    # read-only. " ...); save() raises RuntimeError(self._read_only_message)
    line = assert_answers(appended_store, lambda: GitHubArtifactDatabase("o", "r").save(b"k", b"v"))
    assert line.startswith("RuntimeError: This database is read-only. Please wrap this class")


def test_anyio_base_exception_group_answers_its_exception_group_line(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    anyio = pytest.importorskip("anyio")

    # _backends/_asyncio.py: raise BaseExceptionGroup("unhandled errors in a
    # TaskGroup", self._exceptions), which builds an ExceptionGroup of Exceptions
    async def fails() -> None:
        raise ValueError("child")

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(fails)

    s = SqliteStore(tmp_path_factory.mktemp("group") / "store.db")
    index("pkg:anyio", s, jobs=1)
    line = assert_answers(s, lambda: anyio.run(main))
    assert line == "ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)"


def test_dotenv_ioerror_answers_its_oserror_line(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    dotenv = pytest.importorskip("dotenv")

    # main.py: raise IOError("File not found"), which prints as OSError
    tmp = tmp_path_factory.mktemp("dotenv")
    s = SqliteStore(tmp / "store.db")
    index("pkg:python-dotenv", s, jobs=1)
    monkeypatch.chdir(tmp)
    line = assert_answers(
        s,
        lambda: dotenv.find_dotenv("no-such.env", raise_error_if_not_found=True, usecwd=True),
    )
    assert line == "OSError: File not found"
