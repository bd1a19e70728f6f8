"""Rust panics (both layouts), backtraces, and errors returned from ``main``.

Layouts read:

- since 1.73: ``thread 'main' panicked at src/main.rs:2:5:`` then the message
  on its own line(s); recent rustc adds a thread id, ``thread 'main' (123)``;
- before 1.73: ``thread 'main' panicked at 'msg', src/main.rs:2:5``;
- ``RUST_BACKTRACE=1`` / ``full`` frames (``  0: sym`` / ``at path:l:c``);
- ``Error: Debug { .. }`` from ``fn main() -> Result``, with anyhow's
  ``Caused by:`` list.

Frames: the panic location first (``function`` None), then the backtrace
frames as printed (innermost first).

``expect`` is ambiguous: ``x.expect("msg")`` prints ``msg: <Debug of the
error>``, which ``panic!("msg: {:?}", e)`` prints too. The message is kept
whole; ``values["expect_prefix"]`` holds the part before the Debug payload and
``values["error"]`` the payload, so a matcher can try both. When the payload
wraps one message (``Error("bad input")``, a quoted string, or an error whose
Debug prints its report between parentheses, ending ``error: msg``),
``values["error_message"]`` holds that message (``debug_message``).
"""

from __future__ import annotations

import re

from errordex.languages.rust.debug import is_debug, named, opaque
from errordex.paste.model import Found, Frame, Named, ParsedError

MAX_MESSAGE_LINES = 200
#: Causes read from one ``Caused by:`` list.
MAX_CAUSES = 64

_NEW = re.compile(
    r"^thread '([^'\n]{0,500})'(?: \((\d{1,20})\))? panicked at (\S.{0,4095}?):(\d{1,9}):(\d{1,9}):$"
)
_OLD = re.compile(r"^thread '([^'\n]{0,500})'(?: \((\d{1,20})\))? panicked at '(.*)$", re.DOTALL)
_LOCATION = re.compile(r"^(\S{1,4096}?):(\d{1,9})(?::(\d{1,9}))?$")
_BT_FRAME = re.compile(r"^\s{0,12}(\d{1,6}):(?: {1,8}0x[0-9a-fA-F]{1,16} -)? (\S.{0,4095})$")
_BT_AT = re.compile(r"^\s{1,40}at (\S.{0,4095}?):(\d{1,9})(?::(\d{1,9}))?$")
_ASSERT_NEW = re.compile(r"^assertion `(left [=!]= right)` failed(?:: (.*))?$", re.DOTALL)
_LEFT = re.compile(r"^  left: (.*)$")
_RIGHT = re.compile(r"^ right: (.*)$")
_DEBUG = re.compile(
    r'^(?:[A-Z]\w{0,200}(?:::\w{1,200}){0,10}(?: ?\{.*\}|\(.*\)|\[.*\])|"(?:[^"\\]|\\.)*")$',
    re.DOTALL,
)
#: A unit variant's Debug form: one CamelCase word (``OddLength``); a
#: single capitalized word (``Empty``) only where nothing else can be meant.
_UNIT = re.compile(r"^[A-Z][a-z0-9]{1,40}(?:[A-Z][a-z0-9]{0,40}){1,8}$")
_WORD = re.compile(r"^[A-Z][A-Za-z0-9]{1,63}$")
_IDENT = re.compile(r"^([A-Za-z_]\w{0,200}(?:::\w{1,200}){0,10})")
_TUPLE_STR = re.compile(r'^[A-Z]\w{0,200}(?:::\w{1,200}){0,10}\(("(?:[^"\\]|\\.)*")\)$', re.DOTALL)
_TUPLE_OPEN = re.compile(r"^[A-Z]\w{0,200}(?:::\w{1,200}){0,10}\($")
#: ``dbg!``'s prefix: ``[src/main.rs:4:5] r = ``
_DBG = re.compile(r"^\[[^\]\n]{1,4096}:\d{1,9}(?::\d{1,9})?\] [^\n]{0,4096}? = (.*)$", re.DOTALL)
_WRAPPED = re.compile(r"^(?:Err|Ok|Some)\((.*)\)$", re.DOTALL)
_CAUSE = re.compile(r"^\d{1,4}: (.*)$")
_RULE = re.compile(r"^[~=-]{3,}$")
_STOP = ("note: ", "stack backtrace:")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0"}


