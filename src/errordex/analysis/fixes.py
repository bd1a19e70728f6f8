"""Example fixes, the half of a page's writer that turns a fact into code
to change (pure): the repository's own failing call guarded by what the
site checks, a catch-all arm's variant checked first, a feature to enable,
the Python call wrapped in what its raise requires. ``write._Writer`` is a
``Fixes``; the attributes below are set by its ``__init__``.
"""

from __future__ import annotations

import builtins
import re
from functools import lru_cache
from typing import Any

from errordex import plugins
from errordex.analysis.about import code_words, is_about, words_of
from errordex.analysis.decide import checks
from errordex.analysis.lift import expanded
from errordex.analysis.sections import Fact, code_block, ev, section, test_named
from errordex.analysis.textmatch import Message, literal_of, pins
from errordex.analysis.traits import formatted_type, hook
from errordex.analysis.validcall import call_keywords
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

    def api(self) -> Fact | None:
        """The public call a user makes (the writer's: ``_Writer.api``)."""
        return None

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
            if (
                before is None
                or after is None
                or self.after_fires(str(v["after"]))
                or self.drops_checked(str(v["before"]), str(v["after"]))
                # a value another test passes, put into this call: made here,
                # so only where the check is known to pass with it (xarray's
                # `da_time.interpolate_na("t", max_gap=2)` fails on the
                # test's own array all the same)
                or ("swapped" in v and self.after_fires(str(v["after"]), passes=True))
            ):
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

    def after_fires(self, code: str, passes: bool = False) -> bool:
        """Whether an "after" call is known to raise this error itself: the
        lead site's checks, or its check lifted to the public call, hold for
        its literal arguments (``Pages.fires_on_call``; the defaults are not
        read here, so only what the call passes decides). With ``passes``:
        whether it is NOT known to pass them (no way to work out counts as
        failing)."""
        lang = plugins.find(self.lang)
        fires = lang.pages.fires_on_call if lang is not None else None
        if fires is None:
            return passes
        ways: list[tuple[list[tuple[str, str]], Fact]] = []
        if self.fn is not None:
            ways.append((checks(g for g in self.f["guards"] if g["site"] == self.where), self.fn))
        up = self.lifted_up()
        if up is not None and up["kind"] not in ("elif", "else", "except"):
            ways.append(([(str(up["kind"]), str(up["text"]))], up))
        for guards, fn in ways:
            owner, _, name = str(fn["function"]).rpartition(".")
            owner = owner.rsplit(".", 1)[-1]
            if name == "__init__":
                name = owner
            params = list(fn.get("params", ()))
            got = fires(guards, code, name, params, (), owner or None, ()) if guards else None
            if passes and got is False:
                return False  # known to pass the check
            if not passes and got is True:
                return True
        return passes

    def drops_checked(self, before: str, after: str) -> bool:
        """Whether the "after" leaves out the one keyword argument that the
        failing call passes and the lead site's check reads (falcon's
        ``SSEvent(retry='5808.25')`` is not fixed by ``SSEvent(data=b'x')``,
        which passes no ``retry``: only by a call that passes a good one).
        Where the check reads a combination, leaving one out is the fix
        (click's ``FloatRange(0, 1, max_open=True, clamp=True)`` ->
        ``FloatRange(0, 1, max_open=True)``)."""
        texts = [str(g["text"]) for g in self.f["guards"] if g["site"] == self.where]
        up = self.lifted_up()
        if up is not None:
            texts.append(str(up["text"]))
        read = {w for t in texts for w in re.findall(r"[A-Za-z_]\w*", t)}
        checked = call_keywords(before) & read
        # (two checked keywords that clash are fixed by passing neither:
        # xarray's `get_axis(figsize=…, size=…)` -> `get_axis()`)
        return len(checked) == 1 and not checked & call_keywords(after)

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
        if not named:
            # a line that only mentions an error in passing must name this one
            named = [
                d
                for d in lines
                if d["section"] not in ("Mentions", "Docstring")
                and not any(p.search(d["text"]) for p in other)
            ]
        return self._on_topic(named)

    def _on_topic(self, lines: list[Fact]) -> list[Fact]:
        """Of the doc lines left, those about this error: a line that names
        its own type or variant (a builtin class, ``ValueError``, is named
        by every other raise of the function too), shares a word with the
        message or its placeholders, or names what the check reads (the
        guarded parameter). A lone ``# Errors`` line of a function is
        otherwise another error's: "fails if the structure does not match
        `T`" on the page of a syntax error. ``# Panics`` lines have their
        own test (``_about_this_panic``), and a docstring's ``Raises``
        items are this type's already (``facts._raises_items``)."""
        if not lines:
            return lines
        types = {t.rsplit("::", 1)[-1].rsplit(".", 1)[-1] for t in self.e.exception_types}
        named = [_bare_name(t) for t in sorted(types - _BUILTIN - _GENERIC)]
        said = words_of(self.e.template.chunks()) | code_words(
            [h.expr for h in self.e.template.holes]
        )
        # a raise with no words of its own (falcon's bare `raise
        # NotImplementedError` in `BaseHandler.serialize`): a line of its own
        # function that names the builtin is about it
        fn = self.fn["function"] if self.fn is not None and not said else None
        builtin = [_bare_name(t) for t in sorted(types & _BUILTIN)]
        if self.cond is not None and self.cond["kind"] != "except":
            # the names it reads, not the values it compares them with
            # (`"override"` is a word of many a doc line)
            said |= code_words([_STRINGS.sub("", expanded(self.cond))])
        up = self.lifted_up()
        if up is not None:
            said |= code_words(up.get("read", ()))
        return [
            d
            for d in lines
            if d["section"] in ("Panics", "Raises")
            or any(p.search(d["text"]) for p in named)
            or (d["function"] == fn and any(p.search(d["text"]) for p in builtin))
            or is_about(d["text"], None, said)
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
        # the public call the user made, when it documents one panic only, in
        # one sentence that shares a word with the message (axum's
        # `Event::json_data`: "Panics if any `data` has already been written
        # before", for "Called `Event::data*` multiple times" two calls down;
        # not hcl-edit's `Array::remove`, "Panics if `index` is out of
        # bounds", for "handle not in registry" that a chain by name reaches)
        api = self.api()
        called = api["function"] if api is not None and api is not self.fn else None
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
            or (
                d["function"] == called
                and per_fn[called] == 1
                and len(_SENTENCE_END.findall(d["text"].strip().rstrip("."))) == 0
                and bool(_plain_words(d["text"]) & _plain_words(" ".join(self.e.template.chunks())))
            )
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


def _plain_words(text: str) -> set[str]:
    """A text's words of four letters or more, common ones included (axum's
    "data" of "Called `Event::data*` multiple times"), but for the words
    every panic's doc line has."""
    return {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)} - _PANIC_WORDS


#: words of any ``# Panics`` line, which tell no panic apart
_PANIC_WORDS = frozenset({"panics", "panic", "this", "that", "when", "with", "will", "have"})

#: the end of a sentence inside a doc line: a line of two sentences may
#: document two panics ("Panics if `count` is zero. Panics if …")
_SENTENCE_END = re.compile(r"[.!?]\s+(?=[A-Z`])")

#: the builtin exception classes a docstring names for many raises of a function
_BUILTIN = frozenset(
    n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)
)
#: a string literal of a check (its values, not its names)
_STRINGS = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'")
#: a type named by every error a crate returns (`Result<T, Error>`)
_GENERIC = frozenset({"Error", "Err", "Exception"})


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
