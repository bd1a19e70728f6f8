"""Java exceptions and JavaScript (node) errors (runtimes errordex does not index).

Frames are in printed order (innermost first for both).
"""

from __future__ import annotations

import re

from errordex.paste.model import Found, Frame, ParsedError

MAX_MESSAGE_LINES = 200
#: How far above a stack a Java or JavaScript header is looked for.
MAX_HEADER_LINES = 50

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


# --- JavaScript -----------------------------------------------------------

_JS_AT = re.compile(r"^\s{0,40}at \S")
_JS_LOC = re.compile(r"^(.{0,4096}?):(\d{1,9}):(\d{1,9})$")
_JS_MATCHING = re.compile(r"^\s{0,40}\.\.\. \d{1,9} lines? matching cause stack trace \.\.\.$")
_JS_HEADER = re.compile(
    r"^(?:> )?(Uncaught (?:\(in promise\) )?|\[cause\]: )?"
    r"([A-Za-z_$][\w$]{0,200})(?: \[([\w.-]{1,100})\])?(?:: (.*))?$",
    re.DOTALL,
)
_NODE_LOCATION = re.compile(r"^(\S.{0,4095}?):(\d{1,9})$")
_CARET = re.compile(r"^\s{0,4096}\^+\s{0,8}$")


def find_js(lines: list[str]) -> list[Found]:
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
        if hm.group(3):
            values = {**values, "code": hm.group(3)}
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
