# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
def with_message(x):
    assert x > 0, "x must be positive"


def with_fstring(x):
    assert isinstance(x, int), f"expected int, got {type(x).__name__}"


def without_message(x):
    assert x


def with_percent(x, y):
    assert x == y, "%r != %r" % (x, y)


assert True, "module level"
