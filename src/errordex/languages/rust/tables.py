"""Table tests of error text (Rust test code).

A test that checks many inputs keeps them as rows of ``(input, message)``
and runs one check over each. Two shapes are common:

- a helper looping over a slice it is given, called with the rows
  (jsonb's tests/it/parser.rs)::

      fn test_parse_err(errors: &[(&str, &'static str)]) {
          for &(s, err) in errors {
              let res = parse_value(s.as_bytes());
              assert_eq!(res.err().unwrap().to_string(), err);
          }
      }
      test_parse_err(&[("n", "EOF while parsing a value, pos 1"), …]);

- a loop over the rows in the test itself::

      for (input, expected) in [("1.x", "unexpected …"), …] {
          assert_eq!(parse(input).unwrap_err().to_string(), expected);
      }

Each row becomes a test that expects its message from the call the loop
makes, with the row's input in place of the loop's name for it
(``parse_value("n".as_bytes())``). A row whose message is no string
literal, or a loop whose check does not compare the message column with
the error's text, is no such test.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from tree_sitter import Node

from errordex.analysis.evidence import TestExpect
from errordex.analysis.validcall import calls_in, split_args

#: the text of an error, as a check compares it (`.to_string()`, `format!("{}", e)`)
_ERROR_TEXT = re.compile(r"\.to_string\(\)|format!\s*\(\s*\"\{\}\"|\.unwrap_err\(\)|\.err\(\)")
_STRING = re.compile(r'^(?:r#*)?"')
#: the most rows read from one table
MAX_ROWS = 64


@dataclass(frozen=True)
class _Loop:
    """A ``for`` over rows of tuples: the names its pattern binds, in order
    (None for a part that binds no plain name), the column the check
    compares with the error's text, and the call the input column goes to."""

    names: tuple[str | None, ...]
    #: None: a table of valid inputs (its call is `.unwrap()`ped)
    message: int | None
    input: int
    call: str
    callees: tuple[str, ...]


#: a row of a table of valid inputs as the call it makes: (callee, test, line, text)
RowCall = tuple[str, str, int, str]


def table_tests(
    functions: Sequence[Node],
    loops: Sequence[Node],
    text_of: Callable[[Node], str],
    path: str,
    symbol_of: Callable[[Node], str],
    callee_of: Callable[[Node], str],
    unquote: Callable[[str], str | None],
) -> tuple[list[TestExpect], list[RowCall]]:
    """The rows of the file's table tests (see the module's doc), and the
    calls the rows of its tables of valid inputs make (an example fix's
    "after": jsonb's ``test_parse_ok(vec![("null", Value::Null)])`` makes
    ``parse_value("null".as_bytes())``).

    ``functions`` and ``loops``: the file's ``fn`` items and ``for``
    loops, in document order (the query walk's captures: a walk of the
    tree in Python here cost more than the rest of the scan of a test file)."""
    out: list[TestExpect] = []
    made: list[RowCall] = []
    helpers: dict[str, tuple[str, _Loop, tuple[str, ...]]] = {}
    fns = list(functions)
    owned = _loops_by_function(loops)
    for fn in fns:
        params = fn.child_by_field_name("parameters")
        body = fn.child_by_field_name("body")
        name = fn.child_by_field_name("name")
        if params is None or body is None or name is None:
            continue
        names = [_param_name(p, text_of) for p in params.named_children]
        for loop in owned.get(fn.id, ()):
            if not (body.start_byte <= loop.start_byte and loop.end_byte <= body.end_byte):
                continue
            value = loop.child_by_field_name("value")
            got = _loop(loop, text_of, callee_of)
            if got is None or value is None:
                continue
            source = _iterated_name(text_of(value))
            if source in names:
                # a helper: its callers hold the rows
                helpers[text_of(name)] = (source, got, _generics(fn, text_of))
            elif value.type in ("array_expression", "reference_expression"):
                rows = _rows(value, text_of)
                _add(rows, got, {}, path, symbol_of(fn), unquote, out, made)
    if helpers:
        for fn in fns:
            for call in _calls(fn):
                head = call.child_by_field_name("function")
                args = call.child_by_field_name("arguments")
                if head is None or args is None or not args.named_children:
                    continue
                called, types = _called(head, text_of)
                if called not in helpers:
                    continue
                _, helper, generics = helpers[called]
                bound = dict(zip(generics, types, strict=False))
                rows = _rows(args.named_children[0], text_of)
                _add(rows, helper, bound, path, symbol_of(fn), unquote, out, made)
    return out, made


