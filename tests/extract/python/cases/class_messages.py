# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
class Error(Exception):
    """Base of this module's errors."""


class AttributeMessage(Error):
    message = "attribute message"


class AnnotatedMessage(Error):
    msg: str = "annotated message"


class InheritsMessage(AttributeMessage):
    pass


class StrMessage(ValueError):
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return f"no such name: {self.name}"


class InitMessage(RuntimeError):
    def __init__(self, path):
        super().__init__("cannot open %s" % path)


class DynamicStr(Exception):
    def __str__(self):
        return self.text


class Field(forms.Field, metaclass=FieldMeta):
    default_error_messages = {
        "required": _("This field is required."),
        "max_length": "Ensure at most %(limit)d characters.",
    }


def use_attribute():
    raise AttributeMessage()


def use_inherited():
    raise InheritsMessage


def use_str(name):
    raise StrMessage(name)


def use_explicit():
    raise AttributeMessage("explicit wins")


def use_dynamic_str():
    raise DynamicStr()


def outer():
    class Local(Exception):
        message = "local class"

    raise Local()


def use_init(path):
    raise InitMessage(path)


class DecodeError(ValueError):
    def __init__(self, msg, doc, pos):
        lineno = doc.count("\n", 0, pos) + 1
        errmsg = "%s: line %d (char %d)" % (msg, lineno, pos)
        ValueError.__init__(self, errmsg)


def use_init_with_arguments(s, end):
    raise DecodeError("Expecting value", s, end)


def use_init_with_keyword(s):
    raise DecodeError(doc=s, pos=0, msg=f"Extra {s!r}")


class ArgumentError(Exception):
    def __init__(self, argument, message):
        self.argument_name = argument.name
        self.message = message

    def __str__(self):
        format = "argument %(argument_name)s: %(message)s"
        return format % dict(message=self.message, argument_name=self.argument_name)


def use_str_with_arguments(action, value):
    raise ArgumentError(action, "invalid choice: %r" % value)
