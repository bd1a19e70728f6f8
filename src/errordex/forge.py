"""Links to a file on a code forge (GitHub, GitLab), pinned to a ref.

Pure: no I/O. Only the public hosts are known; anything else gives ``None``
rather than a guessed link.

    >>> file_url("https://github.com/pallets/click", "abc123", "src/click/core.py", 12)
    'https://github.com/pallets/click/blob/abc123/src/click/core.py#L12'
    >>> parse_forge_url("git@gitlab.com:group/sub/project.git").slug
    'group/project'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote, urlsplit

Forge = Literal["github", "gitlab"]

#: host -> (forge, canonical host)
_HOSTS: dict[str, tuple[Forge, str]] = {
    "github.com": ("github", "github.com"),
    "www.github.com": ("github", "github.com"),
    "gitlab.com": ("gitlab", "gitlab.com"),
    "www.gitlab.com": ("gitlab", "gitlab.com"),
}

#: First path segments on github.com that are not an owner.
_GITHUB_RESERVED = frozenset(
    {"sponsors", "orgs", "settings", "marketplace", "apps", "features", "topics", "about"}
)
_SEGMENT = re.compile(r"^[A-Za-z0-9_.-]+$")
# scp-like syntax: [user@]host:path (a single letter before ":" is a Windows drive)
_SCP = re.compile(r"^(?:[^@/:]+@)?(?P<host>[^@/:]{2,}):(?!//)(?P<path>.+)$")
_SCHEMES = frozenset({"http", "https", "ssh", "git", "git+ssh", "git+https", "ssh+git"})


@dataclass(frozen=True)
class ForgeRepo:
    """A repository on a known forge. ``path`` is "owner/name" (GitLab: may have subgroups)."""

    forge: Forge
    host: str
    path: str

    @property
    def web_url(self) -> str:
        return f"https://{self.host}/{self.path}"

    @property
    def slug(self) -> str:
        """ "owner/name"; a GitLab subgroup path keeps its first and last segment."""
        parts = self.path.split("/")
        return f"{parts[0]}/{parts[-1]}"


def parse_forge_url(url: str) -> ForgeRepo | None:
    """Parse a clone or web URL (https, ssh, ``git@host:o/r.git``) of a known forge."""
    url = url.strip()
    scp = _SCP.match(url) if "://" not in url else None
    if scp:
        host, path = scp.group("host").lower(), scp.group("path")
    else:
        try:
            parts = urlsplit(url)
            host = (parts.hostname or "").lower()
        except ValueError:
            return None
        if parts.scheme.lower() not in _SCHEMES:
            return None
        path = parts.path
    known = _HOSTS.get(host)
    if known is None:
        return None
    forge, canonical = known
    segments = [s for s in path.strip("/").split("/") if s]
    if forge == "gitlab" and "-" in segments:
        segments = segments[: segments.index("-")]
    if forge == "github":
        segments = segments[:2]
    if len(segments) < 2:
        return None
    if segments[-1].endswith(".git"):
        segments[-1] = segments[-1][: -len(".git")]
    if not all(_SEGMENT.match(s) and s not in (".", "..") for s in segments):
        return None
    if forge == "github" and segments[0].lower() in _GITHUB_RESERVED:
        return None
    return ForgeRepo(forge=forge, host=canonical, path="/".join(segments))


def file_url(
    repo_url: str | None, ref: str | None, path: str, line: int | None = None
) -> str | None:
    """The forge's web page for ``path`` at ``ref``, with a line anchor; None if unknown."""
    if not repo_url or not ref:
        return None
    repo = parse_forge_url(repo_url)
    if repo is None:
        return None
    sep = "/blob/" if repo.forge == "github" else "/-/blob/"
    url = f"{repo.web_url}{sep}{quote(ref, safe='/')}/{quote(path.lstrip('/'), safe='/')}"
    if line is not None:
        url += f"#L{line}"
    return url
