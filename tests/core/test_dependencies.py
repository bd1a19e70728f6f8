"""errordex's core dependencies are the ones its core imports: each is
imported outside web/ (whose extra brings FastAPI, and pydantic with it) and
the LLM writer's llm/ (whose extra brings pydantic), except the modules of
llm/ that every page read goes through (``prose``, ``prompt``)."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "src" / "errordex"


#: the modules of llm/ that reading a page imports (``views.with_prose``)
READ_PATH = ("prose.py", "prompt.py", "__init__.py")


def imported_modules() -> set[str]:
    """Top-level names of the modules imported by the core (not web/, and
    of llm/ only what a page read imports)."""
    found: set[str] = set()
    for path in CORE.rglob("*.py"):
        parts = path.relative_to(CORE).parts
        if "web" in parts or (parts[0] == "llm" and path.name not in READ_PATH):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module.split(".")[0])
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and re.fullmatch(r"tree_sitter_\w+", node.value)
            ):  # a module imported by name (grammars.py loads each grammar's wheel)
                found.add(node.value)
    return found


def test_every_core_dependency_is_imported_by_the_core() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0] for d in deps}
    modules = imported_modules()
    unused = {n for n in names if n.replace("-", "_") not in modules}
    assert unused == set()


def test_pathspec_is_a_core_dependency_and_pydantic_is_not() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert any(d.startswith("pathspec") for d in deps)
    assert not any(d.startswith("pydantic") for d in deps)
    assert "pydantic" not in imported_modules()


def test_the_llm_extra_brings_what_the_llm_writer_imports() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert any(d.startswith("pydantic") for d in extras["llm"])
