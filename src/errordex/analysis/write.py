"""The static writer: page sections from facts, and nothing else (pure).

Every sentence is built from a fact and lists that fact's evidence
(``path:line``). A section with no facts behind it is left out; no name is
ever made up. Example code is real code (a reproducing test body, a
manifest line) and is dropped unless it parses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from errordex import plugins
from errordex.analysis import examples
from errordex.analysis.fixes import Fixes
from errordex.analysis.sections import Fact, code_block, ev, section
from errordex.extract.common import is_test_path
from errordex.model import ErrorEntry, ThrowSite
from errordex.runtime import title

#: what a feature-gated stand-in calls; `unreachable!` under a cfg is not one
_STUB_KINDS = ("unimplemented", "todo", "panic")


@dataclass(frozen=True)
class Analysis:
    """The page sections of one entry, with the facts they rest on."""

    facts: dict[str, list[Fact]]
    sections: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {**self.sections, "provenance": {"kind": "static"}}


class _Writer(Fixes):
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
    def what(self) -> str:
        """What the lead site does, for the summary ("raises `KeyError`")."""
        lang = plugins.find(self.lang)
        return (
            lang.pages.what(self) if lang is not None and lang.pages.what else "throws this error"
        )

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
                f"`#[cfg({s['cfg']})]` stub that {self.what()}. Enable the feature: "
                f"`{s['dependency_line']}`."
            )
            return section(text + places, ev(s, *([self.fn] if self.fn else [])))
        if self.arm:
            a = self.arm
            handled = ", ".join(f"`{h}`" for h in a["handled"][:8])
            text = (
                f"{self.fn_name()} {self.what()} in the catch-all `{a['arm']}` arm of a `match`: "
                f"the value was none of {handled}."
            )
            return section(text + places, ev(a, *([self.fn] if self.fn else [])))
        cond = self.condition()
        if cond:
            text = f"{self.fn_name()} {self.what()} when {cond}."
            return section(text + places, ev(self.cond or {}, *([self.fn] if self.fn else [])))
        if self.lead.kind in ("display-impl", "error-attr") and self.lead.exception_type:
            text = (
                f"This is the message of `{self.lead.exception_type}`, written by {self.fn_name()}."
            )
            return section(text + places, ev(*([self.fn] if self.fn else [])) or [self.where])
        text = f"{self.fn_name()} {self.what()} at {self.where}."
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

    def defensive(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        body_test = next(
            (t for t in self.tests if t.get("body") and t.get("matched_by") == "message"), None
        )
        lang = plugins.find(self.lang)
        if lang is not None and lang.pages.defences is not None:
            out.extend(lang.pages.defences(self, body_test))
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
