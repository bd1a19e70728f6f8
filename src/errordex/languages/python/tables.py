"""Table-driven tests: one expectation per row of a table (pure).

A test that checks many inputs often keeps them in a table and runs one
raises-check per row::

    def test_truncated_input(self):
        test_cases = [
            ('', 'Expecting value', 0),            # a row: input, message, pos
            ('[42', "Expecting ',' delimiter", 3),
        ]
        for data, msg, idx in test_cases:
            with self.assertRaises(self.JSONDecodeError) as cm:
                self.loads(data)
            self.assertEqual(cm.exception.msg, msg)

or in ``@pytest.mark.parametrize("data,msg", [...])``. ``rows`` reads such
a table: for each row, its line, the message it expects, and the with-block
with the row's literal values in place of the loop variables
(``self.loads('')``). A row is kept only when every value the block reads
is a literal and the expected message is a plain string literal.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

#: assertion calls whose two arguments compare the error with its expected text
_COMPARE_CALLS = frozenset(
    {"assertEqual", "assertEquals", "assertIn", "assertRegex", "assertMultiLineEqual"}
)
#: the other side of such a comparison is the error's text: ``str(e)``, ``err.msg``...
_TEXT_OF = re.compile(
    r"(?:str|repr)\((?P<inner>.+)\)|(?P<obj>.+)\.(?:msg|message|args(?:\[0\])?)", re.S
)
#: ...of the error: ``cm.exception``, ``excinfo.value`` or the block's ``as`` name
_ERROR = re.compile(r"\.(?:exception|value)\b")
#: statements that run the block for some rows only
_CONDITIONAL = frozenset(
    {"if_statement", "else_clause", "elif_clause", "try_statement", "while_statement"}
)
#: shorter expected texts name no message
_MIN_PATTERN = 4
_MAX_ROWS = 200


@dataclass(frozen=True, slots=True)
class Row:
    line: int
    pattern: str
    is_regex: bool
    body: str
    #: the literal values put in place of the loop variables, as written
    inputs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Table:
    #: the names a row binds (loop targets or parametrize names), in order
    names: tuple[str, ...]
    #: (row node, name -> value node or None when not a literal of the row)
    rows: list[tuple[Node, dict[str, Node | None]]]
    #: where the message check is looked for (the loop body or the function body)
    region: Node


def _text(src: bytes, n: Node) -> str:
    return src[n.start_byte : n.end_byte].decode("utf-8", "replace")


def _walk(n: Node, into_defs: bool = False) -> Iterator[Node]:
    """``n`` and its descendants in document order (not into nested defs)."""
    stack = [n]
    while stack:
        c = stack.pop()
        yield c
        if c is not n and not into_defs and c.type in ("function_definition", "lambda"):
            continue
        stack.extend(reversed(c.children))


def _literal(src: bytes, n: Node) -> bool:
    if n.type in ("identifier", "call", "attribute", "subscript"):
        return n.type == "identifier" and _text(src, n) in ("None", "True", "False")
    try:
        ast.literal_eval(_text(src, n))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return True


def _string(src: bytes, n: Node | None) -> str | None:
    if n is None or n.type not in ("string", "concatenated_string"):
        return None
    try:
        value = ast.literal_eval(_text(src, n))
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def _bind(target: Node, value: Node | None, out: dict[str, Node | None]) -> bool:
    """Bind the names of a loop target to the parts of a row (False: shapes differ)."""
    if target.type == "identifier":
        out[target.text.decode() if target.text else ""] = value
        return True
    if target.type in ("pattern_list", "tuple_pattern", "list_pattern"):
        parts = [c for c in target.named_children if c.type != "comment"]
        items = _items(value) if value is not None else None
        if items is None:
            for p in parts:  # not a literal tuple: the names are bound, to nothing known
                _bind(p, None, out)
            return value is None
        if len(items) != len(parts):
            return False
        return all(_bind(p, v, out) for p, v in zip(parts, items, strict=True))
    return False


def _items(n: Node) -> list[Node] | None:
    if n.type in ("tuple", "list", "parenthesized_expression"):
        inner = [c for c in n.named_children if c.type != "comment"]
        if n.type == "parenthesized_expression":
            return _items(inner[0]) if len(inner) == 1 else None
        return inner
    return None


def _rows_of(src: bytes, fn_body: Node, name: str, before: int) -> list[Node] | None:
    """The rows of the local ``name = [...]`` (and ``name += [...]``) before byte ``before``."""
    rows: list[Node] | None = None
    for n in _walk(fn_body):
        if n.start_byte >= before:
            break
        if n.type not in ("assignment", "augmented_assignment"):
            continue
        left = n.child_by_field_name("left")
        if left is None or left.type != "identifier" or _text(src, left) != name:
            continue
        right = n.child_by_field_name("right")
        items = _items(right) if right is not None else None
        if n.type == "assignment":
            rows = list(items) if items is not None else None
        elif rows is not None:
            op = n.child_by_field_name("operator")
            rows = (
                rows + items if items is not None and op is not None and op.text == b"+=" else None
            )
    return rows


def _loop(src: bytes, with_node: Node, fn_body: Node) -> _Table | None:
    """The ``for`` loop right around the with-block (through ``subTest`` blocks)."""
    n = with_node.parent
    while n is not None and n.type in ("block", "with_statement"):
        n = n.parent
    if n is None or n.type != "for_statement":
        return None
    target, right, body = (
        n.child_by_field_name("left"),
        n.child_by_field_name("right"),
        n.child_by_field_name("body"),
    )
    if target is None or right is None or body is None:
        return None
    counter: Node | None = None
    if right.type == "call" and _text(src, right.child_by_field_name("function") or right) == (
        "enumerate"
    ):
        args = right.child_by_field_name("arguments")
        pos = args.named_children if args is not None else []
        parts = target.named_children
        if len(pos) != 1 or target.type != "pattern_list" or len(parts) != 2:
            return None
        right, target, counter = pos[0], parts[1], parts[0]
    items = _items(right)
    if items is None and right.type == "identifier":
        items = _rows_of(src, fn_body, _text(src, right), n.start_byte)
    if not items:
        return None
    names: dict[str, Node | None] = {}
    _bind(target, None, names)
    if counter is not None:
        _bind(counter, None, names)
    rows: list[tuple[Node, dict[str, Node | None]]] = []
    for item in items[:_MAX_ROWS]:
        bound: dict[str, Node | None] = dict.fromkeys(names)
        if _bind(target, item, bound):
            rows.append((item, bound))
    return _Table(tuple(names), rows, body)


def _parametrize(src: bytes, fn: Node) -> Iterator[_Table]:
    """The ``@pytest.mark.parametrize("a,b", [(...), ...])`` tables of a test function."""
    deco = fn.parent
    if deco is None or deco.type != "decorated_definition":
        return
    body = fn.child_by_field_name("body")
    for d in deco.named_children:
        call = d.named_children[0] if d.type == "decorator" and d.named_children else None
        if call is None or call.type != "call":
            continue
        if not _text(src, call.child_by_field_name("function") or call).endswith("parametrize"):
            continue
        args = call.child_by_field_name("arguments")
        pos = [a for a in (args.named_children if args else []) if a.type != "keyword_argument"]
        if len(pos) < 2 or body is None:
            continue
        first = _string(src, pos[0])
        if first is not None:
            names = tuple(x.strip() for x in first.split(",") if x.strip())
        else:
            listed = [_string(src, x) for x in (_items(pos[0]) or [])]
            if not listed or any(x is None for x in listed):
                continue
            names = tuple(x for x in listed if x)
        items = _items(pos[1])
        if not names or not items:
            continue
        rows: list[tuple[Node, dict[str, Node | None]]] = []
        for item in items[:_MAX_ROWS]:
            values = _param_values(src, item)
            if values is None:
                continue
            parts = [values] if len(names) == 1 and item.type != "call" else _items(values)
            if item.type == "call":  # pytest.param(a, b, id=...)
                parts = [a for a in values.named_children if a.type != "keyword_argument"]
            if parts is None or len(parts) != len(names):
                continue
            rows.append((item, dict(zip(names, parts, strict=True))))
        yield _Table(names, rows, body)


def _param_values(src: bytes, item: Node) -> Node | None:
    """A row itself, or the argument list of ``pytest.param(...)`` (None: it has marks)."""
    if item.type != "call":
        return item
    fn = _text(src, item.child_by_field_name("function") or item)
    args = item.child_by_field_name("arguments")
    if not fn.endswith("param") or args is None:
        return item
    for a in args.named_children:
        if a.type == "keyword_argument" and _text(src, a.child_by_field_name("name") or a) == (
            "marks"
        ):
            return None  # xfail/skip rows are not known to raise
    return args


def _names_in(src: bytes, nodes: list[Node]) -> list[Node]:
    """Identifier nodes that read a variable (not ``x.attr``'s attr, not ``f(kw=...)``'s kw)."""
    out: list[Node] = []
    for top in nodes:
        for n in _walk(top, into_defs=True):
            if n.type == "identifier" and reads_variable(n):
                out.append(n)
    return out


def reads_variable(n: Node) -> bool:
    """Whether an identifier reads a variable: not ``x.attr``'s attr, not ``f(kw=...)``'s kw."""
    p = n.parent
    if p is None:
        return True
    if p.type == "attribute" and p.child_by_field_name("attribute") == n:
        return False
    return not (p.type == "keyword_argument" and p.child_by_field_name("name") == n)


def _aliases(src: bytes, with_node: Node, region: Node) -> set[str]:
    """The raises-check's ``as`` name, and names assigned from it (``err = cm.exception``)."""
    out: set[str] = set()
    for n in _walk(with_node):
        if n.type == "as_pattern_target":
            out.update(_text(src, i) for i in _walk(n) if i.type == "identifier")
    for n in _walk(region):
        if n.type == "assignment":
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if (
                left is not None
                and right is not None
                and left.type == "identifier"
                and {_text(src, i) for i in _walk(right) if i.type == "identifier"} & out
            ):
                out.add(_text(src, left))
    return out


