# Fixture for forwarders and message calls, kept as written.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
from gettext import gettext as _, ngettext


class BadParameter(Exception):
    pass


class ParamType:
    def fail(self, message, param=None, ctx=None):
        raise BadParameter(message, ctx=ctx, param=param)


class IntType(ParamType):
    def convert(self, value, param, ctx):
        if not value.isdigit():
            self.fail(_("{value!r} is not a valid integer.").format(value=value), param, ctx)
        return int(value)


class Choice(ParamType):
    def convert(self, value, param, ctx):
        if value not in self.choices:
            self.fail(self.invalid_choice_message(value), param=param, ctx=ctx)
        return value

    def invalid_choice_message(self, value):
        return ngettext(
            "{value!r} is not {choice}.",
            "{value!r} is not one of {choices}.",
            len(self.choices),
        ).format(value=value, choice=self.choices[0], choices=", ".join(self.choices))


class Percent(ParamType):
    def convert(self, value, param, ctx):
        msg = _("%s is not a percentage") % value
        if not 0 <= value <= 100:
            self.fail(msg, param, ctx)
        return value
