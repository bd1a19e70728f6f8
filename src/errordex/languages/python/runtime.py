"""How Python prints an exception, and how a test file looks (pure).

A ``raise ValueError("x")`` ends the traceback with ``ValueError: x``.
"""

from __future__ import annotations

import ast
import builtins
import re

from errordex.languages.python import printed
from errordex.match.keys import type_name
from errordex.model import ThrowSite

#: Directories that hold a project's importable packages, not packages themselves.
_SOURCE_ROOTS = frozenset({"src", "lib", "Lib"})


def python_module(path: str) -> str | None:
    """The module a Python file is imported as, from its repository path:
    ``Lib/json/decoder.py`` -> ``json.decoder``, ``src/pkg/__init__.py`` ->
    ``pkg``; None when the path cannot be a module name.

    >>> python_module("click/exceptions.py")
    'click.exceptions'
    """
    if not path.endswith(".py"):
        return None
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    # A source root: "src" or "Lib" anywhere (monorepos nest them), "lib" on top.
    roots = [i for i, p in enumerate(parts[:-1]) if p in _SOURCE_ROOTS and (p != "lib" or i == 0)]
    if roots:
        parts = parts[roots[0] + 1 :]
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    return ".".join(parts)


def import_name(path: str, symbol: str) -> str | None:
    """A public function as a user reaches it from its module.

    >>> import_name("src/attr/validators.py", "matches_re")
    'attr.validators.matches_re'
    """
    module = python_module(path)
    return f"{module}.{symbol}" if module else None


def qualified_exception(qualname: str, defined_in: str | None) -> str:
    """The exception's name as a traceback prints it: ``module.Qualname`` for a
    class defined in the repository (Python prints ``__module__`` for every
    class outside builtins), the bare name otherwise."""
    module = python_module(defined_in) if defined_in else None
    return f"{module}.{qualname}" if module else qualname.rsplit(".", 1)[-1]


def message_line(site: ThrowSite, exception: str | None = None) -> str:
    """``exception`` is the name to print (see ``qualified_exception``)."""
    text = site.template.display()
    shown = printed.message_line(site, text)
    if shown is not None:
        return shown
    short = exception or (site.exception_type or "Exception").rsplit(".", 1)[-1]
    if text and short.rsplit(".", 1)[-1] == "KeyError":
        text = key_error_text(text)
    return f"{short}: {text}" if text else short


def key_error_text(text: str) -> str:
    """A ``KeyError`` prints the repr of its argument: a message in quotes,
    double ones when it holds a single quote (or a ``!r`` placeholder, whose
    value is printed in single quotes).

    >>> key_error_text("no spinner called {name!r}")
    '"no spinner called {name!r}"'
    >>> key_error_text("missing key")
    "'missing key'"
    """
    if "'" in text or "!r}" in text:
        return f'"{text}"' if '"' not in text else repr(text)
    return f"'{text}'"


#: click's exceptions a command's user meets: click catches them in
#: ``BaseCommand.main`` and prints ``Error: `` and the message (a usage error
#: after the usage line), not a traceback. The name -> whether it is a usage
#: error, and how ``format_message`` words the message
CLICK_ERRORS: dict[str, tuple[bool, str]] = {
    "ClickException": (False, "{message}"),
    "FileError": (False, "Could not open file {filename!r}: {message}"),
    "UsageError": (True, "{message}"),
    "BadOptionUsage": (True, "{message}"),
    "BadArgumentUsage": (True, "{message}"),
    "NoSuchOption": (True, "{message}"),
    "BadParameter": (True, "Invalid value for {param_hint}: {message}"),
}


def click_form(site: ThrowSite) -> str | None:
    """How a command built with click prints the error, when it is one of
    click's exceptions (``click.BadParameter("…")``)::

        Usage: PROG [OPTIONS] ...
        Try 'PROG --help' for help.

        Error: Invalid value for '--n': must be positive
    """
    name = (site.exception_type or "").rsplit(".", 1)[-1]
    got = CLICK_ERRORS.get(name)
    if got is None or site.kind != "raise":
        return None
    usage, words = got
    said = words.replace("{message}", site.template.display() or "{message}")
    head = "Usage: PROG [OPTIONS] ...\nTry 'PROG --help' for help.\n\n" if usage else ""
    return f"{head}Error: {said}"


#: what the interpreter prints for a ``SystemExit`` whose code is a number or none
EXIT_UNPRINTED = "(nothing: Python prints no traceback for SystemExit, and exits with its code)"


