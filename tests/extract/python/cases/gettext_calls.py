# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
from gettext import gettext as _, ngettext


def wrapped(x):
    raise ValueError(_("translated message"))


def wrapped_percent(name):
    raise ValueError(_("no such option: %s") % name)


def wrapped_format(name):
    raise ValueError(_("no such option: {name}").format(name=name))


def plural(n):
    raise ValueError(ngettext("got %d item", "got %d items", n) % n)
