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


# SQLAlchemy's sql/coercions.py: a start picked on two branches, then advice
def _raise_for_expected(self, element, argname=None, resolved=None, advice=None, code=None, err=None):
    got = repr(element)
    if argname:
        msg = "%s expected for argument %r; got %s." % (
            self.name,
            argname,
            got,
        )
    else:
        msg = "%s expected, got %s." % (self.name, got)

    if advice:
        msg += " " + advice

    raise exc.ArgumentError(msg, code=code) from err


# pydantic's _internal/_model_construction.py: the text is built inside the
# branches, and raised after them
def __new__(mcs, cls, bases, parent_parameters, missing_parameters):
    if missing_parameters:
        if RootModelRootType in parent_parameters:
            parameters_str = ', '.join([x.__name__ for x in missing_parameters])
            error_message = (
                f'{cls.__name__} is a subclass of `RootModel`, but does not include the generic type identifier(s) '
                f'{parameters_str} in its parameters. '
            )
        else:
            generic_type_label = f'typing.Generic[{parameters_str}]'
            error_message = (
                f'All parameters must be present on typing.Generic;'
                f' you should inherit from {generic_type_label}.'
            )
            if Generic not in bases:
                error_message += (
                    f' Note: `typing.Generic` must go last: `class {cls.__name__}({bases_str}): ...`)'
                )
        raise TypeError(error_message)


def set_in_a_branch_after_a_start(x):
    # bound before the if that sets it: either text may be raised, so neither is read
    msg = "a"
    if x:
        msg = "b"
        msg += "c"
    raise ValueError(msg)
