# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A class bound to another name at module level raises under its own name.
# From toml's decoder.py and redis' sentinel.py (abridged).
from os import linesep

try:
    FNFError = FileNotFoundError
except NameError:
    FNFError = IOError

ReplicaNotFoundError = SlaveNotFoundError


def load(f):
    error_msg = "Load expects a list to contain filenames only."
    error_msg += linesep
    error_msg += ("The list needs to contain the path of at least one "
                  "existing file.")
    raise FNFError(error_msg)


def discover_slaves(service_name):
    raise ReplicaNotFoundError(f"No slave found for {service_name!r}")


def find_dotenv(path):
    # python-dotenv's main.py: IOError is OSError, and prints so
    raise IOError("File not found")
