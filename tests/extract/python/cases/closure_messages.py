# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A closure raises a name of the function around it (extract.resolve):
# modelled on sortedcontainers 2.4.0's SortedDict.__make_raise_attributeerror.
MESSAGE = "the module's text, shadowed below"


def make_raiser(original, alternate):
    message = (
        "SortedDict.{original}() is not implemented."
        " Use SortedDict.{alternate}() instead."
    ).format(original=original, alternate=alternate)

    def method(self):
        raise AttributeError(message)

    return method


def make_class():
    text = "a method of a class made in a function"

    class Made:
        def run(self):
            raise ValueError(text)

    return Made


def unread(unbound_message, flag):
    MESSAGE = "bound twice"
    if flag:
        MESSAGE = "so either may run"
    later = None

    def a():
        raise RuntimeError(unbound_message)  # the caller's

    def b():
        raise RuntimeError(MESSAGE)  # two assignments: unread

    def c():
        raise RuntimeError(later)  # bound again after the def below

    later = "after"
    return a, b, c