def _loops_by_function(loops: Sequence[Node]) -> dict[int, list[Node]]:
    """The ``for`` loops of each ``fn`` (by node id), in document order: a
    loop inside another loop, a closure or a nested ``fn`` is not its own."""
    out: dict[int, list[Node]] = {}
    for loop in loops:
        up = loop.parent
        while up is not None and up.type not in _LOOP_OWNERS:
            up = up.parent
        if up is not None and up.type == "function_item":
            out.setdefault(up.id, []).append(loop)
    return out


#: what stops the way up from a ``for`` loop to the ``fn`` it is read in
_LOOP_OWNERS = frozenset({"function_item", "closure_expression", "for_expression"})


def _calls(fn: Node) -> Iterator[Node]:
    body = fn.child_by_field_name("body")
    stack = [body] if body is not None else []
    while stack:
        n = stack.pop()
        if n.type == "call_expression":
            yield n
        if n.type != "function_item":
            stack.extend(reversed(n.named_children))


def _param_name(p: Node, text_of: Callable[[Node], str]) -> str:
    pat = p.child_by_field_name("pattern") if p.type == "parameter" else None
    return text_of(pat) if pat is not None and pat.type == "identifier" else ""


def _generics(fn: Node, text_of: Callable[[Node], str]) -> tuple[str, ...]:
    """The type parameters of ``fn`` (``T`` of ``fn f<'a, T: Debug>``), in order."""
    tp = fn.child_by_field_name("type_parameters")
    if tp is None:
        return ()
    out: list[str] = []
    for c in tp.named_children:
        if c.type == "lifetime" or c.type == "lifetime_parameter":
            continue
        name = c.child_by_field_name("name") if c.type != "type_identifier" else c
        if name is None and c.named_children:
            name = c.named_children[0]
        if name is not None and name.type == "type_identifier":
            out.append(text_of(name))
    return tuple(out)


def _called(head: Node, text_of: Callable[[Node], str]) -> tuple[str, tuple[str, ...]]:
    """``test_parse_err`` and its turbofish types (``Value`` of ``f::<Value>``)."""
    if head.type == "identifier":
        return text_of(head), ()
    if head.type == "generic_function":
        fn = head.child_by_field_name("function")
        targs = head.child_by_field_name("type_arguments")
        types = tuple(
            text_of(c)
            for c in (targs.named_children if targs is not None else ())
            if c.type != "lifetime"
        )
        return (text_of(fn) if fn is not None and fn.type == "identifier" else ""), types
    return "", ()


def _iterated_name(value: str) -> str:
    """``errors`` of ``errors``, ``&errors``, ``errors.iter()``, ``errors.into_iter()``."""
    v = value.strip().lstrip("&").strip()
    for tail in (".iter()", ".into_iter()"):
        v = v.removesuffix(tail)
    return v if v.isidentifier() else ""


def _loop(
    loop: Node, text_of: Callable[[Node], str], callee_of: Callable[[Node], str]
) -> _Loop | None:
    """The loop's columns, when its body checks one of them against the
    error's text and passes another to a call."""
    pat = loop.child_by_field_name("pattern")
    body = loop.child_by_field_name("body")
    if pat is None or body is None:
        return None
    if pat.type == "reference_pattern" and pat.named_children:
        pat = pat.named_children[0]
    if pat.type != "tuple_pattern":
        return None
    names = tuple(text_of(c) if c.type == "identifier" else None for c in pat.named_children)
    plain = [n for n in names if n]
    if len(plain) < 2:
        return None
    text = text_of(body)
    message: int | None = None
    if _ERROR_TEXT.search(text):
        message = _checked_column(body, names, text_of)
        if message is None:
            return None
    elif ".unwrap()" not in text:
        return None
    for call in _outer_calls(body):
        said = text_of(call)
        if "\n" in said:
            continue
        for i, n in enumerate(names):
            if n and i != message and _reads(said, n):
                return _Loop(names, message, i, said, (callee_of(call),))
    # a call written in an assertion's tokens (`assert_eq!(parse(s).unwrap(), v)`)
    for tokens in _macro_tokens(body):
        for arg in split_args(text_of(tokens)[1:-1]):
            for callee, args in calls_in(arg)[:1]:
                for i, n in enumerate(names):
                    if n and i != message and _reads(args, n) and "\n" not in args:
                        name = callee.rsplit("::", 1)[-1].rsplit(".", 1)[-1]
                        return _Loop(names, message, i, f"{callee}({args})", (name,))
    return None


