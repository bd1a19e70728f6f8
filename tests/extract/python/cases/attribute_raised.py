# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# An exception built into an attribute and raised from it in the same method:
# the raise is of the class built, with its text. From Arpeggio 2.0's
# __init__.py (Parser._nm_raise, NoMatch.__str__; abridged).


class NoMatch(Exception):
    def __init__(self, rules, position, parser):
        self.rules = rules
        self.position = position
        self.parser = parser

    def __str__(self):
        return "{} at position {} => '{}'.".format(self.message, self.position, self.context)


class Parser:
    def _nm_raise(self, *args):
        rule, position, parser = args
        if self.nm is None or position > self.nm.position:
            if self.in_not:
                self.nm = NoMatch([Parser.FIRST_NOT], position, parser)
            else:
                self.nm = NoMatch([rule], position, parser)
        raise self.nm

    def _other(self):
        # set elsewhere, or to something not built here: an instance we cannot see
        if self.flag:
            self.err = self.make()
        raise self.err

    def _unset(self):
        raise self.last_error
