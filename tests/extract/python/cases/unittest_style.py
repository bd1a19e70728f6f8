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
