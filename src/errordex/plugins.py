"""The languages errordex reads, found through the ``errordex.languages``
entry points (with pluggy, as ``llm`` finds its plugins).

Each entry point names a module with a ``register_languages`` hook (see
``hookspecs``); errordex's own Python and Rust are registered the same way,
in its ``pyproject.toml``. They are loaded once per process, on first use,
never at import time. A language that cannot be loaded is an error naming
it (``LanguageError``), never a language silently left out.

    >>> all(lang.name == name for name, lang in languages().items())
    True
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Container, Iterable, Mapping
from functools import cache
from types import MappingProxyType

import pluggy

from errordex import hookspecs
from errordex.errors import LanguageError
from errordex.language import Language
from errordex.model import ClassDef, ThrowSite

#: The entry point group a language registers in.
GROUP = "errordex.languages"


@cache
def languages() -> Mapping[str, Language]:
    """Every registered language by name, in name order.

    Raises ``LanguageError`` when an entry point cannot be loaded or
    registers something wrong, and when there is no language at all.
    """
    pm = pluggy.PluginManager("errordex")
    pm.add_hookspecs(hookspecs)
    for ep in sorted(importlib.metadata.entry_points(group=GROUP), key=lambda e: e.name):
        if pm.has_plugin(ep.name):
            continue  # one distribution seen twice on sys.path
        try:
            plugin = ep.load()
            pm.register(plugin, name=ep.name)
        except Exception as e:
            raise LanguageError(
                f"language {ep.name!r} ({ep.value}) cannot be loaded: {type(e).__name__}: {e}"
            ) from e
    found: dict[str, Language] = {}
    for impl in pm.hook.register_languages.get_hookimpls():
        who = impl.plugin_name

        def register(lang: Language, who: str = who) -> None:
            if not isinstance(lang, Language):
                raise LanguageError(f"language {who!r} registered {lang!r}, not a Language")
            if lang.name in found:
                raise LanguageError(f"language {lang.name!r} is registered twice ({who!r})")
            found[lang.name] = lang

        try:
            impl.function(register=register)
        except LanguageError:
            raise
        except Exception as e:
            raise LanguageError(
                f"language {who!r} failed to register: {type(e).__name__}: {e}"
            ) from e
    if not found:
        raise LanguageError(
            f"no language is registered in the {GROUP!r} entry points: is errordex installed?"
        )
    seen: dict[str, str] = {}
    for lang in found.values():
        for ext in lang.extensions + lang.project.manifests:
            if ext in seen:
                raise LanguageError(
                    f"languages {seen[ext]!r} and {lang.name!r} both read {ext!r} files"
                )
            seen[ext] = lang.name
    plain = [lang.name for lang in found.values() if lang.paste.claims_plain]
    if len(plain) > 1:
        raise LanguageError(f"languages {', '.join(map(repr, plain))} all claim plain messages")
    return MappingProxyType(dict(sorted(found.items())))


def forget() -> None:
    """Forget the languages found, so that the next use reads the entry
    points again (after a language package is installed in this process)."""
    for f in (languages, _by_extension, _by_manifest, dirs_of_tests, bare_messages):
        f.cache_clear()


def find(name: str | None) -> Language | None:
    """The language called ``name``, or None (a site stored by a language
    that is not installed now still shows, as plain text)."""
    return languages().get(name) if name else None


def get(name: str) -> Language:
    """The language called ``name``; ``LanguageError`` if there is none."""
    lang = find(name)
    if lang is None:
        raise LanguageError(f"no language {name!r} is registered (known: {', '.join(languages())})")
    return lang


@cache
def _by_extension() -> Mapping[str, Language]:
    return {ext: lang for lang in languages().values() for ext in lang.extensions}


@cache
def _by_manifest() -> Mapping[str, Language]:
    return {m: lang for lang in languages().values() for m in lang.project.manifests}


def for_path(path: str) -> Language | None:
    """The language that reads the file at ``path``, by its extension."""
    dot = path.rfind(".")
    return _by_extension().get(path[dot:]) if dot >= 0 else None


def manifest_for(path: str) -> Language | None:
    """The language whose manifest the file at ``path`` is (its name ends
    with one of ``Language.manifests``: ``Cargo.toml``)."""
    for name, lang in _by_manifest().items():
        if path.endswith(name):
            return lang
    return None


@cache
def dirs_of_tests() -> frozenset[str]:
    """Directory names whose files are test code, in any language."""
    return frozenset(d for lang in languages().values() for d in lang.project.test_dirs)


def is_test_file(name: str) -> bool:
    """Whether a file name is a test file's, in any language."""
    return any(lang.project.is_test_file(name) for lang in languages().values())


