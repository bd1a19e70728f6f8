"""Messages forwarded through a parameter: ``self.fail(_("..."))`` becomes a
site at the call, with ``via`` naming the helper's raise."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from errordex.explain import explain_text
from errordex.forward import (
    MAX_COLLECTORS,
    collected_classes,
    collected_sites,
    forwarded_sites,
    substitute,
    with_subclasses,
)
from errordex.model import ClassDef, Forwarder, MessageCall, ThrowSite
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from errordex.template import Hole, Template, Text
from tests.repo_files import index_files

FAIL = Forwarder(
    name="fail",
    qualname="ParamType.fail",
    path="types.py",
    line=9,
    param_name="message",
    param_index=0,
    exception_type="BadParameter",
    template=Template.runtime("message"),
    method=True,
)


def call(callee: str, receiver: str | None, owner: str | None, text: str) -> MessageCall:
    return MessageCall(
        callee=callee,
        receiver=receiver,
        args=((0, Template.literal(text)),),
        path="other.py",
        line=3,
        column=9,
        end_line=3,
        symbol=f"{owner}.convert" if owner else "f",
        owner=owner,
    )


def test_prefix_text_of_the_helper_is_kept() -> None:
    helper = Template.of("py-fstring", Text("error: "), Hole("msg", "{msg}"))
    got = substitute(helper, "msg", Template.literal("disk full"))
    assert got is not None and got.display() == "error: disk full"


def test_self_call_follows_the_class_bases_to_the_forwarder() -> None:
    classes = [
        ClassDef("ParamType", "ParamType", "types.py", 1),
        ClassDef("IntType", "IntType", "other.py", 1, bases=("types.ParamType[int]",)),
    ]
    [site] = forwarded_sites(
        [FAIL], [call("fail", "self", "IntType", "not an int")], classes, ["ParamType.fail"]
    )
    assert (site.path, site.line, site.exception_type) == ("other.py", 3, "BadParameter")
    assert site.template.display() == "not an int"
    assert site.via == "types.py:9 ParamType.fail"
    assert ThrowSite.from_json(site.to_json()) == site


def test_self_call_in_an_unrelated_class_is_not_joined() -> None:
    classes = [ClassDef("Logger", "Logger", "log.py", 1)]
    calls = [call("fail", "self", "Logger", "not an int")]
    assert forwarded_sites([FAIL], calls, classes, ["ParamType.fail", "Logger.fail"]) == []


def test_name_also_defined_by_a_function_that_does_not_raise_is_not_joined() -> None:
    calls = [call("fail", "ctx", None, "no such thing")]
    assert forwarded_sites([FAIL], calls, [], ["ParamType.fail", "Logger.fail"]) == []
    [site] = forwarded_sites([FAIL], calls, [], ["ParamType.fail"])
    assert site.template.display() == "no such thing"


def test_site_json_has_no_via_key_unless_forwarded() -> None:
    site = ThrowSite("a.py", 1, 1, 1, "python", "raise", Template.literal("x"))
    assert "via" not in site.to_json()


FIXTURE = {
    "pkg/__init__.py": "",
    "pkg/errors.py": """
class UsageError(Exception):
    pass


def usage_error(message, hint=None):
    raise UsageError(f"usage: {message}")
""",
    "pkg/types.py": """
from gettext import ngettext
from .errors import usage_error


class BadParameter(Exception):
    pass


class ParamType:
    def fail(self, message, param=None):
        raise BadParameter(message, param)


class Count(ParamType):
    def convert(self, value, param):
        if value < 0:
            self.fail(
                ngettext("{n} is below {min}.", "{n} are below {min}.", value).format(n=value, min=0),
                param,
            )
        if value > 10:
            usage_error("count is too large")
        return value
""",
    "pkg/logs.py": """
class Logger:
    def fail(self, text):
        print(text)

    def work(self):
        self.fail("logged, never raised")
