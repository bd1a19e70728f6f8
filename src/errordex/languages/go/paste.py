"""Go panics (``panic: ...`` with ``goroutine N [running]:`` traces,
``fatal error: ...``), ``log.Fatal`` lines, and an error printed by the
program (``error: a: b: c``, before go run's ``exit status 1``).

Frames are in printed order (innermost first). A wrapped error
``a: b: c`` (``fmt.Errorf("a: %w", err)``) also gives its inner parts
``b: c`` and ``c``, innermost first (relation ``"wrapped"``), each what a
wrapped error printed: the innermost that a library throws is the one to read.
"""

from __future__ import annotations

import re

from errordex.paste.model import Found, Frame, ParsedError
from errordex.paste.plain import plain_error

MAX_MESSAGE_LINES = 200

_GO_PANIC = re.compile(r"^\s{0,8}panic: (.*)$")
_GO_FATAL = re.compile(r"^fatal error: (.*)$")
_GO_RECOVERED = re.compile(r" \[recovered(?:, repanicked)?\]$")
_GO_GOROUTINE = re.compile(r"^goroutine (\d{1,12}) \[([^\]\n]{0,200})\]:$")
_GO_FILE = re.compile(r"^\s{1,8}(\S.{0,4095}?):(\d{1,9})(?: \+0x[0-9a-fA-F]{1,16})?$")
_GO_LOG = re.compile(
    r"^(\d{4}/\d\d/\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?) (?:(\S{1,512}?\.go):(\d{1,9}): )?(.*)$"
)
_EXIT = re.compile(r"^exit status \d{1,4}$")
#: At most this many "wrapped" parts are split off a Go error.
MAX_WRAPPED = 10


def find_go(lines: list[str]) -> list[Found]:
    """Find Go panics and fatal errors (with their goroutine traces)."""
    found: list[Found] = []
    has_goroutine = any(ln.startswith("goroutine ") for ln in lines)
    chain: list[Found] = []
    i, n = 0, len(lines)
    while i < n:
        ln = lines[i]
        pm = _GO_PANIC.match(ln)
        fm = _GO_FATAL.match(ln) if not pm else None
        if not pm and not (fm and has_goroutine):
            if chain and ln.strip():
                found.extend(_close_chain(chain, lines, i))
                chain = []
            i += 1
            continue
        text = (pm or fm).group(1)  # type: ignore[union-attr]
        recovered = bool(_GO_RECOVERED.search(text))
        text = _GO_RECOVERED.sub("", text)
        msg = [text]
        j = i + 1
        while j < n and len(msg) < MAX_MESSAGE_LINES:
            nxt = lines[j]
            if (
                not nxt.strip()
                or nxt.startswith(("[signal ", "goroutine "))
                or _GO_PANIC.match(nxt)
            ):
                break
            msg.append(nxt)
            j += 1
        values: dict[str, str] = {}
        if j < n and lines[j].startswith("[signal "):
            values["signal"] = lines[j].strip("[]")
            j += 1
        err = _go_error(msg, "fatal" if fm else "panic", values)
        chain.append(Found(i, j - 1, err))
        if recovered:
            i = j
            continue
        found.extend(_close_chain(chain, lines, j))
        chain = []
        i = j
    if chain:
        found.extend(_close_chain(chain, lines, n))
    return found


def _close_chain(chain: list[Found], lines: list[str], j: int) -> list[Found]:
    """Attach the goroutine trace after a panic (chain) and split wrapped parts."""
    frames, values, end = _go_frames(lines, j)
    out: list[Found] = []
    for k, f in enumerate(chain):
        e = f.error
        relation = "context" if k < len(chain) - 1 else None
        err = ParsedError(
            e.message,
            e.raw,
            e.exception_type,
            "go",
            e.kind,
            frames,
            {**e.values, **values},
            relation,
        )
        out.extend(Found(f.start, f.end, w) for w in _wrapped(err))
        out.append(Found(f.start, max(f.end, end), err))
    return out


