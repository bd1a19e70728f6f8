# Fixture: for the Python extractor; kept as written.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# simpleeval's exception classes and SimpleEval._eval_name (simpleeval.py,
# abridged): __init__ keeps the message it builds in self.message, then
# hands self.message to a base's __init__.


class InvalidExpression(Exception):
    """Generic Exception"""


class NameNotDefined(InvalidExpression):
    """a name isn't defined."""

    def __init__(self, name, expression):
        self.name = name
        self.message = f"'{name}' is not defined for expression '{expression}'"
        self.expression = expression
        super(InvalidExpression, self).__init__(self.message)


class FunctionNotDefined(InvalidExpression):
    """sorry! That function isn't defined!"""

    def __init__(self, func_name, expression):
        self.message = f"Function '{func_name}' not defined, for expression '{expression}'."
        self.func_name = func_name
        self.expression = expression
        super(InvalidExpression, self).__init__(self.message)


def eval_name(names, node_id, expr):
    if node_id in names:
        return names[node_id]
    raise NameNotDefined(node_id, expr)


def eval_call(functions, func_name, expr):
    if func_name in functions:
        return functions[func_name]
    raise FunctionNotDefined(func_name, expr)


class KeptOnABranch(InvalidExpression):
    def __init__(self, name):
        if name:
            self.message = f"bad {name}"
        super().__init__(self.message)  # set on one path only: not read


def raise_branch(name):
    raise KeptOnABranch(name)


class KeptForStr(InvalidExpression):
    # the same text kept in self.message, returned by __str__ instead of
    # handed to the base
    def __str__(self):
        return self.message

    def __init__(self, name, expression):
        self.message = "'%s' is not defined for expression %r" % (name, expression)


def raise_kept_for_str(name):
    raise KeptForStr(name, "x + 1")
