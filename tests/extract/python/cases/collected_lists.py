# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# Errors built, appended to a list and raised in one error that holds the
# list: voluptuous's Schema._compile_mapping and _compile_sequence
# (abridged). Each construction is a site of the class raised, with the
# raise as its via; an error caught and appended is not read.
from voluptuous import error as er


class Schema:
    def validate_mapping(self, path, data, required_keys):
        errors = []
        for key in data:
            if key not in self.keys:
                errors.append(er.Invalid('extra keys not allowed', path + [key]))
        for key in required_keys:
            msg = key.msg if key.msg else 'required key not provided'
            errors.append(er.RequiredFieldInvalid(msg, path + [key]))
        if errors:
            raise er.MultipleInvalid(errors)

    def validate_sequence(self, path, data):
        if not self.schema:
            raise er.MultipleInvalid([er.ValueInvalid('not a valid value', path)])
        errors = []
        for e in data:
            try:
                pass
            except er.Invalid as e:
                errors.append(e)
        if errors:
            raise er.MultipleInvalid(errors)


# an override the condition checks, or the default text: key.msg or "..."
def f(key, path):
    msg = key.msg if key.msg else 'required key not provided'
    raise RequiredFieldInvalid(msg, path + [key])
def g(key, path):
    msg = key.msg if hasattr(key, 'msg') and key.msg else 'required key not provided'
    raise RequiredFieldInvalid(msg, path + [key])
def h(a):
    raise ValueError(a if a > 2 else 'small')
def i(m):
    raise ValueError(m if m is not None else 'none given')
