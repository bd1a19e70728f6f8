# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
class Parser:
    def parse(self, text):
        raise ValueError("method")

    @staticmethod
    def decorated():
        raise ValueError("decorated method")

    class Nested:
        def deep(self):
            raise ValueError("nested class method")


def outer():
    def inner():
        raise ValueError("nested function")

    return inner


async def coroutine():
    raise ValueError("async function")


handler = lambda: None

raise ImportError("module level")
