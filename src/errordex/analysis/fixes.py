"""Example fixes, the half of a page's writer that turns a fact into code
to change (pure): the repository's own failing call guarded by what the
site checks, a catch-all arm's variant checked first, a feature to enable,
the Python call wrapped in what its raise requires. ``write._Writer`` is a
``Fixes``; the attributes below are set by its ``__init__``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from errordex import plugins
from errordex.analysis.about import code_words, is_about, words_of
from errordex.analysis.lift import expanded
from errordex.analysis.sections import Fact, code_block, ev, section, test_named
from errordex.analysis.textmatch import Message, literal_of, pins
from errordex.analysis.traits import formatted_type, hook
from errordex.language import Pages
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

    def known_classes(self, name: str) -> set[str]:
        """The classes of the raised one's hierarchy (with ``name`` when there
        is one): what a handler can safely name."""
        names = {h["name"] for h in self.f["hierarchy"]}
        return names | {name} if self.f["hierarchy"] else names

    def lifted_up(self) -> Fact | None:
        """The lead site's condition lifted through private helpers to a
        public caller's parameters (``lift``), if it could be."""
        return next((x for x in self.f.get("lifted", ()) if x["site"] == self.where), None)

    def fn_name(self) -> str:
        if self.fn:
            printed = formatted_type(self.fn["function"])
            if printed is not None:
                # nobody calls `Display::fmt` for an error: it runs when one is printed
                return (
                    f"printing a `{printed[0]}` (its `{printed[1]}` impl, `{self.fn['function']}`)"
                )
            ran = hook(self.fn["function"])
            if ran is not None:
                # nobody calls `__del__` or `Drop::drop`: the runtime does
                return f"{ran} (`{self.fn['function']}`)"
            return f"`{self.fn['function']}`"
        symbol = self.lead.symbol or ""
        if symbol.endswith("!") and "::" not in symbol:
            # a site in a `macro_rules!` body runs where the macro is used
            return f"the expansion of `{symbol}`"
        return f"the code at {self.where}"

    def example_fix(self) -> dict[str, Any] | None:
        if self.stub:
            return self.cargo_fix()
        if self.invariant:
            return None  # nothing the caller's input can change
        # a call some test makes with valid input is the surest "after"
        fix = self.valid_call_fix()
        if fix is not None:
            return fix
        lang = plugins.find(self.lang)
        return lang.pages.example_fix(self) if lang is not None and lang.pages.example_fix else None

    def reproduces(self, t: Fact) -> bool:
        """Whether a test reproduces this error for an example fix: its
        expected text pins this message (or a word of it, from a call that
        raises its type here alone), or, with none, it expects this
        error's own type (an enum variant, or a class only this function
        raises) from the call it makes."""
        if not self.catches_this(t.get("exception")):
            return False
        if t.get("matched_by") == "message":
            return self.specific(t) or bool(t.get("sole"))
        if t.get("matched_by") in ("exception type and call", "error result of a call"):
            return bool(t.get("sole")) or "::" in str(t.get("exception") or "")
        return False

    def valid_call_fix(self) -> dict[str, Any] | None:
        """A reproducing test's failing call, as the user makes it, and the
        same call as another test makes it with input the library takes
        (``facts.valid_calls``): both the repository's own code."""
        usable = {(t["path"], t["line"]): t for t in self.tests if self.reproduces(t)}
        for v in self.f.get("valid_calls", ()):
            t = usable.get((v["test_path"], v["test_line"]))
            if t is None:
                continue
            pages = self.pages()
            comment, end = pages.line_comment, pages.statement_end
            before = code_block(
                f"{comment} before: {self.fails_with(t)}\n{v['before']}{end}", self.lang
            )
            after = code_block(
                f"{comment} after: the same call with input the library takes\n{v['after']}{end}",
                self.lang,
            )
            if before is None or after is None:
                continue
            helper = v.get("helper")
            through = (
                f" (through the test helper `{helper['name']}`, {helper['path']}:{helper['line']})"
                if helper
                else ""
            )
            said_before, said_after = (" ".join(str(v[k]).split()) for k in ("before", "after"))
            text = (
                f"{test_named(t)} ({t['path']}:{t['line']}) calls `{said_before}`{through} and "
                f"gets this error. At {v['path']}:{v['line']} a test makes the same call as "
                f"`{said_after}`, with input the library takes."
                if "literal" not in v
                else f"{test_named(t)} ({t['path']}:{t['line']}) calls `{said_before}` and gets "
                f"this error. At {v['path']}:{v['line']} a test passes {v['literal']} to "
                f"`{v['callee']}` in the same place without an error: the same call with it."
            )
            evidence = [f"{t['path']}:{t['line']}", f"{v['path']}:{v['line']}"]
            for h in (helper, v.get("after_helper")):
                if h:
                    evidence.append(f"{h['path']}:{h['line']}")
            return section(text, list(dict.fromkeys(evidence)), before=before, after=after)
        return None

    def pages(self) -> Pages:
        """What the lead site's language says of its code on a page."""
        lang = plugins.find(self.lang)
        return lang.pages if lang is not None else Pages()

    def fails_with(self, t: Fact) -> str:
        """How the test's call ends, for a code comment: the message as the
        test expects it (its literal text), else the entry's template."""
        pattern = str(t.get("pattern") or "")
        regex = (
            t["regex"] if "regex" in t else t.get("kind") in ("pytest.raises", "assertRaisesRegex")
        )
        literal = literal_of(pattern) if regex else pattern
        if literal and Message(self.e.template).whole(literal):
            said = f" “{literal.strip()}”"  # the message as this input prints it
        else:
            said = "" if self.e.template.dynamic else f" “{title(self.e)}”"
        if self.lead.kind in ("panic", "assert", "expect", "unimplemented", "todo", "unreachable"):
            return f"panics{said}"
        verb = self.pages().throws_word
        if verb:
            exc = self.e.exception_types[0] if self.e.exception_types else "an error"
            return f"{verb} {exc}{':' if said else ''}{said}"
        return f"returns an error{':' if said else ''}{said}"

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

    def contract(self) -> list[Fact]:
        """The doc lines that say when it is thrown (Raises, # Panics, # Errors)
        and are about this error: a panic's page quotes no ``# Errors`` line
        and an error's no ``# Panics`` one; a line that names another variant
        of the error's type is another error's, and where some lines name
        this one's variant, only those are (``Error::NonFinite`` of
        ``Uniform::new``'s list, not ``Error::EmptyRange``)."""
        lines = [d for d in self.f["docs"] if d["section"] != "Summary"]
        lang = plugins.find(self.lang)
        panics = lang.runtime.panic_kinds if lang is not None else frozenset()
        if panics:
            drop = "Errors" if self.lead.kind in panics else "Panics"
            lines = [d for d in lines if d["section"] != drop]
            if self.lead.kind in panics:
                lines = self._about_this_panic(lines)
            else:
                lines = self._about_this_error(lines)
        if not lines:
            return []  # (most entries: no patterns to make)
        variants = [t.rsplit("::", 1) for t in self.e.exception_types]
        own = [_naming(v[-1]) for v in variants]
        other = [_other_variant(v[0], v[1]) for v in variants if len(v) == 2]
        # a docstring's paragraph names a class as prose does (`raise a
        # RuntimeError`), without backticks
        bare = [_bare_name(v[0].rsplit(".", 1)[-1]) for v in variants if len(v) == 1]
        named = [
            d
            for d in lines
            if any(p.search(d["text"]) for p in (bare if d["section"] == "Docstring" else own))
        ]
        if named:
            return named
        # a line that only mentions an error in passing must name this one
        return [
            d
            for d in lines
            if d["section"] not in ("Mentions", "Docstring")
            and not any(p.search(d["text"]) for p in other)
        ]

    def _about_this_panic(self, lines: list[Fact]) -> list[Fact]:
        """The ``# Panics`` lines about this panic: none when the message
        says the library's own invariant broke; else those that share a word
        with the message, its placeholders or the check that fires it, and
        the one line of a function that documents a single panic, the
        function that throws it (``ImageBuffer::new``'s "larger than the
        maximum size of a vector"). Where a function documents several, its
        own name tells none of them apart (`Event::event`'s two lines both
        say `event`)."""
        if self.invariant:
            return [d for d in lines if d["section"] != "Panics"]
        holes = [h.expr for h in self.e.template.holes]
        code = list(holes)
        if self.cond is not None:
            # a catch-all arm's check is the arms it is not (`[Some(ref_a), Some(ref_b)]`)
            code += [expanded(self.cond), *self.cond.get("siblings", ())]
        said = words_of(self.e.template.chunks()) | code_words(code)
        own = self.fn["function"] if self.fn is not None else None
        per_fn: dict[str, int] = {}
        for d in lines:
            if d["section"] == "Panics":
                per_fn[d["function"]] = per_fn.get(d["function"], 0) + 1
        return [
            d
            for d in lines
            if d["section"] != "Panics"
            or is_about(d["text"], d["function"] if per_fn[d["function"]] > 1 else None, said)
            or (d["function"] == own and per_fn[own] == 1)
        ]

    def _about_this_error(self, lines: list[Fact]) -> list[Fact]:
        """Of a function's several ``# Errors`` lines (semver's ``Version::parse``
        lists "`1.0` — too few numeric components", "`1.0.01` — a numeric
        component has a leading zero", "`1.0.unknown` — unexpected character
        …"), those that share a word with the message or its placeholders,
        when some do; all of them when none does."""
        errors = [d for d in lines if d["section"] == "Errors"]
        if len(errors) < 2:
            return lines
        said = words_of(self.e.template.chunks()) | code_words(
            [h.expr for h in self.e.template.holes]
        )
        about = [d for d in errors if is_about(d["text"], None, said)]
        if not about:
            return lines
        return [d for d in lines if d["section"] != "Errors" or d in about]

    def entry_point_plain(self) -> str:
        return self.fn["function"] if self.fn else "the code"


@lru_cache(maxsize=1024)
def _naming(name: str) -> re.Pattern[str]:
    """A code span that names ``name`` (the variant, or the class)."""
    return re.compile(rf"`[^`]*\b{re.escape(name)}\b[^`]*`")


@lru_cache(maxsize=1024)
def _other_variant(owner: str, variant: str) -> re.Pattern[str]:
    """A code span that names another variant of ``owner`` than ``variant``."""
    return re.compile(rf"`(?:[\w:]*::)?{re.escape(owner)}::(?!{re.escape(variant)}\b)\w+")


@lru_cache(maxsize=1024)
def _bare_name(name: str) -> re.Pattern[str]:
    """``name`` as a word (a class named in prose)."""
    return re.compile(rf"\b{re.escape(name)}\b")
