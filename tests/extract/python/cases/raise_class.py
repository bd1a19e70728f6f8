# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
import errors


def bare_class(x):
    raise StopIteration


def dotted_class(x):
    raise errors.UsageError("dotted type")


def self_attribute(self):
    raise self.error_class("from an attribute")


def with_traceback(tb):
    raise ValueError("kept").with_traceback(tb)


def held_instance(x):
    err = TypeError("built before raising")
    raise err


def factory_call(x):
    raise make_error("from a factory")