def exit_form(site: ThrowSite) -> str | None:
    """What ``raise SystemExit(...)`` prints: no traceback. A text code is
    printed alone (and the exit status is 1); a number or none prints nothing.

    >>> from errordex.model import ThrowSite
    >>> from errordex.template import Template
    >>> exit_form(ThrowSite("a.py", 1, 0, 1, "python", "raise", Template.literal("no config"), "SystemExit"))
    'no config'
    """
    name = (site.exception_type or "").rsplit(".", 1)[-1]
    if name != "SystemExit" or site.kind != "raise":
        return None
    return site.template.display() or EXIT_UNPRINTED


def printed_form(site: ThrowSite, line: str) -> str:
    shown = printed.printed_form(site, line) or click_form(site) or exit_form(site)
    if shown is not None:
        return shown
    return f"Traceback (most recent call last):\n  ...\n{line}"


def builtin_classes(name: str) -> tuple[str, ...] | None:
    """The class chain of a builtin exception (``object`` left out).

    >>> builtin_classes("KeyError"), builtin_classes("Path")
    (('KeyError', 'LookupError', 'Exception', 'BaseException'), None)
    """
    obj = getattr(builtins, name, None)
    if not (isinstance(obj, type) and issubclass(obj, BaseException)):
        return None
    return tuple(c.__name__ for c in obj.__mro__ if c is not object)


def is_test_file(name: str) -> bool:
    return (
        name.startswith("test_")
        or name.endswith(("_test.py", "_tests.py"))
        or name == "conftest.py"
    )


#: The forms of the messages the Python interpreter raises itself (CPython
#: 3.8 to 3.13), by exception type. A raise statement that copies one of them
#: (``raise AttributeError(f"'{cls}' object has no attribute '{name}'")``)
#: verifies against every such message the runtime prints, so the text alone
#: does not say that it was this statement.
_PY_RUNTIME_FORMS: dict[str, tuple[str, ...]] = {
    "attributeerror": (
        r"'[^']+' object has no attribute '[^']+'",
        r"type object '[^']+' has no attribute '[^']+'",
        r"module '[^']+' has no attribute '[^']+'",
        r"'[^']+' object attribute '[^']+' is read-only",
        r"can't set attribute(?: '[^']+')?",
        r"property '[^']+' of '[^']+' object has no setter",
    ),
    "typeerror": (
        r"'[^']+' object is not (?:subscriptable|iterable|callable|an iterator|a mapping)",
        r"'[^']+' object does not support item (?:assignment|deletion)",
        r"unsupported operand type\(s\) for .+: '[^']+' and '[^']+'",
        r"bad operand type for .+: '[^']+'",
        r"'.+' not supported between instances of '[^']+' and '[^']+'",
        r"can only concatenate \w+ \(not \S+\) to \w+",
        r"object of type '[^']+' has no len\(\)",
        r"cannot unpack non-iterable \S+ object",
        r"'[^']+' object cannot be interpreted as an integer",
        r"\w+ indices must be integers(?: or slices)?, not \S+",
        r"unhashable type: '[^']+'",
        r"a bytes-like object is required, not '[^']+'",
        r".+\(\) takes (?:from )?\d+ (?:to \d+ )?positional arguments? but \d+ (?:were|was) given",
        r".+\(\) missing \d+ required (?:positional|keyword-only) arguments?: .+",
        r".+\(\) got an unexpected keyword argument '[^']+'",
        r".+\(\) got multiple values for argument '[^']+'",
        r".+\(\) argument (?:\d+ )?must be .+, not '[^']+'",
    ),
    "indexerror": (
        r"(?:list|tuple|string|bytearray|range object) index out of range",
        r"pop from (?:empty list|an empty \w+)",
    ),
    "valueerror": (
        r"not enough values to unpack \(expected (?:at least )?\d+, got \d+\)",
        r"too many values to unpack \(expected \d+\)",
        r"invalid literal for int\(\) with base \d+: .+",
        r"could not convert string to float: .+",
    ),
    # a missing key, as a dict lookup prints it (a key without spaces: the
    # paste gives it unquoted); a raise that says more has words and spaces
    "keyerror": (r"[^\s]{1,200}",),
    "nameerror": (r"name '[^']+' is not defined",),
    "unboundlocalerror": (r"cannot access local variable '[^']+' where it is not associated.*",),
    "zerodivisionerror": (r"(?:integer |float )?(?:division|modulo) by zero",),
    "recursionerror": (r"maximum recursion depth exceeded.*",),
}
_PY_RUNTIME = {k: re.compile("|".join(f"(?:{f})" for f in v)) for k, v in _PY_RUNTIME_FORMS.items()}


