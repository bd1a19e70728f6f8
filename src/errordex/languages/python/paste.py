"""Python tracebacks, exception groups, SyntaxErrors and pytest failures.

Frames are kept in printed order, innermost last. A chained traceback yields
one error per part, in the order printed; the last part is the main error
(``relation`` None) and the earlier ones are its ``"cause"`` or
``"context"``. Exception group members get ``"group-member"``.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field, replace

from errordex.paste.model import Found, Frame, ParsedError

#: A message runs to the end of the traceback; this many lines at most.
MAX_MESSAGE_LINES = 200

_HEADERS = (
    "Traceback (most recent call last):",
    "Exception Group Traceback (most recent call last):",
)
_CAUSE = "The above exception was the direct cause of the following exception:"
_CONTEXT = "During handling of the above exception, another exception occurred:"
_FILE = re.compile(r'^\s*File "([^"\n]{0,4096})", line (\d{1,9})(?:, in (.{1,512}))?$')
_NAME = r"(?:[A-Za-z_]\w{0,200}|<\w{1,50}>)"
_EXC = re.compile(rf"^({_NAME}(?:\.{_NAME}){{0,30}})(?::(?: (.*))?)?$", re.DOTALL)
_SUB_COUNT = re.compile(r" \((\d{1,9}) sub-exceptions?\)$")
#: "(module.Class) message": the message of the error another one wraps
_WRAPPED = re.compile(r"\(((?:[A-Za-z_]\w*\.)+[A-Z]\w*)\) (.+)", re.S)
_STRING_REPR = re.compile(r"""^(?:'[^\n]*'|"[^\n]*")$""")

# Exception-group box drawing.
_MEMBER = re.compile(r"^\s*\+(?:-\+)?-+ (?:\d{1,9}|\.\.\.) -+$")
_BOX_END = re.compile(r"^\s*\+-+$")
_BOXED = re.compile(r"^\s*(?:\| ?|\+ (?=Exception Group Traceback))")

# pytest
_PT_SECTION = re.compile(r"^_{3,} (.{1,500}?) _{3,}$")
_PT_E = re.compile(r"^E(?:   (.*))?$")
_PT_FRAME = re.compile(r"^(\S{1,4096}?\.py):(\d{1,9}):(?: in (\S{1,512})| (\S.{0,512}))?$")
_PT_SUMMARY = re.compile(r"^(?:FAILED|ERROR) (\S{1,4096})(?: - (.+))?$")


@dataclass
class _Part:
    start: int
    end: int
    member: bool
    frames: list[Frame] = field(default_factory=list)
    exc_lines: list[str] = field(default_factory=list)
    relation: str | None = None


def find(lines: list[str]) -> list[Found]:
    """Find Python tracebacks and pytest failures in cleaned ``lines``."""
    found = _find_tracebacks(lines)
    if not found:
        found = _find_pytest(lines)
    return found


def split_exception_line(line: str) -> tuple[str | None, str]:
    """Split ``"module.Type: message"`` into its type and message.

    >>> split_exception_line("json.decoder.JSONDecodeError: Expecting value")
    ('json.decoder.JSONDecodeError', 'Expecting value')
    >>> split_exception_line("StopIteration")
    ('StopIteration', '')
    """
    m = _EXC.match(line)
    if not m:
        return None, line
    return m.group(1), m.group(2) or ""


def make_error(
    exc_lines: list[str], frames: tuple[Frame, ...], relation: str | None = None
) -> ParsedError:
    """Build a Python error from its exception line(s) as printed."""
    while exc_lines and not exc_lines[-1].strip():
        exc_lines = exc_lines[:-1]
    raw = "\n".join(exc_lines)
    values: dict[str, str] = {}
    etype, message = split_exception_line(raw)
    if etype is None:
        message = raw.strip()
    elif etype.endswith("ExceptionGroup"):
        m = _SUB_COUNT.search(message.split("\n", 1)[0])
        if m:
            values["sub_exceptions"] = m.group(1)
            first, _, rest = message.partition("\n")
            message = first[: m.start()] + ("\n" + rest if rest else "")
    elif (wrapped := _WRAPPED.match(message)) is not None:
        # sqlalchemy's StatementError and DBAPIError print the error they
        # wrap first: "(sqlalchemy.exc.InvalidRequestError) A value is
        # required ...". That error's raise wrote the text (issue 15, pattern 5).
        values["wrapper"] = etype
        etype, message = wrapped.group(1), wrapped.group(2)
    elif etype.rsplit(".", 1)[-1] == "KeyError" and _STRING_REPR.match(message):
        unquoted = _unrepr(message)
        if unquoted is not None:
            values["repr"] = message
            message = unquoted
    if not exc_lines:
        values["truncated"] = "true"
    kind = "assert" if etype is not None and etype.endswith("AssertionError") else "raise"
    return ParsedError(
        message=message,
        raw=raw,
        exception_type=etype,
        language="python",
        kind=kind,
        frames=frames,
        values=values,
        relation=relation,
    )


def typed_error(lines: list[str]) -> ParsedError:
    """Lone ``Type: message`` lines (no traceback) read as a Python error."""
    return make_error(lines, ())


def _unrepr(text: str) -> str | None:
    if len(text) > 10_000:
        return None
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, str) else None


def _unbox(lines: list[str]) -> tuple[list[str], list[bool], list[bool]]:
    """Strip exception-group box drawing; mark member starts and boxed lines."""
    out: list[str] = []
    member: list[bool] = []
    boxed: list[bool] = []
    for ln in lines:
        if _MEMBER.match(ln):
            out.append("")
            member.append(True)
            boxed.append(True)
        elif _BOX_END.match(ln):
            out.append("")
            member.append(False)
            boxed.append(True)
        else:
            m = _BOXED.match(ln)
            out.append(ln[m.end() :] if m else ln)
            member.append(False)
            boxed.append(bool(m))
    return out, member, boxed


def _find_tracebacks(lines: list[str]) -> list[Found]:
    if any("Exception Group Traceback" in ln for ln in lines):
        text, member_start, boxed = _unbox(lines)
    else:
        text, member_start, boxed = lines, [False] * len(lines), [False] * len(lines)
    parts: list[_Part] = []
    cur: _Part | None = None
    mode = ""  # "", "frames", "message", "member"
    in_member = False
    code_at = -1  # the line that may print the code of the last frame
    for i, ln in enumerate(text):
        stripped = ln.strip()
        if member_start[i]:
            cur, mode, in_member = None, "member", True
            continue
        if not boxed[i] and stripped:
            in_member = False
        if stripped in _HEADERS:
            cur = _Part(start=i, end=i, member=in_member)
            parts.append(cur)
            mode = "frames"
            continue
        if stripped in (_CAUSE, _CONTEXT):
            relation = "cause" if stripped == _CAUSE else "context"
            target = _chain_target(parts, in_member)
            if target is not None:
                target.relation = relation
            cur, mode = None, ""
            continue
        fm = _FILE.match(ln)
        if fm:
            if cur is None or mode != "frames":
                cur = _Part(start=i, end=i, member=in_member)
                parts.append(cur)
                mode = "frames"
            cur.frames.append(Frame(fm.group(1), int(fm.group(2)), None, fm.group(3)))
            cur.end = i
            code_at = i + 1
            continue
        if i == code_at and cur is not None and mode == "frames" and cur.frames:
            code = _code_line(ln)
            if code is not None:
                cur.frames[-1] = replace(cur.frames[-1], source=code)
        if mode == "member" and stripped:
            cur = _Part(start=i, end=i, member=True, exc_lines=[stripped])
            parts.append(cur)
            mode = "message"
            continue
        if cur is None:
            continue
        if mode == "frames":
            if stripped and ln[0] not in " \t":
                cur.exc_lines.append(ln)
                cur.end = i
                mode = "message"
        elif mode == "message" and _foreign(ln):
            cur, mode = None, ""
        elif mode == "message" and len(cur.exc_lines) < MAX_MESSAGE_LINES:
            cur.exc_lines.append(ln)
            if stripped:
                cur.end = i
    found = []
    for p in parts:
        if not p.exc_lines and not p.frames:
            continue
        rel = p.relation or ("group-member" if p.member else None)
        err = make_error(list(p.exc_lines), tuple(p.frames), rel)
        found.append(Found(p.start, p.end, err))
    return found


def _code_line(line: str) -> str | None:
    """The code a traceback prints under a frame (indented), or None for a
    caret line, a "[Previous line repeated ...]" note or anything else."""
    if not line[:1].isspace():
        return None
    code = line.strip()
    if not code or code.startswith("[Previous line repeated") or not code.strip("~^ "):
        return None
    return code[:1024]


def _foreign(line: str) -> bool:
    """The first line of another runtime's report, which ends a Python message."""
    if line.startswith("thread '") and " panicked at " in line:
        return True
    return line.startswith(("Exception in thread ", "panic: ", "fatal error: ", "goroutine "))


