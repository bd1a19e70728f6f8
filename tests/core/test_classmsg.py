"""Messages built by an exception class defined in another file."""

from __future__ import annotations

import pytest

from errordex.classmsg import class_message
from errordex.model import CallArg, ClassDef, ErrorEntry
from errordex.store.sqlite import SqliteStore
from errordex.template import Hole, Template, Text
from tests.repo_files import index_files

FILES = {
    "pkg/errors.py": '''
class PkgError(Exception):
    """Base."""


class SchemeClash(PkgError):
    def __str__(self):
        before = ", ".join(str(a) for a in self.args[:-1])
        return f"Cannot set {before} and {self.args[-1]} together"


class DecodeError(ValueError):
    def __init__(self, msg, pos):
        super().__init__("%s at char %d" % (msg, pos))


class Diagnostic(PkgError):
    def __init__(self, *, reference):
        super().__init__(f"<{self.__class__.__name__}: {reference}>")


class MissingKey(Diagnostic):
    pass


class NoConfig(PkgError):
    message = "no configuration file was found"
''',
    "pkg/app.py": """
from .errors import DecodeError, MissingKey, NoConfig, SchemeClash


def scheme(home, user):
    if home and user:
        raise SchemeClash("--home", "--user")


def decode(text, pos):
    if not text:
        raise DecodeError("Expecting value", pos)


def load(cfg):
    if cfg is None:
        raise NoConfig()
    if "key" not in cfg:
        raise MissingKey(reference="missing-key")
""",
}


