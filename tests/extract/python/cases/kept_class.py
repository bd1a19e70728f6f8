# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# An exception class kept in an attribute, defaulted by the constructor
# (keptclass): modelled on docopt-ng 0.9.0's Tokens(source, error=DocoptExit);
# raise tokens.error("...") prints a DocoptExit, or the DocoptLanguageError
# from_pattern builds it with: one site of each class.


class DocoptExit(SystemExit):
    pass


class DocoptLanguageError(Exception):
    pass


class Tokens(list):
    def __init__(self, source, error=DocoptExit):
        super().__init__(source)
        self.error = error

    @staticmethod
    def from_pattern(source):
        return Tokens(source, error=DocoptLanguageError)

    def move(self):
        return self.pop(0) if len(self) else None


class Other:
    def __init__(self, handler=None, kind=Tokens):
        self.handler = handler  # not a class: stays as written
        self.kind = kind  # a class, but not an exception's attribute name raised below


def parse_long(tokens, value):
    if value is None:
        raise tokens.error("%s requires argument" % "--x")
    raise tokens.handler("not a kept class")
