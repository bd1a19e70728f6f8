"""What the extractor's passes read of one Python file: where a statement
sits (``Where``), and the file as the forwarding pass sees it
(``SourceFile``, which ``extract._File`` is). Apart, so that ``forward``
needs nothing of ``extract``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import tree_sitter as ts

from errordex.languages.python import msg
from errordex.model import CallArg, Guard, ThrowSite
from errordex.template import Template


@dataclass
class Where:
    """What the ancestors of a statement tell about it."""

    symbol: str | None
    guards: tuple[Guard, ...]
    in_test: bool
    bound: frozenset[str]  # names bound by enclosing `except ... as name`


class SourceFile(Protocol):
    """A file being extracted, as the forwarding pass reads it."""

    path: str

    @property
    def src(self) -> bytes: ...

    @property
    def plural(self) -> bool: ...

    @property
    def functions(self) -> dict[str, list[ts.Node]]: ...

    def resolve(self, ident: ts.Node) -> ts.Node | None: ...

    @property
    def branches(self) -> msg.Branches: ...

    def where(self, node: ts.Node) -> Where: ...

    def site(
        self,
        node: ts.Node,
        kind: str,
        exc_type: str | None,
        template: Template,
        where: Where,
        args: tuple[CallArg, ...] = (),
    ) -> ThrowSite: ...
