# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A leading None is a part the class leaves out, not the message: the site's
# text is the first argument after it. From ruamel.yaml 0.19's scanner.py and
# constructor.py (abridged); MarkedYAMLError's __str__ joins the parts given.


class MarkedYAMLError(Exception):
    def __init__(self, context=None, context_mark=None, problem=None, problem_mark=None):
        self.context = context
        self.context_mark = context_mark
        self.problem = problem
        self.problem_mark = problem_mark

    def __str__(self):
        lines = []
        if self.context is not None:
            lines.append(self.context)
        if self.problem is not None:
            lines.append(self.problem)
        return '\n'.join(lines)


class ScannerError(MarkedYAMLError):
    pass


def fetch_value(self):
    if not self.allow_simple_key:
        raise ScannerError(
            None,
            None,
            'mapping values are not allowed here',
            self.reader.get_mark(),
        )


def construct_undefined(self, node):
    raise ScannerError(
        None,
        None,
        f'could not determine a constructor for the tag {node.tag!r}',
        node.start_mark,
    )


def scan_flow_scalar(self, start_mark):
    # the context comes first when there is one
    raise ScannerError('while scanning a quoted scalar', start_mark, 'found unexpected end of stream', None)


def only_none(self):
    # None alone stays what it is
    raise ValueError(None)


def raiseerror(self, msg):
    # pytest's FixtureLookupError(argname, request, msg): no text after the
    # None, so the first argument stays what it was
    raise ScannerError(None, self, msg)