def runtime_form(message: str, exception_type: str | None) -> bool:
    """Whether ``message`` has the form of a message the Python interpreter
    raises itself, for a builtin ``exception_type`` (or none given).

    >>> runtime_form("'NoneType' object has no attribute 'write'", "AttributeError")
    True
    >>> runtime_form("'NoneType' object has no attribute 'write'", "mylib.AttributeError")
    False
    """
    if not isinstance(message, str) or len(message) > 2048:
        return False
    line = message.strip()
    if exception_type:
        head, _, _ = exception_type.strip().rpartition(".")
        form = _PY_RUNTIME.get(type_name(exception_type))
        return head in ("", "builtins") and form is not None and bool(form.fullmatch(line))
    # a bare key is a KeyError's form only when the paste says KeyError
    return any(f.fullmatch(line) for k, f in _PY_RUNTIME.items() if k != "keyerror")


def interpreter_types(message: str) -> tuple[str, ...]:
    """The builtin exception types (``type_name``) whose interpreter forms
    ``message`` has: the text of an error the runtime raised, which a
    library's own error carries when it raises again what it caught
    (typedload's ``raise TypedloadAttributeError(str(e))`` in ``except
    AttributeError as e``). A KeyError subclass prints its text quoted
    (python-box's ``BoxKeyError: "'Box' object has no attribute 'b'"``):
    the quotes come off. A bare key (KeyError's form) says nothing.

    >>> interpreter_types("invalid literal for int() with base 10: 'x'")
    ('valueerror',)
    >>> interpreter_types(\'"\\'Box\\' object has no attribute \\'b\\'"\')
    ('attributeerror',)
    >>> interpreter_types("Month must be between 1..12."), interpreter_types("nope")
    ((), ())
    """
    if not isinstance(message, str) or len(message) > 2048:
        return ()
    line = message.strip()
    if len(line) > 1 and line[0] == line[-1] and line[0] in "'\"":
        try:
            held = ast.literal_eval(line)
        except (ValueError, SyntaxError):
            held = None
        if isinstance(held, str):
            line = held.strip()
    return tuple(k for k, f in _PY_RUNTIME.items() if k != "keyerror" and f.fullmatch(line))


#: a module ``__getattr__``'s check of one name: ``name == "BaseCommand"``
_ONE_NAME = re.compile(r"""(\w+)\s*==\s*(['"])([A-Za-z_]\w*)\2""")


def attribute_used(path: str, symbol: str, condition: str) -> str | None:
    """What a user wrote to run a module's ``__getattr__`` (PEP 562): the
    module's name and the attribute its check names.

    >>> attribute_used("src/click/__init__.py", "__getattr__", 'name == "BaseCommand"')
    'click.BaseCommand'
    >>> attribute_used("src/click/core.py", "Context.__getattr__", 'name == "x"') is None
    True
    """
    m = _ONE_NAME.fullmatch(condition.strip())
    module = python_module(path)
    if symbol != "__getattr__" or m is None or module is None:
        return None
    return f"{module}.{m.group(3)}"


#: Python's standard library as a traceback prints its files: installed
#: (``/usr/lib/python3.11/runpy.py``, ``C:\Python311\Lib\threading.py``) or
#: frozen into the interpreter (``<frozen runpy>``)
_STDLIB_FILE = re.compile(r"(?:^|/)(?:lib/python3\.\d+|Lib)/(?!(?:site|dist)-packages/)|^<frozen ")
#: code a library generates at run time (``<sqlalchemy generated warned()
#: wrapper for …>``, ``<attrs generated init …>``, ``<decorator-gen-12>``),
#: not the user's own ``<string>`` (``python -c``), ``<stdin>`` or a console's
_GENERATED_FILE = re.compile(r"^<(?!(?:string|stdin|console|input)>|ipython-input-)[^<>]*>$")


def runtime_frame(path: str, function: str | None) -> bool:
    """Whether a traceback frame is the standard library's, which passes the
    user's call on (``threading.run``, ``runpy``) and is not theirs, or code
    generated at run time.

    >>> runtime_frame("/usr/lib/python3.11/threading.py", "run")
    True
    >>> runtime_frame("/venv/lib/python3.11/site-packages/click/core.py", "main")
    False

    Code a library generates passes the call on too; the user's ``python
    -c`` does not.

    >>> runtime_frame("<sqlalchemy generated warned() wrapper for create_engine>", "warned")
    True
    >>> runtime_frame("<string>", "<module>")
    False
    """
    return bool(_STDLIB_FILE.search(path.replace("\\", "/")) or _GENERATED_FILE.match(path))
