# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A message a helper of the same file returns (returned.py).
# From SQLAlchemy's dialects/postgresql/hstore.py and CPython's zoneinfo/_tzpath.py.


def _parse_error(hstore_str, pos):
    """format an unmarshalling error."""
    ctx = 20
    parsed_tail = hstore_str[max(pos - ctx - 1, 0) : pos]
    residual = hstore_str[pos : pos + ctx + 1]
    return "After %r, could not parse residual at position %d: %r" % (
        parsed_tail,
        pos,
        residual,
    )


def _parse_hstore(hstore_str):
    pos = 0
    if pos != len(hstore_str):
        raise ValueError(_parse_error(hstore_str, pos))


def _get_invalid_paths_message(tzpaths):
    invalid_paths = (path for path in tzpaths if not os.path.isabs(path))
    prefix = "\n    "
    indented_str = prefix + prefix.join(invalid_paths)
    return "Paths should be absolute but found the following relative paths:" + indented_str


def _parse_python_tzpath(env_var):
    new_tzpath = tuple(filter(os.path.isabs, raw_tzpath))
    if len(new_tzpath) != len(raw_tzpath):
        msg = _get_invalid_paths_message(raw_tzpath)
        raise ValueError(msg)


def _describe(value):
    if value is None:
        return "no value given"
    return str(value)


def check(value):
    # one return reads as text, one does not: the raise's own site stays
    raise TypeError(_describe(value))
