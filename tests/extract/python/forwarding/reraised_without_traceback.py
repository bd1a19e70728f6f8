# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# pyparsing's parse_string: the caught error is raised again with its
# traceback cut, so the traceback ends here (issue 15, pattern 4).


class ParseBaseException(Exception):
    def __init__(self, pstr, loc=0, msg=None, elem=None):
        self.msg = msg
        self.loc = loc

    def formatted_message(self):
        return f"{self.msg}  (at char {self.loc})"

    def __str__(self):
        return self.formatted_message()


class ParserElement:
    def parse_string(self, instring):
        try:
            return self._parse(instring, 0)
        except ParseBaseException as exc:
            raise exc.with_traceback(None)

    def scan_string(self, instring):
        try:
            return self._parse(instring, 0)
        except ParseBaseException as exc:
            raise exc.with_traceback(exc.__traceback__)  # keeps the frames below
