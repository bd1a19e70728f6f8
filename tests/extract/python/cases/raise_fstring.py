# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
def simple(name):
    raise ValueError(f"unknown name {name}")


def conversion_and_spec(value, width):
    raise ValueError(f"bad value {value!r:>10} in {width:d} columns")


def braces_escaped(key):
    raise KeyError(f"{{literal}} and {key}")


def expressions(obj, items):
    raise TypeError(f"got {type(obj).__name__} with {len(items)} items, first={items[0]!s}")


def mixed_concat(path):
    raise OSError(f"cannot open {path}: " "permission denied")


def only_a_hole(err):
    raise RuntimeError(f"{err}")


def self_documenting(x):
    raise ValueError(f"expected positive {x=}")
