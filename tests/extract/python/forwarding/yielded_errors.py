# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# Errors a generator yields and a caller raises, as jsonschema's keywords
# and validators do (jsonschema/_keywords.py, jsonschema/validators.py,
# abridged): each yield is a call to the re-raise points.
from jsonschema.exceptions import ValidationError, best_match


def type(validator, types, instance, schema):
    if not any(validator.is_type(instance, type) for type in types):
        reprs = ", ".join(repr(type) for type in types)
        yield ValidationError(f"{instance!r} is not of type {reprs}")


def required(validator, required, instance, schema):
    for property in required:
        if property not in instance:
            yield ValidationError(f"{property!r} is a required property")


def computed(message):
    yield ValidationError(message)  # no text of its own: not read


class Validator:
    def validate(self, *args, **kwargs):
        for error in self.iter_errors(*args, **kwargs):
            raise error


def validate(instance, schema, cls=None):
    error = best_match(cls(schema).iter_errors(instance))
    if error is not None:
        raise error


def not_a_reraise():
    err = ValueError("built here")
    raise err
