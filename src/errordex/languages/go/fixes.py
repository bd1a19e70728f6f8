"""Go's sentences on a page (pure): what a site does, and where its build
constraint keeps it. Each reads the page's writer (``analysis.fixes.Fixes``)."""

from __future__ import annotations

from errordex.analysis.fixes import Fixes
from errordex.languages.go.runtime import PANICS

_WHAT = {
    "panic": "panics",
    "log.Panic": "logs this and panics (`log.Panic`)",
    "log.Fatal": "logs this and exits the program (`log.Fatal`, status 1)",
    "fmt.Errorf": "returns this error (`fmt.Errorf`)",
    "errors.New": "returns this error (`errors.New`)",
}


def what(w: Fixes) -> str:
    """What the site does, for a page's summary."""
    lead = w.lead
    if lead.kind == "return" and lead.exception_type:
        return f"returns the error `{lead.exception_type}`"
    if lead.kind in PANICS or lead.kind in _WHAT:
        return _WHAT[lead.kind]
    if lead.kind == "error-method" and lead.exception_type:
        return f"prints this for the error type `{lead.exception_type}`"
    if lead.kind == "sentinel" and lead.exception_type:
        return f"is the message of `{lead.exception_type}`"
    return "returns this error"


def notes(w: Fixes) -> list[tuple[str, list[str]]]:
    """A site in a file with a build constraint exists only in builds it
    selects (``//go:build linux``)."""
    lead = w.lead
    out: list[tuple[str, list[str]]] = []
    for g in lead.guards:
        if g.kind == "cfg":
            out.append(
                (
                    f"{lead.path} is compiled only when its build constraint `{g.text}` holds"
                    " (`//go:build`): other platforms and tags build without this error.",
                    [f"{lead.path}:{g.line}"],
                )
            )
    return out
