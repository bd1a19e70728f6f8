# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# Errors collected and raised together (issue 15, pattern 1), as marshmallow
# does: each raise of ValidationError(errors...) is a collector of that class.


class ValidationError(Exception):
    pass


class Schema:
    # marshmallow's Schema._do_load: built, then raised
    def _do_load(self, data):
        errors = self._run(data)
        if errors:
            exc = ValidationError(errors, data=data)
            raise exc


class List:
    # marshmallow's List._deserialize: one error per item, by index
    def _deserialize(self, value):
        errors = {}
        for idx, each in enumerate(value):
            try:
                self.inner.deserialize(each)
            except ValidationError as error:
                errors.update({idx: error.messages})
        if errors:
            raise ValidationError(errors)


class Nested:
    def _load(self, value):
        try:
            return self.schema.load(value)
        except ValidationError as error:
            raise ValidationError(error.messages) from error


def not_a_collector(value):
    raise ValidationError(value)  # one value, not a collection
