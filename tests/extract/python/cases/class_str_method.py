# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# pyparsing's ParseBaseException: __str__ returns what a method of the class
# builds (issue 15: exceptions whose class supplies the text).


class ParseBaseException(Exception):
    def __init__(self, pstr, loc=0, msg=None, elem=None):
        self.msg = msg
        self.loc = loc
        self.found = pstr[loc:loc + 1]

    def formatted_message(self) -> str:
        found_phrase = f", found {self.found}" if self.found else ""
        return f"{self.msg}{found_phrase}  (at char {self.loc})"

    def __str__(self) -> str:
        return self.formatted_message()


def parse_impl(instring, loc):
    raise ParseBaseException(instring, loc, "Expected end of text")
