"""Read the Debug form of a Rust value: the names in it, how deep, and what
each printed (pure; never raises).

``#[derive(Debug)]`` prints a struct as ``Name { field: value, .. }``, a
tuple struct or variant as ``Name(value, ..)`` and a unit variant as
``Name``; hand-written ones print what they like, often the same shapes
(serde_json's ``Error("msg", line: 1, column: 2)``). The names are what
tie a pasted value to the error types of a crate: the innermost one that
has a message is the error the user met. Names inside a list (``keys:
[InvalidArg, InvalidValue]``) are data the error holds, not its own, and
are left out.

    >>> [(n.name, n.depth, n.fields) for n in named("ParseError { kind: InvalidDigit }")]
    [('ParseError', 0, (('kind', 'InvalidDigit'),)), ('InvalidDigit', 1, ())]
    >>> [(n.name, n.items) for n in named("CompiledTooBig(10)")]
    [('CompiledTooBig', ('10',))]
    >>> [(n.name, n.fields) for n in named("ExactlyOneError[Second: 2, RemainingIter: IntoIter([])]")]
    [('ExactlyOneError', (('Second', '2'), ('RemainingIter', 'IntoIter([])'))), ('IntoIter', ())]
"""

from __future__ import annotations

import contextlib
import re

from errordex.paste.model import Named

