"""Rust helpers that build an error of the text they are given (pure).

object writes nearly every message as ``.read_error("Unknown file magic")``,
through one helper that builds the error::

    fn read_error(self, error: &'static str) -> Result<T> {
        self.ok_or(Error(error))
    }

The helper is a ``Forwarder`` of kind ``construct``: each call that passes
it text is a site at the call, building ``Error`` with that text, and the
type's definition says what it prints (``construct.class_messages``). The
join is the core's (``errordex.forward``): by name, and only when every
function of that name in the repository is such a helper.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from tree_sitter import Node

from errordex.model import Forwarder, MessageCall, ThrowSite
from errordex.template import Template

if TYPE_CHECKING:
    from errordex import grammars

#: Arguments a message call may have.
MAX_ARGS = 8


class _File(Protocol):
    @property
    def path(self) -> str: ...

    def text_of(self, node: Node) -> str: ...

    def impl_type(self, node: Node) -> str | None: ...

    def string_expr(self, nodes: list[Node]) -> Template | None: ...

    def site(
        self, kind: str, start: Node, end: Node, tmpl: Template, exception_type: str | None = None
    ) -> ThrowSite: ...


def _function(node: Node) -> Node | None:
    p = node.parent
    while p is not None and p.type not in ("function_item", "closure_expression"):
        p = p.parent
    while p is not None and p.type == "closure_expression":  # |_| Error(error)
        p = p.parent
        while p is not None and p.type not in ("function_item", "closure_expression"):
            p = p.parent
    return p if p is not None and p.type == "function_item" else None


def qualname(f: _File, fn: Node) -> str:
    """``src/read/mod.rs:89:Result.read_error``: unique in the repository,
    its last dotted part the function's name (what calls are joined by)."""
    name = fn.child_by_field_name("name")
    owner = f.impl_type(fn) or ""
    return f"{f.path}:{fn.start_point.row + 1}:{owner}.{f.text_of(name) if name else ''}"


def functions(f: _File, caught: grammars.Captures) -> list[str]:
    return [qualname(f, fn) for fn in caught.get("scope", ()) if fn.type == "function_item"]


def forwarder(f: _File, arg: Node, exception_type: str) -> Forwarder | None:
    """The helper whose parameter ``arg`` (an identifier) is the one text a
    value of ``exception_type`` is built with, or None."""
    if arg.type != "identifier":
        return None
    fn = _function(arg)
    params = fn.child_by_field_name("parameters") if fn is not None else None
    name = fn.child_by_field_name("name") if fn is not None else None
    if fn is None or params is None or name is None:
        return None
    want = f.text_of(arg)
    method = False
    index = 0
    for p in params.named_children:
        if p.type == "self_parameter":
            method = True
            continue
        if p.type != "parameter":
            continue
        pat = p.child_by_field_name("pattern")
        if pat is not None and f.text_of(pat) == want:
            return Forwarder(
                name=f.text_of(name),
                qualname=qualname(f, fn),
                path=f.path,
                line=arg.start_point.row + 1,
                param_name=want,
                param_index=index,
                exception_type=exception_type,
                template=Template.runtime(want),
                method=method,
                kind="construct",
            )
        index += 1
    return None


def _sentence(t: Template) -> bool:
    """Text that can be a message: two words or more (not ``", "``)."""
    words = [w for w in t.literal_text().split() if any(c.isalpha() for c in w)]
    return len(words) >= 2


def message_calls(f: _File, caught: grammars.Captures) -> list[MessageCall]:
    """Calls that pass message text (``.read_error("Unknown file magic")``,
    ``invalid(input, "expected a digit")``), to be joined to helpers."""
    out: list[MessageCall] = []
    for capture in ("method.name", "err.name"):
        for name in caught.get(capture, ()):
            func = name.parent if capture == "method.name" else name
            call = func.parent if func is not None else None
            if call is None or call.type != "call_expression":
                continue
            args = call.child_by_field_name("arguments")
            named = [c for c in args.named_children if "comment" not in c.type] if args else []
            read: list[tuple[int | str, Template]] = []
            for i, a in enumerate(named[:MAX_ARGS]):
                if a.type not in ("string_literal", "raw_string_literal", "macro_invocation"):
                    continue
                t = f.string_expr([a])
                if t is not None and _sentence(t):
                    read.append((i, t))
            if not read:
                continue
            receiver = None
            if capture == "method.name" and func is not None:
                value = func.child_by_field_name("value")
                receiver = f.text_of(value)[:80] if value is not None else None
            site = f.site("construct", name, call, Template.empty())
            out.append(
                MessageCall(
                    callee=f.text_of(name),
                    receiver=receiver,
                    args=tuple(read),
                    path=site.path,
                    line=site.line,
                    column=site.column,
                    end_line=site.end_line,
                    symbol=site.symbol,
                    guards=site.guards,
                    in_test=site.in_test,
                    context_hash=site.context_hash,
                )
            )
    return out
