"""node's (V8's) errors as printed: ``Type: msg`` (``TypeError [ERR_X]: msg``
with a code) over ``at`` frames, ``Uncaught ...`` from the REPL, ``[cause]:``
parts of a chained error, and the ``file.js:3`` / code / ``^`` header of a
thrown value that is not an Error.

Frames are in printed order (innermost first).
"""

from __future__ import annotations

import re

from errordex.languages.javascript.runtime import SHARED_NAMES
from errordex.paste.model import Found, Frame, ParsedError

#: How far above a stack a header is looked for.
MAX_HEADER_LINES = 50

_JS_AT = re.compile(r"^\s{0,40}at \S")
_JS_LOC = re.compile(r"^(.{0,4096}?):(\d{1,9}):(\d{1,9})$")
_JS_MATCHING = re.compile(r"^\s{0,40}\.\.\. \d{1,9} lines? matching cause stack trace \.\.\.$")
_JS_HEADER = re.compile(
    r"^(?:> )?(Uncaught (?:\(in promise\) )?|\[cause\]: )?"
    r"([A-Za-z_$][\w$]{0,200})(?: \[([\w.-]{1,100})\])?(?:: (.*))?$",
    re.DOTALL,
)
#: an error code node writes in brackets (``TypeError [ERR_INVALID_ARG_TYPE]``)
_CODE = re.compile(r"[A-Z][A-Z0-9_]*")
_NODE_LOCATION = re.compile(r"^(\S.{0,4095}?):(\d{1,9})$")
_CARET = re.compile(r"^\s{0,4096}\^+\s{0,8}$")


def find(lines: list[str]) -> list[Found]:
    """Find node/V8 errors: ``Type: msg`` with ``at`` frames, or ``Uncaught ...``."""
    found: list[Found] = []
    i, n = 0, len(lines)
    while i < n:
        ln = lines[i]
        if not (_JS_AT.match(ln) and _js_frame(ln) is not None):
            hm = _JS_HEADER.match(ln.strip())
            if (
                hm
                and hm.group(1)
                and hm.group(1).startswith("Uncaught")
                and not _next_is_frame(lines, i)
            ):
                found.append(Found(i, i, _js_error([ln.strip()], (), {})))
            i += 1
            continue
        start = i
        frames: list[Frame] = []
        props = False
        while i < n:
            cur = lines[i]
            if _JS_MATCHING.match(cur):
                i += 1
                continue
            if not _JS_AT.match(cur):
                break
            if cur.endswith(" {"):
                cur, props = cur[:-2], True
            frame = _js_frame(cur)
            if frame is None:
                break
            frames.append(frame)
            i += 1
            if props:
                break
        head = _js_header(lines, start, found[-1].end if found else -1)
        if head is None:
            continue
        hstart, hlines = head
        values: dict[str, str] = {}
        if props:
            values.update(_js_props(lines, i))
        found.append(Found(hstart, i - 1, _js_error(hlines, tuple(frames), values)))
    if not found:
        found = _node_thrown_value(lines)
    return found


def _next_is_frame(lines: list[str], i: int) -> bool:
    return i + 1 < len(lines) and bool(_JS_AT.match(lines[i + 1]))


def _js_frame(line: str) -> Frame | None:
    s = line.strip()[3:]
    func: str | None = None
    where = s
    k = s.find(" (")
    if k > 0 and s.endswith(")"):
        func, where = s[:k], s[k + 2 : -1]
    for p in ("async ", "new "):
        if func is not None and func.startswith(p):
            func = func[len(p) :]
    if func is None and s.startswith("async "):
        where = s[len("async ") :]
    lm = _JS_LOC.match(where)
    if lm:
        return Frame(lm.group(1), int(lm.group(2)), int(lm.group(3)), func)
    if (func is not None and where in ("<anonymous>", "native")) or where.startswith("eval at "):
        return Frame(None, None, None, func)
    return None


def _js_header(lines: list[str], first_frame: int, floor: int) -> tuple[int, list[str]] | None:
    lo = max(floor + 1, first_frame - MAX_HEADER_LINES)
    for k in range(first_frame - 1, lo - 1, -1):
        ln = lines[k].strip()
        if not ln or _CARET.match(lines[k]):
            break
        hm = _JS_HEADER.match(ln)
        if hm and (hm.group(4) is not None or hm.group(2)[:1].isupper()):
            return k, [ln, *(x for x in lines[k + 1 : first_frame])]
    return None


def _js_error(hlines: list[str], frames: tuple[Frame, ...], values: dict[str, str]) -> ParsedError:
    raw = "\n".join(hlines)
    hm = _JS_HEADER.match(raw)
    relation = None
    etype: str | None = None
    message = raw
    if hm:
        relation = "cause" if hm.group(1) == "[cause]: " else None
        etype = hm.group(2)
        message = hm.group(4) or ""
        bracket = hm.group(3)
        if bracket and _CODE.fullmatch(bracket):
            values = {**values, "code": bracket}
        elif bracket and bracket not in SHARED_NAMES:
            # node's report of an uncaught error whose name is not its class's:
            # `Renamed [BadValueError]`, the class then the name it set (the
            # one its stack, as logged, shows); a builtin's name is any class's
            etype = bracket
        if hm.group(1):
            raw = raw[hm.start(2) :]
    return ParsedError(message, raw, etype, "javascript", "throw", frames, values, relation)


def _js_props(lines: list[str], i: int) -> dict[str, str]:
    """``{ code: 'E_X' }`` after a node stack: keep the ``code``."""
    for ln in lines[i : i + MAX_HEADER_LINES]:
        s = ln.strip()
        if s == "}":
            break
        if s.startswith("code: "):
            return {"code": s[len("code: ") :].rstrip(",").strip("'\"")}
    return {}


def _node_thrown_value(lines: list[str]) -> list[Found]:
    """Node's ``file.js:3`` / code / ``^`` layout for a thrown non-Error value."""
    for i in range(len(lines) - 2):
        lm = _NODE_LOCATION.match(lines[i])
        if not lm or not _CARET.match(lines[i + 2]):
            continue
        j = i + 3
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j >= len(lines) or lines[j].startswith(("(Use `node", "Node.js v")):
            continue
        text = lines[j].strip()
        frame = Frame(lm.group(1), int(lm.group(2)), None, None)
        err = ParsedError(text, text, None, "javascript", "throw", (frame,), {})
        return [Found(i, j, err)]
    return []
