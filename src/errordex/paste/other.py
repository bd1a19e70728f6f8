"""Go panics and log lines, and Java exceptions: runtimes no registered
language reads (node's errors are the JavaScript language's, in
``errordex.languages.javascript.paste``).

Frames are in printed order (innermost first for both).
"""

from __future__ import annotations

import re

from errordex.paste.model import Found, Frame, ParsedError

MAX_MESSAGE_LINES = 200
#: How far above a stack a Java header is looked for.
MAX_HEADER_LINES = 50

# --- Go -------------------------------------------------------------------

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
        out.append(Found(f.start, max(f.end, end), err))
        out.extend(Found(f.start, f.end, w) for w in _wrapped(err))
    return out


def _go_error(msg: list[str], kind: str, values: dict[str, str]) -> ParsedError:
    raw = "\n".join(msg)
    message, etype = raw, None
    if raw.startswith("runtime error: "):
        message, etype = raw.removeprefix("runtime error: "), "runtime.Error"
    return ParsedError(message, raw, etype, "go", kind, (), values)


def _wrapped(err: ParsedError) -> list[ParsedError]:
    """``a: b: c`` from ``fmt.Errorf("a: %w", ...)``: yield ``b: c`` and ``c``."""
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
        if part:
            out.append(ParsedError(part, part, None, "go", err.kind, (), {}, "wrapped"))
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
    return [Found(i, i, err), *(Found(i, i, w) for w in _wrapped(err))]


# --- Java -----------------------------------------------------------------

_JAVA_FRAME = re.compile(r"^\s{0,40}at ([^\s(]{1,2048})\(([^()\n]{0,4096})\)$")
_JAVA_MORE = re.compile(r"^\s{0,40}\.\.\. (\d{1,9}) more$")
_JAVA_PREFIX = re.compile(
    r'^\s{0,40}(Exception in thread "[^"\n]{0,500}" |Caused by: |Suppressed: )(.*)$', re.DOTALL
)
_JAVA_TYPE = re.compile(
    r"^([A-Za-z_$][\w$]{0,200}(?:\.[A-Za-z_$][\w$]{0,200}){0,30})(?:: (.*))?$", re.DOTALL
)


def find_java(lines: list[str]) -> list[Found]:
    """Find Java/JVM stack traces, with ``Caused by:`` and ``Suppressed:`` parts."""
    found: list[Found] = []
    i, n = 0, len(lines)
    while i < n:
        if not _JAVA_FRAME.match(lines[i]):
            i += 1
            continue
        start = i
        frames: list[Frame] = []
        values: dict[str, str] = {}
        while i < n:
            fm = _JAVA_FRAME.match(lines[i])
            mm = _JAVA_MORE.match(lines[i]) if not fm else None
            if fm:
                frames.append(_java_frame(fm.group(1), fm.group(2)))
            elif mm:
                values["more"] = mm.group(1)
            else:
                break
            i += 1
        head = _java_header(lines, start, found[-1].end if found else -1)
        if head is None:
            continue
        hstart, err = head
        err = ParsedError(
            err.message, err.raw, err.exception_type, "java", "throw", tuple(frames),
            {**err.values, **values}, err.relation,
        )  # fmt: skip
        found.append(Found(hstart, i - 1, err))
    return found


def _java_frame(func: str, where: str) -> Frame:
    path, _, line = where.rpartition(":")
    if path and line.isdigit():
        return Frame(path, int(line), None, func)
    return Frame(where or None, None, None, func)


def _java_header(lines: list[str], first_frame: int, floor: int) -> tuple[int, ParsedError] | None:
    lo = max(floor + 1, first_frame - MAX_HEADER_LINES)
    for k in range(first_frame - 1, lo - 1, -1):
        ln = lines[k]
        if not ln.strip() or _JAVA_FRAME.match(ln) or _JAVA_MORE.match(ln):
            break
        pm = _JAVA_PREFIX.match(ln)
        text = pm.group(2) if pm else ln.strip()
        tm = _JAVA_TYPE.match(text)
        if pm or (tm and _java_type_like(tm.group(1))):
            if not tm:
                return None
            prefix = pm.group(1) if pm else ""
            relation = {"Caused by: ": "cause", "Suppressed: ": "suppressed"}.get(prefix)
            values = {"thread": prefix[21:-2]} if prefix.startswith("Exception in") else {}
            rest = [x.strip() if j == 0 else x for j, x in enumerate(lines[k + 1 : first_frame])]
            message = "\n".join([tm.group(2) or "", *rest]) if rest else tm.group(2) or ""
            raw = "\n".join([ln.strip(), *lines[k + 1 : first_frame]])
            err = ParsedError(message, raw, tm.group(1), "java", "throw", (), values, relation)
            return k, err
    return None


def _java_type_like(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return "." in name or last.endswith(("Exception", "Error", "Throwable"))
