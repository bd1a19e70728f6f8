# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# Warnings through helpers, as SQLAlchemy 2.1 warns (sqlalchemy/util/langhelpers.py,
# abridged): warn(msg) -> _warnings_warn(msg, exc.SAWarning) -> warnings.warn.
import warnings

from sqlalchemy import exc


def _warnings_warn(message, category=None, stacklevel=2):
    if category is not None:
        warnings.warn(message, category, stacklevel=stacklevel + 1)
    else:
        warnings.warn(message, stacklevel=stacklevel + 1)


def warn(msg, code=None):
    if code:
        _warnings_warn(exc.SAWarning(msg, code=code))
    else:
        _warnings_warn(msg, exc.SAWarning)


def warn_limited(msg, args):
    if args:
        msg = _hash_limit_string(msg, 10, args)
    _warnings_warn(msg, exc.SAWarning)


def not_a_helper(msg):
    # its text is not what it warns with
    warnings.warn("something else", UserWarning)


def registry_add(item):
    warn("This declarative base already contains a class with the same class name")
