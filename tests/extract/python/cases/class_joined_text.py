# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# An exception class joins the text its raise gives to what a helper builds:
# the site shows the raise's text with the helper's call as a hole.
# From Mako 1.4's exceptions.py and lexer.py (abridged).


def _format_filepos(lineno, pos, filename):
    if filename is None:
        return " at line: %d char: %d" % (lineno, pos)
    else:
        return " in file '%s' at line: %d char: %d" % (filename, lineno, pos)


class MakoException(Exception):
    pass


class CompileException(MakoException):
    def __init__(self, message, source, lineno, pos, filename):
        MakoException.__init__(
            self, message + _format_filepos(lineno, pos, filename)
        )
        self.lineno = lineno


class NameConflict(MakoException):
    # a + of two names, neither a parameter: nothing to show
    def __init__(self, first, second):
        MakoException.__init__(self, first.name + second.name)


def parse(self):
    if len(self.control_line):
        raise CompileException(
            "Unterminated control keyword: '%s'"
            % self.control_line[-1].keyword,
            self.text,
            self.control_line[-1].lineno,
            self.control_line[-1].pos,
            self.filename,
        )
