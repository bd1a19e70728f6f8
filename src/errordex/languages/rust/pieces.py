"""A ``Display`` written in several pieces is one message (pure).

regex-syntax's error report is written so::

    writeln!(f, "regex parse error:")?;
    let notated = spans.notate();
    write!(f, "{}", notated)?;
    write!(f, "error: {}", self.err)?;

and prints ``regex parse error:\\n    (\\n    ^\\nerror: unclosed group``: one
text, not three. The writes that follow each other in one block of a
``Display`` (``write!``, ``writeln!``, ``f.write_str``, ``"text".fmt(f)``,
``self.kind.fmt(f)``) are one site whose template is theirs joined; a
statement between them that may write (an ``if``, a ``match``, a loop) is a
placeholder, as is a write of text read elsewhere. The pieces' own sites
are dropped; a write inside such a statement keeps its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from tree_sitter import Node

from errordex.model import ThrowSite
from errordex.template import Hole, Part, Template

KIND = "display-impl"
#: Bytes that say a statement may write to the formatter.
_WRITES = (b"write!", b"writeln!", b".write_str(", b".pad(", b".fmt(", b"write_fmt(")
_COMMENTS = frozenset({"line_comment", "block_comment"})
_WRAPS = frozenset({"expression_statement", "try_expression"})
_NEUTRAL = frozenset({"let_declaration", "empty_statement", "use_declaration"})
#: Blocks looked at per ``Display``.
MAX_BLOCKS = 64


class _File(Protocol):
    """A file being extracted, as this pass reads it (``extract._File``)."""

    @property
    def src(self) -> bytes: ...

    @property
    def consts(self) -> dict[str, str]: ...

    def text_of(self, node: Node) -> str: ...

    def string_expr(self, nodes: list[Node]) -> Template | None: ...

    def write_template(self, macro: str, args: Node) -> Template | None: ...

    def variant(self, node: Node, owner: str | None) -> str | None: ...

    def site(
        self, kind: str, start: Node, end: Node, tmpl: Template, exception_type: str | None = None
    ) -> ThrowSite: ...


@dataclass(frozen=True)
class _Piece:
    """A statement that writes: ``text`` what it writes (None: not known
    here); ``arms`` for a ``match`` whose arms each write, what each does."""

    node: Node
    text: Template | None
    arms: tuple[tuple[Node, Template], ...] = ()


def join(f: _File, impl: Node, owner: str, sites: list[ThrowSite]) -> list[ThrowSite]:
    """``sites`` with the pieces of each block of ``impl``'s ``fmt`` that
    writes in several pieces replaced by one site of the whole; a ``match``
    whose arms write the first part gives one site per arm."""
    for block in _blocks(impl):
        pieces = list(_pieces(f, block))
        if len(pieces) < 2:
            continue
        arms = [i for i, p in enumerate(pieces) if p.arms]
        made: list[ThrowSite] = []
        rows = [_rows(p.node) for p in pieces if p.text is not None]
        if len(arms) == 1:
            i = arms[0]
            before, after = _parts(pieces[:i]), _parts(pieces[i + 1 :])
            for value, tmpl in pieces[i].arms:
                whole = Template.of("rust-fmt", *before, *tmpl.parts, *after)
                if _worded(whole):
                    rows.append(_rows(value))
                    made.append(f.site(KIND, value, value, whole, f.variant(value, owner)))
        elif any(p.text is not None and _worded(p.text) for p in pieces):
            whole = Template.of("rust-fmt", *_parts(pieces))
            first, last = pieces[0].node, pieces[-1].node
            made.append(f.site(KIND, first, last, whole, f.variant(first, owner)))
        if not made:
            continue
        sites = [
            s for s in sites if not (s.kind == KIND and any(lo <= s.line <= hi for lo, hi in rows))
        ]
        sites.extend(made)
    return sites


def _parts(pieces: list[_Piece]) -> list[Part]:
    out: list[Part] = []
    for p in pieces:
        out.extend(p.text.parts if p.text is not None else (Hole("", "{…}"),))
    return out


def _rows(node: Node) -> tuple[int, int]:
    return node.start_point.row + 1, node.end_point.row + 1


def _blocks(impl: Node) -> Iterator[Node]:
    """The blocks of the ``fmt`` methods of an ``impl``, outermost first."""
    body = impl.child_by_field_name("body")
    seen = 0
    for item in body.named_children if body is not None else ():
        if item.type != "function_item":
            continue
        stack = [item.child_by_field_name("body")]
        while stack and seen < MAX_BLOCKS:
            node = stack.pop()
            if node is None:
                continue
            if node.type == "block":
                seen += 1
                yield node
            stack.extend(reversed(node.named_children))


def _pieces(f: _File, block: Node) -> Iterator[_Piece]:
    """Each statement of ``block`` that writes."""
    for stmt in block.named_children:
        if stmt.type in _COMMENTS or stmt.type in _NEUTRAL:
            continue
        expr = _written(stmt)
        if expr is None:
            continue
        text = _write(f, expr)
        if text is not None:
            yield _Piece(stmt, text)
        elif _may_write(f, stmt):
            if expr.type == "return_expression":
                return
            yield _Piece(stmt, None, _arms(f, expr) if expr.type == "match_expression" else ())


def _written(node: Node | None) -> Node | None:
    """The expression a statement or an arm's value evaluates, past ``?``
    and a block of one statement."""
    while node is not None:
        one = node.type == "block" and node.named_child_count == 1
        if one or (node.type in _WRAPS and node.named_child_count):
            node = node.named_children[0]
        else:
            return node
    return None


def _may_write(f: _File, node: Node) -> bool:
    return any(w in f.src[node.start_byte : node.end_byte] for w in _WRITES)


def _arms(f: _File, match: Node) -> tuple[tuple[Node, Template], ...]:
    """What each arm of a ``match`` writes, for the arms whose text is known."""
    body = match.child_by_field_name("body")
    out: list[tuple[Node, Template]] = []
    for arm in body.named_children if body is not None else ():
        value = arm.child_by_field_name("value") if arm.type == "match_arm" else None
        expr = _written(value)
        text = _write(f, expr) if expr is not None else None
        if value is not None and text is not None:
            out.append((value, text))
    return tuple(out)


def _write(f: _File, expr: Node) -> Template | None:
    """What one write prints: ``write!(f, "..", ..)``, ``f.write_str(..)``,
    ``"..".fmt(f)``; a placeholder for ``self.kind.fmt(f)``."""
    if expr.type == "macro_invocation":
        name = expr.child_by_field_name("macro")
        args = expr.named_children[-1] if expr.named_child_count else None
        word = f.text_of(name).rsplit("::", 1)[-1] if name is not None else ""
        if word in ("write", "writeln") and args is not None and args.type == "token_tree":
            return f.write_template(word, args)
        return None
    if expr.type != "call_expression":
        return None
    func = expr.child_by_field_name("function")
    args = expr.child_by_field_name("arguments")
    if func is None or args is None:
        return None
    given = [a for a in args.named_children if a.type not in _COMMENTS]
    if func.type == "field_expression":
        field = func.child_by_field_name("field")
        recv = func.child_by_field_name("value")
        method = f.text_of(field) if field is not None else ""
        if method in ("write_str", "pad") and len(given) == 1:
            if given[0].type == "match_expression":
                return None  # a text per arm: each arm's is a site of its own
            return f.string_expr(given) or _unknown(f, given[0])
        if method == "fmt" and recv is not None and len(given) == 1:
            return f.string_expr([recv]) or _unknown(f, recv)
        return None
    if func.type == "scoped_identifier" and f.text_of(func).endswith("::fmt") and len(given) == 2:
        return _unknown(f, given[0])  # fmt::Display::fmt(&self.x, f)
    return None


def _unknown(f: _File, value: Node) -> Template:
    """A placeholder for text written from ``value`` (``self.err``)."""
    expr = _squash(f.text_of(value)).lstrip("&*")
    simple = all(part.isidentifier() for part in expr.split("."))
    return Template.of("rust-fmt", Hole(expr, "{" + expr + "}") if simple else Hole("", "{}"))


def _worded(t: Template) -> bool:
    return any(any(c.isalpha() for c in chunk) for chunk in t.chunks())


def _squash(s: str) -> str:
    return " ".join(s.split())
