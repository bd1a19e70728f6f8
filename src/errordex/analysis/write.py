"""The static writer: page sections from facts, and nothing else (pure).

Every sentence is built from a fact and lists that fact's evidence
(``path:line``). A section with no facts behind it is left out; no name is
ever made up. Example code is real code (a reproducing test body, a
manifest line) and is dropped unless it parses.
"""

from __future__ import annotations

import textwrap
import tomllib
from dataclasses import dataclass, field
from typing import Any

from errordex.analysis import examples, scan_python, scan_rust
from errordex.analysis.textmatch import pins
from errordex.extract.common import is_test_path
from errordex.model import ErrorEntry, ThrowSite
from errordex.runtime import title

Fact = dict[str, Any]
#: what a feature-gated stand-in calls; `unreachable!` under a cfg is not one
_STUB_KINDS = ("unimplemented", "todo", "panic")
_PANICKING = ("panic", "unimplemented", "todo", "unreachable", "assert", "expect")


def ev(*facts: Fact) -> list[str]:
    return list(dict.fromkeys(f"{f['path']}:{f['line']}" for f in facts if "path" in f))


def parses(code: str, language: str) -> bool:
    if language == "python":
        return scan_python.parses(code)
    if language == "rust":
        return scan_rust.parses(code)
    if language == "toml":
        try:
            tomllib.loads(code)
        except tomllib.TOMLDecodeError:
            return False
        return True
    return False


def code_block(code: str, language: str) -> dict[str, str] | None:
    return {"language": language, "code": code} if code.strip() and parses(code, language) else None


@dataclass(frozen=True)
class Analysis:
    """The page sections of one entry, with the facts they rest on."""

    facts: dict[str, list[Fact]]
    sections: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {**self.sections, "provenance": {"kind": "static"}}


def section(text: str, evidence: list[str], **more: Any) -> dict[str, Any]:
    return {"text": text, "provenance": "static", "evidence": evidence, **more}


def _what(entry: ErrorEntry, lead: ThrowSite) -> str:
    if lead.language == "python":
        exc = entry.exception_types[0] if entry.exception_types else "an exception"
        return f"raises `{exc}`" if entry.exception_types else "raises"
    if lead.kind in _PANICKING:
        return (
            f"panics (`{lead.kind}!`)"
            if lead.kind not in ("assert", "expect")
            else f"panics ({lead.kind})"
        )
    if lead.kind in ("display-impl", "error-attr") and lead.exception_type:
        return f"prints this for the error `{lead.exception_type}`"
    return "returns this error"


