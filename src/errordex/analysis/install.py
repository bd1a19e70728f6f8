"""A missing optional dependency, read from the error's own words (pure).

Libraries guard an optional import and raise when it is missing
(``ImportError("Using http2=True, but the 'h2' package is not installed.
Make sure to install httpx using `pip install httpx[http2]`.")``,
xarray's "rank requires bottleneck to be installed."). The fix a user needs
is to install that package; the message names it, and often the command.
Only the message's literal text is read, so every name shown is the
library's own.

    >>> missing("Using http2=True, but the 'h2' package is not installed. "
    ...         "Make sure to install httpx using `pip install httpx[http2]`.")
    Missing(packages=('h2',), command='pip install httpx[http2]')
    >>> missing("rank requires bottleneck to be installed.")
    Missing(packages=('bottleneck',), command=None)
    >>> missing("opening tutorial dataset {} requires either scipy or netCDF4 to be installed.")
    Missing(packages=('scipy', 'netCDF4'), command=None)
    >>> missing("pyarrow is required to export via the Arrow PyCapsule Interface.")
    Missing(packages=('pyarrow',), command=None)
    >>> missing("`NDPointIndex` requires `scipy` when used with `ScipyKDTreeAdapter`.")
    Missing(packages=('scipy',), command=None)
    >>> missing("Reading this tutorial dataset requires the cfgrib package.")
    Missing(packages=('cfgrib',), command=None)
    >>> missing("The {} package is required {} but could not be imported.") is None
    True
    >>> missing("Invalid value for cache_hash.") is None
    True
    >>> missing("order is required when method=polynomial", import_error=False) is None
    True
    >>> missing("struct variant is not used in the burn module", import_error=False) is None
    True
    >>> missing("Using 'BrotliDecoder', but neither of the 'brotlicffi' or 'brotli' packages "
    ...         "have been installed. Make sure to install httpx using `pip install httpx[brotli]`.")
    Missing(packages=('brotlicffi', 'brotli'), command='pip install httpx[brotli]')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: a package name as messages write it, quoted or not (``'h2'``, `scipy`, netCDF4)
_NAME = r"[`'\"]?([A-Za-z][\w.-]*[A-Za-z0-9])(?![\w-])[`'\"]?"
#: the phrases that say a package is needed and missing, each naming it
_NAMED = (
    re.compile(
        rf"\bthe (?:optional )?{_NAME}(?: or {_NAME})?(?: \([^)]*\))? (?:package|library|module)s?\b"
    ),
    re.compile(
        rf"{_NAME}(?: (?:package|library|module))?(?: >?=? ?[\d.]+)? (?:is|are) not installed\b"
    ),
    re.compile(rf"\b{_NAME} (?:must|needs to|has to) be installed\b"),
    re.compile(rf"(?<!failed to )\binstall(?:ing)? (?:the )?{_NAME}(?! using| with| via)", re.I),
)
#: more phrases, read only of an import error (elsewhere "requires" and
#: "is required" are about arguments: "order is required when method=…")
_NEEDS = (
    re.compile(rf"\brequires? (?:the )?(?:either )?{_NAME}(?: (?:or|and) {_NAME})?"),
    re.compile(
        rf"{_NAME}(?: (?:package|library|module))?(?: >?=? ?[\d.]+)? (?:is|are) (?:required|needed)\b"
    ),
    re.compile(rf"\bdepends on {_NAME}"),
)
#: a command the message gives
_COMMAND = re.compile(r"\b((?:pip|conda|uv pip|python -m pip) install [\w.\-\[\],=<> ]*[\w\]])")
#: words the phrases above can catch that are not package names
_NOT_NAMES = frozenset(
    {
        "the", "a", "an", "it", "this", "that", "either", "one", "some", "any", "to", "be",
        "is", "are", "package", "packages", "library", "module", "version", "value",
        "dependency", "dependencies", "extra", "extras", "support", "using", "with", "you",
        "optional", "additional", "which",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Missing:
    """The packages a message says are missing, and the command it gives."""

    packages: tuple[str, ...]
    command: str | None


def missing(message: str, import_error: bool = True) -> Missing | None:
    """What ``message`` says to install; None when it says no package is
    needed. ``import_error``: whether the error is an ``ImportError``; any
    other error counts only when its message says a package is not installed
    or to install one. ``{}`` stands for a placeholder: a name next to one is
    not read."""
    if not import_error and not re.search(r"\binstall", message, re.I):
        return None  # "not used in the burn module" names no package to install
    patterns = _NAMED + _NEEDS if import_error else _NAMED
    names: list[str] = []
    for pattern in patterns:
        for m in pattern.finditer(message):
            for name in m.groups():
                if name and name.lower() not in _NOT_NAMES and "{" not in name:
                    names.append(name.rstrip("."))
    found = _COMMAND.search(message)
    command = found.group(1).strip() if found else None
    if command is not None:
        # "install httpx using `pip install httpx[http2]`": the command names it
        installs = {w.split("[", 1)[0] for w in command.split()[2:]}
        names = [n for n in names if n not in installs]
    got = tuple(dict.fromkeys(names))
    if not got and command is None:
        return None
    return Missing(got, command)


#: exception classes that say an import failed
IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})
