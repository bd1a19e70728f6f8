"""The whole exception tree of errordex, and the exit codes the CLI uses.

    ErrordexError                 a problem the user can fix; the CLI prints it in one line
    ├── SourceError               the SOURCE argument cannot be read
    │   ├── SourceNotFound        no such path, package or URL
    │   ├── NotAGitRepo           --rev given for a directory that is not a git repository
    │   ├── UnknownRevision       the revision does not exist in the repository
    │   └── CloneFailed           git clone of a URL failed
    ├── StoreError                the database cannot be opened or is not ours
    │   ├── StoreMissing          a command that reads found no store at the path (and made none)
    │   ├── NotOurDatabase        the file is not an errordex store: errordex leaves it untouched
    │   ├── StoreDamaged          pages of the file cannot be read: nothing is written into it
    │   ├── StoreReadOnly         `index` cannot write the file or its directory
    │   └── DiskFull              no room left for the database or the index's scratch files
    ├── NotFound                  no such entry, repo or snapshot; explain found no match
    ├── InputError                malformed input (pasted text, options)
    │   └── CrawlFileError        lines of a crawl file that name no source (each with its number)
    ├── QueueError                the distributed queue cannot be used
    │   └── BrokerUnavailable     the broker (Redis) cannot be reached
    ├── LanguageError             a language plugin cannot be loaded or registers wrongly
    └── LlmError                  the model endpoint cannot be used for any page
        ├── LlmNotConfigured      no endpoint or model is set (flags, env, config file)
        ├── LlmUnreachable        nothing answers at the URL, or it is no chat completions API
        └── LlmBudgetSpent        the token budget is used up (what was written is kept)

One page's failed answer (a timeout, a 500, JSON of the wrong shape) is no
exception a user sees: that page keeps its static text, and says why.

Anything else is a bug in errordex and keeps its traceback.
"""

from __future__ import annotations

# Exit codes: named, stable, documented in the README.
EXIT_OK = 0
EXIT_ERROR = 1  # an unexpected failure (a bug)
EXIT_USAGE = 2  # bad command line (click's own code)
EXIT_SOURCE = 3  # the source cannot be read
EXIT_STORE = 4  # the database cannot be used
EXIT_NOT_FOUND = 5  # no such entry / no match
EXIT_UNGROUNDED = 6  # `errordex verify` found statements the code does not back
EXIT_LLM = 7  # the model endpoint cannot be used (not configured, unreachable, budget spent)
EXIT_QUEUE = 8  # the queue's broker cannot be reached
EXIT_INTERRUPTED = 130  # Ctrl-C
EXIT_BROKEN_PIPE = 141  # stdout closed early (`| head`): 128 + SIGPIPE, as the shell reports cat


class ErrordexError(Exception):
    """Base of every error a user can cause and fix. ``hint`` is what the CLI
    adds after the message ("see `errordex list`"); a web page shows the
    message alone, where a command means nothing."""

    exit_code = EXIT_ERROR

    def __init__(self, *args: object, hint: str | None = None) -> None:
        super().__init__(*args)
        self.hint = hint


class SourceError(ErrordexError):
    exit_code = EXIT_SOURCE


class SourceNotFound(SourceError):
    pass


class NotAGitRepo(SourceError):
    pass


class UnknownRevision(SourceError):
    pass


class CloneFailed(SourceError):
    pass


class StoreError(ErrordexError):
    exit_code = EXIT_STORE


class StoreMissing(StoreError):
    pass


class NotOurDatabase(StoreError):
    pass


class StoreDamaged(StoreError):
    pass


class StoreReadOnly(StoreError):
    pass


class DiskFull(StoreError):
    pass


class NotFound(ErrordexError):
    exit_code = EXIT_NOT_FOUND


class InputError(ErrordexError):
    exit_code = EXIT_USAGE


class CrawlFileError(InputError):
    """A crawl file has lines that name no source; ``problems`` holds (line
    number, why) for each, and the message lists them."""

    def __init__(self, path: str, problems: list[tuple[int, str]]) -> None:
        lines = "".join(f"\n  line {n}: {why}" for n, why in problems)
        n = len(problems)
        super().__init__(
            f"{path}: {n} bad line{'s' if n > 1 else ''}, nothing was enqueued:{lines}"
        )
        self.problems = problems


class QueueError(ErrordexError):
    exit_code = EXIT_QUEUE


class BrokerUnavailable(QueueError):
    pass


class LanguageError(ErrordexError):
    """A language (an ``errordex.languages`` entry point) is missing or broken;
    the message names it and says why."""


class LlmError(ErrordexError):
    exit_code = EXIT_LLM


class LlmNotConfigured(LlmError):
    pass


class LlmUnreachable(LlmError):
    pass


class LlmBudgetSpent(LlmError):
    pass