#: Characters of a Debug text read.
MAX_TEXT = 16 * 1024
#: Names kept from one value.
MAX_NAMES = 64
#: Nesting read.
MAX_DEPTH = 48
#: Characters of a field's value kept (for "your values").
MAX_VALUE = 200

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<str>b?"(?:[^"\\]|\\.)*")
      | (?P<chr>'(?:[^'\\]|\\.)')
      | (?P<name>[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)
      | (?P<num>-?[0-9][\w.+-]*)
      | (?P<punct>[{}()\[\],:])
      | (?P<other>\S)
    )""",
    re.VERBOSE | re.DOTALL,
)
#: Names that wrap a value rather than name an error.
_WRAPPERS = frozenset({"Some", "None", "Ok", "Err", "Box", "Arc", "Rc", "Cow"})
#: The standard library's error types, which crates hold inside their own
#: (bincode's ``InvalidUtf8Encoding(Utf8Error { .. })``) and some copy by
#: name (bstr's ``Utf8Error``), each with the shape std prints it in: the
#: fields of ``Name { .. }`` (every one named), the values of ``Name(..)``
#: (how many), or ``None`` for a bare ``Name``. Held inside another value in
#: that shape, they are std's; a crate's own type of one of these names in
#: another shape (a ``Custom(String)`` variant, a ``RecvError`` wrapping a
#: value) is its own.
STD_SHAPES: dict[str, tuple[frozenset[str] | int | None, ...]] = {
    "Utf8Error": (frozenset({"valid_up_to", "error_len"}),),
    "FromUtf8Error": (frozenset({"bytes", "error"}),),
    "FromUtf16Error": (1,),
    "ParseIntError": (frozenset({"kind"}),),
    "ParseFloatError": (frozenset({"kind"}),),
    "ParseCharError": (frozenset({"kind"}),),
    "ParseBoolError": (None, frozenset({"_priv"})),
    "TryFromIntError": (1,),
    "TryFromSliceError": (1,),
    "CharTryFromError": (1,),
    "AddrParseError": (1,),
    "SystemTimeError": (1,),
    "RecvError": (None,),
    "RecvTimeoutError": (None,),
    "NulError": (2,),
    "FromBytesWithNulError": (frozenset({"kind"}),),
    "IntoStringError": (frozenset({"inner", "error"}),),
    "LayoutError": (None,),
    # env::VarError prints its variants alone
    "NotPresent": (None,),
    "NotUnicode": (1,),
    # io::Error: of an OS code, a custom error, or a constant message
    "Os": (frozenset({"code", "kind", "message"}),),
    "Custom": (frozenset({"kind", "error"}),),
}
#: kept for readers of the names alone
STD_ERRORS = frozenset(STD_SHAPES)
#: ``io::ErrorKind``'s variants: std prints an ``io::Error`` made of one as
#: ``Kind(UnexpectedEof)``, a kind with no message of any crate's
IO_KINDS = frozenset(
    {
        *("NotFound", "PermissionDenied", "ConnectionRefused", "ConnectionReset"),
        *("ConnectionAborted", "NotConnected", "AddrInUse", "AddrNotAvailable", "BrokenPipe"),
        *("AlreadyExists", "WouldBlock", "InvalidInput", "InvalidData", "TimedOut"),
        *("WriteZero", "Interrupted", "Unsupported", "UnexpectedEof", "OutOfMemory", "Other"),
        *("HostUnreachable", "NetworkUnreachable", "NetworkDown", "IsADirectory"),
        *("NotADirectory", "DirectoryNotEmpty", "ReadOnlyFilesystem", "StorageFull"),
        *("ResourceBusy", "Deadlock", "FileTooLarge", "InvalidFilename", "TooManyLinks"),
        *("ArgumentListTooLong", "StaleNetworkFileHandle", "NotSeekable", "QuotaExceeded"),
        *("ExecutableFileBusy", "CrossesDevices", "Uncategorized"),
    }
)
_CLOSE = {"{": "}", "(": ")", "[": "]"}


#: A hand-written Debug that hides its fields prints a string about them:
#: crossbeam's ``"SendError(..)"`` (``"SendError(..)".fmt(f)``, quotes and all)
_OPAQUE = re.compile(r'"([A-Z]\w{0,200}(?:\(\.\.\)| \{ \.\. \}))"')


def opaque(text: str) -> str | None:
    """The value a quoted opaque Debug form stands for, else None.

    >>> opaque('"SendError(..)"'), opaque('"disk full"')
    ('SendError(..)', None)
    """
    m = _OPAQUE.fullmatch(text.strip()) if isinstance(text, str) else None
    return m.group(1) if m else None


def named(text: str) -> list[Named]:
    """The named values in a Debug text, outermost first (document order)."""
    if not isinstance(text, str):
        return []
    text = opaque(text) or text
    tokens = _tokens(text[:MAX_TEXT])
    out: list[Named] = []
    with contextlib.suppress(IndexError, RecursionError):
        _Reader(tokens, text, out).values(0, None)
    return out[:MAX_NAMES]


def is_debug(text: str) -> bool:
    """Whether ``text`` is one Debug value with a name (``Name { .. }``,
    ``Name(..)``), as a bare paste of one.

    >>> is_debug("ParseError { kind: InvalidDigit }"), is_debug("invalid digit found")
    (True, False)
    """
    t = opaque(text) or text.strip()
    if not t or len(t) > MAX_TEXT or not t[0].isupper():
        return False
    m = re.match(r"[A-Za-z_]\w*(?:::\w+)*(?:\s?([{(])|(\[))", t)
    if m is None or t[-1] != _CLOSE[m.group(1) or m.group(2)]:
        return False
    return _balanced(t)


def _balanced(t: str) -> bool:
    stack: list[str] = []
    for kind, tok, _, _ in _tokens(t):
        if kind == "other" and tok == "'":
            return False  # 'text' is no Rust value (a char is one: 'x'); Python's repr is
        if kind != "punct":
            continue
        if tok in _CLOSE:
            stack.append(_CLOSE[tok])
        elif tok in ")}]" and (not stack or stack.pop() != tok):
            return False
    return not stack


def _tokens(text: str) -> list[tuple[str, str, int, int]]:
    out: list[tuple[str, str, int, int]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            break
        kind = m.lastgroup or "other"
        out.append((kind, m.group(kind), m.start(kind), m.end(kind)))
        pos = m.end()
    return out


class _Reader:
    def __init__(self, tokens: list[tuple[str, str, int, int]], text: str, out: list[Named]):
        self.t = tokens
        self.text = text
        self.i = 0
        self.out = out
        #: inside a list (``[A, B]``): its names are data, not the error's own
        self.listing = 0
        #: inside a std error value held by a crate's (``STD_ERRORS``)
        self.inside_std = 0

    def peek(self, k: int = 0) -> tuple[str, str, int, int] | None:
        j = self.i + k
        return self.t[j] if j < len(self.t) else None

    def values(self, depth: int, close: str | None) -> list[tuple[str | None, int, int]]:
        """Read values up to ``close``: (field name or None, start, end) of each."""
        got: list[tuple[str | None, int, int]] = []
        while self.i < len(self.t):
            tok = self.t[self.i]
            if tok[0] == "punct" and tok[1] == close:
                self.i += 1
                return got
            if tok[0] == "punct" and tok[1] in ",)}]":
                self.i += 1
                continue
            field = None
            nxt = self.peek(1)
            if tok[0] == "name" and nxt is not None and nxt[1] == ":" and close is not None:
                field = tok[1]
                self.i += 2
            start = self.t[self.i][2] if self.i < len(self.t) else len(self.text)
            self.value(depth)
            end = self.t[self.i - 1][3] if self.i > 0 else start
            got.append((field, start, end))
            if close is None and self.i < len(self.t):
                continue
        return got

    def value(self, depth: int) -> None:
        if self.i >= len(self.t):
            return
        kind, tok, _, _ = self.t[self.i]
        self.i += 1
        if kind == "punct" and tok in _CLOSE:
            self.listing += tok == "["
            self._group(tok, depth + 1)
            self.listing -= tok == "["
            return
        if kind != "name":
            return
        name = tok.rsplit("::", 1)[-1]
        nxt = self.peek()
        # a hand-written Debug may bracket its fields right after the name:
        # itertools' ``ExactlyOneError[First: 1, Second: 2, ..]``
        opens = nxt is not None and (
            (nxt[0] == "punct" and nxt[1] in ("{", "("))
            or (nxt[1] == "[" and nxt[2] == self.t[self.i - 1][3] and name[:1].isupper())
        )
        keep = (
            name[:1].isupper()
            and name not in _WRAPPERS
            and not self.listing
            and not self.inside_std
            and len(self.out) < MAX_NAMES
            and not self._io_kind(name, nxt)
        )
        inner = depth if name in _WRAPPERS else depth + 1
        at = len(self.out)
        runtime = depth > 0 and self._std_value(name, nxt if opens else None)
        if keep:
            self.out.append(Named(name, depth, runtime=runtime))
        if not opens or nxt is None:
            return
        self.i += 1
        # what a std value holds is std's (ParseIntError { kind: InvalidDigit }
        # inside a crate's error: std's IntErrorKind, not a crate's variant)
        self.inside_std += runtime
        parts = self.values(inner, _CLOSE[nxt[1]]) if depth < MAX_DEPTH else []
        self.inside_std -= runtime
        if keep:
            fields = tuple((f, self._short(s, e)) for f, s, e in parts if f is not None and e >= s)
            items = tuple(self._short(s, e) for f, s, e in parts if f is None and e >= s)
            self.out[at] = Named(name, depth, fields, items, runtime)

    def _std_value(self, name: str, opener: tuple[str, str, int, int] | None) -> bool:
        """Whether ``name``, about to be read with ``opener`` (``{``, ``(`` or
        None), prints in the shape std prints its type of that name in
        (``STD_SHAPES``), or is an ``io::Error`` of a constant message
        (``Error { kind: UnexpectedEof, message: ".." }``)."""
        shape = self._shape(opener)
        if name == "Error":
            return (
                isinstance(shape, frozenset)
                and shape == {"kind", "message"}
                and self._field_word("kind") in IO_KINDS
            )
        return name in STD_SHAPES and shape in STD_SHAPES[name]

    def _shape(self, opener: tuple[str, str, int, int] | None) -> frozenset[str] | int | None:
        """The shape of the value opened at ``self.i``: its field names
        (``{``), how many values it holds (``(``), or None (no opener)."""
        if opener is None:
            return None
        level, fields, count, j = 0, set(), 0, self.i
        while j < len(self.t):
            kind, tok = self.t[j][0], self.t[j][1]
            if kind == "punct" and tok in _CLOSE:
                level += 1
                if level == 1:
                    j += 1
                    continue
            elif kind == "punct" and tok in ")}]":
                level -= 1
                if level == 0:
                    break
            if level == 1:
                nxt = self.t[j + 1] if j + 1 < len(self.t) else None
                if opener[1] == "{" and kind == "name" and nxt is not None and nxt[1] == ":":
                    fields.add(tok)
                elif opener[1] == "(" and not (kind == "punct" and tok == ","):
                    prev = self.t[j - 1]
                    count += prev[0] == "punct" and prev[1] in "(,"
            j += 1
        return frozenset(fields) if opener[1] == "{" else count

    def _field_word(self, field: str) -> str | None:
        """The bare word a field of the value opened at ``self.i`` holds."""
        level, j = 0, self.i
        while j + 2 < len(self.t):
            kind, tok = self.t[j][0], self.t[j][1]
            if kind == "punct" and tok in _CLOSE:
                level += 1
            elif kind == "punct" and tok in ")}]":
                level -= 1
                if level == 0:
                    return None
            elif level == 1 and tok == field and self.t[j + 1][1] == ":":
                return self.t[j + 2][1] if self.t[j + 2][0] == "name" else None
            j += 1
        return None

    def _io_kind(self, name: str, nxt: tuple[str, str, int, int] | None) -> bool:
        """``Kind(UnexpectedEof)`` as std prints an ``io::Error`` of a kind:
        neither name is a crate's error (both are left out)."""
        if name == "Kind" and nxt is not None and nxt[1] == "(":
            inner, close = self.peek(1), self.peek(2)
            return (
                inner is not None and inner[1] in IO_KINDS and close is not None and close[1] == ")"
            )
        if name in IO_KINDS and self.i >= 3:
            before, kind = self.t[self.i - 2], self.t[self.i - 3]
            return before[1] == "(" and kind[1] == "Kind" and nxt is not None and nxt[1] == ")"
        return False

    def _group(self, open_: str, depth: int) -> None:
        if depth < MAX_DEPTH:
            self.values(depth, _CLOSE[open_])

    def _short(self, start: int, end: int) -> str:
        return self.text[start:end][:MAX_VALUE]
