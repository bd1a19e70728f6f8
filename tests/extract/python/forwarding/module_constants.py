# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# Cerberus (abridged): a module holds its texts as constants, another raises
# them (cerberus/errors.py and cerberus/validator.py, here in one file). A
# constant that holds a sentence is a call of its joined name; a raise of an
# imported module's constant is that name's forwarder.
import pint.errors as perrors
from cerberus import errors
from .errors import DOCUMENT_MISSING, SchemaError

SCHEMA_ERROR_MISSING = "validation schema missing"
DOCUMENT_FORMAT = "'{0}' is not a document, must be a dict"
UNKNOWN = "unknown"
lower_case = "not a constant name"


def validate(schema, document):
    if schema is None:
        raise SchemaError(errors.SCHEMA_ERROR_MISSING)
    if document is None:
        raise DocumentError(DOCUMENT_MISSING)
    if not schema:
        raise ValueError(perrors.MSG_INVALID_UNIT_NAME)
    if not isinstance(document, dict):
        # formatted at the raise: the constant's fields are placeholders
        raise DocumentError(errors.DOCUMENT_FORMAT.format(document))
    raise ValueError(SCHEMA_ERROR_MISSING)  # this module's own: read in place
