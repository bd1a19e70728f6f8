"""Naming a repository: "owner/name" from --name, a git remote, or the directory.

Pure: no I/O.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

from errordex.errors import InputError
from errordex.forge import named_repo, parse_forge_url
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
    forge_url: str | None = None,
) -> Repo:
    """Build the Repo: slug from ``name``, else the forge remote, else ``local/<dirname>``.

    ``url``, the repository's web page, is the first of: the slug on the
    forge at ``forge_url`` (the user's --forge-url); the forge's https web URL
    when the remote is on a known forge; the slug on GitHub when the user
    named it (``name``, not ``local/…``) and the remote, if kept, is on this
    machine; the (redacted) remote itself if ``keep_url``; else None.
    """
    forge = parse_forge_url(remote) if remote else None
    if name is not None:
        slug = validate_name(name)
    elif forge is not None:
        slug = forge.slug
    else:
        slug = local_slug(dirname)
    user_named = name is not None and not is_local_slug(slug)
    url: str | None = None
    if forge_url is not None and not is_local_slug(slug):
        try:
            url = named_repo(slug, forge_url).web_url
        except ValueError as e:
            raise InputError(str(e)) from None
    elif forge is not None:
        url = forge.web_url
    elif user_named and not (keep_url and remote and not _on_this_machine(remote)):
        url = named_repo(slug).web_url
    elif keep_url and remote:
        url = redact_url(remote)
    return Repo(slug=slug, url=url, default_branch=default_branch)


def is_local_slug(slug: str) -> bool:
    """A slug errordex made up (``local/<dirname>``), or the user's ``local/…``."""
    return slug.split("/", 1)[0] == "local"


def _on_this_machine(remote: str) -> bool:
    """A ``file://`` URL or a path: no web page, and not to be shown."""
    return remote.startswith("file:") or ("://" not in remote and ":" not in remote.split("/")[0])