def _comparisons(src: bytes, region: Node) -> Iterator[tuple[Node, Node, bool]]:
    """(a, b, b-is-regex) of each ``self.assertEqual(a, b)``-like call and
    ``assert a == b`` / ``assert a in b``, both ways round."""
    for n in _walk(region):
        if n.type == "call":
            fn = n.child_by_field_name("function")
            attr = fn.child_by_field_name("attribute") if fn is not None else None
            name = _text(src, attr) if attr is not None else ""
            args = n.child_by_field_name("arguments")
            pos = [a for a in (args.named_children if args else []) if a.type != "keyword_argument"]
            if name in _COMPARE_CALLS and len(pos) >= 2:
                regex = name == "assertRegex"
                yield pos[0], pos[1], regex
                yield pos[1], pos[0], False
        elif n.type == "assert_statement" and n.named_children:
            cmp = n.named_children[0]
            if cmp.type != "comparison_operator" or len(cmp.named_children) != 2:
                continue
            ops = [c.type for c in cmp.children if not c.is_named]
            if ops in (["=="], ["in"]):
                a, b = cmp.named_children
                yield a, b, False
                yield b, a, False


def _message(
    src: bytes, raises: Node, table: _Table, used: set[str], aliases: set[str]
) -> tuple[str | None, str | None, bool] | None:
    """(message variable, or constant message, is_regex) the rows expect."""
    args = raises.child_by_field_name("arguments")
    named = args.named_children if args else []
    pos = [a for a in named if a.type != "keyword_argument"]
    kw = {
        _text(src, a.child_by_field_name("name") or a): a.child_by_field_name("value")
        for a in named
        if a.type == "keyword_argument"
    }
    fn = _text(src, raises.child_by_field_name("function") or raises).rsplit(".", 1)[-1]
    pat = kw.get("match") if fn == "raises" else None
    if fn in ("assertRaisesRegex", "assertRaisesRegexp"):
        pat = pos[1] if len(pos) > 1 else kw.get("expected_regex")
    if pat is not None:
        if pat.type == "identifier" and _text(src, pat) in table.names:
            return _text(src, pat), None, True
        inner = pat.named_children[-1].named_children if pat.type == "call" else []
        if (
            pat.type == "call"
            and _text(src, pat.child_by_field_name("function") or pat) == "re.escape"
            and len(inner) == 1
            and inner[0].type == "identifier"
            and _text(src, inner[0]) in table.names
        ):
            return _text(src, inner[0]), None, False
        fixed = _string(src, pat)
        return (None, fixed, True) if fixed else None

    def reads_error(n: Node) -> bool:
        m = _TEXT_OF.fullmatch(_text(src, n).strip())
        err = (m.group("inner") or m.group("obj")).strip() if m else ""
        return bool(err) and (bool(_ERROR.search(err)) or re.split(r"\W", err)[0] in aliases)

    constant: tuple[str, bool] | None = None
    for a, b, regex in _comparisons(src, table.region):
        if not reads_error(b):
            continue
        if a.type == "identifier" and _text(src, a) in table.names and _text(src, a) not in used:
            name = _text(src, a)
            if any(_string(src, row.get(name)) is not None for _, row in table.rows):
                return name, None, regex
        value = _string(src, a)
        if constant is None and value is not None and len(value.strip()) >= _MIN_PATTERN:
            constant = (value, regex)
    if constant is not None:
        return None, constant[0], constant[1]
    return None


