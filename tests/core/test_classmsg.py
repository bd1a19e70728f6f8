"""Messages built by an exception class defined in another file."""

from __future__ import annotations

import pytest

from errordex.store.sqlite import SqliteStore
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
