# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A subclass hands its message to a base that builds the text, by keyword
# (issue 15: exceptions whose class supplies the text). The shape of
# parse errors that say where they happened.


class ParseError(ValueError):
    def __init__(self, line, col, message=None):
        if message is None:
            message = "Parse error"
        super().__init__(f"{message} at line {line} col {col}")


class UnexpectedCharError(ParseError):
    def __init__(self, line, col, char):
        message = f"Unexpected character: {char!r}"
        super().__init__(line, col, message=message)


class EmptyKeyError(ParseError):
    def __init__(self, line, col):
        super().__init__(line, col, message="Empty key")


def parse(s, line, col):
    if not s:
        raise EmptyKeyError(line, col)
    raise UnexpectedCharError(line, col, s[0])
