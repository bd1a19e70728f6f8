"""Tuned matching benchmark: real Python errors from libraries we DO tune on.

    .venv/bin/python bench/tuned_python.py [--json] [--misses] [--jobs N] [--library DIST]

The same machinery as ``bench/heldout_python.py`` (a venv of its own under
the XDG cache, ``errordex-bench/tuned-py-venv``; each library indexed from
its RECORD; each case run sandboxed; the raise frame as the truth; the same
scoring), over other libraries and cases anyone may read, run with
``--misses`` and turn into tests: ``bench/tuned_cases.py``. None of the
held-out libraries is here, not even as an indexed dependency (attrs and
python-dateutil are installed for jsonschema and pendulum, never indexed).
"""

from __future__ import annotations

from heldout_python import Corpus, main
from tuned_cases import CASES

PINS = (
    "click==8.5.1",
    "Jinja2==3.1.6",
    "Werkzeug==3.1.9",
    "marshmallow==4.4.0",
    "jsonschema==4.26.0",
    "requests==2.34.2",
    "urllib3==2.8.0",
    "packaging==26.4",
    "pydantic==2.14.4",
    "rich==15.0.0",
    "SQLAlchemy==2.1.9",
    "typer==0.29.2",
    "toml==0.10.2",
    "humanize==4.17.0",
    "pyparsing==3.3.3",
    "pendulum==3.3.0",
)

LIBRARIES = (
    "click",
    "Jinja2",
    "Werkzeug",
    "marshmallow",
    "jsonschema",
    "requests",
    "urllib3",
    "packaging",
    "pydantic",
    "rich",
    "SQLAlchemy",
    "typer",
    "toml",
    "humanize",
    "pyparsing",
    "pendulum",
)

TUNED = Corpus("tuned-py-venv", "tuned", PINS, LIBRARIES, CASES)

if __name__ == "__main__":
    main(TUNED, __doc__)
