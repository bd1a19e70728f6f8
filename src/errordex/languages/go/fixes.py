"""Go's sentences on a page (pure): what a site does, and where its build
constraint keeps it. Each reads the page's writer (``analysis.fixes.Fixes``)."""

from __future__ import annotations

import re
import textwrap
from typing import Any

from errordex.analysis.fixes import Fixes
from errordex.analysis.sections import code_block, ev, section
from errordex.languages.go.runtime import PANICS
from errordex.languages.go.scan import identifiers
from errordex.languages.go.words import GO_WORDS
from errordex.model import ThrowSite
from errordex.runtime import title

_WHAT = {
    "panic": "panics",
    "log.Panic": "logs this and panics (`log.Panic`)",
    "log.Fatal": "logs this and exits the program (`log.Fatal`, status 1)",
    "fmt.Errorf": "returns this error (`fmt.Errorf`)",
    "errors.New": "returns this error (`errors.New`)",
    "errors.Errorf": "returns this error (`errors.Errorf`)",
    "errors.Wrap": "returns this error, wrapping another (`errors.Wrap`)",
    "errors.WithMessage": "returns this error, wrapping another (`errors.WithMessage`)",
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


def _call_args(body: str, name: str) -> list[str] | None:
    """The arguments of the one call of ``name`` in ``body``, as written."""
    at = [
        m.start()
        for m in re.finditer(rf"(?<![\w.]){re.escape(name)}\(|\.{re.escape(name)}\(", body)
    ]
    if len(at) != 1:
        return None
    i = body.index("(", at[0]) + 1
    depth, start, args = 0, i, []
    k = i
    while k < len(body):
        c = body[k]
        if c in "\"`'":
            end = _string_end(body, k)
            if end < 0:
                return None
            k = end
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                last = body[start:k].strip()
                if last:
                    args.append(last)
                return args
            depth -= 1
        elif c == "," and depth == 0:
            args.append(body[start:k].strip())
            start = k + 1
        k += 1
    return None


def _string_end(text: str, k: int) -> int:
    """The index of the quote that closes the literal opened at ``k``; -1 if none."""
    quote = text[k]
    j = k + 1
    while j < len(text):
        if text[j] == "\\" and quote != "`":
            j += 2
            continue
        if text[j] == quote:
            return j
        j += 1
    return -1


def example_fix(w: Fixes) -> dict[str, Any] | None:
    """The repository's own failing call (a test that checks this error's
    text), run only when what the site checks holds for its arguments."""
    fn, c = w.fn, w.cond
    if fn is None or not fn["public"] or c is None or c["kind"] not in ("if", "else"):
        return None
    text = c["text"]
    params = list(fn.get("params", ()))
    names = identifiers(text) - set(re.findall(r"\.\s*([A-Za-z_]\w*)", text))
    if not names & set(params) or any(n not in params and n not in GO_WORDS for n in names):
        return None  # the check reads more than the call's arguments
    t = next(
        (
            t
            for t in w.tests
            if t.get("body")
            and "\n" not in t["body"]
            and t.get("matched_by") == "message"
            and w.specific(t)
        ),
        None,
    )
    if t is None:
        return None
    args = _call_args(t["body"], fn["name"])
    if args is None or len(args) != len(params):
        return None
    given = dict(zip(params, args, strict=True))
    holds = text if c["kind"] == "else" else f"!({text})"
    at_call = re.sub(
        r"(?<![\w.])([A-Za-z_]\w*)\b", lambda m: given.get(m.group(1), m.group(1)), holds
    )
    before = code_block(f"// before: {title(w.e)}\n{t['body']}", "go")
    body = textwrap.indent(t["body"], "\t")
    after = code_block(
        f"// after: call it only when what `{fn['name']}` checks holds\nif {at_call} {{\n{body}\n}}",
        "go",
    )
    if before is None or after is None:
        return None
    return section(
        f"`{t['test']}` ({t['path']}:{t['line']}) makes this call and gets this error. "
        f"`{fn['function']}` checks `{text}` (line {c['line']}); at this call that is "
        f"`{at_call}`, so check it first.",
        list(dict.fromkeys([f"{t['path']}:{t['body_line']}", *ev(t), *ev(c)])),
        before=before,
        after=after,
    )


def defined_as(site: ThrowSite) -> str:
    """``var ErrX = errors.New(...)`` defines an error value; an ``Error()``
    method, an error type."""
    return "error value" if site.kind == "sentinel" else "error type"
