"""Probe matching benchmark: real Python errors from libraries neither tuned
nor held out, to measure a rule on code nobody tuned it on.

    .venv/bin/python bench/probe_python.py [--set s10|s11a|s11b] [--json] [--misses]

The machinery of ``bench/heldout_python.py`` (a venv of its own under the XDG
cache; each library indexed from its RECORD; each case run sandboxed; the
raise frame as the truth; the same scoring) over ``bench/probe_cases.py``:
session 10's probe of 17 libraries (``s10``), and session 11's 20, in two
halves: ``s11a``, whose misses were read, and ``s11b``, kept as that
session's own held-out. A rule found on one set should move the others.
"""

from __future__ import annotations

import sys

from heldout_python import Corpus, main
from probe_cases import S10, S11_A, S11_B

PINS = {
    "s10": (
        "voluptuous==0.16.0",
        "schema==0.7.8",
        "Cerberus==1.3.8",
        "jsonpatch==1.48",
        "jsonpointer==3.12",
        "jmespath==1.1.0",
        "semver==3.1.2",
        "parse==1.22.4",
        "more-itertools==11.2.1",
        "bidict==0.24.1",
        "glom==25.12.0",
        "configobj==5.0.9",
        "Pint==0.25.3",
        "sortedcontainers==2.4.0",
        "python-dotenv==1.2.4",
        "deepdiff==9.1.0",
        "docutils==0.23.1",
    ),
    "s11": (
        "strictyaml==1.7.3",
        "fastjsonschema==2.22.3",
        "dacite==1.9.2",
        "simpleeval==1.0.8",
        "lark==1.3.1",
        "PyJWT==2.15.1",
        "tinydb==4.9.0",
        "construct==2.10.70",
        "portion==2.6.3",
        "humanfriendly==10.0",
        "typeguard==4.6.1",
        "schedule==1.2.2",
        "semantic_version==2.10.0",
        "python-decouple==3.8",
        "docopt-ng==0.9.0",
        "peewee==4.5.3",
        "pyrsistent==0.20.0",
        "itsdangerous==2.2.0",
        "webcolors==25.10.0",
        "dpath==2.2.0",
    ),
}

SETS = {
    "s10": Corpus("probe-s10-py-venv", "probe (session 10)", PINS["s10"], tuple(S10), S10),
    "s11a": Corpus("probe-s11-py-venv", "probe (session 11, A)", PINS["s11"], tuple(S11_A), S11_A),
    "s11b": Corpus("probe-s11-py-venv", "probe (session 11, B)", PINS["s11"], tuple(S11_B), S11_B),
}


def _chosen(argv: list[str]) -> str:
    """``--set NAME`` (default ``s11a``), taken out of ``argv``."""
    if "--set" not in argv:
        return "s11a"
    at = argv.index("--set")
    name = argv[at + 1] if at + 1 < len(argv) else ""
    del argv[at : at + 2]
    if name not in SETS:
        raise SystemExit(f"--set: one of {', '.join(SETS)}, not {name!r}")
    return name


if __name__ == "__main__":
    main(SETS[_chosen(sys.argv)], __doc__)
