# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A message the caller may override, and the library's own text when it
# does not: ``self.msg or 'text'``. From voluptuous's validators.py
# (abridged): the user reads the default text unless they passed their own.


class Range(object):
    def __call__(self, v):
        if self.max is not None and not v <= self.max:
            raise RangeInvalid(
                self.msg or 'value must be at most %s' % self.max
            )


class Length(object):
    def __call__(self, v):
        if self.min is not None and len(v) < self.min:
            raise LengthInvalid(
                self.msg or 'length of value must be at least %s' % self.min
            )


class Unique(object):
    def __call__(self, v):
        if dupes:
            raise Invalid(self.msg or 'contains duplicate items: {0}'.format(dupes))


def literal(value, msg=None):
    # voluptuous's util.py: a parameter as the override
    raise LiteralInvalid(msg or '%s not match for %s' % (value, "x"))


def both_readable():
    raise ValueError("first text" or "second text")  # the left one shows


def neither_readable(a, b):
    raise ValueError(a or b)  # built at run time
