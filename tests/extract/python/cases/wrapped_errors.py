# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# Errors caught and raised again as another class with the caught message
# (issue 15, pattern 5), as toml's loads wraps its parser's ValueErrors.


class TomlDecodeError(ValueError):
    def __init__(self, msg, doc, pos):
        lineno = doc.count('\n', 0, pos) + 1
        emsg = '{} (line {} char {})'.format(msg, lineno, pos)
        ValueError.__init__(self, emsg)


def load_line(line):
    if not line:
        raise ValueError("Empty value is invalid")
    raise ValueError("Duplicate keys!")


def loads(s):
    try:
        load_line(s)
    except ValueError as err:
        raise TomlDecodeError(str(err), s, 0)


def as_runtime_error(s):
    try:
        load_line(s)
    except (KeyError, ValueError) as e:
        raise RuntimeError(f"cannot load: {e}") from e


def not_shown(s):
    try:
        load_line(s)
    except ValueError as e:
        raise RuntimeError("cannot load")  # the caught text is not shown