def rows(
    src: bytes, lines: list[str], with_node: Node, raises: Node, stmts: list[Node], max_lines: int
) -> list[Row]:
    """The rows of the table the raises-check ``with_node`` runs, one per row
    that a literal call reproduces (empty: not a table test)."""
    if not stmts or stmts[-1].end_point.row - stmts[0].start_point.row >= max_lines:
        return []
    fn = with_node.parent
    while fn is not None and fn.type != "function_definition":
        if fn.type in _CONDITIONAL:
            return []  # not every row runs the block (or not as written)
        fn = fn.parent
    fn_body = fn.child_by_field_name("body") if fn is not None else None
    if fn is None or fn_body is None:
        return []
    tables = [t for t in [_loop(src, with_node, fn_body), *_parametrize(src, fn)] if t]
    if not tables:
        return []
    refs = _names_in(src, stmts)
    # Names any table of this test binds: the block may read only those the row gives.
    tabled = {name for t in tables for name in t.names}
    tabled |= {
        _text(src, i)
        for n in _walk(fn_body)
        if n.type == "for_statement" and n.start_byte < with_node.start_byte < n.end_byte
        for i in _walk(n.child_by_field_name("left") or n)
        if i.type == "identifier"
    }
    used = {_text(src, r) for r in refs}
    for table in tables:
        if not used & set(table.names) or not table.rows:
            continue
        got = _message(src, raises, table, used, _aliases(src, with_node, table.region))
        if got is None:
            continue
        var, constant, is_regex = got
        out: list[Row] = []
        for row_node, row in table.rows:
            pattern = _string(src, row.get(var)) if var else constant
            if not pattern or len(pattern.strip()) < _MIN_PATTERN:
                continue
            got_body = _substitute(src, lines, stmts, refs, row, tabled)
            if got_body is None:
                continue
            body, inputs = got_body
            out.append(Row(row_node.start_point.row + 1, pattern, is_regex, body, inputs))
        return out
    return []