#: Classes that take the message from several parameters, or from one that is
#: not the first (starlette's HTTPException, click's UsageError family, pip's
#: MetadataInconsistent), each raised from another file.
FILES["pkg/http.py"] = """
class HTTPException(Exception):
    def __init__(self, status_code, detail=None, headers=None):
        if detail is None:
            detail = lookup(status_code)
        self.status_code = status_code
        self.detail = detail

    def __str__(self):
        return f"{self.status_code}: {self.detail}"


class Inconsistent(Exception):
    def __init__(self, ireq, field, f_val, m_val):
        self.ireq = ireq
        self.field = field
        self.f_val = f_val
        self.m_val = m_val

    def __str__(self):
        return (
            f"Requested {self.ireq} has inconsistent {self.field}: "
            f"expected {self.f_val!r}, but metadata has {self.m_val!r}"
        )


class ClickException(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message

    def __str__(self):
        return self.message


class UsageError(ClickException):
    def __init__(self, message, ctx=None):
        super().__init__(message)
        self.ctx = ctx


class BadOptionUsage(UsageError):
    def __init__(self, option_name, message, ctx=None):
        super().__init__(message, ctx)
        self.option_name = option_name


class NoSuchOption(UsageError):
    def __init__(self, option_name, message=None, possibilities=None, ctx=None):
        if message is None:
            message = _("No such option: {name}").format(name=option_name)
        super().__init__(message, ctx)


class FileError(ClickException):
    def __init__(self, filename, hint=None):
        super().__init__(hint or "unknown error")
        self.filename = filename


class ValidationException(Exception):
    def __init__(self, errors):
        self._errors = errors

    def __str__(self):
        message = f"{len(self._errors)} validation errors:"
        return message.rstrip()


class ResponseValidationError(ValidationException):
    def __init__(self, errors, *, body=None):
        super().__init__(errors)


class ConfigError(Exception):
    def __init__(self, msg=""):
        self.message = msg
        Exception.__init__(self, msg)


class InterpolationError(ConfigError):
    def __init__(self, option, section, msg):
        ConfigError.__init__(self, msg)
        self.option = option


class DepthError(InterpolationError):
    def __init__(self, option, section, rawval):
        msg = "Recursion limit exceeded: option {!r} in section {!r}".format(option, section)
        InterpolationError.__init__(self, option, section, msg)


class InvalidFile(ValueError):
    def __init__(self, message="Invalid file"):
        ValueError.__init__(self, message)


class LoopError(Exception):
    def __init__(self, real_path, first_path):
        super().__init__(real_path, first_path)


def conflict(a, b):
    raise Inconsistent(a, "version", a, b)
"""
FILES["pkg/views.py"] = """
from .http import (
    BadOptionUsage,
    DepthError,
    FileError,
    HTTPException,
    Inconsistent,
    InvalidFile,
    LoopError,
    NoSuchOption,
    ResponseValidationError,
)


def get(request, name):
    if request.method != "GET":
        raise HTTPException(status_code=405)
    if not name:
        raise HTTPException(400, detail="Name is required")
    raise HTTPException(status_code=request.code, detail=request.reason)


def parse(opt, value, ctx):
    if value is not None:
        raise BadOptionUsage(opt, _("Option {name!r} does not take a value.").format(name=opt))
    raise NoSuchOption(opt, ctx=ctx)


def open_file(name, e):
    if e is None:
        raise FileError(name)
    raise FileError(name, hint=e.strerror)


def check(a, b, c):
    raise Inconsistent(a, "version", b, c)


def interpolate(option, section, raw, depth):
    if depth > 10:
        raise DepthError(option, section, raw)
    raise InvalidFile()


def teapot(lib):
    from . import http

    if lib:
        raise lib.HTTPException(418)  # not the HTTPException of pkg/http.py
    raise http.HTTPException(418, "I'm a teapot")


def validate(errors, seen, path):
    if errors:
        raise ResponseValidationError(errors=errors, body=None)
    if path in seen:
        raise LoopError(real_path=path, first_path=seen[path])
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    store, _ = index_files(tmp_path_factory.mktemp("classmsg"), FILES, "acme/classmsg")
    return store


def messages(store: SqliteStore) -> dict[str, str]:
    return {e.message: e.sites[0].path for e in store.entries()}


def test_arguments_are_not_the_message_when_the_class_builds_it(store: SqliteStore) -> None:
    found = messages(store)
    assert "Cannot set {before} and {self.args[-1]} together" in found
    assert "--home" not in found


def test_first_argument_fills_the_first_init_parameter(store: SqliteStore) -> None:
    assert "Expecting value at char %d" in messages(store)


def test_the_raised_class_names_itself(store: SqliteStore) -> None:
    found = messages(store)
    assert "<MissingKey: missing-key>" in found
    assert not any("__class__" in m for m in found)


def test_a_class_attribute_is_the_message_of_a_bare_raise(store: SqliteStore) -> None:
    assert messages(store).get("no configuration file was found") == "pkg/app.py"


def by_message(store: SqliteStore) -> dict[str, ErrorEntry]:
    return {e.message: e for e in store.entries()}


def test_every_parameter_the_message_shows_is_filled(store: SqliteStore) -> None:
    found = by_message(store)
    assert "405: {self.detail}" in found  # a keyword argument, an integer literal
    assert "400: Name is required" in found


def test_an_argument_not_readable_stays_a_hole(store: SqliteStore) -> None:
    found = by_message(store)
    # HTTPException(status_code=request.code, detail=request.reason)
    entry = found["{self.status_code}: {self.detail}"]
    assert [h.expr for h in entry.template.holes] == ["request.code", "request.reason"]
    assert not entry.template.dynamic


def test_a_class_defined_in_the_same_file_reads_the_same(store: SqliteStore) -> None:
    entry = by_message(store)[
        "Requested {self.ireq} has inconsistent version: expected {self.f_val!r}, "
        "but metadata has {self.m_val!r}"
    ]
    assert {s.path for s in entry.sites} == {"pkg/http.py", "pkg/views.py"}


def test_a_parameter_passed_to_the_base_is_the_message(store: SqliteStore) -> None:
    found = by_message(store)
    assert found["Option {name!r} does not take a value."].sites[0].path == "pkg/views.py"
    assert "{opt}" not in found


def test_the_message_init_puts_in_for_a_missing_argument(store: SqliteStore) -> None:
    found = by_message(store)
    assert "No such option: {name}" in found
    assert "unknown error" in found


def test_a_message_built_at_run_time_names_the_argument(store: SqliteStore) -> None:
    dynamic = [e for e in store.entries() if e.exception_types == ("FileError",)]
    holes = [h.expr for e in dynamic if e.template.dynamic for h in e.template.holes]
    assert holes == ["e.strerror"]  # FileError(name, hint=e.strerror), not {name}


def test_class_message_binds_positional_and_keyword_arguments() -> None:
    cls = ClassDef(
        name="DecodeError",
        qualname="DecodeError",
        path="errors.py",
        line=1,
        message=Template.of("py-percent", Hole("msg", "%s"), Text(" at char "), Hole("pos", "%d")),
        builds_message=True,
        message_params=("msg", "pos"),
    )
    args = (CallArg("pos", "7", Template.literal("7")), CallArg(None, "", Template.literal("Bad")))
    found = class_message("DecodeError", lambda name: [cls] if name == cls.name else [], args)
    assert found is not None and found.template.display() == "Bad at char 7"
    splat = (CallArg("*", "*rest"),)
    found = class_message("DecodeError", lambda name: [cls] if name == cls.name else [], splat)
    assert found is not None and found.template.display() == "%s at char %d"


def test_a_parameter_is_not_the_message_when_a_base_builds_it_unreadably(
    store: SqliteStore,
) -> None:
    found = {e.exception_types: e for e in store.entries()}
    # ValidationException.__str__ builds the message (``message.rstrip()`` of
    # its f-string, as FastAPI's does): that text, never the parameter ``{errors}``
    shown = found[("ResponseValidationError",)].template.display()
    assert "{errors}" not in shown
    assert shown == "{len(self._errors)} validation errors:"
    # Exception(real_path, first_path) shows a tuple: not ``{path}``
    assert found[("LoopError",)].template.is_empty


def test_a_message_init_builds_is_handed_up_to_the_base_that_shows_it(
    store: SqliteStore,
) -> None:
    found = by_message(store)
    # DepthError -> InterpolationError(option, section, msg) -> ConfigError(msg)
    assert found["Recursion limit exceeded: option {!r} in section {!r}"].exception_types == (
        "DepthError",
    )
    assert found["Invalid file"].exception_types == ("InvalidFile",)  # a parameter's default


def test_a_qualified_name_reads_the_class_of_that_module(store: SqliteStore) -> None:
    found = by_message(store)
    assert "418: I'm a teapot" in found
    assert "418: {self.detail}" not in found  # lib.HTTPException: another module's
