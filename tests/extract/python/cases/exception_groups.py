# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A BaseExceptionGroup of Exceptions is built as an ExceptionGroup: the type
# the user reads. From anyio's _backends/_asyncio.py (abridged).


class TaskGroup:
    async def __aexit__(self, exc_type, exc_val, exc_tb):
        if self._exceptions:
            raise BaseExceptionGroup(
                "unhandled errors in a TaskGroup", self._exceptions
            ) from None
        if self._other:
            raise ExceptionGroup("several errors", self._other)
