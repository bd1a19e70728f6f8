# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
FORMAT = "invalid option %r"


def tuple_args(name, count):
    raise ValueError("%s expected %d arguments" % (name, count))


def single_arg(name):
    raise ValueError("no such file: %s" % name)


def mapping_args(key, value):
    raise ValueError("%(key)s has bad value %(value)r" % {"key": key, "value": value})


def percent_literal(ratio):
    raise ValueError("ratio %d%% is over 100%%" % ratio)


def flags_and_width(n):
    raise ValueError("value %-8s and %05.2f" % (n, n * 2))


def module_format(opt):
    raise ValueError(FORMAT % opt)


def tuple_variable(args):
    raise ValueError("%s and %s" % args)
