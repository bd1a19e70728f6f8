"""Example fixes, the half of a page's writer that turns a fact into code
to change (pure): the repository's own failing call guarded by what the
site checks, a catch-all arm's variant checked first, a feature to enable,
the Python call wrapped in what its raise requires. ``write._Writer`` is a
``Fixes``; the attributes below are set by its ``__init__``.
"""

from __future__ import annotations

from typing import Any

from errordex.analysis import examples
from errordex.analysis.sections import Fact, code_block, ev, section
from errordex.analysis.textmatch import pins
from errordex.model import ErrorEntry, ThrowSite
from errordex.runtime import title


class Fixes:
    e: ErrorEntry
    f: dict[str, list[Fact]]
    slug: str
    lead: ThrowSite
    lang: str
    where: str
    fn: Fact | None
    stub: Fact | None
    arm: Fact | None
    cond: Fact | None
    tests: list[Fact]
    invariant: list[Fact]
    upstream: Fact | None

    def fn_name(self) -> str:
        return f"`{self.fn['function']}`" if self.fn else f"the code at {self.where}"

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
