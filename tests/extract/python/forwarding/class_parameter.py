# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A helper that raises the class it is given, by default one class, as
# jinja's parser does (jinja2/parser.py, abridged): its forwarder raises
# that class, not a class named "exc".
import typing as t


class TemplateSyntaxError(Exception):
    pass


class Parser:
    def fail(
        self,
        msg: str,
        lineno: t.Optional[int] = None,
        exc: t.Type[TemplateSyntaxError] = TemplateSyntaxError,
    ) -> "te.NoReturn":
        if lineno is None:
            lineno = self.stream.current.lineno
        raise exc(msg, lineno, self.name, self.filename)

    def parse_primary(self):
        self.fail(f"unexpected {self.stream.current!r}")


def raise_given(error_class, message):
    raise error_class(message)  # no default: each caller names the class
