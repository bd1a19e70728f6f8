"""Rust's example fixes and defences on a page (pure): the repository's own
call guarded by what the site checks, a catch-all arm's variant checked
first, ``?`` instead of ``expect``, a panic isolated with ``catch_unwind``.
Each reads the page's writer (``analysis.fixes.Fixes``).
"""

from __future__ import annotations

import textwrap
from typing import Any

from errordex.analysis.calledon import called_by_path
from errordex.analysis.fixes import Fixes
from errordex.analysis.sections import Fact, code_block, ev, section
from errordex.languages.rust import examples as rx
from errordex.languages.rust import meaning
from errordex.runtime import title

#: Kinds of site that panic.
PANICKING = ("panic", "unimplemented", "todo", "unreachable", "assert", "expect")


def what(w: Fixes) -> str:
    """What the site does, for a page's summary."""
    lead = w.lead
    if lead.kind in PANICKING:
        return (
            f"panics (`{lead.kind}!`)"
            if lead.kind not in ("assert", "expect")
            else f"panics ({lead.kind})"
        )
    if lead.kind in ("display-impl", "error-attr") and lead.exception_type:
        return f"prints this for the error `{lead.exception_type}`"
    return "returns this error"


def notes(w: Fixes) -> list[tuple[str, list[str]]]:
    """Where and when the lead site fails, as its form says: a
    ``#[track_caller]`` function's panic is reported at its caller's line;
    ``debug_assert!`` is checked only with debug assertions on; a panic in a
    ``const`` is a compile error."""
    out: list[tuple[str, list[str]]] = []
    lead = w.lead
    at = f"{lead.path}:{lead.line}"
    for g in lead.guards:
        where = f"{lead.path}:{g.line}"
        if g.kind == "track-caller" and lead.kind in PANICKING:
            out.append(
                (
                    f"{w.fn_name()} is `#[track_caller]`: the panic is reported at the line"
                    f" that called it, in your code, not at {at}.",
                    [where],
                )
            )
        elif g.kind == "cfg" and g.text == "debug_assertions" and lead.kind == "assert":
            out.append(
                (
                    "It is a `debug_assert!`: it is checked only with debug assertions on"
                    " (a debug build); a release build does not check it.",
                    [at],
                )
            )
        elif g.kind == "cfg" and g.text == "debug_assertions" and lead.kind in PANICKING:
            out.append(
                (
                    f"It is compiled only with debug assertions on (`#[cfg(debug_assertions)]`,"
                    f" {where}): a release build does not check it.",
                    [where],
                )
            )
        elif g.kind == "const" and lead.kind in PANICKING:
            out.append(
                (
                    f"It is evaluated while compiling `{g.text}`: it fails the build with a"
                    " compile error, not a panic at run time.",
                    [where],
                )
            )
    debug = w.fn.get("debug_only") if w.fn is not None else None
    if debug is not None and lead.kind in PANICKING:
        out.append(
            (
                f"`{lead.path}` is a module compiled only with debug assertions on"
                f" (`#[cfg(debug_assertions)]`, {debug['path']}:{debug['line']}): the check"
                " runs in a debug build, and a release build leaves it out.",
                [f"{debug['path']}:{debug['line']}"],
            )
        )
    return out + meaning.notes(w)


def example_fix(w: Fixes) -> dict[str, Any] | None:
    """An example fix only from the repository's own tests: a test's call
    checked first (an ``expect`` turned into ``?`` changes the library, not
    the caller's code, and a bare condition is no code to run)."""
    if w.arm:
        return catch_all_fix(w)
    if w.cond is not None and w.cond["kind"] == "assert":
        return assert_fix(w)
    return None


