"""Java exceptions: a runtime no registered language reads (Go's panics
and node's errors are their languages', in ``errordex.languages.go`` and
``errordex.languages.javascript``).

Frames are in printed order (innermost first).
"""

from __future__ import annotations

import re

from errordex.paste.model import Found, Frame, ParsedError

MAX_MESSAGE_LINES = 200
#: How far above a stack a Java header is looked for.
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