@cache
def bare_messages() -> Mapping[str, str]:
    """What a runtime prints for a bare site of a kind, over every language."""
    return {k: v for lang in languages().values() for k, v in lang.runtime.bare_messages.items()}


def assumed(name: str | None) -> Language | None:
    """The language an error is read as: the one called ``name``, or for an
    error of no known language (a lone message line) the language that
    claims those (``Language.claims_plain``)."""
    if name is not None:
        return find(name)
    return next((lang for lang in languages().values() if lang.paste.claims_plain), None)


def innermost_last(name: str | None) -> bool:
    """Whether the runtime of ``name`` prints its innermost frame last."""
    lang = assumed(name)
    return lang is not None and lang.runtime.innermost_last


def runtime_frame(name: str | None, path: str, function: str | None) -> bool:
    """Whether a frame of an error of ``name`` is its runtime's own
    (``Runtime.runtime_frame``): it passes a call on and is nobody's call."""
    lang = assumed(name)
    return lang is not None and lang.runtime.runtime_frame(path, function)


def interpreter_form(name: str | None, message: str, exception_type: str | None) -> bool:
    """Whether ``message`` has the form of one the runtime of ``name``
    raises itself."""
    lang = assumed(name)
    return lang is not None and lang.runtime.interpreter_form(message, exception_type)


def error_word(name: str | None) -> str:
    """What a user calls an error of ``name`` ("panic"); "error" for another."""
    lang = find(name)
    return lang.runtime.error_word if lang is not None else "error"


def runtime_title(name: str | None) -> str:
    """The runtime an error of ``name`` comes from, in a sentence ("the Python
    runtime"; "the runtime" for a language not known)."""
    lang = assumed(name)
    return (
        f"the {lang.runtime.title} runtime"
        if lang is not None and lang.runtime.title
        else "the runtime"
    )


def lexer(name: str | None) -> str:
    lang = find(name)
    return lang.pages.lexer if lang is not None else "text"


def kinds() -> tuple[str, ...]:
    """Every kind of throw site, over every language (no repeats)."""
    return tuple(dict.fromkeys(k for lang in languages().values() for k in lang.kinds))


def class_messages(
    classes: Iterable[ClassDef],
) -> tuple[Container[str], Callable[[ThrowSite], ThrowSite | None]]:
    """Every language's ``class_messages`` at once: the raise keys
    (``classmsg.raise_key``) whose sites are revised, and the revision,
    by the site's language."""
    defs = list(classes)
    by_lang = {
        name: lang.runtime.class_messages(defs)
        for name, lang in languages().items()
        if lang.runtime.class_messages is not None
    }

    def revise(site: ThrowSite) -> ThrowSite | None:
        got = by_lang.get(site.language)
        return got[1](site) if got is not None else site

    return _RaiseKeys({name: names for name, (names, _) in by_lang.items()}), revise


class _RaiseKeys:
    """``"language\0name"`` is in it when that language revises ``name``."""

    def __init__(self, names: Mapping[str, Container[str]]) -> None:
        self.names = names

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        lang, _, name = key.partition("\0")
        got = self.names.get(lang)
        return got is not None and name in got