def find(lines: list[str]) -> list[Found]:
    """Find panics in cleaned ``lines``."""
    found: list[Found] = []
    i = 0
    n = len(lines)
    while i < n:
        ln = lines[i]
        if "panicked at " not in ln:
            i += 1
            continue
        head = ln.strip()
        m = _NEW.match(head)
        mo = None
        causes: list[str] = []
        if m:
            msg_lines, j = _new_message(lines, i + 1)
            causes, j = causes_after(lines, j)  # unwrap() of an anyhow or eyre report
            loc = Frame(m.group(3), int(m.group(4)), int(m.group(5)), None)
        else:
            mo = _OLD.match(head)
            if not mo:
                i += 1
                continue
            old = _old_message(lines, i, mo.group(3))
            if old is None:
                i += 1
                continue
            msg_lines, loc, j = old
        frames, j = _backtrace(lines, j)
        hm = m or mo
        thread = hm.group(1) if hm else ""
        err = panic_error(msg_lines, (loc, *frames), thread)
        found.append(Found(i, max(i, j - 1), err))
        found += [Found(i, max(i, j - 1), _main_error(c, c, "cause")) for c in causes]
        i = max(j, i + 1)
    return found


def find_main_error(lines: list[str]) -> list[Found]:
    """``Error: ...`` printed by ``main`` returning ``Err`` (a weak signal);
    or an anyhow or eyre report printed alone (``{:?}``): a first line,
    then its ``Caused by:`` list."""
    first = next((k for k, ln in enumerate(lines) if ln.strip()), None)
    for i, ln in enumerate(lines):
        if ln.startswith("Error: "):
            payload = ln[len("Error: ") :].strip()
        elif i == first and causes_after(lines, i + 1)[0]:
            payload = ln.strip()
        else:
            continue
        j = i + 1
        if payload.endswith(("(", "{")):
            # a Debug value over several lines ({:#?}, or regex's boxed report):
            # up to the line that closes it at the margin
            for k in range(j, min(len(lines), j + MAX_MESSAGE_LINES)):
                if lines[k].rstrip() in (")", "}"):
                    payload = "\n".join([payload, *lines[j : k + 1]])
                    j = k + 1
                    break
        causes, j = causes_after(lines, j)
        debug = bool(_DEBUG.match(payload) or _WORD.match(payload))
        if not debug and not causes:
            continue
        out = [Found(i, max(i, j - 1), _main_error(payload, ln, None))]
        out += [Found(i, j - 1, _main_error(c, c, "cause")) for c in causes]
        return out
    return []


def causes_after(lines: list[str], j: int) -> tuple[list[str], int]:
    """The ``Caused by:`` list of an anyhow or eyre report that starts at
    line ``j`` (after blank lines), outermost first, and the line after it
    (and after eyre's ``Location:`` block); ``([], j)`` when there is none.

    anyhow numbers the causes from ``    0: `` (one cause is not numbered);
    eyre from ``   0: ``; a cause's further lines are indented deeper.
    """
    k = j
    while k < len(lines) and not lines[k].strip():
        k += 1
    if k >= len(lines) or lines[k].strip() != "Caused by:":
        return [], j
    k += 1
    causes: list[str] = []
    while k < len(lines) and len(causes) < MAX_CAUSES:
        ln = lines[k]
        if ln.strip() and not ln.startswith((" ", "\t")):
            break
        text = ln.strip()
        numbered = _CAUSE.match(text)
        if numbered:
            causes.append(numbered.group(1))
        elif text and causes and ln.startswith(" " * 6):
            causes[-1] += "\n" + text  # a cause of several lines
        elif text:
            causes.append(text)
        k += 1
    end = k
    while end < len(lines) and not lines[end].strip():
        end += 1
    if end < len(lines) and lines[end].strip() == "Location:":
        end += 1
        while end < len(lines) and lines[end].startswith((" ", "\t")) and lines[end].strip():
            end += 1
        k = end
    return causes, k


