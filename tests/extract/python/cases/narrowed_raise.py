# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A value a call returned, raised once an isinstance test says it is an
# error: the raise is of that class. Modelled on Pint 0.25's
# PlainRegistry._convert (factor = self._get_conversion_factor(src, dst);
# if isinstance(factor, DimensionalityError): raise factor) and redis'
# client (if isinstance(r, ResponseError): raise r).
from .errors import DimensionalityError, ResponseError


def convert(self, value, src, dst):
    factor = self._get_conversion_factor(src, dst)
    if isinstance(factor, DimensionalityError):
        raise factor
    return value * factor


def reply(r):
    if r is None:
        return None
    elif isinstance(r, ResponseError):
        raise r
    return r


def not_narrowed(value):
    if isinstance(value, Exception):
        raise value  # a catch-all: stays an instance
    if not isinstance(value, ResponseError):
        raise value  # the test says it is not
    if isinstance(value, ResponseError):
        pass
    else:
        raise value  # nor here
