"""Documented examples that raise: ``>>>`` sessions in docs and docstrings
whose output is a traceback (pure).

Each is a reproduction the maintainers wrote down, with the exception and
message it prints, and, when the same session also makes the same call
without an error just before or after (attrs' docs show ``C(41)`` then
``C(42)``), that call as the documented fix.

    >>> doc = '''
    ... >>> @define
    ... ... class C:
    ... ...     x = field(validator=lt(42))
    ... >>> C(41)
    ... C(x=41)
    ... >>> C(42)
    ... Traceback (most recent call last):
    ...    ...
    ... ValueError: ("'x' must be < 42: 42")
    ... '''
    >>> (t,) = examples("docs/api.md", doc)
    >>> t.kind, t.exception, t.pattern, t.line, t.fixed, t.fixed_line
    ('doctest', 'ValueError', "'x' must be < 42: 42", 7, 'C(41)', 5)
    >>> print(t.body)
    @define
    class C:
        x = field(validator=lt(42))
    C(42)
"""

from __future__ import annotations

import ast
import re

from errordex.analysis.evidence import TestExpect

_PROMPT = re.compile(r"^(\s*)>>> ?(.*)$")
_MORE = re.compile(r"^(\s*)\.\.\.(?: (.*))?$")
_RAISED = re.compile(r"^\s*([A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit|Interrupt)\w*):\s*(.*)$")
#: the longest example kept (setup and the call that raises)
MAX_LINES = 16


def examples(path: str, text: str) -> tuple[TestExpect, ...]:
    """The ``>>>`` statements of ``text`` whose output is a traceback."""
    if ">>>" not in text:
        return ()
    out: list[TestExpect] = []
    for session in _sessions(text.splitlines()):
        for i, (line, source, output) in enumerate(session):
            raised = _raised(output)
            if raised is None:
                continue
            exception, message = raised
            call = _statement(source)
            if call is None:
                continue
            twin = _twin(session, i, call)
            setup = [
                s
                for j, (_, s, o) in enumerate(session[:i])
                if _raised(o) is None and (twin is None or j != twin[2]) and _is_setup(s)
            ]
            body = "\n".join([*setup, source])
            if body.count("\n") + 1 > MAX_LINES:
                body = source
            first = next((ln for ln, s, _ in session[:i] if setup and s == setup[0]), line)
            out.append(
                TestExpect(
                    test=f"{path}:{line}",
                    path=path,
                    line=line,
                    kind="doctest",
                    exception=exception.rsplit(".", 1)[-1],
                    pattern=message or None,
                    is_regex=False,
                    body=body,
                    body_line=first if body != source else line,
                    calls=tuple(_called(call)),
                    fixed=twin[1] if twin else "",
                    fixed_line=twin[0] if twin else 0,
                )
            )
    return tuple(out)


#: (line, source, output lines) of one ``>>>`` statement
Statement = tuple[int, str, list[str]]


def _sessions(lines: list[str]) -> list[list[Statement]]:
    """Runs of ``>>>`` statements, each with its continuation and output."""
    sessions: list[list[Statement]] = []
    current: list[Statement] = []
    i = 0
    while i < len(lines):
        m = _PROMPT.match(lines[i])
        if m is None:
            if current and not lines[i].strip():
                i += 1
                continue
            if current:
                sessions.append(current)
                current = []
            i += 1
            continue
        indent, first = m.group(1), m.group(2)
        start = i + 1
        source = [first]
        i += 1
        while i < len(lines) and (more := _MORE.match(lines[i])) and more.group(1) == indent:
            source.append(more.group(2) or "")
            i += 1
        output: list[str] = []
        while (
            i < len(lines)
            and lines[i].strip()
            and not _PROMPT.match(lines[i])
            and not lines[i].lstrip().startswith(("```", "~~~"))  # the end of a code block
        ):
            output.append(lines[i])
            i += 1
        current.append((start, "\n".join(source), output))
    if current:
        sessions.append(current)
    return sessions


def _raised(output: list[str]) -> tuple[str, str] | None:
    """(exception, message) of a traceback output."""
    if not output or not output[0].strip().startswith("Traceback (most recent call last)"):
        return None
    m = _RAISED.match(output[-1])
    if m is None:
        return None
    return m.group(1), _message(m.group(2).strip())


def _message(text: str) -> str:
    """The message an output line shows: attrs prints a tuple of the
    message and more (``("'x' must be < 42: 42")``, ``('…', …)``)."""
    if text.startswith("(") and text.endswith(")"):
        m = re.match(r"""\(\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')""", text)
        if m is not None:
            try:
                value = ast.literal_eval(m.group(1))
            except (ValueError, SyntaxError):
                return text
            return str(value)
    return text


def _statement(source: str) -> ast.expr | None:
    """The expression a statement evaluates (``C(42)``, ``x = f(1)``)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    if len(tree.body) != 1:
        return None
    stmt = tree.body[0]
    if isinstance(stmt, ast.Expr):
        return stmt.value
    if isinstance(stmt, ast.Assign):
        return stmt.value
    return None


def _twin(session: list[Statement], at: int, call: ast.expr) -> tuple[int, str, int] | None:
    """The nearest statement of the session that makes the same call
    (``C(…)``) without an error: (line, source, index)."""
    if not isinstance(call, ast.Call):
        return None
    want = ast.dump(call.func)
    order = sorted(range(len(session)), key=lambda j: abs(j - at))
    for j in order:
        line, source, output = session[j]
        if j == at or _raised(output) is not None:
            continue
        other = _statement(source)
        if (
            isinstance(other, ast.Call)
            and ast.dump(other.func) == want
            and ast.dump(other) != ast.dump(call)
        ):
            return line, source, j
    return None


def _is_setup(source: str) -> bool:
    """A statement that prepares the example (an import, a definition, an
    assignment), not one that only shows a value."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    return all(not isinstance(s, ast.Expr) for s in tree.body)


def _called(node: ast.expr) -> list[str]:
    return [
        n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id
        for n in ast.walk(node)
        if isinstance(n, ast.Call) and isinstance(n.func, (ast.Attribute, ast.Name))
    ]
