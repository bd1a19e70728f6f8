"""Text with no runtime layout: a lone ``Type: message`` line, log lines, or a message.

Log prefixes are stripped from the front only, and only in shapes that are
clearly not message text: a timestamp, then a level word, then (only after
both) a ``logger: `` name. ``values`` keeps what was stripped, ``raw`` keeps
the line as printed. ``Error: ``/``error: `` alone is stripped too.
"""

from __future__ import annotations

import re
from dataclasses import replace

from errordex import plugins
from errordex.paste.model import Found, ParsedError

MAX_MESSAGE_CHARS = 20_000

_TIMESTAMP = re.compile(
    r"^\[?(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d{1,9})?(?: ?Z|[+-]\d\d:?\d\d)?"
    r"|\d{4}/\d\d/\d\d \d\d:\d\d:\d\d(?:\.\d{1,9})?"
    r"|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d"
    r"|\d\d:\d\d:\d\d(?:[.,]\d{1,9})?)\]?(?: {1,8}\|)? {1,8}"
)
_LEVEL = re.compile(
    r"^\[?(ERROR|ERR|FATAL|CRITICAL|CRIT|PANIC|WARNING|WARN|E)\]?(?::(?=\S)|:? {1,8}(?:\| {0,8}|- {0,8})?)"
)
#: one bracket for the time, the level (any: an ``INFO`` record is a record
#: too) and the process: celery's ``[2026-12-04 10:00:01,123: ERROR/MainProcess] ``
_BRACKETED = re.compile(
    r"^\[(\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d{1,9})?):? "
    r"([A-Z]{4,8})(?:/([\w.-]{1,60}))?\] {1,8}(?=\S)"
)
_ERROR_WORD = re.compile(r"^(?:Error|error|ERROR|Fatal|fatal|FATAL)(?: \[\w{1,20}\])?: (?=\S)")
_LOGGER = re.compile(r"^(?:\[([^\]\n]{1,100})\]|([A-Za-z_][\w.:/-]{0,100}?):) (?:- )?(?=\S)")
_PY_LOGGER = re.compile(r"^([\w.]{1,100}):(?=\S)")
_PY_SUFFIXES = ("Error", "Exception", "Warning", "Exit", "Interrupt", "Iteration", "Group")
_PY_ONLY = {"KeyError", "ValueError", "IndexError", "AttributeError", "ImportError",
            "ModuleNotFoundError", "NameError", "ZeroDivisionError", "OSError",
            "FileNotFoundError", "RuntimeError", "AssertionError", "NotImplementedError",
            "StopIteration", "KeyboardInterrupt", "SystemExit", "UnicodeDecodeError",
            "PermissionError", "IsADirectoryError", "TimeoutError", "LookupError"}  # fmt: skip
#: ``module.sub.ClassName``: lower-case modules, a class last
_QUALIFIED = re.compile(r"(?:[a-z_][a-z0-9_]*\.)+_*[A-Z][A-Za-z0-9_]*")
_JS_ONLY = {"ReferenceError", "RangeError", "EvalError", "URIError", "AggregateError"}
_JAVA_PACKAGES = ("java.", "javax.", "jakarta.", "kotlin.", "android.", "org.", "com.", "net.")


def find(lines: list[str]) -> list[Found]:
    """One error for a lone line; for several, one per error-level line or one for all."""
    body = [(i, ln.strip()) for i, ln in enumerate(lines) if ln.strip()]
    if not body:
        return []
    typed = [(i, ln) for i, ln in body if _typed(ln) is not None]
    if len(body) > 1 and len(typed) == len(body):
        return [Found(i, i, _typed_error([ln])) for i, ln in typed]
    if _typed(body[0][1]) is not None:
        return [Found(body[0][0], body[-1][0], _typed_error([ln for _, ln in body]))]
    if len(body) == 1:
        i, ln = body[0]
        return [Found(i, i, _logged_error(ln))]
    levelled = [k for k, (_, ln) in enumerate(body) if _is_error_line(ln)]
    if levelled:
        return [_record(body, k) for k in levelled]
    text = "\n".join(ln for _, ln in body)[:MAX_MESSAGE_CHARS]
    return [Found(body[0][0], body[-1][0], ParsedError(text, text, None, None, None))]


