# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# An exception built by a helper and raised by its caller, as packaging's
# metadata does (packaging/metadata.py, abridged): the raise shows the class
# the helper returns, with the raise's argument as the message.
class InvalidMetadata(ValueError):
    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


class _Validator:
    def _invalid_metadata(self, msg: str, cause: Exception | None = None) -> InvalidMetadata:
        exc = InvalidMetadata(self.raw_name, msg)
        exc.__cause__ = cause
        return exc

    def _process_metadata_version(self, value):
        if value not in ("1.0", "2.1"):
            raise self._invalid_metadata(f"{value!r} is not a valid metadata version")
        return value

    def _process_name(self, value):
        if not value:
            raise self._invalid_metadata(msg=f"{self.raw_name!r} is a required field")
        return value


def _fixed_message(name):
    return KeyError(f"no such key: {name}")


def lookup(name):
    raise _fixed_message(name)


def two_returns(flag):
    if flag:
        return ValueError("a")
    return TypeError("b")


def ambiguous():
    raise two_returns(True)  # not one construction: left as written


class ValidationError(ValueError):
    @classmethod
    def from_exception_data(cls, title, line_errors):
        return cls(title, line_errors)


def validate(cls, errors):
    # pydantic's form: the class method builds the message, not from `title`
    raise ValidationError.from_exception_data(cls.__name__, errors)


def first_error(errors):
    # jsonschema's validate: the exception a call picked is raised as it is,
    # not as a raise of `best_match`
    error = best_match(errors)
    if error is not None:
        raise error
