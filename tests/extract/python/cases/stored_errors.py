# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# marshmallow 4.4's Schema (schema.py): messages of its keyed table added to an
# ErrorStore, and what it collected raised as one ValidationError.
from marshmallow.exceptions import ValidationError


class Schema:
    _default_error_messages = {
        "type": "Invalid input type.",
        "unknown": "Unknown field.",
    }

    def _deserialize(self, data, *, error_store, unknown, index=None):
        if not isinstance(data, dict):
            error_store.store_error([self.error_messages["type"]], index=index)
        for key in set(data) - set(self.fields):
            if unknown == "raise":
                error_store.store_error(
                    [self.error_messages["unknown"]],
                    key,
                    index,
                )
        # a message of its own, not of the table
        error_store.store_error(["Nothing to load."])

    def _do_load(self, data):
        errors = self._run(data)
        if errors:
            exc = ValidationError(errors, data=data)
            raise exc
