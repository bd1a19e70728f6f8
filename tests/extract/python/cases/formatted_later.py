# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A text handed on with the values a class formats it with later (glom's
# MatchError and TypeMatchError, glom/matching.py, abridged): its fields
# are holes; a builtin class prints its arguments as a tuple instead.
class GlomError(Exception):
    def __str__(self):
        return self.get_message()


class MatchError(GlomError):
    def __init__(self, fmt, *args):
        super().__init__(fmt, *args)

    def get_message(self):
        fmt, args = self.args[0], self.args[1:]
        return bbformat(fmt, *args)


class TypeMatchError(MatchError, TypeError):
    def __init__(self, actual, expected):
        super().__init__(
            "expected type {0.__name__}, not {1.__name__}", expected, actual)


def check(target, keys, k):
    if k not in keys:
        raise MatchError("key {0!r} didn't match any of {1!r}", k, keys)
    if not isinstance(target, int):
        raise TypeMatchError(type(target), int)
    raise ValueError("plain %s", k)
