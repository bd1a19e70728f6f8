# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A message picked on two branches gives a site per form (issue 15).


class HTTPError(Exception):
    pass


class ValidationError(Exception):
    pass


# requests' Response.raise_for_status: the message is assigned in an if and
# an elif, after an empty default, and raised once.
def raise_for_status(self, reason):
    http_error_msg = ""
    if 400 <= self.status_code < 500:
        http_error_msg = f"{self.status_code} Client Error: {reason} for url: {self.url}"
    elif 500 <= self.status_code < 600:
        http_error_msg = f"{self.status_code} Server Error: {reason} for url: {self.url}"
    if http_error_msg:
        raise HTTPError(http_error_msg, response=self)


# jsonschema's minLength: a word picked by a conditional expression.
def min_length(validator, mL, instance, schema):
    if len(instance) < mL:
        message = "should be non-empty" if mL == 1 else "is too short"
        raise ValidationError(f"{instance!r} {message}")


def conditional(n):
    raise ValueError("no items" if n == 0 else "too many items")


def reassigned(x):
    msg = "bad value"
    msg = msg + f": {x}"  # runs on every path: one form
    raise ValueError(msg)