def _go_error(msg: list[str], kind: str, values: dict[str, str]) -> ParsedError:
    raw = "\n".join(msg)
    message, etype = raw, None
    if raw.startswith("runtime error: "):
        message, etype = raw.removeprefix("runtime error: "), "runtime.Error"
    return ParsedError(message, raw, etype, "go", kind, (), values)


def _wrapped(err: ParsedError) -> list[ParsedError]:
    """``a: b: c`` from ``fmt.Errorf("a: %w", ...)``: ``c``, then ``b: c``
    (innermost first: what a library wrapped is read before the wrapping);
    a part with no letter in it (``4`` of ``length: 4``) is no message."""
    if err.exception_type is not None or "\n" in err.message:
        return []
    out: list[ParsedError] = []
    start = 0
    for _ in range(MAX_WRAPPED):
        k = err.message.find(": ", start)
        if k < 0:
            break
        part = err.message[k + 2 :].strip()
        start = k + 2
        if part and any(c.isalpha() for c in part):
            out.append(ParsedError(part, part, None, "go", err.kind, (), {}, "wrapped"))
    out.reverse()
    return out


def _go_frames(lines: list[str], i: int) -> tuple[tuple[Frame, ...], dict[str, str], int]:
    n = len(lines)
    while i < n and not lines[i].strip():
        i += 1
    values: dict[str, str] = {}
    if i >= n:
        return (), values, i
    gm = _GO_GOROUTINE.match(lines[i])
    if not gm:
        return (), values, i - 1
    values["goroutine"] = f"{gm.group(1)} [{gm.group(2)}]"
    frames: list[Frame] = []
    i += 1
    while i < n:
        ln = lines[i]
        fm = _GO_FILE.match(ln)
        if fm and frames and frames[-1].path is None:
            frames[-1] = Frame(fm.group(1), int(fm.group(2)), None, frames[-1].function)
        elif ln and ln[0] not in " \t" and not _EXIT.match(ln) and not _GO_GOROUTINE.match(ln):
            func = ln.removeprefix("created by ").split(" in goroutine ")[0]
            frames.append(Frame(None, None, None, _strip_args(func)))
        else:
            break
        i += 1
    return tuple(frames), values, i - 1


def _strip_args(func: str) -> str:
    """``main.(*T).m(0x1, {0x2})`` -> ``main.(*T).m``: drop the last (...) group."""
    if not func.endswith(")"):
        return func
    depth = 0
    for k in range(len(func) - 1, -1, -1):
        c = func[k]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth == 0:
                return func[:k] or func
    return func


def find_go_log(lines: list[str]) -> list[Found]:
    """``log.Fatal`` output: the last of some ``2009/11/10 23:00:00 msg`` lines."""
    body = [(i, ln) for i, ln in enumerate(lines) if ln.strip() and not _EXIT.match(ln)]
    if not body:
        return []
    i, last = body[-1]
    m = _GO_LOG.match(last)
    if not m or not m.group(4).strip():
        return []
    frames = (Frame(m.group(2), int(m.group(3)), None, None),) if m.group(2) else ()
    raw = m.group(4).strip()
    err = ParsedError(raw, raw, None, "go", "log", frames, {"timestamp": m.group(1)})
    return [*(Found(i, i, w) for w in _wrapped(err)), Found(i, i, err)]


def find_printed(lines: list[str]) -> list[Found]:
    """An error a Go program printed before ``go run`` said ``exit status N``:
    the last line above it (``error: a: b: c``, its ``error: `` and log
    prefixes stripped), and its wrapped parts."""
    body = [(i, ln) for i, ln in enumerate(lines) if ln.strip()]
    if len(body) < 2 or not _EXIT.match(body[-1][1].strip()):
        return []
    i, last = body[-2]
    if _GO_LOG.match(last) or last.startswith(("panic: ", "goroutine ", "\t")):
        return []
    printed = plain_error(last)
    if not printed.message:
        return []
    err = ParsedError(
        printed.message,
        printed.raw,
        None,
        "go",
        "error",
        (),
        {**printed.values, "exit": body[-1][1]},
    )
    return [*(Found(i, i, w) for w in _wrapped(err)), Found(i, body[-1][0], err)]