class _Writer:
    def __init__(self, entry: ErrorEntry, facts: dict[str, list[Fact]], slug: str) -> None:
        self.e = entry
        self.f = facts
        self.slug = slug
        self.lead, self.fn = _lead(entry, facts)
        self.lang = self.lead.language
        self.where = f"{self.lead.path}:{self.lead.line}"
        self.stub = next(
            (
                x
                for x in facts["features"]
                if x["negated"] and x["declared"] and self.lead.kind in _STUB_KINDS
            ),
            None,
        )
        self.arm = facts["arms"][0] if facts["arms"] else None
        conds = [
            g
            for g in facts["guards"]
            if g["site"] == self.where
            and g["kind"] in ("if", "elif", "else", "isinstance", "except", "assert")
        ]
        self.cond = conds[-1] if conds else None
        self.tests = facts["tests"]
        self.invariant = facts.get("invariant", [])
        self.upstream: Fact | None = next(iter(facts.get("upstream") or []), None)

    # -- small phrases ---------------------------------------------------
    def fn_name(self) -> str:
        return f"`{self.fn['function']}`" if self.fn else f"the code at {self.where}"

    def condition(self) -> str | None:
        if self.cond is None:
            return None
        c = self.cond
        if c["kind"] in ("else", "assert"):
            return f"`{c['text']}` is false"
        if c["kind"] == "except":
            return (
                f"its `try` block raises `{c['text']}` (`except {c['text']}` at line {c['line']})"
            )
        return f"`{c['text']}`"

    def entry_point(self) -> str:
        if self.fn and not self.fn["public"] and self.fn.get("paths"):
            return f"`{self.fn['paths'][0][0]['function']}`"
        return self.fn_name()

    def public_paths(self) -> list[str]:
        out: list[str] = []
        if self.fn is None:
            return out
        if self.fn["public"]:
            out.append(f"`{self.fn['function']}`")  # called directly, or through:
        for chain in self.fn.get("paths", ()):
            hops = " → ".join(f"`{h['function']}`" for h in chain)
            out.append(f"{hops} → `{self.fn['function']}`")
        return out

    # -- sections --------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        n = len(self.e.catalog_sites)
        places = f" It is thrown at {n} places." if n > 1 else ""
        if self.stub:
            s = self.stub
            text = (
                f"`{s['crate']}` was built without its `{s['feature']}` feature, so {self.fn_name()} is the "
                f"`#[cfg({s['cfg']})]` stub that {_what(self.e, self.lead)}. Enable the feature: "
                f"`{s['dependency_line']}`."
            )
            return section(text + places, ev(s, *([self.fn] if self.fn else [])))
        if self.arm:
            a = self.arm
            handled = ", ".join(f"`{h}`" for h in a["handled"][:8])
            text = (
                f"{self.fn_name()} {_what(self.e, self.lead)} in the catch-all `{a['arm']}` arm of a `match`: "
                f"the value was none of {handled}."
            )
            return section(text + places, ev(a, *([self.fn] if self.fn else [])))
        cond = self.condition()
        if cond:
            text = f"{self.fn_name()} {_what(self.e, self.lead)} when {cond}."
            return section(text + places, ev(self.cond or {}, *([self.fn] if self.fn else [])))
        if self.lead.kind in ("display-impl", "error-attr") and self.lead.exception_type:
            text = (
                f"This is the message of `{self.lead.exception_type}`, written by {self.fn_name()}."
            )
            return section(text + places, ev(*([self.fn] if self.fn else [])) or [self.where])
        text = f"{self.fn_name()} {_what(self.e, self.lead)} at {self.where}."
        return section(text + places, [self.where])

    def meaning(self) -> dict[str, Any] | None:
        parts: list[str] = []
        evidence: list[str] = []
        if self.stub:
            s = self.stub
            parts.append(
                f"The `#[cfg({s['cfg']})]` at {s['path']}:{s['line']} compiles this code only when "
                f"`{s['crate']}` is built without `{s['feature']}`."
            )
            if s.get("manifest"):
                parts.append(
                    f"`{s['feature']}` is declared in {s['manifest']['path']}:{s['manifest']['line']} and "
                    + ("is on by default." if s["default"] else "is not in the `default` features.")
                )
                evidence.append(f"{s['manifest']['path']}:{s['manifest']['line']}")
            evidence += ev(s)
        if self.arm:
            a = self.arm
            parts.append(
                f"The `match` at {a['path']}:{a['line']} handles "
                + ", ".join(f"`{h}`" for h in a["handled"])
                + f"; every other value falls to `{a['arm']}`."
            )
            evidence += ev(a)
        chain = [h for h in self.f["hierarchy"]]
        if chain:
            names = [f"`{h['name']}`" for h in chain if not h.get("builtin")]
            last = chain[-1]
            mro = " → ".join(f"`{m}`" for m in last.get("mro", ()))
            if names:
                up = f" up to the builtin {mro}" if last.get("builtin") else ""
                parts.append(f"Its class chain is {' → '.join(names)}{up}.")
                extra = list(chain[0].get("bases", [])[1:])
                if extra:
                    also = ", ".join(f"`{b}`" for b in extra)
                    parts.append(f"`{chain[0]['name']}` also subclasses {also}.")
            elif last.get("builtin"):
                parts.append(f"It is a builtin exception: {mro}.")
            evidence += ev(*[h for h in chain if "path" in h])
        if self.lead.kind in ("display-impl", "error-attr") and self.lead.exception_type:
            parts.append(f"It is the text of the error variant `{self.lead.exception_type}`.")
            evidence.append(self.where)
        if self.invariant:
            parts.append(self.invariant_sentence())
            evidence += ev(*self.invariant)
        for d in self.f["docs"][:4]:
            parts.append(
                f"The # {d['section']} docs of `{d['function']}` say: “{d['text'].rstrip('.')}”."
                if d["section"] != "Raises"
                else f"The docstring of `{d['function']}` says it raises: “{d['text'].rstrip('.')}”."
            )
            evidence += ev(d)
        if not parts:
            return None
        return section(" ".join(parts), list(dict.fromkeys(evidence)))

    def trigger(self) -> dict[str, Any] | None:
        paths = self.public_paths()
        if not paths and not self.condition() and not self.stub and not self.arm:
            return None
        via = f"Calling {paths[0]}" if paths else f"Reaching {self.fn_name()}"
        if self.stub:
            what = (
                f" in a build where `{self.stub['crate']}` has no `{self.stub['feature']}` feature"
            )
            if self.condition():
                what += f", when {self.condition()}"
        elif self.arm:
            what = " with a value no other arm of the `match` handles"
        elif self.condition():
            what = f" when {self.condition()}"
        else:
            what = ""
        evidence = ev(
            *([self.fn] if self.fn else []),
            *(h for c in (self.fn or {}).get("paths", [])[:1] for h in c),
        )
        return section(f"{via}{what}.", evidence, paths=paths)

    def situations(self) -> dict[str, Any] | None:
        items: list[str] = []
        evidence: list[str] = []
        fns = {r["function"] for r in self.f["reachability"]}
        if len(fns) > 1:
            items.append("It is thrown from " + ", ".join(f"`{x}`" for x in sorted(fns)) + ".")
            evidence += ev(*self.f["reachability"])
        named: set[str] = set()
        for t in self.tests[:3]:
            if t.get("pattern") and t["test"] not in named:
                named.add(t["test"])
                how = f"{t['kind']}, in a table of inputs" if "inputs" in t else t["kind"]
                items.append(f"The test `{t['test']}` expects it ({how}).")
                evidence += ev(t)
        if self.stub and self.stub["chains"]:
            top = self.stub["top"]
            items.append(f"Depending on `{top['crate']}` without its `{top['feature']}` feature.")
            evidence += ev(*self.stub["chains"][0])
        if not items:
            return None
        return section(" ".join(items), list(dict.fromkeys(evidence)), items=items)

    def solutions(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if self.stub:
            s = self.stub
            top = s["top"]
            chain = s["chains"][0] if s["chains"] else []
            via = (
                " (it forwards "
                + " → ".join(f"`{c['crate']}/{c['feature']}`" for c in reversed(chain))
                + f" → `{s['crate']}/{s['feature']}`)"
                if chain
                else ""
            )
            out.append(
                section(
                    f"Enable `{top['feature']}` on `{top['crate']}`{via} in your Cargo.toml: `{s['dependency_line']}`.",
                    ev(s, *chain),
                )
            )
            if chain:
                direct = s["dependency_line"].split(" = ", 1)[0]
                del direct
                out.append(
                    section(
                        f"Or enable `{s['feature']}` on `{s['crate']}` directly if you depend on it.",
                        ev(s),
                    )
                )
            if top["default"]:
                out.append(
                    section(
                        f"`{top['feature']}` is a default feature of `{top['crate']}`: if you set "
                        "`default-features = false`, list it in `features` again.",
                        ev(*chain) or ev(s),
                    )
                )
        if self.invariant:
            out.append(self.report_upstream())
        elif self.arm:
            a = self.arm
            out.append(
                section(
                    "Pass a value that one of the handled arms covers: "
                    + ", ".join(f"`{h}`" for h in a["handled"])
                    + ".",
                    ev(a),
                )
            )
        cond = self.condition()
        if cond and self.cond is not None and self.cond["kind"] == "except":
            out.append(
                section(
                    f"It re-raises a `{self.cond['text']}` from the `try` block above line "
                    f"{self.cond['line']}: give {self.entry_point()} input that does not cause it.",
                    ev(self.cond),
                )
            )
        elif cond and self.cond is not None and self.cond["kind"] == "assert":
            if not self.invariant:
                out.append(
                    section(
                        f"Call {self.fn_name()} only when `{self.cond['text']}` holds for "
                        f"what you pass it: that is what it asserts at line {self.cond['line']}.",
                        ev(self.cond),
                    )
                )
        elif cond and self.cond is not None and not self.invariant:
            out.append(
                section(
                    f"Make sure {cond} does not hold for your input before you call "
                    f"{self.entry_point()}.",
                    ev(self.cond),
                )
            )
        c = self.f["catches"][0] if self.f["catches"] else None
        # A test catching it to check it was raised is no pattern to follow.
        if c is not None and not is_test_path(c["path"]):
            out.append(
                section(
                    f"Catch `{c['exception']}` as the repo itself does in `{c['function'] or c['path']}` ({c['path']}:{c['line']}).",
                    ev(c),
                )
            )
        for d in self.f["docs"][:2]:
            out.append(
                section(
                    f"Follow the documented contract of `{d['function']}`: “{d['text'].rstrip('.')}”.",
                    ev(d),
                )
            )
        cases = self.own_cases()
        if cases is not None:
            out.append(cases)
        for t in self.tests[:1]:
            if t.get("body") and cases is None:
                out.append(
                    section(
                        f"Compare your input with the failing one in `{t['test']}` ({t['path']}:{t['line']}).",
                        ev(t),
                    )
                )
        return out

    def own_cases(self) -> dict[str, Any] | None:
        """The first rows of the repo's table tests, as inputs that raise it."""
        rows = [t for t in self.tests if examples.row_inputs(t.get("inputs"))][:2]
        if not rows or "inputs" not in self.tests[0]:
            return None
        first, *more = rows
        text = (
            f"Compare your input with the repo's own cases: {examples.row_inputs(first['inputs'])} "
            f"raises it ({first['path']}:{first['line']}, in `{first['test']}`)"
        )
        for t in more:
            text += f", and so does {examples.row_inputs(t['inputs'])} ({t['path']}:{t['line']})"
        return section(text + ".", ev(*rows))

    def example_fix(self) -> dict[str, Any] | None:
        if self.stub:
            return self.cargo_fix()
        if self.invariant:
            return None  # nothing the caller's input can change
        if self.lang == "rust" and self.arm:
            return self.catch_all_fix()
        if self.lang == "rust" and self.f.get("expects"):
            return self.expect_fix()
        if self.lang == "rust" and self.cond is not None and self.cond["kind"] == "assert":
            return self.assert_fix()
        if self.lang == "python":
            return self.python_fix()
        return None

    # -- internal invariants -------------------------------------------
    def invariant_sentence(self) -> str:
        inv = self.invariant[0]
        if inv["reason"] == "unreachable!":
            why = "It is an `unreachable!`: the code asserts this point is never reached"
        else:
            why = f"The message itself calls it “{inv['words']}”"
        return (
            f"{why}, so it is an internal invariant of "
            f"{self.package_name()} that broke, not a check of the caller's input."
        )

    def package_name(self) -> str:
        pkg = self.lead.package
        return f"`{pkg}`" if pkg else "the library"

    def report_upstream(self) -> dict[str, Any]:
        up = self.upstream
        where = f" at {up['issues']}" if up else ""
        text = (
            f"This is a bug in {self.package_name()}, not in your input: report it upstream{where} "
            f"with the version you use{self.version_note()} and the input that triggers it. "
            f"Changing your input may avoid it, but the invariant at {self.where} should hold for any input."
        )
        return section(text, ev(*self.invariant[:1], *([up] if up and "path" in up else [])))

    def version_note(self) -> str:
        up = self.upstream
        if up and up.get("version") and up.get("crate"):
            return f" (this page is for `{up['crate']}` {up['version']})"
        return ""

    # -- example fixes ---------------------------------------------------
    def cargo_fix(self) -> dict[str, Any] | None:
        s = self.stub
        assert s is not None
        top = s["top"]
        name = top["crate"]
        line = s["dependency_line"]
        version = (
            line.split('version = "', 1)[1].split('"', 1)[0] if 'version = "' in line else None
        )
        before = (
            f'[dependencies]\n{name} = "{version}"' if version else f"[dependencies]\n{name} = {{}}"
        )
        after = f"[dependencies]\n{line}"
        text = f"Turn on `{top['feature']}` in the dependency on `{name}`."
        if top["default"]:
            # On by default: only a dependency without default features lacks it.
            v = f'version = "{version}", ' if version else ""
            before = f"[dependencies]\n{name} = {{ {v}default-features = false }}"
            after = (
                f"[dependencies]\n{name} = {{ {v}default-features = false, "
                f'features = ["{top["feature"]}"] }}'
            )
            text = (
                f"`{top['feature']}` is a default feature of `{name}`: it is missing only when "
                "default features are turned off, so list it again."
            )
        b, a = code_block(before, "toml"), code_block(after, "toml")
        if not (b and a):
            return None
        return section(text, ev(s, *(s["chains"][0] if s["chains"] else [])), before=b, after=a)

    def arm_condition(self, at_call: dict[str, Any] | None = None) -> tuple[str, str] | None:
        """(the value, a `matches!` of the handled patterns) for the catch-all arm;
        the value is the caller's argument when the callee matches on a parameter."""
        a = self.arm
        if a is None or not a.get("value") or not a["handled"]:
            return None
        pats = examples.handled_patterns(a["handled"])
        if pats is None:
            return None
        value = a["value"]["text"]
        if at_call is not None and not examples.variant_patterns(a["handled"]):
            return None  # a literal pattern may not match the caller's (reference) type
        if at_call is not None:
            got = examples.scrutinee_at_call(value, at_call.get("params", []), at_call["text"])
            if got is None:
                return None
            value = got
        return value, f"matches!({value}, {pats})"

    def catch_all_fix(self) -> dict[str, Any] | None:
        a = self.arm
        assert a is not None
        fn = self.fn["function"] if self.fn else None
        msg = self.panics_with(" for a value no arm handles")
        for call in self.f.get("callers", []):
            if call["calls"] != fn:
                continue
            got = self.arm_condition(call)
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
        got = self.arm_condition()
        if got is None:
            return None
        value, check = got
        first: Fact | None = next((c for c in self.f.get("callers", []) if c["calls"] == fn), None)
        v = a["value"]
        after = code_block(
            f"// the value the match at {v['path']}:{v['line']} looks at must satisfy\n{check}",
            "rust",
        )
        if after is None:
            return None
        before = code_block(f"// before: {msg}\n{first['text']};", "rust") if first else None
        where = (
            f" The call is the repo's own, in `{first['function']}` ({first['path']}:{first['line']})."
            if first and before
            else ""
        )
        text = (
            f"{self.fn_name()} panics unless `{value}` ({v['path']}:{v['line']}) matches one of the "
            f"arms before the catch-all at {a['path']}:{a['line']}: the condition that must hold "
            f"is below.{where}"
        )
        out = section(text, ev(*([first] if first and before else []), v, a), after=after)
        if before:
            out["before"] = before
        return out

    def panics_with(self, when: str = "") -> str:
        if self.e.template.dynamic:
            return f"panics here{when} (the message is built at run time)"
        return f"panics with “{title(self.e)}”{when}"

    def expect_fix(self) -> dict[str, Any] | None:
        for x in self.f.get("expects", []):
            receiver = examples.expect_receiver(x["text"])
            if receiver is None:
                continue
            before = code_block(
                f"// before: {self.panics_with(' when it fails')}\n{x['text']};", "rust"
            )
            after = code_block(
                "// after: in a fn that returns Result (or Option), pass the failure up\n"
                f"{receiver}?;",
                "rust",
            )
            if before and after:
                text = (
                    f"The code at {x['path']}:{x['line']} (in `{x['function']}`) unwraps "
                    f"`{receiver}`; where the caller can handle the failure, `?` returns it "
                    "instead of panicking."
                )
                return section(text, ev(x), before=before, after=after)
        return None

    def assert_fix(self) -> dict[str, Any] | None:
        """A repo test that panics here, with its call wrapped in a check of
        what the function asserts, written in the call's own arguments."""
        g, fn = self.cond, self.fn
        if g is None or fn is None or not fn.get("params"):
            return None
        for t in self.tests:
            if t.get("kind") != "should_panic" or not t.get("body"):
                continue
            guarded = examples.guard_rust_call(t["body"], fn["name"], fn["params"], g["text"])
            if guarded is None:
                continue
            check, after_body = guarded
            before = code_block(f"// before: {self.panics_with()}\n{t['body']}", "rust")
            after = code_block(
                f"// after: check what `{fn['function']}` asserts first\n{after_body}", "rust"
            )
            if before is None or after is None:
                continue
            text = (
                f"`{t['test']}` ({t['path']}:{t['line']}) makes this call and panics. "
                f"{self.fn_name()} asserts `{g['text']}` (line {g['line']}); at this call "
                f"that is `{check}`, so check it first."
            )
            return section(text, [*ev(t, g)], before=before, after=after)
        return None

    def python_fix(self) -> dict[str, Any] | None:
        t = next(
            (
                t
                for t in self.tests
                if t.get("body")
                and t.get("matched_by") == "message"
                and self.catches_this(t.get("exception"))
                and self.specific(t)
                and examples.single_python_call(t["body"])
            ),
            None,
        )
        if t is None:
            return None
        exc = self.e.exception_types[0] if self.e.exception_types else None
        head = f"{exc}: " if exc else ""
        said = f"{head}{title(self.e)}" if not self.e.template.dynamic else (exc or "")
        before = code_block(f"# before: raises {said}\n{t['body']}".rstrip(), "python")
        if before is None:
            return None
        # A table row's input is on the row's line; the block that runs it at body_line.
        line = t["line"] if "inputs" in t else t["body_line"]
        text = f"The failing input is the repo's own case at {t['path']}:{line} (`{t['test']}`)."
        c = self.cond
        # Every enclosing `if` must hold for the raise to run: it does not run
        # when any one of them is false (outermost first, as in the code).
        ifs = list(
            {
                (g["line"], g["text"]): g
                for g in self.f["guards"]
                if g["site"] == self.where
                and g["kind"] in ("if", "elif", "isinstance", "else", "assert")
            }.values()
        )  # an `if isinstance(...)` is listed as both kinds
        negated = [
            g["text"] if g["kind"] in ("else", "assert") else examples.negate_python(g["text"])
            for g in ifs
        ]
        parts = [f"({n})" if n and (" if " in n or "lambda" in n) else n for n in negated]
        holds = " or ".join(n for n in parts if n) if ifs and all(parts) else None
        after = (
            code_block(
                f"# after: {self.entry_point_plain()} does not raise here when this holds\n{holds}",
                "python",
            )
            if holds
            else None
        )
        evidence = [f"{t['path']}:{line}", *ev(t), f"{t['path']}:{t['body_line']}"]
        if after is None or c is None:
            return section(text, list(dict.fromkeys(evidence)), before=before)
        when = " and ".join(
            f"`{g['text']}` is false" if g["kind"] in ("else", "assert") else f"`{g['text']}`"
            for g in ifs
        )
        text += (
            f" {self.fn_name()} raises when {when} ({', '.join(ev(*ifs))}), so the value "
            f"you pass must make `{holds}` true there."
        )
        return section(
            text, list(dict.fromkeys([*evidence, *ev(*ifs)])), before=before, after=after
        )

    def specific(self, t: Fact) -> bool:
        """Whether the test's expected text pins this message (``textmatch.pins``)."""
        regex = (
            t["regex"] if "regex" in t else t.get("kind") in ("pytest.raises", "assertRaisesRegex")
        )
        return pins(t.get("pattern") or "", regex, self.e.template)

    def catches_this(self, exception: str | None) -> bool:
        """Whether ``pytest.raises(exception)`` catches what this entry raises:
        the raised class or one of its bases (a test of another error shares words only)."""
        if not exception:
            return True  # an assertion on the text
        short = exception.rsplit(".", 1)[-1]
        names = {t.rsplit(".", 1)[-1] for t in self.e.exception_types}
        for h in self.f["hierarchy"]:
            names.add(h["name"])
            names.update(h.get("mro", ()))
        return short in names

    def entry_point_plain(self) -> str:
        return self.fn["function"] if self.fn else "the code"

    def arm_check(self) -> dict[str, Any] | None:
        a = self.arm
        if a is None:
            return None
        fn = self.fn["function"] if self.fn else None
        # At a real call when the match looks at a parameter; else in the callee's terms.
        for call in [c for c in self.f.get("callers", []) if c["calls"] == fn] + [None]:
            got = self.arm_condition(call)
            if got is not None:
                break
        if got is None:
            return None
        value, check = got
        code = (
            f"if !{check} {{\n    // not a value the match at {a['path']}:{a['line']} handles\n}}"
        )
        block = code_block(code, "rust")
        if block is None:
            return None
        where = (
            f"the value {self.fn_name()} matches on"
            if call is None
            else f"the argument that `{fn}` matches on (as at {call['path']}:{call['line']})"
        )
        return section(
            f"Check `{value}`, {where}, against the arms the `match` handles "
            f"({a['path']}:{a['line']}), and handle the other values yourself.",
            ev(a, *([call] if call else [])),
            strategy="validation",
            title="Check the variant first",
            **block,
        )

    def defensive(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        body_test = next(
            (t for t in self.tests if t.get("body") and t.get("matched_by") == "message"), None
        )
        if self.lang == "python" and self.e.exception_types and body_test:
            exc = self.e.exception_types[0].rsplit(".", 1)[-1]
            body = textwrap.indent(body_test["body"], "    ")
            code = f"try:\n{body}\nexcept {exc}:\n    ..."
            block = code_block(code, "python")
            if block and exc in _known(self.f, exc):
                out.append(
                    section(
                        f"Catch `{exc}` around the call ({body_test['test']} shows the failing call).",
                        ev(body_test),
                        strategy="catch",
                        title=f"Catch {exc}",
                        **block,
                    )
                )
        if (
            self.lang == "rust"
            and self.lead.kind in _PANICKING
            and body_test
            and body_test["kind"] == "should_panic"
        ):
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
        arm_check = self.arm_check()
        if arm_check is not None and not self.invariant:
            out.append(arm_check)
        if (
            self.cond is not None
            and self.cond["kind"] != "except"
            and self.condition()
            and not self.invariant
        ):
            check = (
                f"yourself that `{self.cond['text']}` holds"
                if self.cond["kind"] == "assert"
                else f"{self.condition()} yourself"
            )
            out.append(
                section(
                    f"Check {check} before the call, and report it in your own terms.",
                    ev(self.cond),
                    strategy="validation",
                    title="Validate before calling",
                )
            )
        return out

    def prevention(self) -> dict[str, Any] | None:
        items: list[str] = []
        evidence: list[str] = []
        if self.stub:
            s = self.stub
            items.append(
                f"Keep `{s['top']['feature']}` in the features of your `{s['top']['crate']}` dependency."
            )
            evidence += ev(s)
        if self.arm and not self.invariant:
            items.append(
                f"Produce only values the `match` at {self.arm['path']}:{self.arm['line']} handles."
            )
            evidence += ev(self.arm)
        for d in self.f["docs"][:1]:
            items.append(
                f"Read the {d['section']} notes of `{d['function']}` ({d['path']}:{d['line']})."
            )
            evidence += ev(d)
        if self.tests:
            t = self.tests[0]
            items.append(
                f"Add a test like `{t['test']}` ({t['path']}:{t['line']}) for your own inputs."
            )
            evidence += ev(t)
        if not items:
            return None
        return section(" ".join(items), list(dict.fromkeys(evidence)), items=items)

    def reproductions(self) -> list[dict[str, Any]]:
        out = []
        for t in self.tests:
            row = ""
            evidence = ev(t)
            if "inputs" in t:
                shown = examples.row_inputs(t["inputs"])
                row = f", the row {shown}" if shown else " (a table row)"
                evidence.append(f"{t['path']}:{t['body_line']}")
            item = section(
                f"`{t['test']}`{row} ({t['kind']}"
                + (f", expects “{t['pattern']}”" if t.get("pattern") else "")
                + ")",
                evidence,
                test=t["test"],
                matched_by=t.get("matched_by"),
            )
            # A Python test can expect a message a Rust extension prints: its own language.
            lang = examples.language_of(t["path"], self.lang)
            block = code_block(t["body"], lang) if t.get("body") else None
            if block:
                item.update(block)
                item["code_line"] = t["body_line"]
            out.append(item)
        return out


def _lead(entry: ErrorEntry, facts: dict[str, list[Fact]]) -> tuple[ThrowSite, Fact | None]:
    """The site a page leads with, and its function's reachability: the first
    site whose function ranks best, public code being what a reader calls.
    json's "Expecting value" leads with ``JSONDecoder.raw_decode`` (public,
    reached from ``json.loads``), not with ``JSONObject``, a helper the
    scanner calls that ``json.decoder.__all__`` leaves out."""
    first = entry.catalog_sites[0]
    reach = facts["reachability"]
    if not reach:
        return first, None
    if reach[0]["site"] != f"{first.path}:{first.line}":
        return first, reach[0]  # the first site is outside any function

    def rank(fact: Fact) -> int:
        """Public first, then what public code reaches, then the rest."""
        return 0 if fact["public"] else 1 if any(fact.get("paths", ())) else 2

    at = {f"{s.path}:{s.line}": s for s in entry.catalog_sites}
    best = min((f for f in reach if f["site"] in at), key=rank)
    return at[best["site"]], best


def _known(facts: dict[str, list[Fact]], name: str) -> set[str]:
    names = {h["name"] for h in facts["hierarchy"]}
    return names | {name} if facts["hierarchy"] else names


def write(entry: ErrorEntry, facts: dict[str, list[Fact]], slug: str) -> Analysis:
    if not entry.catalog_sites:
        return Analysis(facts=facts)
    w = _Writer(entry, facts, slug)
    sections: dict[str, Any] = {
        "question": f"What causes “{title(entry)}” in {slug}?",
        "summary": w.summary(),
        "meaning": w.meaning(),
        "trigger": w.trigger(),
        "situations": w.situations(),
        "solutions": w.solutions(),
        "example_fix": w.example_fix(),
        "defensive_patterns": w.defensive(),
        "prevention": w.prevention(),
        "reproductions": w.reproductions(),
        "related": facts["related"],
    }
    return Analysis(facts=facts, sections={k: v for k, v in sections.items() if v})
