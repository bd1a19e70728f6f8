"""Message constants of another module (Python, pure): issue 15.

A library may keep its texts in one module and raise them from others
(Cerberus)::

    # cerberus/errors.py
    SCHEMA_ERROR_MISSING = "validation schema missing"

    # cerberus/validator.py
    from cerberus import errors
    raise SchemaError(errors.SCHEMA_ERROR_MISSING)

One file alone reads ``{errors.SCHEMA_ERROR_MISSING}``. The two are joined
as forwarding is (``errordex.forward``): each module-level constant that
holds a sentence is a ``MessageCall`` named ``const:<module>:<NAME>`` with
its text as the argument (``definitions``), and a raise of a constant read
from an imported module is a ``Forwarder`` of that name (``reference``).
The joined site is where the text is written, with the raise as its via.
A module is known by its file's name (``errors`` for ``errors.py``, the
package's for its ``__init__.py``).
"""

from __future__ import annotations

import re
from dataclasses import replace

import tree_sitter as ts

from errordex.languages.python import collected, fields, msg
from errordex.model import Forwarder
from errordex.template import Hole, Template

PREFIX = "const:"
#: a constant's name: ``SCHEMA_ERROR_MISSING``, ``MSG_INVALID_UNIT_NAME``
_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*[A-Z0-9]\Z")


def module_of(path: str) -> str:
    """``cerberus/errors.py`` -> ``errors``; ``pkg/__init__.py`` -> ``pkg``."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__" and len(parts) > 1:
        return parts[-2]
    return parts[-1]


def name_of(module: str, constant: str) -> str:
    return f"{PREFIX}{module}:{constant}"


def definitions(
    path: str, root: ts.Node, resolve: msg.Resolver
) -> list[tuple[ts.Node, str, Template]]:
    """The module-level constants of a file that hold a sentence: (the
    assignment, the name it is joined by, the text)."""
    module = module_of(path)
    return [
        (assign, name_of(module, name), text)
        for assign, name, text in msg.sentences_assigned(
            root.named_children, resolve, lambda name: _CONSTANT.match(name) is not None
        )
    ]


def imports(root: ts.Node) -> tuple[dict[str, str], dict[str, str]]:
    """What a file's top-level imports bind: modules by the name they are
    bound to (``from cerberus import errors``, ``import pint.errors as
    errors``: errors -> errors), and constants imported by name with the
    module they come from (``from .errors import SCHEMA_ERROR_MISSING``)."""
    modules: dict[str, str] = {}
    names: dict[str, str] = {}
    for stmt in root.named_children:
        if stmt.type == "import_statement":
            for n in msg.named(stmt):
                dotted = n.child_by_field_name("name") if n.type == "aliased_import" else n
                alias = n.child_by_field_name("alias") if n.type == "aliased_import" else None
                if dotted is None:
                    continue
                full = msg.text_of(dotted)
                bound = msg.text_of(alias) if alias is not None else full
                modules[bound] = full.rsplit(".", 1)[-1]
        elif stmt.type == "import_from_statement":
            source = stmt.child_by_field_name("module_name")
            if source is None:
                continue
            origin = msg.text_of(source).rsplit(".", 1)[-1].lstrip(".")
            for n in stmt.children_by_field_name("name"):
                real = n.child_by_field_name("name") if n.type == "aliased_import" else n
                alias = n.child_by_field_name("alias") if n.type == "aliased_import" else None
                if real is None:
                    continue
                word = msg.text_of(real)
                bound = msg.text_of(alias) if alias is not None else word
                if _CONSTANT.match(word):
                    if origin:
                        names[bound] = name_of(origin, word)
                else:
                    modules[bound] = word
    return modules, names


def reference(
    template: Template, modules: dict[str, str], names: dict[str, str]
) -> tuple[str, str | None] | None:
    """The joined name of a message that is one constant of another module,
    and how the raise formats it (``fields``), if it does:
    ``{errors.SCHEMA_ERROR_MISSING}`` -> (``const:errors:SCHEMA_ERROR_MISSING``,
    None); ``{errors.DOCUMENT_FORMAT.format(document)}`` -> (..., "format")."""
    only = template.parts[0] if len(template.parts) == 1 else None
    if not isinstance(only, Hole):
        return None
    expr, how = only.expr, None
    formatted = _FORMATTED.match(expr)
    if formatted is not None:
        expr, how = formatted.group(1), fields.FORMAT if formatted.group(2) else fields.PERCENT
    if expr in names:
        return names[expr], how
    head, _, last = expr.rpartition(".")
    if head in modules and _CONSTANT.match(last):
        return name_of(modules[head], last), how
    return None


def forwarder(
    path: str, line: int, name: str, exc_type: str, symbol: str | None, formats: str | None = None
) -> Forwarder:
    """The raise of a constant of another module, as the forwarder its
    definition (a ``MessageCall`` of the same name) reaches; its qualified
    name is the raising function's, then the constant's joined name (as a
    collector's is). ``formats``: how the raise formats the text, whose
    fields are then placeholders (``Forwarder.formats``)."""
    found = collected.raising_forwarder(path, line, name, exc_type, symbol)
    return replace(found, formats=formats) if formats else found


#: a constant formatted at its raise: ``errors.DOCUMENT_FORMAT.format(document)``,
#: ``E_BAD % name`` (the constant, then how)
_FORMATTED = re.compile(
    r"((?:[A-Za-z_]\w*\.)*[A-Z][A-Z0-9_]*)(?:(\.format(?:_map)?\(.*\))|\s*%\s*\S.*)\Z", re.S
)
