"""The data model: plain frozen values passed between pipeline stages.

The names here are the contract between stages (see DESIGN.md):

    ingest   source -> Source (files at one commit)
    extract  (path, text) -> Extraction(sites, classes)
    group    [ThrowSite] -> [ErrorEntry]
    store    Snapshot + entries

Nothing in this module does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from errordex.picklable import by_fields
from errordex.template import Template


@dataclass(frozen=True)
class Repo:
    """A repository, named by its forge slug ("owner/name")."""

    slug: str
    url: str | None = None
    default_branch: str | None = None

    @property
    def owner(self) -> str:
        return self.slug.split("/", 1)[0]

    @property
    def name(self) -> str:
        return self.slug.split("/", 1)[-1]


@by_fields
@dataclass(frozen=True)
class Guard:
    """A condition under which a site runs, with the line it is written on.

    kind is one of: "cfg" (a ``#[cfg(...)]`` attribute), "match-arm" (the arm
    pattern; for a catch-all arm ``uncovered`` is empty and ``siblings`` lists
    the patterns the other arms handle), "if", "else" (text is the negated
    condition), "elif", "except" (the clause a raise sits in), "isinstance",
    "assert" (the condition an assert checks: the site fires when it is false),
    "fall-through" (a statement of a function's body after ``if`` statements
    that return: text is when one of those returns is taken, ``siblings``
    each one's condition; the site fires when it is false).
    """

    kind: str
    text: str
    line: int
    siblings: tuple[str, ...] = ()
    #: the value of each local the text reads, from the one assignment of
    #: it in the function (``valid_funcs = (re.fullmatch, None)`` for
    #: ``func not in valid_funcs``): (name, expression)
    values: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text, "line": self.line}
        if self.siblings:
            out["siblings"] = list(self.siblings)
        if self.values:
            out["values"] = [list(v) for v in self.values]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Guard:
        return cls(
            kind=data["kind"],
            text=data["text"],
            line=data["line"],
            siblings=tuple(data.get("siblings", ())),
            values=tuple((n, v) for n, v in data.get("values", ())),
        )


@by_fields
@dataclass(frozen=True, slots=True)
class CallArg:
    """One argument of the call a ``raise`` makes: ``X(path, detail="gone")``
    has ``CallArg(None, "path")`` and ``CallArg("detail", '"gone"', <gone>)``.

    ``name`` is the keyword, None for a positional argument, ``"*"``/``"**"``
    for a splat (the arguments after it cannot be bound to parameters).
    ``value`` is the text when it can be read statically (a string, or an
    integer literal's digits); ``expr`` the source, kept only for an
    integer or an argument built at run time (a hole names it).
    """

    name: str | None
    expr: str
    value: Template | None = None

    @property
    def integer(self) -> bool:
        """An integer literal: it prints as its digits in ``%d`` holes too."""
        return self.expr.isdecimal()


@by_fields
@dataclass(frozen=True)
class ThrowSite:
    """One place in the code that throws (or defines) an error message.

    ``line``/``column``/``end_line`` are 1-based and point at the throw
    statement (the macro call, the ``raise``, the ``#[error]`` attribute).
    ``package`` is the crate or Python package the file belongs to, filled in
    by the pipeline from the nearest manifest.
    """

    path: str
    line: int
    column: int
    end_line: int
    language: str
    kind: str
    template: Template
    exception_type: str | None = None
    symbol: str | None = None
    guards: tuple[Guard, ...] = ()
    in_test: bool = False
    context_hash: str = ""
    package: str | None = None
    #: for a message forwarded to a helper that raises it (``self.fail(msg)``):
    #: where that helper raises, as "path:line symbol".
    via: str | None = None
    #: the arguments of a raise's call, read by the pass that knows every
    #: file's exception classes (``classmsg``). Transient: not in the JSON,
    #: and not part of a site's equality.
    args: tuple[CallArg, ...] = field(default=(), compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "language": self.language,
            "kind": self.kind,
            "exception_type": self.exception_type,
            "symbol": self.symbol,
            "guards": [g.to_json() for g in self.guards],
            "in_test": self.in_test,
            "context_hash": self.context_hash,
            "package": self.package,
            "template": self.template.to_json(),
        }
        if self.via is not None:
            out["via"] = self.via
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ThrowSite:
        return cls(
            path=data["path"],
            line=data["line"],
            column=data["column"],
            end_line=data["end_line"],
            language=data["language"],
            kind=data["kind"],
            template=Template.from_json(data["template"]),
            exception_type=data.get("exception_type"),
            symbol=data.get("symbol"),
            guards=tuple(Guard.from_json(g) for g in data.get("guards", ())),
            in_test=bool(data.get("in_test", False)),
            context_hash=data.get("context_hash", ""),
            package=data.get("package"),
            via=data.get("via"),
        )


@dataclass(frozen=True)
class ClassDef:
    """A class defined in the repo that may be an exception (Python), or an
    error type (Rust enum/struct with Display or thiserror)."""

    name: str
    qualname: str
    path: str
    line: int
    bases: tuple[str, ...] = ()
    #: a message held by the class itself: ``message = "..."`` or ``__str__``.
    message: Template | None = None
    #: True when code (``__str__``, ``__init__``) builds the message, so the
    #: arguments of a raise are not the message (``message`` is None when that
    #: code cannot be read); False for a class attribute
    builds_message: bool = False
    #: ``__init__``'s parameters after ``self``, when it builds the message
    #: or passes it through
    message_params: tuple[str, ...] = ()
    #: ``self.detail = detail`` in ``__init__``: a hole ``{self.detail}`` shows
    #: the argument of ``detail``, as (attribute, parameter)
    param_attrs: tuple[tuple[str, str], ...] = ()
    #: the ``__init__`` parameter that *is* the message: kept as
    #: ``self.message`` for a ``__str__`` that returns it, or (without a
    #: ``__str__``) handed on as ``super().__init__(message, ...)``'s first
    #: argument; ``message`` is then the text the class puts in when that
    #: argument is not given (``if hint is None: hint = ...``)
    message_param: str | None = None
    #: what ``__init__`` hands on to ``super().__init__`` by position, when the
    #: first is ``message_param``: a parameter (or a splat) as the hole of its
    #: name, a message read from the expression, None when it cannot be read
    super_args: tuple[Template | None, ...] = ()
    #: what ``__init__`` hands on by keyword, after ``super_args``:
    #: ``super().__init__(line, col, message=message)`` (tomlkit-style)
    super_kwargs: tuple[tuple[str, Template | None], ...] = ()
    #: class attributes set to text (``description = "The requested URL was
    #: not found..."``): a ``{self.description}`` of the message a base
    #: builds shows this class's text (werkzeug's HTTP exceptions)
    text_attrs: tuple[tuple[str, Template], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "qualname": self.qualname,
            "path": self.path,
            "line": self.line,
            "bases": list(self.bases),
            "message": self.message.to_json() if self.message else None,
        }
        if self.builds_message:
            out["builds_message"] = True
        if self.message_param is not None:
            out["message_param"] = self.message_param
        if self.builds_message or self.message_param is not None:
            out["message_params"] = list(self.message_params)
            if self.param_attrs:
                out["param_attrs"] = [list(a) for a in self.param_attrs]
            if self.super_args:
                out["super_args"] = [t.to_json() if t else None for t in self.super_args]
            if self.super_kwargs:
                out["super_kwargs"] = [
                    [k, t.to_json() if t else None] for k, t in self.super_kwargs
                ]
        if self.text_attrs:
            out["text_attrs"] = [[a, t.to_json()] for a, t in self.text_attrs]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClassDef:
        msg = data.get("message")
        return cls(
            name=data["name"],
            qualname=data["qualname"],
            path=data["path"],
            line=data["line"],
            bases=tuple(data.get("bases", ())),
            message=Template.from_json(msg) if msg else None,
            builds_message=bool(data.get("builds_message", False)),
            message_params=tuple(data.get("message_params", ())),
            param_attrs=tuple((a, p) for a, p in data.get("param_attrs", ())),
            message_param=data.get("message_param"),
            super_args=tuple(
                Template.from_json(t) if t else None for t in data.get("super_args", ())
            ),
            super_kwargs=tuple(
                (k, Template.from_json(t) if t else None) for k, t in data.get("super_kwargs", ())
            ),
            text_attrs=tuple((a, Template.from_json(t)) for a, t in data.get("text_attrs", ())),
        )


@dataclass(frozen=True)
class Extraction:
    """What one extractor found in one file."""

    sites: tuple[ThrowSite, ...] = ()
    classes: tuple[ClassDef, ...] = ()
    #: helpers that raise a message they are given (Python)
    forwarders: tuple[Forwarder, ...] = ()
    #: calls that pass readable message text, to be joined to forwarders
    calls: tuple[MessageCall, ...] = ()
    #: qualified names of the functions defined in the file, so a name that
    #: is also defined by a function that does not raise is not guessed at
    functions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Forwarder:
    """A function that raises a message passed to it as a parameter::

        def fail(self, message, param=None):        # name "fail"
            raise BadParameter(message, param=param) # template {message}

    ``param_index`` is the parameter's position, not counting ``self``/``cls``
    (None for a keyword-only parameter). ``template`` is the raised message,
    with the parameter as the hole ``param_name``; other text is kept
    (``f"error: {message}"``).
    """

    name: str
    qualname: str
    path: str
    line: int
    param_name: str
    param_index: int | None
    exception_type: str | None
    template: Template
    method: bool = False
    #: the kind of site a call to it is, when not the runtime's raise: a
    #: Rust helper that builds an error value of the text it is given
    #: (object's ``.read_error("Unknown file magic")``) is a ``construct``
    #: with that text as its argument, whose message the type's definition
    #: gives (``class_messages``)
    kind: str | None = None
    #: the parameter that holds the class raised, when a caller passes it
    #: (configobj's ``_handle_error(self, text, ErrorClass, infile, cur_index)``
    #: raises ``ErrorClass(message, ...)``): its name and position
    class_param: str | None = None
    class_index: int | None = None
    #: how the forwarder formats the text it is given with its other
    #: arguments, in the language's words (lark's ``raise
    #: GrammarError(msg.format(**args))``: "format"): the fields of a
    #: caller's text are placeholders (``Runtime.formatted``), not text;
    #: None when it raises the text as given
    formats: str | None = None

    def to_json(self) -> dict[str, Any]:
        extra: dict[str, Any] = (
            {"class_param": self.class_param, "class_index": self.class_index}
            if self.class_param
            else {}
        )
        if self.formats:
            extra["formats"] = self.formats
        return {
            **extra,
            "name": self.name,
            "qualname": self.qualname,
            "path": self.path,
            "line": self.line,
            "param_name": self.param_name,
            "param_index": self.param_index,
            "exception_type": self.exception_type,
            "method": self.method,
            "template": self.template.to_json(),
        }


@dataclass(frozen=True)
class MessageCall:
    """A call that passes readable message text: ``self.fail(_("bad"), p)``.

    ``callee`` is the called name (``fail``), ``receiver`` what it is called
    on (``self``, ``ctx``; None for a bare call), ``owner`` the class the
    call sits in. ``args`` holds each readable argument as (position or
    keyword, template); an ``ngettext`` argument appears twice, once per form.
    """

    callee: str
    receiver: str | None
    args: tuple[tuple[int | str, Template], ...]
    path: str
    line: int
    column: int
    end_line: int
    symbol: str | None = None
    owner: str | None = None
    guards: tuple[Guard, ...] = ()
    in_test: bool = False
    context_hash: str = ""
    #: the exception the call itself builds, when it builds one that is
    #: raised elsewhere (a yielded ``ValidationError(...)``): its sites raise
    #: that class, not the forwarder's
    exception_type: str | None = None
    #: each argument that names a class (``DuplicateError``), as (position
    #: or keyword, its name): the class a forwarder raises when it raises
    #: one of its parameters (``Forwarder.class_param``)
    classes: tuple[tuple[int | str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        extra: dict[str, Any] = (
            {"exception_type": self.exception_type} if self.exception_type else {}
        )
        if self.classes:
            extra["classes"] = [[k, name] for k, name in self.classes]
        return {
            **extra,
            "callee": self.callee,
            "receiver": self.receiver,
            "args": [[k, t.to_json()] for k, t in self.args],
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "symbol": self.symbol,
            "owner": self.owner,
            "guards": [g.to_json() for g in self.guards],
            "in_test": self.in_test,
            "context_hash": self.context_hash,
        }


@dataclass(frozen=True)
class Skip:
    """A file the indexer did not parse, and why."""

    path: str
    reason: str


@dataclass(frozen=True)
class Package:
    """A crate (Cargo.toml) or Python distribution found in the snapshot."""

    name: str
    manifest: str  # path of the manifest, relative to the repo root
    root: str  # directory the package covers ("" for the repo root)
    version: str | None = None
    features: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "manifest": self.manifest,
            "root": self.root,
            "version": self.version,
            "features": {k: list(v) for k, v in self.features.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Package:
        return cls(
            name=data["name"],
            manifest=data["manifest"],
            root=data["root"],
            version=data.get("version"),
            features={k: tuple(v) for k, v in data.get("features", {}).items()},
        )


@dataclass(frozen=True)
class SnapshotStats:
    files_seen: int = 0
    files_parsed: int = 0
    files_skipped: int = 0
    sites: int = 0
    dynamic_sites: int = 0
    entries: int = 0
    seconds: float = 0.0
    bytes_parsed: int = 0
    #: manifests (Cargo.toml) read for their packages, and prose docs (README,
    #: ``docs/``) read for what they say, not parsed for errors:
    #: files_seen = files_parsed + manifests_read + docs_read + files_skipped
    manifests_read: int = 0
    docs_read: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "files_seen": self.files_seen,
            "files_parsed": self.files_parsed,
            "manifests_read": self.manifests_read,
            "docs_read": self.docs_read,
            "files_skipped": self.files_skipped,
            "sites": self.sites,
            "dynamic_sites": self.dynamic_sites,
            "entries": self.entries,
            "seconds": round(self.seconds, 3),
            "bytes_parsed": self.bytes_parsed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SnapshotStats:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


#: what a snapshot's ``commit`` is: a git commit's SHA, or (for a plain
#: directory or an installed package) a hash of the files' paths and contents
CommitKind = Literal["git", "content"]


def commit_noun(kind: str) -> str:
    """How to call a snapshot's ``commit`` to a reader.

    >>> commit_noun("content")
    'content hash'
    """
    return "content hash" if kind == "content" else "commit"


@dataclass(frozen=True)
class Snapshot:
    """A repository at one commit (or one state of its files), as indexed."""

    repo: Repo
    commit: str
    commit_date: str | None
    indexed_at: str
    tool_version: str
    stats: SnapshotStats = SnapshotStats()
    version_label: str | None = None  # e.g. a tag or a package version
    commit_kind: CommitKind = "git"

    @property
    def short(self) -> str:
        return self.commit[:10]

    @property
    def commit_noun(self) -> str:
        """ "commit", or "content hash" when ``commit`` is not a git commit."""
        return commit_noun(self.commit_kind)


@dataclass(frozen=True)
class ErrorEntry:
    """All the sites in one repo that throw the same normalized message."""

    id: str
    repo: str
    template: Template
    kinds: tuple[str, ...]
    exception_types: tuple[str, ...]
    sites: tuple[ThrowSite, ...]
    first_seen: str | None = None
    last_seen: str | None = None

    @property
    def message(self) -> str:
        return self.template.display()

    @property
    def catalog_sites(self) -> tuple[ThrowSite, ...]:
        """The sites outside test code."""
        return tuple(s for s in self.sites if not s.in_test)


def via_place(via: str | None) -> tuple[str, int] | None:
    """A site's ``via`` (``"click/types.py:222 ParamType.fail"``) as the
    (path, line) of the raise it goes through.

    >>> via_place("click/types.py:222 ParamType.fail")
    ('click/types.py', 222)
    """
    head = (via or "").split(" ", 1)[0]
    path, _, line = head.rpartition(":")
    return (path, int(line)) if path and line.isdigit() else None
