"""go.mod: the module a directory tree is, and where it is hosted (pure).

``module github.com/google/uuid`` names the package of every ``.go`` file
under it; a module path on a forge (``github.com/owner/name``) is also where
its bugs are reported (an entry's ``upstream`` fact points at that line).
"""

from __future__ import annotations

import posixpath
import re

from errordex.analysis.evidence import FileEvidence, Manifest
from errordex.model import Package

_MODULE = re.compile(r'^module\s+"?([^"\s]+)"?\s*(?://.*)?$')
#: module paths that are a repository on a forge: host/owner/name[/...]
_FORGE = re.compile(r"^((?:github\.com|gitlab\.com|codeberg\.org)/[\w.-]+/[\w.-]+)")


def module_of(text: str) -> tuple[str, int] | None:
    """The module path a go.mod declares, and its line.

    >>> module_of('// x\\nmodule "gopkg.in/yaml.v3"\\n')
    ('gopkg.in/yaml.v3', 2)
    """
    for i, line in enumerate(text.splitlines(), 1):
        m = _MODULE.match(line.strip())
        if m:
            return m.group(1), i
    return None


def read_manifest(path: str, text: str) -> tuple[Package | None, FileEvidence]:
    found = module_of(text)
    repository = None
    if found is not None:
        forge = _FORGE.match(found[0])
        if forge is not None:
            repository = (f"https://{forge.group(1).removesuffix('.git')}", found[1])
    evidence = FileEvidence(
        path=path,
        language="gomod",
        n_lines=len(text.splitlines()),
        manifest=Manifest(crate=found[0] if found else None, repository=repository),
    )
    if found is None:
        return None, evidence
    root = posixpath.dirname(path)
    return Package(name=found[0], manifest=path, root=root), evidence
