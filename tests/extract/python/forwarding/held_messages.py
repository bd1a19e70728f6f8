# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A message an object is built with and raises later, as pydantic's stand-in
# validator does (pydantic/_internal/_mock_val_ser.py, abridged): the class
# is a forwarder of its __init__'s parameter.
from pydantic.errors import PydanticUserError


class MockValSer:
    def __init__(self, error_message: str, *, code: str, val_or_ser: str) -> None:
        self._error_message = error_message
        self._code: str = code

    def __getattr__(self, item):
        raise PydanticUserError(self._error_message, code=self._code)

    def rebuild(self):
        def later():
            raise PydanticUserError(self._error_message, code=self._code)  # nested: not a method's
        return later


class Reassigned:
    def __init__(self, message):
        self.message = message
        self.message = message.strip()

    def fail(self):
        raise ValueError(self.message)


def set_mocks(cls):
    cls.validator = MockValSer(
        f"`{cls.__name__}` is not fully defined; you should define it, then call `{cls.__name__}.model_rebuild()`.",
        code="class-not-fully-defined",
        val_or_ser="validator",
    )
    held = MockValSer("BaseModel cannot be instantiated directly", code="base-model", val_or_ser="x")
    err = ValueError("an exception class is not read as a construction")
