# Fixture for forwarders and message calls, kept as written.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
import sys


def raise_error(msg, *, code=1):
    raise RuntimeError(f"error: {msg}")


def abort(reason):
    raise SystemExit(reason)


def conflict(name):
    # Text around a parameter that is not a message: not a forwarder.
    raise ValueError("conflicting name: %s" % name)


def not_forwarded(message):
    raise ValueError("fixed text")


def keyword_only(*, detail):
    raise KeyError(detail)


@staticmethod
def static_helper(text):
    raise TypeError(text)


def callers(path, mode):
    if not path:
        raise_error("no path given")
    if mode == "x":
        abort("mode %r is not supported" % mode)
    keyword_only(detail=f"bad mode {mode!r}")
    raise_error(path)  # a variable: not readable, not recorded
    print("never a forwarder")
    sys.stderr.write("not recorded either")
    conflict("one word")
