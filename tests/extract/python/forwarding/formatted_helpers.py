# Fixture: for the Python extractor; kept as written.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# lark's GrammarBuilder._grammar_error and its callers (lark/load_grammar.py,
# abridged): the helper formats the caller's text with its own arguments.


class GrammarError(Exception):
    pass


class GrammarBuilder:
    def __init__(self):
        self._definitions = {}

    def _grammar_error(self, is_term, msg, *names):
        args = {}
        for i, name in enumerate(names, start=1):
            postfix = '' if i == 1 else str(i)
            args['name' + postfix] = name
            args['type' + postfix] = lowercase_type = ("rule", "terminal")[is_term]
            args['Type' + postfix] = lowercase_type.title()
        raise GrammarError(msg.format(**args))

    def _define(self, name, is_term):
        if name in self._definitions:
            self._grammar_error(is_term, "{Type} '{name}' defined more than once", name)
        self._definitions[name] = is_term

    def validate(self, used):
        for sym, name in used:
            if sym not in self._definitions:
                self._grammar_error(False, "{Type} '{name}' used but not defined (in {type2} {name2})", sym, name)


def percent_error(text, *args):
    # a helper that %-formats the caller's text
    raise GrammarError(text % args)


def not_the_parameter(text, other):
    raise GrammarError(other % text)  # other is the text formatted: its forwarder


def use():
    percent_error("Terminal used but not defined: %s", "A")
