# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A code in capitals with a digit, then the message: the message is the
# second argument. From elementpath 5.1's xpath2/_xpath2_operators.py
# (``raise left.error('XPST0017', ...)``; abridged).


def led__parenthesized_expression(self, left):
    if left.symbol == '(name)':
        if left.value in self.parser.RESERVED_FUNCTION_NAMES:
            msg = f"{left.value!r} is not allowed as function name"
            raise left.error('XPST0003', msg)
        else:
            raise left.error('XPST0017', 'unknown function {!r}'.format(left.value))


def shouted(self):
    # a word in capitals without a digit is not a code: the first stays the message
    raise self.error('ERROR', 'something went wrong')
