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


# sqlglot's helper.suggest_closest_match_and_fail: a part of the message set
# to "" (here ``... or ""``) and replaced on a branch; the message without it
# is the other form.
def suggest_closest_match_and_fail(kind, word, possibilities):
    close_matches = get_close_matches(word, possibilities, n=1)

    similar = seq_get(close_matches, 0) or ""
    if similar:
        similar = f" Did you mean {similar}?"

    raise ValueError(f"Unknown {kind} '{word}'.{similar}")


# the same with a plain empty default
def with_hint(name, hint):
    extra = ""
    if hint:
        extra = f" (hint: {hint})"
    raise KeyError(f"no such key {name!r}{extra}")


# click's core._check_nested_chain: the message on an if and an else, each
# an implicit concatenation in parentheses.
def check_nested_chain(base_command, cmd_name, register):
    if register:
        message = (
            f"It is not possible to add the group {cmd_name!r} to another"
            f" group {base_command.name!r} that is in chain mode."
        )
    else:
        message = (
            f"Found the group {cmd_name!r} as subcommand to another group "
            f" {base_command.name!r} that is in chain mode. This is not supported."
        )

    raise RuntimeError(message)


# an empty default that is the whole message: no form without text
def empty_whole(code):
    text = ""
    if code > 400:
        text = "client error"
    raise ValueError(text)