def plain_error(line: str) -> ParsedError:
    """A message line with its log prefixes stripped.

    >>> plain_error("2024-01-01T00:00:00Z ERROR db.pool: connection refused").message
    'connection refused'
    >>> plain_error("[2024-01-01 00:00:00,001: ERROR/MainProcess] consumer: down").message
    'consumer: down'
    """
    values: dict[str, str] = {}
    rest = line.strip()
    bm = _BRACKETED.match(rest)
    if bm:
        values.update(timestamp=bm.group(1), level=bm.group(2))
        if bm.group(3):
            values["process"] = bm.group(3)
        rest = rest[bm.end() :]
    tm = _TIMESTAMP.match(rest) if not bm else None
    if tm and tm.end() < len(rest):
        values["timestamp"] = tm.group(0).strip(" |[]")
        rest = rest[tm.end() :]
    lm = _LEVEL.match(rest) if not bm else None
    if lm and lm.end() < len(rest) and (lm.group(1) != "E" or "timestamp" in values):
        values["level"] = lm.group(1)
        rest = rest[lm.end() :]
        # "LEVEL:name:msg" is Python logging's default; a "name: " after a
        # timestamp and a level is a logger. Without both, it may be message text.
        pm = _PY_LOGGER.match(rest) if lm.group(0).endswith(":") else None
        gm = _LOGGER.match(rest) if "timestamp" in values and not pm else None
        if gm and gm.group(2) and _typed(rest) is not None:
            gm = None  # ``ERROR KeyError: 'x'``: the error's class, not a logger
        if pm and pm.end() < len(rest):
            values["logger"] = pm.group(1)
            rest = rest[pm.end() :]
        elif gm and gm.end() < len(rest):
            values["logger"] = gm.group(1) or gm.group(2)
            rest = rest[gm.end() :]
    em = _ERROR_WORD.match(rest)
    if em and em.end() < len(rest):
        values.setdefault("level", em.group(0).split(":")[0].split(" ")[0])
        rest = rest[em.end() :]
    return ParsedError(rest.strip(), line.strip(), None, None, None, (), values)


#: how many lines after a log record's first may be its own
MAX_RECORD_LINES = 20


def _record(body: list[tuple[int, str]], k: int) -> Found:
    """The error of the log record whose first line is ``body[k]``: a record
    with a timestamp goes on over the lines after it that start no record of
    their own (celery's ``consumer: Cannot connect to …`` then ``Trying to
    reconnect...``)."""
    first, line = body[k]
    lines = [line]
    if "timestamp" in plain_error(line).values:
        for _, more in body[k + 1 : k + MAX_RECORD_LINES]:
            if set(plain_error(more).values) & {"timestamp", "level"}:
                break
            lines.append(more)
    return Found(first, first + len(lines) - 1, _logged_error("\n".join(lines)))


def _logged_error(line: str) -> ParsedError:
    """A log line's error: ``2026-12-04 10:11:12 ERROR [app] jinja2.exceptions.
    UndefinedError: 'user' is undefined`` is the typed line after the log's
    prefix, read as that line alone is, with the prefix's values kept.

    >>> e = _logged_error("2024-01-01 00:00:00 ERROR [app] KeyError: 'x'")
    >>> e.exception_type, e.message, e.values["logger"]
    ('KeyError', 'x', 'app')
    """
    logged = plain_error(line)
    if logged.message == line.strip() or _typed(logged.message) is None:
        return logged
    typed = _typed_error([logged.message])
    return replace(typed, raw=logged.raw, values={**logged.values, **typed.values})


def _is_error_line(line: str) -> bool:
    e = plain_error(line)
    return e.values.get("level", "").upper() in (
        "ERROR",
        "ERR",
        "FATAL",
        "CRITICAL",
        "CRIT",
        "PANIC",
        "E",
    )


def _typed(line: str) -> str | None:
    """The language a lone ``Type: message`` line comes from ("" if unknown), or
    None; the language that claims such lines reads them (``Language.claims_plain``)."""
    claimed = plugins.assumed(None)
    if claimed is None or claimed.paste.split_typed is None:
        return None
    etype, _ = claimed.paste.split_typed(line)
    if etype is None or etype in ("Error", "error", "ERROR", "Fatal", "fatal", "FATAL", "E"):
        return None
    # a private class (jsonschema's ``_WrappedReferencingError``) is named as a public one is
    last = etype.rsplit(".", 1)[-1].lstrip("_")
    # A class named by its module (``werkzeug.exceptions.NotFound``,
    # ``packaging.version.InvalidVersion``) is an exception by where it is
    # printed, whatever its name ends with.
    qualified = _QUALIFIED.fullmatch(etype) is not None
    if not last[:1].isupper() or not (last.endswith(_PY_SUFFIXES) or last in _PY_ONLY or qualified):
        return None
    if etype.startswith(_JAVA_PACKAGES):
        return "java"
    if last in _JS_ONLY:
        return "javascript"
    if last in _PY_ONLY or "." in etype or last.endswith(("Warning", "Group")):
        return claimed.name
    return ""


def _typed_error(lines: list[str]) -> ParsedError:
    language = _typed(lines[0]) or None
    claimed = plugins.assumed(None)  # there is one: _typed found the line typed
    assert claimed is not None and claimed.paste.split_typed and claimed.paste.typed_error
    raw = "\n".join(lines)[:MAX_MESSAGE_CHARS]
    etype, message = claimed.paste.split_typed(raw)
    if language == claimed.name or language is None:
        err = claimed.paste.typed_error(raw.split("\n"))
        return ParsedError(
            err.message,
            err.raw,
            err.exception_type,
            language,
            err.kind if language else None,
            (),
            err.values,
        )
    return ParsedError(message, raw, etype, language, "throw", ())