""",
}


@pytest.fixture(scope="module")
def fixture_store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    store, _ = index_files(tmp_path_factory.mktemp("forwarding"), FIXTURE, "acme/forwarding")
    return store


def test_pipeline_puts_forwarded_messages_at_the_call(fixture_store: SqliteStore) -> None:
    by_message = {e.message: e for e in fixture_store.entries("acme/forwarding")}
    for message in ("{n} is below {min}.", "{n} are below {min}."):
        [site] = by_message[message].sites
        assert (site.path, site.line, site.symbol) == ("pkg/types.py", 18, "Count.convert")
        assert site.exception_type == "BadParameter"
        assert site.via == "pkg/types.py:12 ParamType.fail"
        assert site.guards[0].text == "value < 0"
    [site] = by_message["usage: count is too large"].sites
    assert (site.path, site.line, site.exception_type) == ("pkg/types.py", 23, "UsageError")
    assert site.via == "pkg/errors.py:7 usage_error"
    assert "logged, never raised" not in by_message


@pytest.fixture(scope="module")
def click_store(tmp_path_factory: pytest.TempPathFactory) -> SqliteStore:
    store = SqliteStore(tmp_path_factory.mktemp("click") / "db.sqlite")
    index("pkg:click", store, jobs=1)
    return store


def test_click_choice_message_is_found_at_the_fail_call(click_store: SqliteStore) -> None:
    [entry] = [
        e for e in click_store.entries() if e.message == "{value!r} is not one of {choices}."
    ]
    [site] = entry.sites
    assert site.path == "click/types.py" and site.exception_type == "BadParameter"
    assert site.via is not None and site.via.startswith("click/types.py:")
    snap = click_store.current(entry.repo)
    text = click_store.file_text(snap.id, site.path)
    assert text is not None
    assert text.splitlines()[site.line - 1].strip().startswith("self.fail(")


def test_click_choice_traceback_ranks_the_forwarded_entry_first(click_store: SqliteStore) -> None:
    code = "import click; click.Choice(['a', 'b']).convert('c', None, None)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "BadParameter: 'c' is not one of 'a', 'b'." in proc.stderr
    parts = explain_text(click_store, proc.stderr)["parts"]
    # the chained StopIteration comes first; the error is the last part
    part = parts[-1]
    assert part["exception_type"] == "click.exceptions.BadParameter"
    best = part["matches"][0]
    assert best["message"] == "{value!r} is not one of {choices}."
    assert best["sites"][0]["path"] == "click/types.py"


def test_argparse_error_calls_are_read_but_not_joined(tmp_path: Path) -> None:
    """``ArgumentParser.error`` prints and exits; it raises nothing, so its
    callers' messages are recorded as calls and never turned into raises."""
    import argparse

    from errordex.languages.python import extract as python

    text = Path(argparse.__file__).read_text(encoding="utf-8")
    found = python.extract("argparse.py", text)
    errors = [c for c in found.calls if c.callee == "error" and c.receiver == "self"]
    shown = {t.display() for c in errors for _, t in c.args}
    assert "unrecognized arguments: %s" in shown
    assert not [f for f in found.forwarders if f.name == "error"]
    shutil.copy(argparse.__file__, tmp_path / "argparse.py")
    store = SqliteStore(tmp_path / "db.sqlite")
    index(str(tmp_path), store, name="python/argparse", jobs=1)
    sites = [s for e in store.entries("python/argparse") for s in e.sites]
    assert not [s for s in sites if s.via and "error" in s.via.split()[-1]]


def collector(path: str, line: int, symbol: str = "Schema._do_load") -> Forwarder:
    return Forwarder(
        name="collect:ValidationError",
        qualname=f"{symbol}.collect:ValidationError",
        path=path,
        line=line,
        param_name="message",
        param_index=0,
        exception_type="ValidationError",
        template=Template.runtime("message"),
        method=False,
    )


def raised(text: str, exc: str = "ValidationError", line: int = 5) -> ThrowSite:
    return ThrowSite(
        path="fields.py",
        line=line,
        column=9,
        end_line=line,
        language="python",
        kind="raise",
        template=Template.literal(text),
        exception_type=exc,
    )


def test_collected_errors_are_a_site_per_collector_of_their_class() -> None:
    collectors = collected_classes([collector("schema.py", 942), collector("validate.py", 84)])
    got = list(
        collected_sites(
            [raised("Not a valid integer."), raised("bad", exc="TypeError")], collectors
        )
    )
    assert [s.via for s in got] == [
        "schema.py:942 Schema._do_load.collect:ValidationError",
        "validate.py:84 Schema._do_load.collect:ValidationError",
    ]
    assert {(s.path, s.line, s.template.display()) for s in got} == {
        ("fields.py", 5, "Not a valid integer.")
    }


def test_a_class_collected_in_too_many_places_gets_no_sites() -> None:
    many = [collector(f"m{i}.py", i) for i in range(MAX_COLLECTORS + 1)]
    assert collected_classes(many) == {}
    dynamic = replace(raised("x"), template=Template.runtime("errors"))
    assert list(collected_sites([dynamic], collected_classes(many[:2]))) == []


def test_a_collector_of_a_base_class_collects_its_subclasses() -> None:
    base = replace(collector("core.py", 1346, "ParserElement.parse_string"))
    base = replace(base, name="collect:ParseBaseException", exception_type="ParseBaseException")
    classes = [
        ClassDef("ParseBaseException", "ParseBaseException", "exceptions.py", 33),
        ClassDef("ParseException", "ParseException", "exceptions.py", 300, ("ParseBaseException",)),
        ClassDef("ParseFatal", "ParseFatal", "exceptions.py", 323, ("ParseBaseException",)),
        ClassDef("ParseSyntax", "ParseSyntax", "exceptions.py", 330, ("ParseFatal",)),
    ]
    got = with_subclasses(collected_classes([base]), classes)
    assert set(got) == {"ParseBaseException", "ParseException", "ParseFatal", "ParseSyntax"}
    [site] = collected_sites([raised("Expected end of text", exc="ParseSyntax")], got)
    assert site.via is not None and site.via.startswith("core.py:1346 ")