def _chain_target(parts: list[_Part], in_member: bool) -> _Part | None:
    """The part a chain separator refers to: the one printed just before it."""
    if in_member:
        return parts[-1] if parts else None
    for p in reversed(parts):
        if not p.member:
            return p
    return None


def _find_pytest(lines: list[str]) -> list[Found]:
    found: list[Found] = []
    test: str | None = None
    frames: list[Frame] = []
    block: list[str] = []
    block_start = 0
    pending: str | None = None
    section_found: list[int] = []

    def flush(end: int) -> None:
        nonlocal block, pending
        if not block:
            return
        err = _pytest_error(block, test)
        found.append(Found(block_start, end, err))
        section_found.append(len(found) - 1)
        block = []

    for i, ln in enumerate(lines):
        em = _PT_E.match(ln)
        if em:
            if not block:
                block_start = i
                if pending is not None and found:
                    prev = found[-1]
                    found[-1] = Found(prev.start, prev.end, replace(prev.error, relation=pending))
                    pending = None
            block.append(em.group(1) or "")
            continue
        flush(i - 1)
        sm = _PT_SECTION.match(ln)
        if sm:
            _attach_frames(found, section_found, frames)
            test, frames, section_found, pending = sm.group(1), [], [], None
            continue
        fm = _PT_FRAME.match(ln)
        if fm:
            frames.append(Frame(fm.group(1), int(fm.group(2)), None, fm.group(3)))
            continue
        if ln.strip() == _CAUSE:
            pending = "cause"
        elif ln.strip() == _CONTEXT:
            pending = "context"
    flush(len(lines) - 1)
    _attach_frames(found, section_found, frames)
    if found:
        return found
    for i, ln in enumerate(lines):
        sm = _PT_SUMMARY.match(ln)
        if sm and sm.group(2):
            err = _pytest_error([sm.group(2)], sm.group(1))
            found.append(Found(i, i, err))
    return found


def _attach_frames(found: list[Found], indexes: list[int], frames: list[Frame]) -> None:
    if not frames:
        return
    for k in indexes:
        f = found[k]
        found[k] = Found(f.start, f.end, replace(f.error, frames=tuple(frames)))


def _pytest_error(block: list[str], test: str | None) -> ParsedError:
    first = block[0].strip()
    etype, _ = split_exception_line(first)
    if etype is not None and first.startswith("assert "):
        etype = None
    if etype is None or not _looks_like_type(etype):
        raw = "\n".join(block)
        err = ParsedError(
            message=raw.strip(),
            raw=raw,
            exception_type="AssertionError",
            language="python",
            kind="assert",
        )
    else:
        err = make_error([first, *block[1:]], ())
    if test is not None:
        err = replace(err, values={**err.values, "test": test})
    return err


def _looks_like_type(name: str) -> bool:
    """A class name: the last dotted part starts with a capital letter."""
    last = name.rsplit(".", 1)[-1]
    return bool(last) and last[0].isupper()
