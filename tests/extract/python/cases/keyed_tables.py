# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# Messages kept in tables keyed by name, as marshmallow's fields keep them
# (marshmallow/fields.py, abridged): one site per class's text for the key.
class ValidationError(Exception):
    pass


class Field:
    default_error_messages = {
        "required": "Missing data for required field.",
        "null": "Field may not be null.",
    }

    def make_error(self, key, **kwargs):
        try:
            msg = self.error_messages[key]
        except KeyError as error:
            raise AssertionError(f"no key {key}") from error
        return ValidationError(msg.format(**kwargs))

    def _validate_missing(self, value):
        if value is None:
            raise self.make_error("null")


class Number(Field):
    default_error_messages = {"invalid": "Not a valid number.", "too_large": "Number too large."}

    def _validated(self, value):
        try:
            return self._format_num(value)
        except (TypeError, ValueError) as error:
            raise self.make_error("invalid", input=value) from error


class Integer(Number):
    default_error_messages = {"invalid": "Not a valid integer."}

    def _validated(self, value):
        if self.strict and not isinstance(value, int):
            raise self.make_error("invalid", input=value)
        return super()._validated(value)


class Float(Number):
    default_error_messages = {"special": "Special numeric values are not permitted."}


class Temporal(Field):
    default_error_messages = {"invalid": "Not a valid {obj_type}.", "format": '"{input}" cannot be formatted as a {obj_type}.'}

    def _deserialize(self, value):
        raise self.make_error("invalid", input=value, obj_type=self.OBJ_TYPE)


class Date(Temporal):
    default_error_messages = {"invalid": "Not a valid date."}


class Length:
    message_min = "Shorter than minimum length {min}."

    def helper(self):
        raise self.make_error("not a key")
