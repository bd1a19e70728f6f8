# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A message a base class builds from attributes its subclasses set, as
# werkzeug's HTTP exceptions do (werkzeug/exceptions.py, abridged): a raise
# of a subclass shows the subclass's text.
class HTTPException(Exception):
    code = None
    description = None

    def __init__(self, description=None, response=None):
        super().__init__()
        if description is not None:
            self.description = description
        self.response = response

    def __str__(self):
        code = self.code if self.code is not None else "???"
        return f"{code} {self.name}: {self.description}"


class MethodNotAllowed(HTTPException):
    code = 405
    description = "The method is not allowed for the requested URL."

    def __init__(self, valid_methods=None, description=None, response=None):
        super().__init__(description=description, response=response)
        self.valid_methods = valid_methods


class NotFound(HTTPException):
    code = 404
    description = (
        "The requested URL was not found on the server. If you entered"
        " the URL manually please check your spelling and try again."
    )


def match(method):
    raise MethodNotAllowed(valid_methods=["GET"])


def lookup(path):
    raise NotFound()


class Aborter:
    def __call__(self, code, *args, **kwargs):
        # werkzeug's abort: the class comes from a table at run time
        raise self.mapping[code](*args, **kwargs)