def find_debug(lines: list[str]) -> list[Found]:
    """A paste that is one Debug value (``ParseError { kind: InvalidDigit }``),
    as ``{:?}`` prints an error, or as ``dbg!`` prints it after its
    ``[src/main.rs:4:5] expr = `` (a weak signal)."""
    text = "\n".join(lines).strip()
    shown = _DBG.match(text)
    if shown is not None:
        text = shown.group(1).strip()
    inner = text[1:-1] if _quoted(text) and _DEBUG.match(text) and "\n" not in text else None
    if inner is not None and not (opaque(inner) or is_debug(inner)):
        # ``{:?}`` of a ``String`` error (configparser's, iso8601's): the
        # text it quotes, as the unwrap panic and ``Error: ..`` read it; a
        # Debug that writes its name as a string (crossbeam's
        # ``"SendError(..)".fmt(f)``) is still that name
        quoted = ParsedError(
            message=_unescape(inner),
            raw=text,
            exception_type=None,
            language="rust",
            kind="debug",
            values={"error": text},
        )
        return [Found(0, max(0, len(lines) - 1), quoted)]
    if not is_debug(text):
        return []  # a bare name (``OddLength``) is read as a type's name
    values = {"error": text}
    _add_error_message(values)
    err = ParsedError(
        message=text,
        raw=text,
        exception_type=None,
        language="rust",
        kind="debug",
        values=values,
        named=tuple(named(text)),
    )
    return [Found(0, max(0, len(lines) - 1), err)]


def panic_error(msg_lines: list[str], frames: tuple[Frame, ...], thread: str) -> ParsedError:
    """Classify a panic message (``not implemented: ``, assertions, ...)."""
    values: dict[str, str] = {"thread": thread}
    raw = "\n".join(msg_lines)
    text = raw
    kind = "panic"
    message = text
    if text.startswith(("assertion `left", "assertion failed: `(left")):
        message, kind = _assertion(msg_lines, values)
    elif text == "not implemented" or text.startswith("not implemented: "):
        kind, message = "unimplemented", text.removeprefix("not implemented: ")
    elif text == "not yet implemented" or text.startswith("not yet implemented: "):
        kind, message = "todo", text.removeprefix("not yet implemented: ")
    elif text == "internal error: entered unreachable code" or text.startswith(
        "internal error: entered unreachable code: "
    ):
        kind = "unreachable"
        message = text.removeprefix("internal error: entered unreachable code: ")
    elif text.startswith("assertion failed: "):
        kind = "assert"
        values["condition"] = text.removeprefix("assertion failed: ")
    elif text.startswith("called `Result::unwrap()` on an `Err` value: "):
        kind = "unwrap"
        values["error"] = text.removeprefix("called `Result::unwrap()` on an `Err` value: ")
        _add_error_message(values)
    elif text.startswith("called `Option::unwrap()` on a `None` value"):
        kind = "unwrap"
    elif text.startswith("called `Result::unwrap_err()` on an `Ok` value: "):
        kind = "unwrap"
        values["value"] = text.removeprefix("called `Result::unwrap_err()` on an `Ok` value: ")
    else:
        split = split_debug_tail(text)
        if split is not None:
            kind = "expect"
            values["expect_prefix"], values["error"] = split
            _add_error_message(values)
        elif any(f.function and "expect" in f.function for f in frames):
            kind = "expect"
    return ParsedError(
        message=message,
        raw=raw,
        exception_type=None,
        language="rust",
        kind=kind,
        frames=frames,
        values=values,
        named=tuple(named(values["error"])) if "error" in values else (),
    )


def split_debug_tail(text: str) -> tuple[str, str] | None:
    """Split ``"msg: Debug { .. }"`` at the first ``: `` a Debug value follows.

    >>> split_debug_tail('write failed: "disk: full"')
    ('write failed', '"disk: full"')
    """
    start = 0
    for _ in range(50):
        k = text.find(": ", start)
        if k < 0:
            return None
        tail = text[k + 2 :]
        if k > 0 and (_DEBUG.match(tail) or _UNIT.match(tail)):
            return text[:k], tail
        start = k + 2
    return None


