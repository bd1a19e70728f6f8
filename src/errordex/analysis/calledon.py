"""Whether a test calls a function on its type (pure): by the type's path,
or on a local it binds to a value of that type by name. A method's name
alone (``advance``, ``remove``) is defined by a dozen types; the test
says which one only this way."""

from __future__ import annotations

import re


def _last_name(symbol: str) -> str:
    return symbol.rsplit("::", 1)[-1].rsplit(".", 1)[-1]


def called_by_path(body: str, symbol: str) -> bool:
    """Whether the test calls ``symbol`` on its type, by path
    (``Uniform::new(…)``, ``HeaderMap::<u32>::with_capacity(…)``,
    ``CliRunner.invoke(…)``), or on a local the test binds to a value of
    that type by name (``let mut v: SmallVec<u8, 8> = …; v.remove(9)``,
    ``let mut a = BytesMut::from("x"); a.advance(20)``): not on a value
    whose type it does not show."""
    name = _last_name(symbol)
    head = symbol.replace(".", "::").rsplit("::", 1)[0]
    if head.startswith("<"):
        head = head[1:].split(" as ", 1)[0]
    owner = head.rsplit("::", 1)[-1].split("<", 1)[0]
    if not owner or owner == symbol:
        return False
    own, call = re.escape(owner), re.escape(name)
    if re.search(rf"\b{own}\s*(?:::<[^()]*>)?\s*(?:::|\.)\s*{call}\s*\(", body):
        return True
    for receiver in dict.fromkeys(re.findall(rf"\b([a-z_]\w*)\s*\.\s*{call}\s*\(", body)):
        var = re.escape(receiver)
        typed = rf"\blet\s+(?:mut\s+)?{var}\s*:\s*(?:&\s*(?:mut\s+)?)?(?:\w+::)*{own}\b"
        built = re.search(
            rf"\blet\s+(?:mut\s+)?{var}\s*=\s*(?:\w+::)*{own}\s*(?:::<[^()]*>)?\s*::\s*\w+\s*\(",
            body,
        )
        bindings = re.findall(rf"\blet\s+(?:mut\s+)?{var}\b", body)
        # bound once, to that type (a constructor's value as it is: a call
        # chained on it, `Config::new(…).init()`, may give another type)
        if len(bindings) == 1 and (re.search(typed, body) or (built and _ends(body, built.end()))):
            return True
    return False


def _ends(text: str, start: int) -> bool:
    """Whether the call whose ``(`` ends just before ``start`` ends its
    statement (``;`` right after its ``)``)."""
    depth, i = 1, start
    while i < len(text) and depth:
        c = text[i]
        if c == '"':
            close = text.find('"', i + 1)
            while close > 0 and text[close - 1] == "\\":
                close = text.find('"', close + 1)
            i = close if close > 0 else len(text)
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        i += 1
    return depth == 0 and text[i:].lstrip().startswith(";")