def defences(w: Fixes, body_test: Fact | None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if w.lead.kind in PANICKING and body_test and body_test["kind"] == "should_panic":
        body = textwrap.indent(body_test["body"], "    ")
        code = f"assert!(std::panic::catch_unwind(|| {{\n{body}\n}})\n.is_err());"
        block = code_block(code, "rust")
        if block:
            out.append(
                section(
                    f"Isolate the panic with `std::panic::catch_unwind` (the body is `{body_test['test']}`).",
                    ev(body_test),
                    strategy="isolate",
                    title="Contain the panic",
                    **block,
                )
            )
    check = arm_check(w)
    if check is not None and not w.invariant:
        out.append(check)
    return out


def arm_condition(w: Fixes, at_call: dict[str, Any] | None = None) -> tuple[str, str] | None:
    """(the value, a `matches!` of the handled patterns) for the catch-all arm;
    the value is the caller's argument when the callee matches on a parameter."""
    a = w.arm
    if a is None or not a.get("value") or not a["handled"]:
        return None
    pats = rx.handled_patterns(a["handled"])
    if pats is None:
        return None
    value = a["value"]["text"]
    if at_call is not None and not rx.variant_patterns(a["handled"]):
        return None  # a literal pattern may not match the caller's (reference) type
    if at_call is not None:
        got = rx.scrutinee_at_call(value, at_call.get("params", []), at_call["text"])
        if got is None:
            return None
        value = got
    return value, f"matches!({value}, {pats})"


def catch_all_fix(w: Fixes) -> dict[str, Any] | None:
    a = w.arm
    assert a is not None
    fn = w.fn["function"] if w.fn else None
    msg = panics_with(w, " for a value no arm handles")
    # the tests that reproduce it: a test's call elsewhere may be one that works
    # (`assert_eq!(MethodFilter::try_from(Method::CONNECT).unwrap(), …)`)
    failing = {(t["path"], str(t["test"]).rsplit("::", 1)[-1]) for t in w.tests if w.reproduces(t)}
    for call in w.f.get("callers", []):
        if call["calls"] != fn or not call.get("in_test"):
            continue  # a test's call, not the library's own
        caller = str(call["function"]).rsplit("::", 1)[-1]
        if (call["path"], caller) not in failing:
            continue
        got = arm_condition(w, call)
        before = code_block(f"// before: {msg}\n{call['text']};", "rust")
        if got is None or before is None:
            continue
        value, check = got
        after = code_block(
            f"// after: call it only with a value the match handles\n"
            f"if {check} {{\n    {call['text']};\n}}",
            "rust",
        )
        if after is None:
            continue
        v = a["value"]
        text = (
            f"The call is the repo's own, in `{call['function']}` ({call['path']}:{call['line']}). "
            f"`{fn}` matches on `{v['text']}` ({v['path']}:{v['line']}), which is `{value}` "
            "at this call; the fix checks it against the handled arms before calling."
        )
        return section(text, ev(call, a["value"], a), before=before, after=after)
    return None


def panics_with(w: Fixes, when: str = "") -> str:
    if w.e.template.dynamic:
        return f"panics here{when} (the message is built at run time)"
    return f"panics with “{title(w.e)}”{when}"


def assert_fix(w: Fixes) -> dict[str, Any] | None:
    """A repo test that panics here, with its call wrapped in a check of
    what the function asserts, written in the call's own arguments."""
    if w.cond is None or w.fn is None:
        return None
    for t in w.tests:
        if t.get("kind") != "should_panic" or not t.get("body"):
            continue
        g, fn = _asserted_for(w, str(t["body"]))
        if not fn.get("params"):
            continue
        guarded = rx.guard_rust_call(t["body"], fn["name"], fn["params"], g["text"])
        if guarded is None:
            continue
        check, after_body = guarded
        before = code_block(f"// before: {panics_with(w)}\n{t['body']}", "rust")
        after = code_block(
            f"// after: check what `{fn['function']}` asserts first\n{after_body}", "rust"
        )
        if before is None or after is None:
            continue
        text = (
            f"`{t['test']}` ({t['path']}:{t['line']}) makes this call and panics. "
            f"`{fn['function']}` asserts `{g['text']}` ({g['path']}:{g['line']}); at this call "
            f"that is `{check}`, so check it first."
        )
        return section(text, [*ev(t, g)], before=before, after=after)
    return None


def _asserted_for(w: Fixes, body: str) -> tuple[Fact, Fact]:
    """The assertion and function of the site a test's call reaches: of
    the entry's sites in functions of the same name, the one whose type the
    test calls it on (bytes' ``BytesMut::from(…).advance(20)`` asserts
    ``cnt <= self.remaining()`` in ``<BytesMut as Buf>::advance``, not what
    ``Bytes``'s does); else the page's lead site's."""
    assert w.cond is not None and w.fn is not None
    for r in w.f.get("reachability", ()):
        if r["site"] == w.where or r.get("name") != w.fn.get("name"):
            continue
        if not called_by_path(body, str(r["function"])):
            continue
        asserts = [g for g in w.f["guards"] if g["site"] == r["site"] and g["kind"] == "assert"]
        if asserts:
            return asserts[-1], r
    return w.cond, w.fn


def arm_check(w: Fixes) -> dict[str, Any] | None:
    a = w.arm
    if a is None:
        return None
    fn = w.fn["function"] if w.fn else None
    # At a real call when the match looks at a parameter; else in the callee's terms.
    # At a real call when the match looks at a parameter; never in the callee's own locals.
    got = None
    for call in [c for c in w.f.get("callers", []) if c["calls"] == fn]:
        got = arm_condition(w, call)
        if got is not None:
            break
    if got is None:
        return None
    value, check = got
    code = f"if !{check} {{\n    // not a value the match at {a['path']}:{a['line']} handles\n}}"
    block = code_block(code, "rust")
    if block is None:
        return None
    where = f"the argument that `{fn}` matches on (as at {call['path']}:{call['line']})"
    return section(
        f"Check `{value}`, {where}, against the arms the `match` handles "
        f"({a['path']}:{a['line']}), and handle the other values yourself.",
        ev(a, call),
        strategy="validation",
        title="Check the variant first",
        **block,
    )