def _substitute(
    src: bytes,
    lines: list[str],
    stmts: list[Node],
    refs: list[Node],
    row: dict[str, Node | None],
    tabled: set[str],
) -> tuple[str, tuple[str, ...]] | None:
    """The block's text with each table variable replaced by the row's literal
    (None when it reads one the row has no literal for)."""
    first, last = stmts[0], stmts[-1]
    start = first.start_byte - first.start_point.column
    end = last.end_byte
    edits: list[tuple[int, int, str]] = []
    inputs: list[str] = []
    for r in refs:
        name = _text(src, r)
        if name not in tabled:
            continue
        value = row.get(name)
        if value is None or not _literal(src, value) or _in_fstring(r):
            return None  # in an f-string, a quoted value may not be written as is
        text = _text(src, value)
        if "\n" in text or "\r" in text:
            return None
        edits.append((r.start_byte, r.end_byte, text))
        inputs.append(text)
    if not edits:
        return None
    chunk = src[start:end]
    for a, b, text in sorted(edits, reverse=True):
        chunk = chunk[: a - start] + text.encode() + chunk[b - start :]
    out = chunk.decode("utf-8", "replace").splitlines()
    original = lines[first.start_point.row : last.end_point.row + 1]
    indent = min((len(s) - len(s.lstrip()) for s in original if s.strip()), default=0)
    return "\n".join(s[indent:] for s in out), tuple(dict.fromkeys(inputs))


def _in_fstring(n: Node) -> bool:
    p = n.parent
    while p is not None and p.type not in ("block", "module"):
        if p.type == "interpolation":
            return True
        p = p.parent
    return False
