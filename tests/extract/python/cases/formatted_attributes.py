# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# marshmallow 4.4's validators (marshmallow/validate.py, abridged): default
# texts kept as class attributes, formatted by a method of the class.
from marshmallow.exceptions import ValidationError


class Validator:
    error = None


class Range(Validator):
    message_min = "Must be {min_op} {{min}}."
    message_gte = "greater than or equal to"
    message_gt = "greater than"

    def __init__(self, min=None, *, min_inclusive=True, error=None):
        self.min = min
        self.error = error
        self.message_min = self.message_min.format(
            min_op=self.message_gte if min_inclusive else self.message_gt
        )

    def _format_error(self, value, message):
        return (self.error or message).format(input=value, min=self.min)

    def __call__(self, value):
        if value < self.min:
            raise ValidationError(self._format_error(value, self.message_min))


class Length(Validator):
    message_min = "Shorter than minimum length {min}."
    message_all = "Length must be between {min} and {max}."

    def _format_error(self, value, message):
        return (self.error or message).format(input=value, min=self.min, max=self.max)

    def __call__(self, value):
        if len(value) < self.min:
            message = self.message_min if self.max is None else self.message_all
            raise ValidationError(self._format_error(value, message))


class OneOf(Validator):
    default_message = "Must be one of: {choices}."

    def __init__(self, choices, *, error=None):
        self.choices_text = ", ".join(str(c) for c in choices)
        self.error = error or self.default_message

    def _format_error(self, value):
        return self.error.format(input=value, choices=self.choices_text)

    def __call__(self, value):
        if value not in self.choices:
            raise ValidationError(self._format_error(value))


class Custom(Validator):
    def _format_error(self, value):
        return self.describe(value)

    def __call__(self, value):
        # not a text of the class: left as it was
        raise ValidationError(self._format_error(value))
