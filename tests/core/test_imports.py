"""The architecture's import graph has no circles: every import counts, at a
module's top, inside a function or under ``TYPE_CHECKING``."""

from __future__ import annotations

import ast
from pathlib import Path

import errordex

SRC = Path(errordex.__file__).parent


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in SRC.rglob("*.py"):
        parts = ("errordex", *path.relative_to(SRC).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                targets = [f"{base}.{a.name}" for a in node.names]
            for t in targets:
                found = resolve(t)
                if found is not None and found != module:
                    graph[module].add(found)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_modules_import_no_circle() -> None:
    assert _circles(_graph()) == []


def test_a_circle_is_found() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_matcher_imports_nothing_of_the_store() -> None:
    """The stored postings index is behind the store (``store.candidates``),
    which uses the matcher's pure keys and retrieval, never the reverse."""
    graph = _graph()
    into_store = {
        (m, t)
        for m, targets in graph.items()
        if m.startswith("errordex.match")
        for t in targets
        if t.startswith("errordex.store")
    }
    assert into_store == set()


def _names_a_language(line: str, before: str) -> bool:
    """Whether a line names a language: a language's name as a string, except
    as the parameter name of a command-line option (``--python PATH``, an
    interpreter to read packages from)."""
    return any(
        f'"{name}"' in line and before.strip() != f'"--{name}",' for name in ("rust", "python")
    )


def test_the_core_names_no_language() -> None:
    """Everything that knows a language is in its package under languages/;
    the core asks the Language (``errordex.language``) instead."""
    named = []
    for path in sorted(SRC.rglob("*")):
        parts = path.relative_to(SRC).parts
        if not path.is_file() or path.suffix not in (".py", ".html") or "languages" in parts:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if _names_a_language(line, lines[i - 1] if i else ""):
                named.append(f"{path.relative_to(SRC)}:{i + 1}")
    assert named == []


def test_an_option_named_for_the_interpreter_is_not_a_language() -> None:
    assert not _names_a_language('    "python",', '    "--python",')
    assert _names_a_language('    if site.language == "python":', "")
