# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
import unittest


def helper():
    raise ValueError("not a test")


def test_function():
    raise AssertionError("in a test function")


class TestCase(unittest.TestCase):
    def helper(self):
        raise ValueError("in a test class")


class Builder:
    def test_like(self):
        raise ValueError("method named test_like")


class TestClient(Session):
    def get(self, url):
        raise ValueError("a helper named like a test class")


class TestPlain:
    def helper(self):
        raise ValueError("in a pytest class")


def testCamelCase():
    raise ValueError("unittest camel case")


def testing_mode():
    raise ValueError("not a test either")
