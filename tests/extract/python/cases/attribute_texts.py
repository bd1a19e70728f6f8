# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A raise of self.X, X a text the classes of the file give (attrtexts.py).
# From hypothesis' database.py and pytest's _pytest/raises.py (abridged).


class GitHubArtifactDatabase(ExampleDatabase):
    def __init__(self, owner, repo, artifact_name="hypothesis-example-db"):
        self.owner = owner
        # Message to display if user doesn't wrap around ReadOnlyDatabase
        self._read_only_message = (
            "This database is read-only. "
            "Please wrap this class with ReadOnlyDatabase"
            "i.e. ReadOnlyDatabase(GitHubArtifactDatabase(...))."
        )

    def save(self, key, value):
        raise RuntimeError(self._read_only_message)


class AbstractRaises(ABC, Generic[BaseExcT_co]):
    def __init__(self, match):
        self._fail_reason: str | None = None

    def _check_match(self, e):
        maybe_specify_type = (
            f" the `{_exception_type_name(type(e))}()`"
            if isinstance(e, BaseExceptionGroup)
            else ""
        )
        self._fail_reason = (
            f"Regex pattern did not match{maybe_specify_type}.\n"
            f"  Expected regex: {_match_pattern(self.match)!r}\n"
            f"  Actual message: {stringified_exception!r}"
        )
        return False


class RaisesExc(AbstractRaises[BaseExcT_co_default]):
    def matches(self, exception):
        if exception is None:
            self._fail_reason = "exception is None"
            return False
        self._fail_reason = _check_raw_type(self.expected_exceptions, exception)
        return self._fail_reason is None

    def __exit__(self, exc_type, exc_val, exc_tb):
        if not self.matches(exc_val):
            raise AssertionError(self._fail_reason) from None


class Held:
    # a parameter's text is held.py's: the raise stays as it is
    def __init__(self, error_message):
        self._error_message = error_message

    def __getattr__(self, item):
        raise PydanticUserError(self._error_message)
