"""The static writer: page sections from facts, and nothing else (pure).

Every sentence is built from a fact and lists that fact's evidence
(``path:line``). A section with no facts behind it is left out; no name is
ever made up. Example code is real code (a reproducing test body, a
manifest line) and is dropped unless it parses.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from errordex import plugins
from errordex.analysis import examples
from errordex.analysis.about import restates
from errordex.analysis.allowed import MAX_SHOWN, accepted, all_given, none_of
from errordex.analysis.fixes import Fixes
from errordex.analysis.install import IMPORT_ERRORS, missing
from errordex.analysis.lift import constant, expanded, modules_read, names_read
from errordex.analysis.sections import (
    BUILD_CHECK,
    CONDITION_KINDS,
    FIRES_WHEN_FALSE,
    Fact,
    code_block,
    ev,
    section,
    test_named,
)
from errordex.analysis.traits import by_syntax, formats, formatted_type, hook
from errordex.extract.common import is_test_path
from errordex.group import defines
from errordex.model import ErrorEntry, ThrowSite
from errordex.runtime import message_line, printed_form, title
from errordex.template import Template, Text

#: the kind of site that is an exception class's own text (``description = "…"``)
_CLASS_TEXT = "exception-message"
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
    def __init__(
        self,
        entry: ErrorEntry,
        facts: dict[str, list[Fact]],
        slug: str,
        at: Fact | None = None,
        via: Fact | None = None,
    ) -> None:
        """``at``: a reachability fact whose site leads instead (``by_site``).
        ``via``: the public call, the head of one of the lead function's
        chains, that the user's pasted stack went through (``led_by``)."""
        self.via = via
        self.e = entry
        self.f = facts
        self.slug = slug
        self.lead, self.fn = _lead(entry, facts)
        if at is not None:
            sites = {f"{s.path}:{s.line}": s for s in entry.catalog_sites}
            self.lead, self.fn = sites.get(at["site"], self.lead), at
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
        # the catch-all arm the lead site is in (another site's `match` says
        # nothing of it: image's bmp encoder is not avif's)
        self.arm = next((a for a in facts["arms"] if a["site"] == self.where), None)
        conds = [
            g
            for g in facts["guards"]
            if g["site"] == self.where
            and g["kind"] in CONDITION_KINDS
            and not BUILD_CHECK.search(g["text"])
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
        said = _accepts_said(expanded(c), c["kind"], c)
        if said is not None:
            return said
        if c["kind"] == "fall-through":
            return f"none of the earlier returns matched (`{c['text']}` is false)"
        if c["kind"] in FIRES_WHEN_FALSE:
            return f"`{c['text']}` is false"
        if c["kind"] == "except":
            return (
                f"its `try` block raises `{c['text']}` (`except {c['text']}` at line {c['line']})"
            )
        return f"`{c['text']}`"

    def api(self) -> Fact | None:
        """The public function a user calls that reaches the lead site: the
        site's own function when it is public, else the first public caller
        on a call chain down to it (``Dataset.isel`` for a raise in the
        private ``drop_dims_from_indexers``). Worked out once per page, which
        asks it seven times on average."""
        if not hasattr(self, "_api_memo"):
            self._api_memo = self._api()
        return self._api_memo

    def _api(self) -> Fact | None:
        if self.fn is None:
            return None
        if self.via is not None:
            return self.via  # the call the user's stack made
        if hook(self.fn["function"]) is not None:
            return None  # the runtime runs `__del__`, `__exit__`, `Drop::drop`: no call of yours
        chains = [chain for chain in self.fn.get("paths", ()) if chain]
        if self.fn.get("callback") and chains:
            # `Request.on_json_loading_failed` runs when `Request.get_json` finds no JSON
            fired: Fact = chains[0][0]
            return fired
        if self.fn.get("registry"):
            # werkzeug's `AnyConverter.to_url` runs for a rule's `<any(…):x>`
            # when the library looks the converter up in its table
            looked_up = [c for c in chains if c[-1].get("via") == "registry"]
            if looked_up:
                reader: Fact = looked_up[0][0]
                return reader
        trait_impl = self.fn["function"].startswith("<")
        if trait_impl and chains and not self.fn.get("foreign"):
            # a chain up to another trait impl's method is another hook, not a
            # way in: the impl itself, when public, is what a user calls then
            plain = [c for c in chains if not c[0]["function"].startswith("<")]
            if not plain and self.fn["public"]:
                return self.fn
            chains = plain or chains
        if self.fn["public"] and by_syntax(self.fn["function"]) is not None:
            return self.fn  # `map[key]` runs `<IndexMap as Index<&Q>>::index`: the user wrote it
        converts = self.fn.get("converts")
        if converts is not None:
            # `s.parse::<DType>()` is the direct way in, whatever else calls `from_str`
            return {**self.fn, "shown": converts}
        if formats(self.fn["function"]):
            return None  # `Display::fmt` only prints an error built elsewhere
        if self.fn.get("constructor"):
            return dict(self.fn["constructor"])  # `C(…)`, whose `__init__` calls it
        if self.fn.get("builders") and chains:
            # an error type's own constructor: whoever returns what it builds
            builder: Fact = chains[0][0]
            return builder
        # a check of the method's own arguments or state reads in its terms: it leads then
        own = self.state_only() or self.lifted_up() is not None or self._own_read() is not None
        door = None if own else _front_door(self.fn, chains)
        if door is not None:
            return door
        if self.fn["public"] and not (trait_impl and (chains or self.fn.get("foreign"))):
            return self.fn
        if not chains and self.fn.get("dispatch"):
            # `ron::from_str::<Value>(…)` runs `<Value as Deserialize>::deserialize`
            return dict(self.fn["dispatch"])

        if not chains:
            # another library calls its trait's impl (serde calls
            # `<ValueDeserializer as Deserializer>::deserialize_str`): not "you called"
            return None
        # a trait's impl (`<Dispatch as AutodiffBackend>::backward`) is not what a
        # user calls: the public method that calls it (`Tensor::backward`) is
        up = self.lifted_up()
        if up is not None:  # the call the condition was lifted to
            chains.sort(key=lambda chain: chain[0]["function"] != up["function"])
        return chains[0][0] if chains else None

    def lifted_up(self) -> Fact | None:
        """``Fixes.lifted_up``, unless the user's stack went another way down
        than the call the condition was lifted to."""
        up = super().lifted_up()
        if up is not None and self.via is not None and up["function"] != self.via["function"]:
            return None
        return up

    def top(self) -> Fact | None:
        """The public call furthest above the site that hands it the
        arguments its lifted condition reads (``lift``'s ``higher``): what a
        user most likely typed (``httpx.post(data=…)`` for a check in
        ``encode_request``, below ``httpx.Request``)."""
        up = self.lifted_up()
        higher: list[Fact] = up.get("higher", []) if up is not None else []
        if not higher:
            return None
        # the package's own top-level call first (`httpx.post`, not
        # `httpx.Client.post`), then the one furthest up
        return min(higher, key=lambda h: (_shown(h).count("."), -h["depth"]))

    def also_called(self) -> list[str]:
        """The other public calls the lifted condition reads the same through."""
        up = self.lifted_up()
        top = self.top()
        if up is None or top is None:
            return []
        api = self.api()
        names = [_shown(api)] if api is not None else []
        names += [_shown(h) for h in sorted(up["higher"], key=lambda h: h["depth"])]
        return list(dict.fromkeys(n for n in names if n != _shown(top)))

    def api_name(self) -> str | None:
        """The public call as a user reads it (``Dataset.isel``, ``Tensor::backward``)."""
        top = self.top()
        if top is not None:
            return _shown(top)
        api = self.api()
        if api is None:
            return None
        return _shown(api)

    def lifted(self) -> tuple[str, list[str]] | None:
        """``_lifted``, worked out once per page (a page asks it several times,
        and each time parses the condition)."""
        if not hasattr(self, "_lifted_memo"):
            self._lifted_memo = self._lifted()
        return self._lifted_memo

    def _lifted(self) -> tuple[str, list[str]] | None:
        """The site's condition in terms of the public call's arguments: when
        the site's own function is the public one and every name the
        condition reads (attributes aside) is one of its parameters, or a
        keyword or builtin. (the condition's text, the parameters it reads)"""
        c, fn = self.cond, self.fn
        if c is None or fn is None or c["kind"] == "except":
            return None
        up = self.lifted_up()
        if self.api() is not fn or (up is not None and up["function"] == fn["function"]):
            # lifted to a caller's parameters (and on to the call above them
            # that hands it its arguments), or read through the function's own `let`s
            top = self.top()
            if top is not None:
                return top["text"], list(top["read"])
            return (up["text"], list(up["read"])) if up is not None else None
        return self._own_read()

    def _own_read(self) -> tuple[str, list[str]] | None:
        """The site's condition when it reads only its own function's
        parameters (keywords, builtins and constants aside), and the
        parameters it reads."""
        c, fn = self.cond, self.fn
        if c is None or fn is None or c["kind"] == "except":
            return None
        lang = plugins.find(self.lang)
        if lang is None:
            return None
        params = [p for p in fn.get("params", ()) if p not in ("self", "cls", "&self", "&mut self")]
        text = expanded(c)
        names = names_read(self.lang, text) - modules_read(text, fn.get("params", ()))
        read = [p for p in params if p in names]
        if not read or any(
            n not in params and n not in lang.pages.words and not constant(n) for n in names
        ):
            return None
        return text, read

    def call_shape(self, read: list[str]) -> str:
        """``Dataset.isel(indexers=…)``: the public call with the parameters that matter."""
        name = self.api_name() or ""
        if "…" in name:  # an operator: `Table[name]`, its operand in place
            args = ", ".join(read) or "…"
            if name.endswith("(…)(…)"):  # `__call__`: the arguments of the second call
                return f"`{name[: -len('(…)')]}({args})`"
            return f"`{name.replace('…', args, 1)}`"
        lang = plugins.find(self.lang)
        args = lang.pages.call_arguments(read) if lang else ", ".join(read)
        return f"`{name}({args})`"

    def check_where(self) -> str:
        """Where the site's condition is checked, in the library's own words."""
        c = self.cond
        assert c is not None
        return f"{self.fn_name()} checks {self.condition()} at {c['path']}:{c['line']}"

    def chains(self) -> list[list[Fact]]:
        """The call chains from public calls down to the lead function; the
        one the user's stack went down first (``via``)."""
        chains = list((self.fn or {}).get("paths", ()))
        if self.via is not None:
            chains.sort(key=lambda c: not c or c[0] is not self.via)
        elif self.fn is not None and (self.fn.get("callback") or self.fn.get("registry")):
            # the way the lead names first (`MapAdapter.dispatch`, through the table)
            api = self.api()
            chains.sort(key=lambda c: not c or c[0] is not api)
        return chains

    def public_paths(self) -> list[str]:
        out: list[str] = []
        if self.fn is None:
            return out
        if (
            self.fn["public"]
            and not formats(self.fn["function"])
            and hook(self.fn["function"]) is None
            and not (self.fn.get("callback") or self.fn.get("registry"))
            and self.via is None
        ):
            # called directly, or through:
            out.append(f"`{by_syntax(self.fn['function']) or as_called(self.fn['function'])}`")
        for chain in self.chains():
            hops = " → ".join(
                f"`{by_syntax(h['function']) or as_called(h['function'])}`" for h in chain
            )
            out.append(f"{hops} → `{self.fn['function']}`")
        return out

    def on_path_catches(self) -> list[Fact]:
        """The library's own ``except`` clauses of this error in a function on
        the way from a public call to the site (a test's, or one in an
        unrelated function, says nothing about how a user meets it)."""
        return [c for c in self.f["catches"] if c.get("on_path") and not is_test_path(c["path"])]

    def lead_chain(self) -> set[str] | None:
        """The functions on the call chains from the public call the lead
        names down to the site; None when the lead is the site's own
        function or no chain leads to it."""
        api = self.api()
        if api is None or self.fn is None or api is self.fn:
            return None
        chains = [c for c in self.fn.get("paths", ()) if c and c[0] is api]
        if not chains and api is self.via:
            # a pasted stack's call no chain starts at: the error got out to
            # the user, past whatever other ways in catch it
            return {str(api["function"]), str(self.fn["function"])}
        if not chains:
            return None
        return {str(h["function"]) for c in chains for h in c} | {str(self.fn["function"])}

    def caught_inside(self) -> tuple[str, list[str]] | None:
        """A sentence saying the library catches the error itself, with its catcher."""
        got = self.on_path_catches()
        if not got:
            return None
        c = got[0]
        who = f"`{c['function']}`" if c["function"] else c["path"]
        lang = plugins.find(self.lang)
        clause = lang.pages.catch_clause(c) if lang is not None else f"except {c['exception']}"
        instead = in_its_place(c)
        if instead is not None:
            return (
                f"The library catches it itself: {who} calls `{c['calls']}` inside "
                f"`try` … `{clause}` ({c['path']}:{c['line']}) and {instead[0]}, which is "
                f"what a caller of {who} sees.",
                ev(c, instead[1]),
            )
        return (
            f"The library catches it itself: {who} calls `{c['calls']}` inside "
            f"`try` … `{clause}` ({c['path']}:{c['line']}), so a caller of "
            f"{who} does not see it.",
            ev(c),
        )

    # -- sections --------------------------------------------------------
    def generic(self) -> bool:
        """Whether the message says nothing of its own (a bare `assert`, an
        empty `panic!()`, `unreachable!()`), so its sites share it by chance."""
        msg = self.e.message
        return not msg.strip() or msg in plugins.bare_messages().values()

    def unrelated_sites(self) -> int:
        """How many functions throw a generic message (0 for a message of its own)."""
        if not self.generic():
            return 0
        fns = {(s.path, s.symbol) for s in self.e.catalog_sites if not defines(s)}
        return len(fns) if len(fns) > 1 else 0

    def summary(self) -> dict[str, Any]:
        got = self._summary()
        n = self.unrelated_sites()
        if n:
            # one site's story is not the others': say so before telling it
            got["text"] = (
                f"“{title(self.e)}” says nothing of its own: {n} unrelated places in "
                f"{len({s.path for s in self.e.catalog_sites})} files throw it. Find yours by the "
                f"file and line in your traceback; this one is at {self.where}. " + got["text"]
            )
        return got

    def attribute_used(self) -> str | None:
        """``click.BaseCommand``: the attribute a user wrote, when the public
        call is the hook run for a name a module lacks (``Pages.attribute_used``)."""
        api, lifted, lang = self.api(), self.lifted(), plugins.find(self.lang)
        if api is None or lifted is None or lang is None:
            return None
        return lang.pages.attribute_used(str(api["path"]), str(api["function"]), lifted[0])

    def raised_by_users(self) -> dict[str, Any] | None:
        """The lead of an exception class whose text is all the repository
        has of it: it defines the class (werkzeug's ``Conflict``, with its
        ``description``) and raises it nowhere outside tests, so the code that
        raised it uses the library: the user's, or another library's."""
        sites = self.e.catalog_sites
        if not sites or any(s.kind != _CLASS_TEXT for s in sites) or not self.f["hierarchy"]:
            return None
        cls, top = self.f["hierarchy"][0], self.f["hierarchy"][-1]
        if "path" not in cls or not top.get("builtin"):
            return None  # marshmallow's `Date.default_error_messages`: a field's texts
        lang = plugins.find(self.lang)
        name = lang.pages.import_name(cls["path"], cls["qualname"]) if lang else None
        lib = self.slug.rpartition("/")[2]
        vias = sorted({s.via for s in sites if s.via})
        if vias:
            # raised by the library through a table of classes (werkzeug's
            # ``raise self.mapping[code](...)`` in ``Aborter.__call__``)
            places = [v.split(" ", 1) for v in vias[:3]]
            told = ", ".join(f"in `{p[1]}` ({p[0]})" if len(p) > 1 else p[0] for p in places)
            return section(
                f"{lib} raises `{name or cls['qualname']}` {told}, picked from a table of "
                f"exception classes; code that uses {lib}, yours or another library's, may "
                f"raise it too. {lib} defines it with this text ({self.where}).",
                [self.where, *(p[0] for p in places), *ev(cls)],
            )
        return section(
            f"`{name or cls['qualname']}` was raised by code that uses {lib}, yours or another "
            f"library's: {lib} defines it with this text ({self.where}) and raises it nowhere "
            "itself outside its tests.",
            [self.where, *ev(cls)],
        )

    def declared(self) -> Fact | None:
        """The keyword a user declared the object that throws with (``facts.declared``)."""
        return next(iter(self.f.get("declared") or ()), None)

    def declared_on(self) -> str:
        """```click.Option(type=…)``` (or more), the declaration a user wrote."""
        d = self.declared()
        assert d is not None
        lang = plugins.find(self.lang)
        kw = lang.pages.call_arguments([d["keyword"]]) if lang else d["keyword"]
        shown = [f"`{_shown(f)}({kw})`" for f in d["on"]]
        return shown[0] + (f" (or {', '.join(shown[1:])})" if shown[1:] else "")

    def declaring_library(self) -> str:
        """The package of the declaration (``click`` of ``click.Option``)."""
        d = self.declared()
        return _shown(d["on"][0]).split(".", 1)[0] if d and d["on"] else "the library"

    def declared_summary(self, places: str) -> dict[str, Any] | None:
        """The lead of a page whose object a user declared (``click.Option(type=…)``)
        and the library calls: what they wrote, then the check that failed."""
        d = self.declared()
        if d is None or self.fn is None:
            return None
        kind = str(d["called"]).rpartition(".")[0]
        lib = self.declaring_library()
        own = str(self.fn["function"]).rpartition(".")[0]
        here = f" (here a `{own}`)" if own and own != kind else ""
        cause = self.condition()
        lifted = self.lifted()
        if lifted is not None and self.cond is not None:
            cause = _cause(lifted[0], lifted[1], self.cond)
        who = "it" if self.fn["function"] == d["called"] else self.fn_name()
        when = f" when {cause}" if cause else f" at {self.where}"
        printed = printed_form(self.lead)
        shown = printed.splitlines()[-1] if printed else ""
        said = (
            f" It is printed as “{_quoted(shown)}”."
            if shown and shown != message_line(self.lead)
            else ""
        )
        return section(
            f"You declared {self.declared_on()}, and {lib} calls that `{kind}`{here} on each "
            f"value given for it: {who} {self.what()}{when}.{said}" + places,
            ev(d, *d["on"], *([self.cond] if self.cond else []), self.fn),
        )

    def _summary(self) -> dict[str, Any]:
        n = len([s for s in self.e.catalog_sites if not defines(s)]) or len(self.e.catalog_sites)
        places = f" It is thrown at {n} places." if n > 1 else ""
        if self.unrelated_sites():
            places = ""  # said before
        caught = self.on_path_catches()
        on_lead = self.lead_chain()
        if on_lead is not None:
            # a catcher on another way in says nothing of the call the lead names
            caught = [k for k in caught if k["function"] in on_lead]
        if caught:
            places += " " + caught_sentence(caught[0])
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
            value = (a.get("value") or {}).get("text")
            which = f"`{value}`" if value and "\n" not in value else "the value"
            text = (
                f"{self.subject()} {self.what()} in the catch-all `{a['arm']}` arm of a `match`: "
                f"{which} was none of {handled}."
            )
            return section(
                text + places,
                ev(a, *([a["value"]] if value else []), *([self.fn] if self.fn else [])),
            )
        declared = self.declared_summary(places)
        if declared is not None:
            return declared
        for_users = self.raised_by_users()
        if for_users is not None:
            return for_users
        cond = self.condition()
        api = self.api()
        lead = self.you_called()
        lifted = self.lifted()
        used = self.attribute_used()
        if used is not None and api is not None:
            # a name only the check's string has: quoted, as the code has it
            module = used.rpartition(".")[0]
            return section(
                f"You used “{used}”: the module `{module}` does not define it, so "
                f"its `__getattr__` runs ({api['path']}:{api['line']}), which "
                f"{self.what()} for that name." + places,
                ev(*([self.cond] if self.cond else []), api),
            )
        if lifted is not None:
            text, read = lifted
            up = self.lifted_up()
            top = self.top()
            at = top["path"] if top else api["path"] if api is not None else self.lead.path
            call = f"{self.call_shape(read)} (`{at}`)"
            also = self.also_called()
            if also:
                places = (
                    f" {_listed(also[:4])} pass{'es' if len(also) == 1 else ''} "
                    f"{_listed(read)} on to it the same way." + places
                )
            cause = _cause(text, read, self.cond or {})
            own = up is None or self.fn is None or up["function"] == self.fn["function"]
            who = "it" if own else f"on its way {self.fn_name()}"
            return section(
                f"You {_did(self.api_name() or '')} {call}, and {who} {self.what()} when {cause} for the arguments "
                "you passed." + places,
                ev(
                    self.cond or {},
                    *([self.fn] if self.fn else []),
                    *(up["calls"] if up is not None else ()),
                    *(top["calls"] if top is not None else ()),
                ),
            )
        documented = self.documented_when() if cond and self.api() is not None else None
        if documented is not None and self.cond is not None and self.cond["kind"] != "except":
            # the docstring says when in the user's terms ("if deque is empty"),
            # where the check reads a private sentinel (`value is ENOVAL`)
            clause, d = documented
            return section(
                f"{self.subject()} {self.what()} “{_quoted(clause)}”, as the docstring of "
                f"`{_doc_owner(d)}` says ({d['path']}:{d['line']})." + places,
                ev(d, self.cond, *([self.fn] if self.fn else []), *([api] if api else [])),
            )
        state = self.state_cause() if cond else None
        if state is not None:
            said, set_by = state
            return section(
                f"{self.subject()} {self.what()} {said}." + places,
                ev(
                    self.cond or {},
                    *set_by,
                    *([self.fn] if self.fn else []),
                    *([api] if api else []),
                ),
            )
        if cond:
            c = self.cond
            assert c is not None
            # Not in the call's arguments: the library's own check, where it is.
            text = (
                f"{self.subject()} {self.what()} when {cond}."
                if c["kind"] == "except"
                else f"{self.subject()} {self.what()} when its own check finds {cond} "
                f"({c['path']}:{c['line']})."
            )
            return section(
                text + places,
                ev(self.cond or {}, *([self.fn] if self.fn else []), *([api] if api else [])),
            )
        if self.prints_a_value() and self.lead.exception_type:
            printed = formatted_type(self.fn["function"]) if self.fn else None
            by = f"its `{printed[1]}` impl" if printed else self.fn_name()
            text = (
                f"{lead}This is the text a `{self.lead.exception_type}` prints ({by}, at "
                f"{self.where}); the error itself is built elsewhere."
            )
            return section(
                text + places,
                ev(*([self.fn] if self.fn else []), *([api] if api else [])) or [self.where],
            )
        # "The code at a.rs:3" says where already
        said = self.subject()
        text = f"{said} {self.what()}" + ("." if self.where in said else f" at {self.where}.")
        return section(text + places, [self.where, *ev(*([api] if api else []))])

    def documented_when(self) -> tuple[str, Fact] | None:
        """When the public call's docstring says it raises this error, in its
        own words: ("if deque is empty", the doc line) of ``IndexError: if
        deque is empty`` in a Raises section."""
        for d in self.contract():
            if d["section"] != "Raises":
                continue
            clause = _RAISES_CLAUSE.match(d["text"])
            if clause is not None and len(clause.group(1)) <= LONG_CONDITION:
                return clause.group(1).rstrip(". "), d
        return None

    def state_only(self) -> bool:
        """Whether the lead's check reads nothing but the object it is a
        method of (``self.middleware_stack is not None``): its state, set by
        earlier calls, not the arguments of this one."""
        c = self.cond
        lang = plugins.find(self.lang)
        if c is None or lang is None or c["kind"] == "except" or not self.owner_name():
            return False
        text = expanded(c)
        # parsed once per text in a process, as ``_own_read`` reads it
        names = names_read(self.lang, text)
        return "self" in names and all(
            n == "self" or n in lang.pages.words or constant(n) for n in names
        )

    def owner_name(self) -> str:
        """The type the lead's function is a method of (``Starlette``), or ""."""
        return _owner(str((self.fn or {}).get("function", "")))

    def prints_a_value(self) -> bool:
        """Whether the site writes the text of an error value (a ``Display``
        impl, an ``#[error]`` attribute): nobody calls that code to get the
        error, so no call is "what you called"."""
        return self.lead.kind in ("display-impl", "error-attr")

    def subject(self) -> str:
        """Who throws, from the user's side: "You called `A` (`a.py`), and it",
        "You called `A` (`a.py`), and on its way `_helper`", or the site's
        function alone when no public call reaches it."""
        lead = self.you_called()
        if lead and self.fn is not None and self.api() is self.fn:
            return lead.removesuffix(": ") + ", and it"
        said = f"{lead}{self.fn_name()}"
        return said[:1].upper() + said[1:]  # "The code at …" opens a sentence

    def you_called(self) -> str:
        """ "You called `Dataset.isel`, which reaches …; " for a public call above
        the site's function; "" when the site's function is the public one or
        no public call reaches it."""
        name = self.api_name()
        if name is None or self.fn is None or self.prints_a_value():
            return ""
        api = self.api()
        assert api is not None
        where = f" (`{api['path']}`)"
        did = _did(name)
        if api is self.fn:
            return f"You {did} `{name}`{where}: "
        built = self.built_by()
        if built is not None:
            # `or_` returns an `_OrValidator`; the raise is in its `__call__`, later
            return f"You {did} `{name}`{where}, and later the `{built}` it built ran: "
        return f"You {did} `{name}`{where}, and on its way "

    def built_by(self) -> str | None:
        """The class whose instance the public call builds, when the site is
        in a method of it that runs later (``_OrValidator`` of ``or_``)."""
        api = self.api()
        for chain in (self.fn or {}).get("paths", ()):
            if chain and chain[0] is api and chain[-1].get("via") == "constructs":
                return str(chain[-1]["calls"])
        return None

    def definition(self) -> tuple[str, list[str]] | None:
        """The error variant (type, value) the message is the text of, where it is
        defined, and how many places build it (or that none outside tests
        does)."""
        defs = [s for s in self.e.catalog_sites if defines(s) and s.exception_type]
        if not defs:
            return None
        d = defs[0]
        at = f"{d.path}:{d.line}"
        built = [s for s in self.e.catalog_sites if not defines(s)]
        # a constructor of the error's own type builds it for its callers: they are the places
        through = [
            (r["function"], b) for r in self.f["reachability"] for b in r.get("builders", ())
        ]
        if through:
            own = {r["site"] for r in self.f["reachability"] if r.get("builders")}
            built = [s for s in built if f"{s.path}:{s.line}" not in own]
        in_tests = [s for s in self.e.sites if s.in_test and not defines(s)]
        lang = plugins.find(self.lang)
        what = lang.pages.defined_as(d) if lang is not None else "error variant"
        if d.kind == "display-impl":
            # the text's arm of a `Display` or `as_str` impl, not where the
            # variant is declared (clap's `ErrorKind::as_str`)
            inside = f" in `{d.symbol}`" if d.symbol else ""
            text = f"The {what} `{d.exception_type}` prints this text, written at {at}{inside}."
        else:
            text = f"The {what} `{d.exception_type}` is defined at {at}."
        if through:
            n = len(built) + len(through)
            ctor = through[0][0]
            shown = ", ".join(f"{b['path']}:{b['line']}" for _, b in through[:3])
            text += (
                f" {n} place{'s' if n > 1 else ''} outside tests build{'' if n > 1 else 's'} it, "
                f"through `{ctor}` ({shown}{', …' if len(through) > 3 else ''})."
            )
            return text, [at, *(f"{b['path']}:{b['line']}" for _, b in through[:3])]
        if built:
            n = len(built)
            text += (
                f" {n} place{'s' if n > 1 else ''} outside tests build{'' if n > 1 else 's'} it."
            )
        elif in_tests:
            text += f" Only test code builds it ({in_tests[0].path}:{in_tests[0].line})."
            return text, [at, f"{in_tests[0].path}:{in_tests[0].line}"]
        else:
            text += " errordex found no place that builds it by name."
        return text, [at]

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
            # A builtin alone ("ValueError is an Exception") says nothing of this error.
            if names:
                up = f" up to the builtin {mro}" if last.get("builtin") else ""
                parts.append(f"Its class chain is {' → '.join(names)}{up}.")
                extra = list(chain[0].get("bases", [])[1:])
                if extra:
                    also = ", ".join(f"`{b}`" for b in extra)
                    parts.append(f"`{chain[0]['name']}` also subclasses {also}.")
                evidence += ev(*[h for h in chain if "path" in h])
        for h in self.f["hierarchy"][:2]:
            # "Base class for all marshmallow-related errors" says only its name
            if h.get("doc") and not restates(h["doc"]["text"], h["name"]):
                d = h["doc"]
                parts.append(f"The docstring of `{h['name']}` says: “{_quoted(d['text'])}”.")
                evidence += ev(d)
        defined = self.definition()
        if defined is not None:
            parts.append(defined[0])
            evidence += defined[1]
        for d in self.f.get("type_docs", ()):
            if restates(d["text"], d["name"]):
                continue  # `PickleError`'s "Pickle error"
            parts.append(f"The doc comment of `{d['name']}` says: “{_quoted(d['text'])}”.")
            evidence += ev(d)
        lang = plugins.find(self.lang)
        for text, where in lang.pages.notes(self) if lang and lang.pages.notes else ():
            parts.append(text)
            evidence += where
        caught = self.caught_inside()
        if caught is not None:
            parts.append(caught[0])
            evidence += caught[1]
        if self.invariant:
            parts.append(self.invariant_sentence())
            evidence += ev(*self.invariant)
        quoted_once: set[str] = set()
        said_by: dict[str, list[str]] = {}  # who says it -> what, in order
        for d in self.contract()[:4]:
            quoted = _quoted(d["text"])
            if quoted in quoted_once:
                continue  # `index` and `index_mut` document the same panic
            quoted_once.add(quoted)
            who = (
                f"The docstring of `{d['function']}` says it raises"
                if d["section"] == "Raises"
                else f"The docstring of `{d['function']}` says"
                if d["section"] == "Docstring"
                else f"The doc comment of `{d['function']}` says"
                if d["section"] in ("Comment", "Mentions")  # no section (Go), or in passing
                else f"The # {d['section']} docs of `{_doc_owner(d)}` say"
            )
            said_by.setdefault(who, []).append(f"“{quoted}”")
            evidence += ev(d)
        # one sentence per doc: a list of `# Errors` items is quoted together
        parts += [f"{who}: {'; '.join(quotes)}." for who, quotes in said_by.items()]
        for d in self.f.get("prose", ())[:2]:
            intro = d.get("intro")
            if intro is not None:
                # the doc shows the message: what it says before it is the meaning
                parts.append(
                    f"The repository's docs say ({intro['path']}:{intro['line']}): "
                    f"“{_quoted(intro['text'])}”, and show this message ({d['path']}:{d['line']})."
                )
                evidence += ev(intro, d)
                continue
            parts.append(
                f"The repository's docs say ({d['path']}:{d['line']}): “{_quoted(d['text'])}”."
            )
            evidence += ev(d)
        lifted = self.lifted()
        used = self.attribute_used()
        if used is not None and self.cond is not None:
            module, _, attr = used.rpartition(".")
            parts.append(
                f"“{attr}” is no name the module `{module}` defines itself: its `__getattr__` "
                f"serves it ({self.cond['path']}:{self.cond['line']})."
            )
            evidence += ev(self.cond)
        elif (
            lifted is not None
            and self.cond is not None
            and not self.contract()
            and not self.invariant
            and not any(f"`{lifted[0]}`" in p for p in parts)  # a Rust note said it
        ):
            # nothing documents it: the check, in the arguments of the call the user made
            text, read = lifted
            held = "was false" if self.cond["kind"] in FIRES_WHEN_FALSE else "held"
            check = _accepts_said(text, self.cond["kind"], self.cond) or (
                f"`{text}` {held}"
                if len(text) <= LONG_CONDITION and "\n" not in text
                else (f"{_listed(read)} failed the check")
            )
            parts.append(
                f"It means that for the {_listed(read)} you passed to {self.call_shape(read)}, "
                f"{check}: {self.cond['path']}:{self.cond['line']} rejects that."
            )
            evidence += ev(self.cond)
        own = self.own_summary()
        if own is not None:
            parts.append(
                f"{self.fn_name()}, where it is thrown, is documented as: “{_quoted(own['text'])}”."
            )
            evidence += ev(own)
        said = self.api_summary()
        if said is not None:
            on = said.get("documented_on")
            over = (
                f" on `{on}`, which it overrides,"
                if on and as_called(said["function"]) != on
                else ""
            )
            documented = _doc_owner(said)
            # `Value[…] = …` is written, not called
            made = "what you wrote" if _did(documented) == "wrote" else "the call you made"
            parts.append(
                f"`{documented}`, {made}, is documented{over} as: “{_quoted(said['text'])}”."
            )
            evidence += ev(said)
        owner = (self.fn or {}).get("owner_doc")
        if (
            not parts
            and owner is not None
            and _shares_a_word(owner["text"], self.e.template)
            and not restates(owner["text"], owner["name"])
        ):
            # nothing says what the error means: what the object it is raised on is for
            parts.append(
                f"It is raised by a method of `{owner['name']}`, which is documented as: "
                f"“{_quoted(owner['text'])}”."
            )
            evidence += ev(owner)
        if not parts:
            return None
        return section(" ".join(parts), list(dict.fromkeys(evidence)))

    def own_summary(self) -> Fact | None:
        """The first doc line of the function that throws, when it is not the
        public call the page leads with (``_check_dim``: "raise an error if
        any dimension is missing") and no doc line says when it throws."""
        if self.fn is None or self.api() is self.fn or self.contract():
            return None
        return next(
            (
                d
                for d in self.f["docs"]
                if d["section"] == "Summary"
                and d["function"] == self.fn["function"]
                and d["path"] == self.fn["path"]
            ),
            None,
        )

    def api_summary(self) -> Fact | None:
        """The first doc line of the public call the page leads with."""
        api = self.api()
        if api is None:
            return None
        return next(
            (
                d
                for d in self.f["docs"]
                if d["section"] == "Summary"
                and d["function"] == api["function"]
                and (d["path"] == api["path"] or d.get("documented_on"))
            ),
            None,
        )

    def trigger(self) -> dict[str, Any] | None:
        paths = self.public_paths()
        if not paths and (self.prints_a_value() or not (self.condition() or self.stub or self.arm)):
            return None  # a `Display` arm runs whenever the error prints: no trigger of its own
        via = (
            f"{'Writing' if _did(paths[0].strip('`')) == 'wrote' else 'Calling'} {paths[0]}"
            if paths
            else f"Reaching {self.fn_name()}"
        )
        top = self.top()
        if top is not None and paths:
            # the call the check was lifted to, above the chain (`httpx.post`)
            via = f"Calling `{_shown(top)}`, which reaches {paths[0]}"
        if self.stub:
            what = (
                f" in a build where `{self.stub['crate']}` has no `{self.stub['feature']}` feature"
            )
            if self.condition():
                what += f", when {self.condition()}"
        elif self.arm:
            a = self.arm
            value = (a.get("value") or {}).get("text")
            what = (
                # the value the `match` reads, and what its other arms take
                f" when `{value}` is none of "
                + ", ".join(f"`{h}`" for h in a["handled"][:MAX_SHOWN])
                + (", …" if len(a["handled"]) > MAX_SHOWN else "")
                if value and a["handled"] and "\n" not in value
                else " with a value no other arm of the `match` handles"
            )
        elif self.condition() and self.cond is not None and self.lifted() is not None:
            text = (self.lifted() or ("", []))[0]
            cause = _accepts_said(text, self.cond["kind"], self.cond) or (
                f"`{text}` is false" if self.cond["kind"] in FIRES_WHEN_FALSE else f"`{text}`"
            )
            what = f" when {cause} for the arguments you pass"
        elif self.condition() and self.cond is not None and self.state_only():
            # the object's own state, not an argument: the check is no cause a
            # user reads, unless it names the values the state may hold
            c = self.cond
            held = accepted(expanded(c), c["kind"] in FIRES_WHEN_FALSE)
            attr = held.subject.removeprefix("self.") if held is not None else ""
            what = f", on a `{self.owner_name()}` whose " + (
                f"{none_of(held, f'`{attr}`')} (checked at {c['path']}:{c['line']})"
                if held is not None and _NAME.fullmatch(attr)
                else f"state the check at {c['path']}:{c['line']} rejects"
            )
        elif self.condition() and self.cond is not None:
            # Not in the call's arguments: where the library checks it, in its words.
            what = (
                f", when {self.condition()}"  # "its `try` block raises …" says where
                if self.cond["kind"] == "except"
                else f", when {self.fn_name()}'s own check {self.condition()} holds "
                f"({self.cond['path']}:{self.cond['line']})"
                if self.cond["kind"] not in FIRES_WHEN_FALSE
                and _accepts_said(expanded(self.cond), self.cond["kind"], self.cond) is None
                else f", when {self.fn_name()}'s own check finds {self.condition()} "
                f"({self.cond['path']}:{self.cond['line']})"
            )
        else:
            what = ""
        if self.declared() is not None and self.fn is not None:
            # nobody calls a declared object by hand: the library passes it each value,
            # and the check reads that value, not arguments the user passes
            via = (
                f"A value given for {self.declared_on()}, passed by {self.declaring_library()}"
                f" to {self.fn_name()}"
            )
            if self.cond is not None and self.cond["kind"] != "except":
                what = f", when the check at {self.cond['path']}:{self.cond['line']} rejects it"
        evidence = ev(
            *([self.fn] if self.fn else []),
            *([self.cond] if self.cond and self.declared() is not None else []),
            *([self.arm, self.arm["value"]] if self.arm and self.arm.get("value") else []),
            *(h for c in self.chains()[:1] for h in c),
        )
        return section(f"{via}{what}.", evidence, paths=paths)

    def situations(self) -> dict[str, Any] | None:
        items: list[str] = []
        evidence: list[str] = []
        # a `Display` impl that defines the text is where a message is written,
        # not where it is thrown; an `unreachable!()` in one (http's `<Version
        # as fmt::Debug>::fmt`) is a throw site like any other
        writes = {f"{s.path}:{s.line}" for s in self.e.catalog_sites if defines(s)}
        fns = {
            r["function"]
            for r in self.f["reachability"]
            if formatted_type(r["function"]) is None
            or not set(r.get("sites", [r["site"]])) <= writes
        }
        if len(fns) > 1:
            items.append("It is thrown from " + ", ".join(f"`{x}`" for x in sorted(fns)) + ".")
            evidence += ev(*(r for r in self.f["reachability"] if r["function"] in fns))
        named: set[str] = set()
        for t in self.tests[:3]:
            if t.get("pattern") and t["test"] not in named:
                named.add(t["test"])
                how = f"{t['kind']}, in a table of inputs" if "inputs" in t else t["kind"]
                items.append(
                    f"{test_named(t)[:1].upper()}{test_named(t)[1:]} shows it ({how})."
                    if t["kind"] == "doctest"
                    else f"The test `{t['test']}` expects it ({how})."
                )
                evidence += ev(t)
        if self.stub and self.stub["chains"]:
            top = self.stub["top"]
            items.append(f"Depending on `{top['crate']}` without its `{top['feature']}` feature.")
            evidence += ev(*self.stub["chains"][0])
        if not items:
            return None
        return section(" ".join(items), list(dict.fromkeys(evidence)), items=items)

    def solutions(self) -> list[dict[str, Any]]:
        got = self._solutions()
        if self.unrelated_sites():
            # each site of a generic message has its own reason: these are this one's
            for s in got:
                s["text"] = f"If your traceback points at {self.where}: {s['text']}"
        return got

    def _solutions(self) -> list[dict[str, Any]]:
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
        typed = self.type_required()
        if typed is not None:
            out.append(typed)
        installed = self.install_advice()
        if installed is not None:
            out.append(installed)
        for g in self.f.get("call_first", ())[:1]:
            call = self.api_name()
            then = (
                f", then call `{call}` again" if call and call != as_called(g["function"]) else ""
            )
            out.append(
                section(
                    (
                        f"Call `{as_called(g['function'])}` first, as the message says it must be "
                        f"({g['path']}:{g['line']}){then}."
                    )
                    if g["how"] == "call"
                    else (
                        f"Set it first with `{as_called(g['function'])}` ({g['path']}:{g['line']}), "
                        f"the setter of what the message says was never set{then}."
                    ),
                    ev(g),
                )
            )
        raised = self.raised_by_users()
        if raised is not None and not any(s.via for s in self.e.catalog_sites):
            name = raised["text"].split("`", 2)[1]
            out.append(
                section(
                    f"Look in your traceback for the `raise` of `{name}`: it is in your code or "
                    f"in a library you call, as {self.slug.rpartition('/')[2]} raises it "
                    "nowhere itself.",
                    raised["evidence"],
                )
            )
        d = self.declared()
        if d is not None:
            kind = str(d["called"]).rpartition(".")[0]
            lang = plugins.find(self.lang)
            kw = lang.pages.call_arguments([d["keyword"]]) if lang else d["keyword"]
            out.append(
                section(
                    f"The value given for what you declared with {self.declared_on()} did not "
                    f"pass its `{kind}`: give a value it accepts (the message says what was "
                    f"wrong with this one), or declare another `{kw}` if values "
                    "like it should be accepted.",
                    ev(d, *d["on"]),
                )
            )
        mine = {(self.api() or {}).get("function"), (self.fn or {}).get("function")}
        for g in [g for g in self.f.get("fallible", ()) if g["instead_of"] in mine][:1]:
            if self.invariant:
                break
            kind = (
                "an `Option`"
                if g["returns"].lstrip(":").split("::")[-1].startswith("Option")
                else "a `Result`"
            )
            none = "`None`" if kind == "an `Option`" else "`Err`"
            said = by_syntax(g["instead_of"]) or as_called(g["instead_of"])
            out.append(
                section(
                    f"Call `{as_called(g['function'])}` instead of `{said}`: it returns {kind} "
                    f"(`{g['returns']}`) where `{said}` panics, so your code can handle the "
                    f"{none} ({g['path']}:{g['line']}).",
                    ev(g),
                )
            )
        cond = self.condition()
        if cond and self.cond is not None and self.cond["kind"] == "except":
            pass  # what the `try` block raised is the cause: nothing of the caller's to change
        elif d is not None or self.attribute_used() is not None:
            pass  # a call nobody makes by hand: the declared object's, a module's `__getattr__`
        elif cond and self.cond is not None and not self.invariant and self.lifted():
            text, read = self.lifted() or ("", [])
            when_false = self.cond["kind"] in FIRES_WHEN_FALSE
            lang = plugins.find(self.lang)
            plain = (
                lang.pages.to_change(text, not when_false, read)
                if lang is not None and lang.pages.to_change is not None
                else None
            )
            where = f"{self.cond['path']}:{self.cond['line']}"
            if plain:
                cause = _accepts_said(text, self.cond["kind"], self.cond) or (
                    f"`{text}` is false" if when_false else f"`{text}`"
                )
                said = (
                    f"{plain[:1].upper()}{plain[1:]} when you call {self.call_shape(read)}: "
                    f"{self.fn_name()} {self.what()} when {cause} ({where})."
                )
            elif read and (len(text) > LONG_CONDITION or "\n" in text):
                said = (
                    f"Pass {self.call_shape(read)} {'a ' if len(read) == 1 else ''}"
                    f"{_listed(read)} that the check"
                    + (
                        f"s from {where} on"
                        if self.cond["kind"] == "fall-through"
                        else f" at {where}"
                    )
                    + f" accept{'' if self.cond['kind'] == 'fall-through' else 's'}: "
                    f"it {self.what()} otherwise."
                )
            else:
                want = f"`{text}` holds" if when_false else f"`{text}` is false"
                said = (
                    f"Pass {self.call_shape(read)} arguments for which {want}: that is what "
                    f"it checks at {where}."
                )
            out.append(section(said, ev(self.cond)))
        else:
            table = self.table_check()
            if table is not None:
                out.append(table)
        handled = self.arm_advice()
        if handled is not None:
            out.append(handled)
        out += self.state_advice()
        told = self.message_advice()
        if told is not None:
            out.insert(0, told)
        used = self.attribute_used()
        if used is not None and told is None and self.cond is not None:
            out.append(
                section(
                    f"Do not use “{used}”: `{used.rpartition('.')[0]}` serves it only through "
                    f"its `__getattr__` ({self.cond['path']}:{self.cond['line']}).",
                    ev(self.cond),
                )
            )
        followed: set[str] = set()
        for d in self.contract()[:2]:
            if d["text"] in followed:
                continue
            followed.add(d["text"])
            if d["section"] == "Raises" and not _RAISES_WHEN.search(d["text"]):
                continue  # it tells what the error holds, not when: "what it means" quotes it
            out.append(
                section(
                    f"Avoid what the docstring of `{_doc_owner(d)}` says raises it: "
                    f"“{_quoted(d['text'])}”."
                    if d["section"] == "Raises"
                    else f"Follow the documented contract of `{_doc_owner(d)}`: "
                    f"“{_quoted(d['text'])}”.",
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
                        f"Compare your input with the failing one in {test_named(t)}"
                        + (f" ({t['path']}:{t['line']})." if t["kind"] != "doctest" else "."),
                        ev(t),
                    )
                )
        return out

    def state_setters(self) -> list[tuple[Fact, bool]]:
        """The methods that set the state the lead's check reads
        (``facts.setters``), each with whether the check raises once it ran
        (``BoundedStream.close`` sets ``self._closed = True``: True;
        ``AppContext.push`` sets ``self._cv_token``, which ``pop`` needs: False)."""
        c, lang = self.cond, plugins.find(self.lang)
        if c is None or lang is None:
            return []
        out: list[tuple[Fact, bool]] = []
        for s in self.f.get("setters", ()):
            holds = lang.pages.holds_with(c["text"], f"self.{s['attr']}", s["value"])
            if holds is not None:
                out.append((s, holds != (c["kind"] in FIRES_WHEN_FALSE)))
        return out

    def state_cause(self) -> tuple[str, list[Fact]] | None:
        """A check of the object's own state (``self._cv_token is None``), said
        as the calls a user makes on the object, never as its private
        attribute: "once `BoundedStream.close` has run on the same object",
        "when `AppContext.push` has not run on the same object first"; with
        no public method known to set that state, "on the `AppContext`
        object, whose state … rejects" (a public attribute, ``self.closed``,
        is left to be quoted)."""
        c, lang = self.cond, plugins.find(self.lang)
        if c is None or lang is None or not self.state_only():
            return None
        # a plain public method: `FlaskClient.__exit__` is the end of a `with`, not a call
        public = [
            (s, raises)
            for s, raises in self.state_setters()
            if all(
                lang.pages.name_is_public(p) and not p.startswith("__")
                for p in str(s["function"]).split(".")
            )
        ]
        at = f"{c['path']}:{c['line']}"
        after = [s for s, raises in public if raises]
        before = [s for s, raises in public if not raises]
        if after or before:
            s = (after or before)[0]
            setter = f"`{as_called(str(s['function']))}`"
            if after:
                return (
                    f"once {setter} has run on the same object ({setter} "
                    f"changes the state that the check at {at} reads, {s['path']}:{s['line']})",
                    [s],
                )
            return (
                f"when {setter} has not run on the same object first (it sets the "
                f"state that the check at {at} needs, {s['path']}:{s['line']})",
                [s],
            )
        attrs = re.findall(r"\bself\.\s*([A-Za-z_]\w*)", expanded(c))
        if not attrs or any(lang.pages.name_is_public(a) for a in attrs):
            return None  # `stream.closed`: what the user can read themselves
        return (
            f"on the `{self.owner_name()}` object, whose state the check at {at} "
            "rejects: an earlier call on that object decides it",
            [],
        )

    def state_advice(self) -> list[dict[str, Any]]:
        """What the calls before this one did to the object's state the check
        reads (``facts.setters``): ``ResponseStream.close`` sets ``self.closed =
        True``, after which ``write`` raises; ``ProgressBar.__enter__`` sets
        ``self.entered = True``, which ``__iter__`` needs."""
        c, lang = self.cond, plugins.find(self.lang)
        if (
            c is None
            or lang is None
            or self.fn is None
            or not lang.pages.name_is_public(
                str(self.fn["name"]) if self.fn.get("name") else str(self.fn["function"])
            )
        ):
            return []  # nobody calls `_check_setup_finished` before or after anything
        out: list[dict[str, Any]] = []
        me = f"`{as_called(str(self.fn['function']))}`"
        for s, raises in self.state_setters():
            setter = f"`{as_called(str(s['function']))}`"
            did = (
                f"sets `self.{s['attr']} = {s['value']}` ({s['path']}:{s['line']})"
                if lang.pages.name_is_public(str(s["attr"]))
                else f"changes the object's state ({s['path']}:{s['line']})"
            )
            out.append(
                section(
                    f"Call {me} before {setter}, not after: {setter} {did}, and then {me} "
                    f"{self.what()} ({c['path']}:{c['line']})."
                    if raises
                    else f"Call {setter} before {me}: it {did}, which the check at "
                    f"{c['path']}:{c['line']} needs.",
                    ev(s, c),
                )
            )
        return out

    def arm_advice(self) -> dict[str, Any] | None:
        """The values to pass, for a catch-all arm of a ``match`` on the
        public call's own argument: ``compare_elem``'s ``match dtype { F32
        => …, F64 => …, _ => panic!(…) }`` takes the handled values only.
        Only where the call a user makes is the function with the ``match``
        (a value handed down from another call is that call's business) and
        what it matches reads its parameters alone, not its receiver."""
        a, fn, lang = self.arm, self.fn, plugins.find(self.lang)
        value = ((a or {}).get("value") or {}).get("text")
        if a is None or fn is None or lang is None or not value or self.invariant:
            return None
        api = self.api()
        if api is None or (api["path"], api["function"]) != (fn["path"], fn["function"]):
            return None
        params = [p for p in fn.get("params", ()) if "self" not in p]
        if _FIELD.search(value) or re.search(r"\bself\b", value):
            # a field of the argument (candle's `src.slice`) may be private; the
            # receiver's state (`(&*self.storage(), device)`) is no argument
            return None
        names = names_read(self.lang, value)
        read = [p for p in params if p in names]
        if not read or any(n not in params and not constant(n) for n in names):
            return None
        name = self.api_name() or ""
        if name.startswith("<"):
            return None  # a trait impl's method as a symbol: nobody types that call
        handled = [
            _FIELDS.sub(" { .. }", _PAYLOAD.sub("(..)", h)) for h in a["handled"] if "\n" not in h
        ][:8]
        if not handled or len(handled) != len(a["handled"]):
            return None
        listed = ", ".join(f"`{h}`" for h in handled)
        which = f"`{value}`" if value in read else f"{_listed(read)} whose `{value}` is"
        return section(
            f"Call {self.call_shape(read)} only with {which} among {listed}: any other "
            f"reaches the catch-all `{a['arm']}` arm, where {self.fn_name()} {self.what()} "
            f"({a['path']}:{a['line']}).",
            ev(a, *([a["value"]] if a.get("value") else [])),
        )

    def table_check(self) -> dict[str, Any] | None:
        """A check against a module's table of valid values that is not in
        the call's arguments (``value not in _VALID_METADATA_VERSIONS``): the
        values it takes, listed."""
        c = self.cond
        if c is None or c["kind"] in ("except", "fall-through"):
            return None
        m = _MEMBERSHIP.fullmatch(c["text"].strip())
        if m is None:
            return None
        tables = dict(c.get("values") or ())
        values = tables.get(m.group("table"))
        if values is None or values[:1] not in "{[(":
            return None
        items = [v.strip() for v in values.strip()[1:-1].split(",") if v.strip()]
        if not items or any(not _TABLE_ITEM.fullmatch(i) for i in items):
            return None  # a value with a comma or a call in it is not listed by splitting
        raises_if_in = (m.group("op") == "in") != (c["kind"] in FIRES_WHEN_FALSE)
        listed = ", ".join(f"`{i}`" for i in items)
        return section(
            f"{'Do not give' if raises_if_in else 'Give'} a `{m.group('value')}` that is one of "
            f"{listed}: {self.fn_name()} checks it against `{m.group('table')}` at "
            f"{c['path']}:{c['line']}.",
            ev(c),
        )

    def install_advice(self) -> dict[str, Any] | None:
        """ "Install `h2`": for an error that says an optional package is
        missing (an ``ImportError`` raised when a guarded import failed, or
        a message that says a package is not installed), the package or the
        command the message itself names."""
        types = {t.rsplit(".", 1)[-1] for t in self.e.exception_types}
        caught = (
            self.cond["text"].split(" ", 1)[0]
            if self.cond and self.cond["kind"] == "except"
            else ""
        )
        import_error = bool(types & IMPORT_ERRORS) or caught in IMPORT_ERRORS
        got = missing(title(self.e), import_error)
        if got is None:
            return None
        call = self.api_name()
        then = f", then call `{call}` again" if call else ""
        if got.command:
            named = f" ({_said(got.packages)})" if got.packages else ""
            text = f"Install the missing package{named} as the message says: “{got.command}”{then}."
        else:
            one = (
                " one of"
                if len(got.packages) > 1 and re.search(r"\b(either|or)\b", title(self.e))
                else ""
            )
            text = (
                f"Install{one} {_said(got.packages)} in the environment your code runs in{then}: "
                f"the message names {'them' if len(got.packages) > 1 else 'it'} as required."
            )
        return section(text, [self.where])

    def message_advice(self) -> dict[str, Any] | None:
        """The message's own advice, when it gives one ("Use 'content=<...>'
        to upload raw bytes/text content."), and, when it names a keyword of
        the call other than the one the check reads, the swap it means."""
        said = told_to(title(self.e))
        if said is None:
            return None
        text = f"The message says what to do: “{_quoted(said)}”."
        lifted = self.lifted()
        top = self.top()
        params = (top or self.api() or {}).get("params", ())
        if lifted is not None:
            named = [k for k in re.findall(r"\b([A-Za-z_]\w*)=", said) if k in params]
            swap = [k for k in named if k not in lifted[1]]
            if swap and lifted[1]:
                text += (
                    f" That is, pass it to {self.call_shape([swap[0]])} instead of "
                    f"`{lifted[1][0]}=`."
                )
        return section(text, [self.where])

    def type_required(self) -> dict[str, Any] | None:
        """ "Pass a function to `Route.get(…)`": the plain advice of a type
        check, in the user's call, with where the library checks it (the
        checked value may be a local of the library, so it is not named as
        what to change)."""
        c = self.cond
        lang = plugins.find(self.lang)
        name = self.api_name()
        if c is None or lang is None or name is None or self.invariant:
            return None
        kind = lang.pages.type_required(c["text"], c["kind"] in FIRES_WHEN_FALSE)
        if kind is None:
            return None
        api = self.api()
        evidence = ev(c, *([api] if api is not None else []))
        lifted = self.lifted()
        if lifted is not None and len(lifted[1]) == 1:
            return section(
                f"Pass {kind} as `{lifted[1][0]}` to `{name}(…)`: it checks "
                f"`{lifted[0]}` at {c['path']}:{c['line']}.",
                evidence,
            )
        return section(
            f"Pass {kind} to `{name}(…)`: it throws when what it checks at "
            f"{c['path']}:{c['line']} is not {kind} (`{c['text']}`).",
            evidence,
        )

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
        lifted = self.lifted()
        by_hand = self.declared() is None and self.attribute_used() is None
        if self.cond is not None and lifted is not None and not self.invariant and by_hand:
            # (not for a call nobody makes by hand: a declared object's, a `__getattr__`)
            text, read = lifted
            check = (
                f"that `{text}` holds"
                if self.cond["kind"] in FIRES_WHEN_FALSE
                else f"`{text}` (it fails when that holds)"
            )
            out.append(
                section(
                    f"Check {check} for the arguments of {self.call_shape(read)} before the "
                    "call, and report it in your own terms.",
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
        for d in self.contract()[:1]:
            items.append(
                f"Read the doc comment of `{d['function']}` ({d['path']}:{d['line']})."
                if d["section"] in ("Comment", "Mentions")
                else f"Read the docstring of `{d['function']}` ({d['path']}:{d['line']})."
                if d["section"] == "Docstring"
                else f"Read the {d['section']} notes of `{d['function']}` ({d['path']}:{d['line']})."
            )
            evidence += ev(d)
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
                f"{test_named(t)}{row} ({t['kind']}"
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


#: a Raises item that says when (``ValueError: If no validator is satisfied``)
_RAISES_WHEN = re.compile(r"^[\w.]*:?\s*(if|when|unless|in case|on)\b", re.I)
#: a membership check against a named table: `value not in _VALID_METADATA_VERSIONS`
_MEMBERSHIP = re.compile(r"(?P<value>[\w.]+)\s+(?P<op>not in|in)\s+(?P<table>[A-Za-z_][\w.]*)")
#: an item of such a table: a name, a number, or a string without a comma
_TABLE_ITEM = re.compile(r"[\w.]+|'[^',]*'|\"[^\",]*\"")
#: the condition of a Raises line, without the class it names: "if deque is empty"
_RAISES_CLAUSE = re.compile(r"^[\w.]*:?\s*((?:if|when|unless|in case)\b[^\n]*)", re.I)

#: a clause of a message that tells the reader what to do
_TOLD = re.compile(
    r"(?:^|(?<=[.;:!?(])\s*)((?:use|pass|set|call|install|try|specify|provide|add|remove|"
    r"enable|disable|consider|did you mean|please|to \w+[^,.;]*, [^.;]*\bmust)\b(?![(.])\s*.*?"
    r"(?:[.!?](?=\s|$)|(?=;)|$))",
    re.I,
)


def in_its_place(k: Fact) -> tuple[str, Fact] | None:
    """ "raises `InvalidRequirement` in its place (path:line)": what the
    ``except`` clause of a catch on the way raises instead (``catches``'
    ``raises``), with that raise's fact; None when it raises nothing."""
    instead = k.get("raises") or []
    if not instead:
        return None
    r: Fact = instead[0]
    return f"raises `{r['exception']}` in its place ({r['path']}:{r['line']})", r


def caught_sentence(k: Fact) -> str:
    """The summary's word on a catcher on the way: the error a caller sees
    in its place (``catches``' ``raises``), or that a caller sees none."""
    who = f"`{k['function']}`" if k["function"] else k["path"]
    instead = in_its_place(k)
    if instead is not None:
        return (
            f"The library catches it itself in {who} ({k['path']}:{k['line']}) and "
            f"{instead[0]}: that is what a caller of {who} sees."
        )
    return (
        f"The library catches it itself in {who} ({k['path']}:{k['line']}): "
        f"a caller of {who} does not see it."
    )


def told_to(message: str) -> str | None:
    """The clause of ``message`` that says what to do, if it has one.

    >>> told_to("Use 'content=<...>' to upload raw bytes/text content.")
    "Use 'content=<...>' to upload raw bytes/text content."
    >>> told_to("'flags' can only be used with a string pattern; pass flags to re.compile() instead")
    'pass flags to re.compile() instead'
    >>> told_to("Invalid value for cache_hash.  To use hash caching, init must be True.")
    'To use hash caching, init must be True.'
    >>> told_to("Invalid value for cache_hash.") is None
    True
    >>> told_to("use() requires a middleware function") is None  # a call's name, not a verb
    True
    """
    m = _TOLD.search(message)
    return m.group(1).strip() if m and len(m.group(1).split()) >= 3 else None


#: a word that says what something is about (not "that", "with", "error")
_CONTENT_WORD = re.compile(r"[A-Za-z]{4,}")
_PLAIN = frozenset(
    {
        "that",
        "this",
        "with",
        "from",
        "have",
        "will",
        "must",
        "when",
        "which",
        "used",
        "into",
        "been",
        "there",
        "their",
        "value",
        "object",
        "class",
        "error",
        "errors",
        "message",
        "messages",
        "raise",
        "raises",
        "exception",
    }
)


def _stems(text: str) -> set[str]:
    return {
        w.lower().removesuffix("s") for w in _CONTENT_WORD.findall(text) if w.lower() not in _PLAIN
    }


def _shares_a_word(doc: str, template: Template) -> bool:
    """Whether a class's docstring is about what the message says: a word of
    its own (plurals aside) is in the message's text or placeholders
    (``NullSession``'s "…if sessions are not available" for "The session is
    unavailable…"; not ``Command``'s "basic building block" for a duplicate name).

    >>> from errordex.template import Hole, Text
    >>> t = Template("py-fstring", (Text("The session is unavailable"),))
    >>> _shares_a_word("Class used to generate nicer error messages if sessions are off", t)
    True
    >>> _shares_a_word("Commands are the basic building block", t)
    False
    """
    said = " ".join(p.text if isinstance(p, Text) else p.expr for p in template.parts)
    return bool(_stems(doc) & _stems(said))


def _front_door(fn: Fact, chains: list[list[Fact]]) -> Fact | None:
    """The package's own top-level function on the plain call chains down to
    a public method (``json.loads`` for a raise in ``JSONDecoder.raw_decode``,
    through ``_default_decoder.decode``): what most users called. Only when
    every chain starts at a module-level function a user imports as
    ``package.name`` (flask's ``Flask.async_to_sync`` is reached from
    ``render_template`` too, but from a view's ``dispatch_request`` first)."""
    if "." not in fn["function"] or "::" in fn["function"] or not fn.get("public") or not chains:
        return None
    for chain in chains:
        head = chain[0]
        name = str((head.get("exported") or {}).get("name", ""))
        if not (
            head.get("public")
            and "." not in head["function"]
            and name.count(".") == 1
            and not any(h.get("via") for h in chain)
        ):
            return None
    return chains[0][0]


def _shown(f: Fact) -> str:
    """A public function's fact as a user calls it: an operator's impl as
    the operator (``IndexMap[…]``), else by the name it is imported by."""
    if f.get("shown"):  # a std conversion, as the user calls it
        return str(f["shown"])
    name = str(f["exported"]["name"]) if f.get("exported") else str(f["function"])
    if f.get("type"):  # a generic function, with the type whose impl it runs
        return f"{name}::<{f['type']}>"
    if "::" in name:  # Rust: the operator on its type (`IndexMap[…]`)
        return by_syntax(str(f["function"])) or as_called(name)
    return by_syntax(name) or as_called(name)


#: a field read off a value, not a method called on it (``src.slice``, not ``x.dtype()``)
_FIELD = re.compile(r"\.\s*[A-Za-z_]\w*\b(?!\s*(?:\(|::))")

#: a variant pattern's payload of bindings (``CpuStorage::F32(slice)``,
#: ``Output(pos, _, layout)``): the library's local names, read as ``(..)``
_PAYLOAD = re.compile(r"(?<=\w)\(\s*(?:[a-z_]\w*)(?:\s*,\s*[a-z_]\w*)*\s*\)")
#: a struct pattern's fields bound to names (``FuseArg::BlockLocal { pos, ty }``), read as ``{ .. }``
_FIELDS = re.compile(r"(?<=\w)\s*\{\s*(?:[a-z_]\w*)(?:\s*,\s*[a-z_]\w*)*\s*(?:,\s*\.\.)?\s*\}")

#: a condition longer than this is not read inline: its names and place are
LONG_CONDITION = 100


def _cause(text: str, read: list[str], cond: Fact) -> str:
    """When a lifted check fires, for "…raises X when {cause}": the check
    itself, or, when it is too long to read in a sentence (click's colour
    check is 300 characters), the arguments it reads and where it is.

    >>> _cause("x < 0", ["x"], {"kind": "if"})
    '`x < 0`'
    >>> _cause("isinstance(fg, str) and fg in names" * 4, ["fg"],
    ...        {"kind": "fall-through", "path": "a.py", "line": 9})
    '`fg` is none of what its earlier returns take (the checks from a.py:9 on)'
    """
    kind = cond.get("kind")
    said = _accepts_said(text, str(kind), cond)
    if said is not None:
        return said
    if (len(text) <= LONG_CONDITION and "\n" not in text) or not read:
        if kind == "fall-through":
            return f"none of its earlier returns matched (`{text}` is false)"
        return f"`{text}` is false" if kind in FIRES_WHEN_FALSE else f"`{text}`"
    names = _listed(read)
    one = len(read) == 1
    where = f"{cond.get('path')}:{cond.get('line')}"
    if kind == "fall-through":
        return (
            f"{names} {'is' if one else 'are'} none of what its earlier returns take "
            f"(the checks from {where} on)"
        )
    if kind in FIRES_WHEN_FALSE:
        return f"{names} {'fails' if one else 'fail'} the check at {where}"
    return f"{names} {'meets' if one else 'meet'} the condition at {where}"


#: an attribute a sentence names plainly (`encoding`, not `a.b[0]`)
_NAME = re.compile(r"[A-Za-z_]\w*")


def _accepts_said(text: str, kind: str, cond: Fact | None = None) -> str | None:
    """ "`where` is none of `"pre"`, `"post"`": a check that passes only
    for the values written in it (``allowed``), for a site that runs when
    it is false (``kind``) or true.

    >>> _accepts_said('where not in {"pre", "post"}', "if")
    '`where` is none of `"pre"`, `"post"`'
    >>> _accepts_said('where in {"pre", "post"}', "else")
    '`where` is none of `"pre"`, `"post"`'
    >>> _accepts_said('where in {"pre", "post"}', "if") is None
    True

    A table the check reads (``cond``'s ``values``) is named after them:

    >>> _accepts_said('engine in {"scipy", "netcdf4"}', "assert",
    ...               {"text": "engine in STORES", "values": [["STORES", "{...}"]]})
    '`engine` is none of `"scipy"`, `"netcdf4"`, the entries of `STORES`'
    """
    said = none_of(accepted(text, kind in FIRES_WHEN_FALSE))
    if said is None and kind not in FIRES_WHEN_FALSE:
        return all_given(text)  # `maxlen is not None and minid is not None`
    m = _MEMBERSHIP.fullmatch(str((cond or {}).get("text", "")).strip())
    tables = dict((cond or {}).get("values") or ())
    if said is not None and m is not None and m.group("table") in tables:
        said += f", the entries of `{m.group('table')}`"
    return said


def _doc_owner(d: Fact) -> str:
    """The function a doc line documents, as the user calls it (``IndexMap[…]``)."""
    return by_syntax(str(d["function"])) or as_called(str(d["function"]))


def _did(call: str) -> str:
    """ "called" a function, "wrote" an operator (``IndexMap[…]``)."""
    return "wrote" if "…" in call.split("(", 1)[0] or call.lstrip("`")[:1] in "*-!" else "called"


def _said(names: tuple[str, ...] | list[str]) -> str:
    """``“a”, “b” and “c”``: names as the message writes them (a quotation of
    it, not a code span: a package's name is often no identifier of the code)."""
    quoted = [f"“{n}”" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _listed(names: list[str]) -> str:
    """```a`, `b` and `c``"""
    quoted = [f"`{n}`" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def as_called(name: str) -> str:
    """A function's name as a user calls it: a constructor by its class.

    >>> as_called("httpx.URL.__init__"), as_called("httpx.Client.send")
    ('httpx.URL', 'httpx.Client.send')
    """
    return name.removesuffix(".__init__")


def _quoted(text: str) -> str:
    """A doc line as a quotation: its HTML entities read (rustdoc's
    ``&mdash;``), its Sphinx markup as a reader sees it rendered
    (``_rendered``), no closing quote mark inside, no trailing stop."""
    return _rendered(html.unescape(text)).replace("”", '"').rstrip(".")


#: a Sphinx role: ``:meth:`send```, ``:py:class:`~h11.Data```, ``:ref:`label <target>```
_ROLE = re.compile(r":(?:[a-z]+:)?([a-z]+):`(~?)([^`<]+?)(?:\s*<[^`>]*>)?`")
#: the roles that name code (the others, ``:term:`` or ``:ref:``, name prose)
_CODE_ROLES = frozenset({"class", "meth", "func", "attr", "exc", "data", "obj", "mod", "const"})


def _rendered(text: str) -> str:
    """reStructuredText as Sphinx renders it: a role's text alone, in code
    when it names code (``:meth:`send``` is `send`, ``:class:`~h11.Data``` is
    `Data`), and a ````literal```` in code.

    >>> _rendered("Identical to :meth:`send`, but a :term:`bytes-like object` of ``Data``")
    'Identical to `send`, but a bytes-like object of `Data`'
    """

    def role(m: re.Match[str]) -> str:
        shown = m.group(3).strip().rsplit(".", 1)[-1] if m.group(2) else m.group(3).strip()
        return f"`{shown}`" if m.group(1) in _CODE_ROLES else shown

    return re.sub(r"``([^`]+)``", r"`\1`", _ROLE.sub(role, text))


def _lead(entry: ErrorEntry, facts: dict[str, list[Fact]]) -> tuple[ThrowSite, Fact | None]:
    """The site a page leads with, and its function's reachability: the first
    site whose function ranks best, public code being what a reader calls.
    json's "Expecting value" leads with ``JSONDecoder.raw_decode`` (public,
    reached from ``json.loads``), not with ``JSONObject``, a helper the
    scanner calls that ``json.decoder.__all__`` leaves out."""
    first = entry.catalog_sites[0]
    at = {f"{s.path}:{s.line}": s for s in entry.catalog_sites}
    reach = [f for f in facts["reachability"] if f["site"] in at]
    if not reach:
        return first, None

    def rank(fact: Fact) -> tuple[bool, int]:
        """A site that builds the error before one that defines its text (a
        ``Display`` impl is not what a user calls); public first, then what
        public code reaches, then the rest."""
        reached = 0 if fact["public"] else 1 if any(fact.get("paths", ())) else 2
        return defines(at[fact["site"]]), reached

    best = min(reach, key=rank)
    return at[best["site"]], best


#: the sections a page writes again for each site's function (``by_site``)
PER_SITE = (
    "summary",
    "meaning",
    "trigger",
    "solutions",
    "example_fix",
    "defensive_patterns",
    "reproductions",
)


def _owner(symbol: str) -> str:
    """The type a method belongs to (``BytesMut`` of ``BytesMut::split_to``,
    ``<Dispatch as B>::f``'s ``Dispatch``, ``Dataset`` of ``Dataset.isel``); ""."""
    head = symbol.rsplit("::", 1)[0] if "::" in symbol else symbol.rpartition(".")[0]
    if head.startswith("<"):
        head = head[1:].split(" as ", 1)[0]
    return re.split(r"::|\.", head)[-1] if head else ""


def _tests_of(owner: str, others: set[str], tests: list[Fact]) -> list[Fact]:
    """The tests that make the call on ``owner``: those whose code names it,
    else those that name none of the other sites' types."""

    def names(t: Fact, o: str) -> bool:
        return bool(o) and re.search(rf"\b{re.escape(o)}\b", t.get("body") or "") is not None

    mine = [t for t in tests if names(t, owner)]
    return mine or [t for t in tests if not any(names(t, o) for o in others)]


def by_site(entry: ErrorEntry, facts: dict[str, list[Fact]], slug: str) -> dict[str, Any] | None:
    """When an entry's sites are in functions of different types or names
    (``Bytes::split_to`` and ``BytesMut::split_to``), the sections again for
    each one, led by it, with only the tests that call it: a paste from one
    site is answered with that site's page. ``{"pages": [...], "sites":
    {"path:line": index}}``; None when the sites share one page."""
    reach = facts["reachability"]
    kinds = {(_owner(r["function"]), r["name"]) for r in reach}
    if len(reach) < 2 or len(kinds) < 2:
        return None
    owners = {_owner(r["function"]) for r in reach} - {""}
    pages: list[dict[str, Any]] = []
    sites: dict[str, int] = {}
    for r in reach:
        owner = _owner(r["function"])
        # its own function's docs, and those of the public calls above it
        fns = {r["function"], *(c[0]["function"] for c in r.get("paths", ()) if c)}
        mine = {
            **facts,
            "tests": _tests_of(owner, owners - {owner}, facts["tests"]),
            "docs": [d for d in facts["docs"] if d["function"] in fns],
        }
        w = _Writer(entry, mine, slug, at=r)
        page = {k: v for k, v in _sections(w).items() if k in PER_SITE and v}
        for at in r.get("sites", [r["site"]]):
            sites[at] = len(pages)
        pages.append(page)
    return {"pages": pages, "sites": sites}


def led_by(
    entry: ErrorEntry,
    facts: dict[str, list[Fact]],
    slug: str,
    through: Sequence[tuple[str, str]],
    site: str | None = None,
    called: Fact | None = None,
) -> dict[str, Any] | None:
    """The page's sections again, led by the public call the user's pasted
    stack went through, when it is another than the one the page leads with:
    h11's ``conn.send(…)`` goes through ``Connection.send_with_data_passthrough``,
    while the page leads with ``Connection.next_event``, another way to the
    same raise. ``through``: the stack's frames in the repository, from the
    user's call inward, as (path, function as printed); ``site``: the site the
    paste came from. ``called``: the public call the stack shows the user
    made (``called.public_call``), which leads when no call chain of the
    page's starts at one of the stack's frames (sqlalchemy's
    ``create_engine``, whose way down to ``PluginLoader.load`` goes through a
    module-level object the chains do not follow). ``via`` in what it
    returns names the call that leads. None when the stack names no other
    way in."""
    at = next(
        (r for r in facts["reachability"] if site and site in r.get("sites", [r["site"]])), None
    )
    if at is not None and site:
        at = {**at, "site": site}  # the site itself leads, not its function's first
    plain = _Writer(entry, facts, slug, at=at)
    heads = [c[0] for c in (plain.fn or {}).get("paths", ()) if c]
    via = next((h for path, fn in through for h in heads if _is_frame_of(h, path, fn)), None)
    on_stack = via  # the chain head the stack went through, if any
    base: _Writer | None = None  # what the page says of a call the stack went through
    if called is not None and plain.fn is not None:
        # the user's own call leads, when the stack ran the page's function
        # below it (a page matched by its text alone may be another raise)
        head = next((h for h in heads if _same_function(h, called)), None)
        lead = plain.api() or plain.fn
        if head is not None:
            via = head
        elif not _same_function(called, lead) and _on(plain.fn, through):
            via = called
            if on_stack is not None:
                base = _Writer(entry, facts, slug, at=at, via=on_stack)
            elif _on(lead, through):
                base = plain
    if via is None or via is plain.api():
        return None
    w = _Writer(entry, facts, slug, at=at, via=via)
    page = {k: v for k, v in _sections(w).items() if k in PER_SITE and v}
    if (
        via is called
        and not any(via is h for h in heads)
        and (page.get("trigger") or {}).get("paths")
    ):
        # no chain of the page's starts at the user's call: the chains its
        # trigger lists are other ways in
        del page["trigger"]
    if base is not None:
        # the user's call reaches a call the page knows on its way: what the
        # page says of that call (its docs, the chain it went down, its
        # arguments' solutions, its defensive check) stays true, where the
        # user's call has nothing to say
        own = {k: v for k, v in _sections(base).items() if k in PER_SITE and v}
        page = {**own, **page, **{k: own[k] for k in ("meaning", "trigger") if k in own}}
    assert via is not None
    shown = {k: via[k] for k in ("function", "path", "line")}
    return {**page, "via": {**shown, "name": _shown(via)}}


def _on(fact: Fact, through: Sequence[tuple[str, str]]) -> bool:
    """Whether one of a stack's frames ran the function of ``fact``."""
    return any(_is_frame_of(fact, path, fn) for path, fn in through)


def _same_function(a: Fact, b: Fact) -> bool:
    return (a["path"], a["function"]) == (b["path"], b["function"])


def _is_frame_of(fact: Fact, path: str, function: str) -> bool:
    """Whether a stack frame at ``path``, in ``function`` as the runtime
    printed it (Python's ``send``, Rust's ``bytes::bytes_mut::BytesMut::split_to``),
    ran the function of ``fact`` (``Connection.send``, ``BytesMut::split_to``)."""
    name = str(fact["function"])
    return fact["path"] == path and (
        function == name
        or name.endswith(("." + function, "::" + function))
        or function.endswith("::" + name)
    )


def _sections(w: _Writer) -> dict[str, Any]:
    return {
        "summary": w.summary(),
        "meaning": w.meaning(),
        "trigger": w.trigger(),
        "situations": w.situations(),
        "solutions": w.solutions(),
        "example_fix": w.example_fix(),
        "defensive_patterns": w.defensive(),
        "prevention": w.prevention(),
        "reproductions": w.reproductions(),
    }


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
        "by_site": by_site(entry, facts, slug),
    }
    return Analysis(facts=facts, sections={k: v for k, v in sections.items() if v})


def paste_site(
    entry: ErrorEntry, facts: dict[str, list[Fact]], slug: str, site: str
) -> dict[str, Any] | None:
    """The sections again, led by ``site`` (``path:line``), the site a paste
    came from, when the page leads with another site of the same function:
    packaging's ``Version("1.x")`` fails at ``if not match`` (version.py:452),
    while the page's own lead is the ``except TypeError`` at :421 in the same
    ``Version.__init__``, whose condition says nothing of this paste. None
    when the page already leads with that site, or does not know it."""
    lead, _ = _lead(entry, facts)
    if f"{lead.path}:{lead.line}" == site:
        return None
    r = next((r for r in facts["reachability"] if site in r.get("sites", [r["site"]])), None)
    if r is None:
        return None
    w = _Writer(entry, facts, slug, at={**r, "site": site})
    page = {k: v for k, v in _sections(w).items() if k in PER_SITE and v}
    return {**page, "site": site}


def at_site(analysis: dict[str, Any], site: str) -> dict[str, Any]:
    """``analysis`` as the page of one of its sites (``by_site``), for a paste
    that came from it; the analysis itself when that site has no page of its own."""
    per = analysis.get("by_site") or {}
    i = per.get("sites", {}).get(site)
    if i is None:
        return analysis
    page = per["pages"][i]
    shown = {k: v for k, v in analysis.items() if k not in PER_SITE}
    return {**shown, **page, "site": site}
