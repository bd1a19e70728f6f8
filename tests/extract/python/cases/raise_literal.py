# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
def plain(x):
    raise ValueError("plain message")


def single_quoted(x):
    raise ValueError('single quoted')


def implicit_concat(x):
    raise ValueError(
        "first half, "
        'second half'
    )


def triple_quoted(x):
    raise RuntimeError("""triple
quoted message""")


def escapes(x):
    raise ValueError("tab\there, newline\n, quote \" and \u00e9 \N{BULLET} \x41 \101")


def raw_string(x):
    raise ValueError(r"raw \n stays")


def continued_line(x):
    raise ValueError("one \
two")


def non_ascii_before(x):
    y = "é"; raise ValueError("after é")


def empty_message(x):
    raise ValueError("")


def chained(x):
    try:
        x()
    except KeyError as e:
        raise LookupError("chained") from e
