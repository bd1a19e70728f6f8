# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A code first, then the message, as pydantic raises pydantic-core's errors
# (pydantic/types.py, pydantic/networks.py, abridged).
from pydantic_core import PydanticCustomError


def to(unit):
    raise PydanticCustomError('byte_size_unit', 'Could not interpret byte unit: {unit}', {'unit': unit})


def ip(value):
    raise PydanticCustomError('ip_any_address', 'value is not a valid IPv4 or IPv6 address')


def context_keyword(value):
    raise PydanticCustomError('too_long', 'at most {max} items', context={'max': 3})


def not_a_code(path):
    # two sentences: the first is the message
    raise OSError('cannot open file', 'see the log')


def word_message(name):
    # a single word with no sentence after it stays the message
    raise KeyError('missing', name)