def _reads(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(name)}\b", text) is not None


def _macro_tokens(body: Node) -> Iterator[Node]:
    """The token trees of the macros in ``body``, in order."""
    stack = list(reversed(body.named_children))
    while stack:
        n = stack.pop()
        if n.type == "macro_invocation":
            tt = next((c for c in n.children if c.type == "token_tree"), None)
            if tt is not None:
                yield tt
            continue
        stack.extend(reversed(n.named_children))


def _checked_column(
    body: Node, names: tuple[str | None, ...], text_of: Callable[[Node], str]
) -> int | None:
    """The column an ``assert_eq!``/``assert!`` in ``body`` compares: a name
    of the loop standing alone as one side (``…to_string(), err``)."""
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "macro_invocation":
            macro = n.child_by_field_name("macro")
            if macro is not None and text_of(macro) in ("assert_eq", "assert"):
                said = text_of(n)
                for i, name in enumerate(names):
                    if name and re.search(
                        rf"[(,]\s*\*?{re.escape(name)}\s*[,)]|==\s*\*?{re.escape(name)}\b", said
                    ):
                        return i
        stack.extend(n.named_children)
    return None


def _outer_calls(body: Node) -> Iterator[Node]:
    """The calls of ``body`` that no other call holds, in order."""
    stack = list(reversed(body.named_children))
    while stack:
        n = stack.pop()
        if n.type == "call_expression":
            yield n
            continue
        if n.type != "macro_invocation":
            stack.extend(reversed(n.named_children))


def _rows(value: Node, text_of: Callable[[Node], str]) -> list[tuple[int, list[str]]]:
    """The line and cells of each row of ``&[(…), …]``, ``[(…), …]`` or ``vec![(…), …]``."""
    if value.type == "reference_expression" and value.named_children:
        value = value.named_children[-1]
    if value.type == "macro_invocation":
        macro = value.child_by_field_name("macro")
        tt = next((c for c in value.children if c.type == "token_tree"), None)
        if macro is None or text_of(macro) != "vec" or tt is None:
            return []
        rows = [c for c in tt.children if c.type == "token_tree" and text_of(c).startswith("(")]
        return [(r.start_point.row + 1, split_args(text_of(r)[1:-1])) for r in rows[:MAX_ROWS]]
    if value.type != "array_expression":
        return []
    return [
        (c.start_point.row + 1, [text_of(cell) for cell in c.named_children])
        for c in value.named_children[:MAX_ROWS]
        if c.type == "tuple_expression"
    ]


def _add(
    rows: list[tuple[int, list[str]]],
    loop: _Loop,
    bound: dict[str, str],
    path: str,
    test: str,
    unquote: Callable[[str], str | None],
    out: list[TestExpect],
    made: list[RowCall],
) -> None:
    """Each row as a test of its message (``out``), or, in a table of
    valid inputs, as the call it makes (``made``)."""
    input_name = loop.names[loop.input] or ""
    for line, cells in rows:
        if len(cells) != len(loop.names):
            continue
        given = cells[loop.input]
        if "\n" in given:
            continue
        call = _put(input_name, given, loop.call)
        for name, ty in bound.items():
            call = re.sub(rf"(?<![\w:]){re.escape(name)}\b", ty.replace("\\", r"\\"), call)
        if loop.message is None:
            made += [(c, test, line, call) for c in loop.callees if c]
            continue
        said = cells[loop.message]
        message = unquote(said) if _STRING.match(said) else None
        if message is None or len(message) < 4:
            continue
        out.append(
            TestExpect(
                test=test,
                path=path,
                line=line,
                kind="assert-text",
                exception=None,
                pattern=message,
                is_regex=False,
                body=call,
                body_line=line,
                calls=tuple(c for c in loop.callees if c),
                inputs=(given,),
            )
        )


def _put(name: str, value: str, call: str) -> str:
    """``call`` with ``value`` in place of each use of ``name``."""
    return re.sub(rf"(?<![\w.]){re.escape(name)}\b", lambda _m: value, call)
