# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
import errors


def variable_key(mapping, key):
    raise KeyError(key)


def parameter_message(msg):
    raise ValueError(msg)


def call_message(x):
    raise ValueError(describe(x))


def attribute_message(self):
    raise ValueError(self.message)


def bytes_message(x):
    raise ValueError(b"bytes are not a message")


def star_args(*args):
    raise ValueError(*args)


def keyword_message(x):
    raise errors.UsageError(message="given by keyword")


def no_message(x):
    raise ValueError()


def bare_reraise(x):
    try:
        x()
    except Exception:
        raise


def bound_reraise(x):
    try:
        x()
    except Exception as exc:
        raise exc


def instance_variable(exc):
    raise exc


def conditional_class(flag):
    raise (ValueError if flag else TypeError)("either")


def status_code_first(item):
    raise HTTPException(404, "item not found")


def detail_keyword(item):
    raise HTTPException(status_code=404, detail=f"no item {item}")


def exit_code():
    raise SystemExit(2)
