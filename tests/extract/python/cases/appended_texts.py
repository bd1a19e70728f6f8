# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A message built up by += before the raise (msg._appended).
# From pytest's _pytest/raises.py, hypothesis' strategies/_internal/numbers.py
# and toml's decoder.py (abridged).
from os import linesep


def raises(*args, **kwargs):
    if not args:
        if set(kwargs) - {"match", "check", "expected_exception"}:
            msg = "Unexpected keyword arguments passed to pytest.raises: "
            msg += ", ".join(sorted(kwargs))
            msg += "\nUse context-manager form instead?"
            raise TypeError(msg)


def floats(min_value, max_value, width, min_arg, max_arg, exclude_min, exclude_max):
    if min_value > max_value:
        msg = (
            f"There are no {width}-bit floating-point values between "
            f"min_value={min_arg!r} and max_value={max_arg!r}"
        )
        if exclude_min or exclude_max:
            msg += f", {exclude_min=} and {exclude_max=}"
        raise InvalidArgument(msg)


def load(f):
    if not f:
        error_msg = "Load expects a list to contain filenames only."
        error_msg += linesep
        error_msg += ("The list needs to contain the path of at least one "
                      "existing file.")
        raise FNFError(error_msg)


def rebound(x):
    # bound again on one branch: the text is not read
    msg = "a"
    if x:
        msg = "b"
    msg += "c"
    raise ValueError(msg)


def looped(items):
    # appended in a loop: not read
    msg = "Bad items:"
    for i in items:
        msg += f" {i}"
    raise ValueError(msg)