def debug_message(payload: str) -> str | None:
    """The message an error's Debug text wraps, or None when it wraps none.

    >>> debug_message('Error("unexpected character \\'x\\'")')
    "unexpected character 'x'"
    >>> debug_message('Syntax(\\n~~~~\\nregex parse error:\\n    a(b\\n     ^\\nerror: unclosed group\\n~~~~\\n)')
    'unclosed group'
    >>> debug_message("ParseIntError { kind: InvalidDigit }") is None
    True
    """
    text = payload.strip()
    wrapped = _WRAPPED.match(text)
    if wrapped is not None and is_debug(text):
        # Err(..), Some(..): the value inside (dbg!'s pretty form ends ",\n)")
        inner = wrapped.group(1).strip().removesuffix(",").strip()
        return debug_message(inner) if inner else None
    m = _TUPLE_STR.match(text)
    if m:  # a tuple struct around one string: Error("...")
        return _unescape(m.group(1)[1:-1])
    if len(text) >= 2 and text[0] == text[-1] == '"' and _DEBUG.match(text):
        return _unescape(text[1:-1])
    lines = text.splitlines()
    if len(lines) < 3 or not _TUPLE_OPEN.match(lines[0]) or lines[-1].strip() != ")":
        return _leading_string(text)
    # a custom Debug that prints the error's report: regex's Syntax(...) box
    body = [ln for ln in lines[1:-1] if not _RULE.match(ln.strip())]
    for ln in reversed(body):
        if ln.startswith("error: ") and ln[7:].strip():
            return ln[7:].strip()
    inner = "\n".join(body).strip()
    return inner or None


def _leading_string(text: str) -> str | None:
    """``Error("key must be a string", line: 1, column: 2)``: a hand-written
    Debug that prints the message first, then where; and the standard
    library's ``io::Error`` made with a message, ``Custom { kind:
    InvalidInput, error: "invalid gzip header" }``."""
    if not is_debug(text):
        return None
    top = named(text)
    if top and top[0].name == "Custom":
        fields = dict(top[0].fields)
        err = fields.get("error", "")
        if "kind" in fields and len(err) >= 2 and err[0] == err[-1] == '"':
            return _unescape(err[1:-1])
    if not top or not top[0].items or not top[0].items[0].startswith('"'):
        return _held_message(top)
    lit = top[0].items[0]
    if len(lit) < 2 or not lit.endswith('"'):
        return None
    return _unescape(lit[1:-1])


#: Field names that hold an error's message in its Debug form
_MESSAGE_FIELDS = frozenset({"message", "msg", "info", "description", "reason", "error", "details"})


def _held_message(top: list[Named]) -> str | None:
    """The message a value holds deeper in: a field named for one (cc's
    ``Error { kind: EnvVarNotFound, message: "Environment variable .." }``,
    yaml's ``ScanError { mark: .., info: ".." }``), or a variant inside
    that wraps a sentence (serde_cbor's ``ErrorImpl { code: Message("invalid
    type: ..") , offset: 0 }``). The first in the text; a string that is no
    sentence (``UnknownField("z")``) is data, not a message."""
    for n in top:
        if n.runtime and n.name != "Custom":
            # std's own text (io::Error's Os { .., message: ".." }, Error {
            # kind: UnexpectedEof, message: ".." }) is no crate's message;
            # a Custom { kind, error: ".." } holds the text a crate gave it
            continue
        for field, value in n.fields:
            if field in _MESSAGE_FIELDS and _quoted(value):
                return _unescape(value[1:-1])
        if n.depth > 0 and n.items and _quoted(n.items[0]) and " " in n.items[0].strip('"'):
            return _unescape(n.items[0][1:-1])
    return None


def _quoted(value: str) -> bool:
    """A whole string literal (not one cut at ``debug.MAX_VALUE``)."""
    return len(value) >= 2 and value[0] == value[-1] == '"' and not value.endswith('\\"')


def _add_error_message(values: dict[str, str]) -> None:
    payload = values["error"]
    if opaque(payload):
        return  # "SendError(..)" names the error; it is no message
    inner = debug_message(payload)
    if inner and inner != payload:
        values["error_message"] = inner
    elif inner is None and not (_DEBUG.match(payload) or _WORD.match(payload.strip())):
        # a hand-written Debug that prints the Display text (``Os { .. }``
        # aside, many errors do): the payload is the message
        values["error_message"] = payload


def _new_message(lines: list[str], i: int) -> tuple[list[str], int]:
    out: list[str] = []
    while i < len(lines) and len(out) < MAX_MESSAGE_LINES:
        ln = lines[i]
        if not ln.strip() or ln.startswith(_STOP) or "panicked at " in ln:
            break
        out.append(ln)
        i += 1
    return out, i


