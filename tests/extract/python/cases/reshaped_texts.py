# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A text whose whitespace a call reshapes (msg._reshaped): .strip() of a
# constant on lines of its own, textwrap.dedent, inspect.cleandoc.
# From celery's app/backends.py, billiard's compat.py and setuptools' discovery.py.
import sys
import textwrap
from inspect import cleandoc

UNKNOWN_BACKEND = """
Unknown result backend: {0!r}.  Did you spell that correctly? ({1!r})
"""

E_RESOURCE_MISSING = """
Your platform ({0}) does not seem to have the `resource.getrusage' function.

Please open an issue so that we can add support for this platform.
"""


def by_name(backend):
    raise ImproperlyConfigured(UNKNOWN_BACKEND.strip().format(
        backend, 'is a Python module, not a backend class.'))


def mem_rss():
    raise ImportError(E_RESOURCE_MISSING.strip().format(sys.platform))


def _analyse_flat_layout(top_level):
    msg = f"""
    Multiple top-level packages discovered in a flat-layout: {top_level}.

    To avoid accidental inclusion of unwanted files or directories,
    setuptools will not proceed with this build.
    """
    raise PackageDiscoveryError(cleandoc(msg))


def dedented(x):
    raise ValueError(textwrap.dedent(f"""\
        Bad value {x!r}.
          Use another one.
        """))
