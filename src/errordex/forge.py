"""Links to a file on a code forge (GitHub, GitLab, Gitea/Forgejo), pinned to a ref.

Pure: no I/O. The public hosts are known, and a self-hosted forge whose host
name says which software it runs (``gitlab.example.org``,
``gitea.example.org``, ``forgejo.…``, ``github.example.com``); anything else
gives ``None`` rather than a guessed link.

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

Forge = Literal["github", "gitlab", "gitea"]

#: host -> (forge, canonical host)
_HOSTS: dict[str, tuple[Forge, str]] = {
    "github.com": ("github", "github.com"),
    "www.github.com": ("github", "github.com"),
    "gitlab.com": ("gitlab", "gitlab.com"),
    "www.gitlab.com": ("gitlab", "gitlab.com"),
    "codeberg.org": ("gitea", "codeberg.org"),
    "gitea.com": ("gitea", "gitea.com"),
}
#: a word in a self-hosted forge's host name -> the software it runs
_HOST_WORDS: dict[str, Forge] = {
    "github": "github",
    "gitlab": "gitlab",
    "gitea": "gitea",
    "forgejo": "gitea",
}
#: the path between a repository and a ref in a file's web address
_BLOB: dict[Forge, str] = {"github": "/blob/", "gitlab": "/-/blob/", "gitea": "/src/commit/"}
#: where each forge is hosted publicly, for --forge-url's error
PUBLIC_FORGES = "https://github.com, https://gitlab.com, https://codeberg.org"

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
    web_port = None
    if scp:
        host, path = scp.group("host").lower(), scp.group("path")
    else:
        try:
            parts = urlsplit(url)
            host = (parts.hostname or "").lower()
            if parts.scheme.lower() in ("http", "https"):
                web_port = parts.port  # a self-hosted forge's (ssh's is not the web's)
        except ValueError:
            return None
        if parts.scheme.lower() not in _SCHEMES:
            return None
        path = parts.path
    known = _known_host(host)
    if known is None:
        return None
    forge, canonical = known
    if web_port:
        canonical += f":{web_port}"
    segments = [s for s in path.strip("/").split("/") if s]
    if forge == "gitlab" and "-" in segments:
        segments = segments[: segments.index("-")]
    if forge in ("github", "gitea"):  # owner/name, no subgroups
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


def _known_host(host: str) -> tuple[Forge, str] | None:
    """The forge at ``host``: a public one, or a self-hosted one whose first
    label says which (``gitlab.gnome.org``, ``gitea-01.example.org``); not
    ``gist.github.com`` nor ``someone.github.io``.

    >>> _known_host("gitlab.gnome.org")
    ('gitlab', 'gitlab.gnome.org')
    """
    if host in _HOSTS:
        return _HOSTS[host]
    labels = host.split(".")
    if len(labels) < 3:  # github.io, forgejo.org: a site, not a forge
        return None
    for word, forge in _HOST_WORDS.items():
        if labels[0] == word or labels[0].startswith(word + "-"):
            return forge, host
    return None


def named_repo(slug: str, forge_url: str | None = None) -> ForgeRepo:
    """The repository ``slug`` ("owner/name") on the forge at ``forge_url``
    (a base address, such as ``https://gitlab.example.org``), by default GitHub.

    >>> named_repo("pallets/click").web_url
    'https://github.com/pallets/click'
    >>> named_repo("gnome/gtk", "https://gitlab.gnome.org/").web_url
    'https://gitlab.gnome.org/gnome/gtk'

    ValueError (a sentence for the user) when ``forge_url`` is not the base
    address of a forge this module can link to.
    """
    if forge_url is None:
        return ForgeRepo(forge="github", host="github.com", path=slug)
    try:
        parts = urlsplit(forge_url.strip())
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        raise ValueError(f"--forge-url {forge_url!r} is not a URL") from None
    if parts.scheme.lower() not in ("http", "https") or not host:
        raise ValueError(f"--forge-url {forge_url!r} must be an https:// address")
    if parts.path.strip("/") or parts.query or parts.fragment:
        raise ValueError(
            f"--forge-url {forge_url!r}: give the forge's own address, without a path"
            " (the repository's path is --name)"
        )
    known = _known_host(host)
    if known is None:
        raise ValueError(
            f"--forge-url {forge_url!r}: which forge runs there is unknown, so its links"
            f" cannot be made. Known: {PUBLIC_FORGES}, and hosts whose name says"
            " github, gitlab, gitea or forgejo (gitlab.example.org)"
        )
    forge, canonical = known
    if port:
        canonical += f":{port}"
    return ForgeRepo(forge=forge, host=canonical, path=slug)


def file_url(
    repo_url: str | None, ref: str | None, path: str, line: int | None = None
) -> str | None:
    """The forge's web page for ``path`` at ``ref``, with a line anchor; None if unknown."""
    if not repo_url or not ref:
        return None
    repo = parse_forge_url(repo_url)
    if repo is None:
        return None
    url = f"{repo.web_url}{_BLOB[repo.forge]}{quote(ref, safe='/')}/{quote(path.lstrip('/'), safe='/')}"
    if line is not None:
        url += f"#L{line}"
    return url
