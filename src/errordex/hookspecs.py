"""The plugin surface: one hook, which a language package implements.

    from errordex.hookspecs import hookimpl

    @hookimpl
    def register_languages(register):
        register(KOTLIN)  # a errordex.language.Language

and names the module in its ``pyproject.toml``::

    [project.entry-points."errordex.languages"]
    kotlin = "errordex_kotlin"
"""

from __future__ import annotations

from collections.abc import Callable

import pluggy

from errordex.language import Language

hookspec = pluggy.HookspecMarker("errordex")
hookimpl = pluggy.HookimplMarker("errordex")


@hookspec
def register_languages(register: Callable[[Language], None]) -> None:
    """Register languages: call ``register`` once for each."""
