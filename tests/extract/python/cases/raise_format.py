# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
def auto_numbered(a, b):
    raise ValueError("{} is not {}".format(a, b))


def explicit_index(a, b):
    raise ValueError("{1} before {0}".format(a, b))


def keywords(value):
    raise ValueError("bad {name!r:>10} value".format(name=value))


def escaped_braces(key):
    raise KeyError("{{literal}} then {}".format(key))


def attribute_field(user):
    raise PermissionError("user {0.name} may not {action}".format(user, action="write"))


def unknown_keyword(**kwargs):
    raise ValueError("missing {field}".format(**kwargs))


def malformed(x):
    raise ValueError("broken { brace".format(x))
