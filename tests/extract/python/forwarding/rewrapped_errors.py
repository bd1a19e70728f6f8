# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# An error caught and raised again, inside a new error or kept in a name:
# the traceback ends at the second raise, and the text is written where the
# first was raised. Each is a collector of the classes caught.
import copy


# voluptuous's schema_builder.py (abridged): a new MultipleInvalid around
# the caught Invalid; its sites are read as MultipleInvalid (the user reads it)
class Schema(object):
    def __call__(self, data):
        try:
            return self._compiled([], data)
        except er.MultipleInvalid:
            raise
        except er.Invalid as e:
            raise er.MultipleInvalid([e])


# schema's __init__.py (abridged): the caught error's messages, with the key
# in front; a catch-all clause wraps anything and collects nothing
class SchemaKeys(object):
    def validate(self, data):
        try:
            return s.validate(data)
        except SchemaError as x:
            k = "Key '%s' error:" % nkey
            raise SchemaError([k] + x.autos, [e] + x.errors)
        except BaseException as x:
            raise SchemaError('%r raised %r' % (self, x))


# glom's core.py (abridged): the caught error copied into a name, raised
# after the try with its traceback cut; the isinstance check narrows the
# catch-all to GlomError, the class collected
def glom(target, spec, **kwargs):
    err = None
    try:
        ret = _glom(target, spec, scope)
    except Exception as e:
        if isinstance(e, GlomError):
            err = copy.copy(e)
            err._set_wrapped(e)
        else:
            err = GlomError.wrap(e)
    if err:
        raise err
    return ret


def not_rewrapped(value):
    try:
        return int(value)
    except ValueError as e:
        raise ConfigError("not a number") from e  # the caught error is only the cause


def keep_anything(path):
    err = None
    try:
        return open(path)
    except Exception as e:
        err = e  # a catch-all with no isinstance check names no class
    raise err


# the stdlib's socket.py (abridged): one value of the caught error, not a
# collection it holds, is handed to the new error
def create_server(address):
    try:
        sock.bind(address)
    except error as exc:
        msg = '%s (while attempting to bind on address %r)' % (exc.strerror, address)
        raise error(exc.errno, msg) from None


# pyparsing's PrecededBy.parseImpl (abridged): the caught error itself, kept
# and raised again, keeps the traceback of its first raise: no collector
def preceded_by(instring, loc):
    for offset in range(1, loc):
        try:
            _, ret = test_expr._parse(instring, loc - offset)
        except ParseBaseException as pbe:
            last_expr = pbe
        else:
            break
    else:
        raise last_expr
