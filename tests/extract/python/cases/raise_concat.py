# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
def text_and_call(x):
    raise ValueError("bad value: " + str(x))


def three_operands(path, reason):
    raise OSError("cannot read " + path + " because " + reason)


def with_fstring(n):
    raise ValueError("limit: " + f"{n} items")


def no_literal(a, b):
    raise ValueError(a + b)


def parenthesized(x):
    raise ValueError(("wrapped " + repr(x)))
