# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
PREFIX = "module prefix"
TWICE = "first"
TWICE = "second"


def nearest_assignment(x):
    msg = "first message"
    msg = f"second message {x}"
    raise ValueError(msg)


def assigned_after(x):
    raise ValueError(later)
    later = "too late"


def augmented(x):
    msg = "start"
    msg += " and more"
    raise ValueError(msg)


def branch(x):
    if x:
        msg = "branch a"
    else:
        msg = "branch b"
    raise ValueError(msg)


def module_constant():
    raise ValueError(PREFIX)


def module_assigned_twice():
    raise ValueError(TWICE)


def parameter_shadows(PREFIX):
    raise ValueError(PREFIX)


def built_in_parts(key):
    detail = "for key %r" % key
    raise KeyError("lookup failed " + detail)


def nested_scope():
    msg = "outer message"

    def inner():
        raise ValueError(msg)

    return inner


def parameter_default(hint=None):
    if hint is None:
        hint = "unknown error"
    raise OSError(hint)


def parameter_replaced(detail):
    detail = "always this"
    raise OSError(detail)