def _old_message(lines: list[str], i: int, first: str) -> tuple[list[str], Frame, int] | None:
    """Read ``'msg', path:line:col``; the message may span lines."""
    text = first
    msg: list[str] = []
    for j in range(i, min(len(lines), i + MAX_MESSAGE_LINES)):
        if j > i:
            text = lines[j]
        k = text.rfind("', ")
        if k >= 0:
            loc = _LOCATION.match(text[k + 3 :])
            if loc:
                msg.append(text[:k])
                col = int(loc.group(3)) if loc.group(3) else None
                return msg, Frame(loc.group(1), int(loc.group(2)), col, None), j + 1
        msg.append(text)
    return None


def _backtrace(lines: list[str], i: int) -> tuple[list[Frame], int]:
    """Read an optional ``stack backtrace:`` block and the notes around it."""
    frames: list[Frame] = []
    n = len(lines)
    while i < n and (lines[i].startswith("note: ") or not lines[i].strip()):
        if i + 1 < n and not lines[i].strip() and not lines[i + 1].startswith(("note: ", "stack")):
            break
        i += 1
    if i < n and lines[i].strip() == "stack backtrace:":
        i += 1
        while i < n:
            fm = _BT_FRAME.match(lines[i])
            am = _BT_AT.match(lines[i]) if not fm else None
            if fm:
                frames.append(Frame(None, None, None, fm.group(2).strip()))
            elif am and frames:
                last = frames[-1]
                col = int(am.group(3)) if am.group(3) else None
                frames[-1] = Frame(am.group(1), int(am.group(2)), col, last.function)
            else:
                break
            i += 1
        while i < n and lines[i].startswith("note: "):
            i += 1
    return frames, i


def _assertion(msg_lines: list[str], values: dict[str, str]) -> tuple[str, str]:
    """Read both assertion layouts; return (message, kind)."""
    body = list(msg_lines)
    first = "\n".join(body)
    if body and body[0].startswith("assertion failed: `(left"):
        # Before 1.73: assertion failed: `(left == right)`
        #   left: `1`,
        #  right: `2`: msg
        values["assertion"] = body[0].removeprefix("assertion failed: `(").removesuffix(")`")
        if len(body) >= 3 and body[1].startswith("  left: `") and body[2].startswith(" right: `"):
            values["left"] = body[1][len("  left: `") :].removesuffix("`,")
            right = body[2][len(" right: `") :]
            rest = "\n".join([right, *body[3:]])
            k = rest.find("`: ")
            if k >= 0 and rest.endswith("`") and "`: " not in rest[k + 3 :]:
                k = -1
            if k >= 0:
                values["right"] = rest[:k]
                return rest[k + 3 :], "assert"
            values["right"] = rest.removesuffix("`")
        return body[0], "assert"
    # Since 1.73: the message, then "  left: x" and " right: y" lines.
    right_at = next((k for k in range(len(body) - 1, -1, -1) if _RIGHT.match(body[k])), None)
    if right_at is not None and right_at > 0 and _LEFT.match(body[right_at - 1]):
        values["left"] = body[right_at - 1][len("  left: ") :]
        values["right"] = body[right_at][len(" right: ") :]
        first = "\n".join(body[: right_at - 1])
    m = _ASSERT_NEW.match(first)
    if not m:
        return first, "assert"
    values["assertion"] = m.group(1)
    return (m.group(2) if m.group(2) is not None else first), "assert"


def _main_error(payload: str, raw: str, relation: str | None) -> ParsedError:
    """``Error: <Debug>``: the outer name of a Debug value is not the error's
    type (``Error(Parse(..))``), so it is not given as one; its names are
    ``named``, and a message it wraps is ``values["error_message"]``."""
    values = {"error": payload} if relation is None else {}
    message = payload
    debug = False
    if relation is None and opaque(payload):
        debug = True  # "SendError(..)": a name, not a message
    elif payload.startswith('"') and payload.endswith('"') and len(payload) >= 2:
        message = _unescape(payload[1:-1])
    elif relation is None and (_DEBUG.match(payload) or _WORD.match(payload)):
        debug = True
        _add_error_message(values)
    return ParsedError(
        message=message,
        raw=raw,
        exception_type=None,
        language="rust",
        kind="err-return",
        values=values,
        relation=relation,
        named=tuple(named(payload)) if debug else (),
    )


def _unescape(text: str) -> str:
    """Undo Rust's Debug escaping of a string (the common escapes only)."""
    if "\\" not in text:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] in _ESCAPES:
            out.append(_ESCAPES[text[i + 1]])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)
