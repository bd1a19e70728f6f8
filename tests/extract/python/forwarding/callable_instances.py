# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A module-level instance of a class whose __call__ forwards its parameter,
# called by the instance's name (pytest's _pytest/outcomes.py, abridged).
from typing import NoReturn


class Failed(Exception):
    def __init__(self, msg=None, pytrace=True):
        super().__init__(msg)


class _Fail:
    Exception = Failed

    def __call__(self, reason: str = "", pytrace: bool = True) -> NoReturn:
        __tracebackhide__ = True
        raise Failed(msg=reason, pytrace=pytrace)


fail: _Fail = _Fail()


class _Other:
    def __call__(self, reason):
        return reason


other = _Other()


def check(expected):
    fail(f"DID NOT RAISE {expected.__name__}")
    other("not an error")
