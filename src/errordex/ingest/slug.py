"""Naming a repository: "owner/name" from --name, a git remote, or the directory.

Pure: no I/O.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

from errordex.errors import InputError
from errordex.forge import parse_forge_url
from errordex.model import Repo

_PART = r"[A-Za-z0-9_][A-Za-z0-9_.-]*"
_NAME = re.compile(rf"^{_PART}/{_PART}$")


def validate_name(name: str) -> str:
    """Check a user-given slug; raise InputError unless it reads "owner/name"."""
    if not _NAME.match(name) or ".." in name:
        raise InputError(
            f"--name must look like owner/name (letters, digits, '_', '-', '.'), got {name!r}"
        )
    return name


def local_slug(dirname: str, owner: str = "local") -> str:
    """``local/<dirname>``, with characters a slug cannot hold replaced by '-'."""
    base = dirname[: -len(".git")] if dirname.endswith(".git") else dirname
    clean = re.sub(r"[^A-Za-z0-9_.-]+", "-", base).strip("-.") or "repo"
    return f"{owner}/{clean}"


def redact_url(url: str) -> str:
    """Drop any user:password from an http(s) URL, so a token is never stored."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if parts.scheme in ("http", "https") and "@" in parts.netloc:
        host = parts.netloc.rsplit("@", 1)[1]
        return urlunsplit(parts._replace(netloc=host))
    return url


def repo_from_remote(
    remote: str | None,
    *,
    name: str | None,
    dirname: str,
    default_branch: str | None = None,
    keep_url: bool = False,
) -> Repo:
    """Build the Repo: slug from ``name``, else the forge remote, else ``local/<dirname>``.

    ``url`` is the forge's https web URL when the remote is on a known forge;
    otherwise the (redacted) remote itself if ``keep_url``, else None.
    """
    forge = parse_forge_url(remote) if remote else None
    if name is not None:
        slug = validate_name(name)
    elif forge is not None:
        slug = forge.slug
    else:
        slug = local_slug(dirname)
    if forge is not None:
        url: str | None = forge.web_url
    elif keep_url and remote:
        url = redact_url(remote)
    else:
        url = None
    return Repo(slug=slug, url=url, default_branch=default_branch)
