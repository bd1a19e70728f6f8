"""The path a user types for an item of a package with module files (pure).

A Rust crate's modules are its files (``src/tensor/api/base.rs`` is module
``tensor::api::base``), each declared ``mod`` or ``pub mod`` by its parent,
and a module re-exports names with ``pub use``: by name
(``pub use tensor::Tensor;``), wholesale (``pub use api::*;``), or a whole
crate (``pub use burn_tensor::*;``, ``pub use burn_tensor as tensor;``). An
item is visible where it is defined and wherever it is re-exported, and a
user can name it there when every module down to it is ``pub``. A crate
that re-exports another crate (burn re-exports burn-core, which re-exports
burn-tensor as its ``tensor`` module) is where users take the item from.

    >>> t = ModuleTree({"burn": "crates/burn", "burn-tensor": "crates/burn-tensor"})
    >>> t.add("crates/burn-tensor/src/lib.rs", (("tensor", False),), (("*", "tensor", "*", 4),))
    >>> t.add("crates/burn-tensor/src/tensor/mod.rs", (), (), ("Tensor",))
    >>> t.add("crates/burn/src/lib.rs", (), (("tensor", "", "burn_tensor", 9),))
    >>> t.public_path("crates/burn-tensor/src/tensor/mod.rs", "Tensor::backward")
    ('burn::tensor::Tensor::backward', 'crates/burn/src/lib.rs', 9)
"""

from __future__ import annotations

import re
from collections import defaultdict

#: a trait impl's type: ``GifDecoder`` of ``<GifDecoder as ImageDecoder>``
_TRAIT_IMPL = re.compile(r"<\s*([A-Za-z_]\w*)(?:<.*>)?\s+as\s+.+>")
#: how many crates deep a re-export of a crate is followed
MAX_CRATES = 4
#: how many places an item is followed to (its re-exports of re-exports)
MAX_PLACES = 64

#: (name it is shown as, the path it is taken from, the name there ("*":
#: all), its line)
Use = tuple[str, str, str, int]


class ModuleTree:
    """The modules of a snapshot's crates, and their ``pub use`` items."""

    def __init__(self, roots: dict[str, str]) -> None:
        #: crate name -> its directory
        self.roots = dict(roots)
        #: (crate, module path) -> (child module -> declared ``pub``)
        self.mods: dict[tuple[str, tuple[str, ...]], dict[str, bool]] = {}
        #: (crate, module path) -> its ``pub use`` items
        self.uses: dict[tuple[str, tuple[str, ...]], list[Use]] = defaultdict(list)
        #: crate name as code writes it (``burn_tensor``) -> crate
        self.idents = {name.replace("-", "_"): name for name in roots}
        #: (crate, module path) -> the ``pub`` types its file declares
        self.types: dict[tuple[str, tuple[str, ...]], frozenset[str]] = {}
        #: (crate, module path) -> its file
        self.files: dict[tuple[str, tuple[str, ...]], str] = {}
        #: crate -> the (crate, module, use) that re-export it
        self.users: dict[str, list[tuple[str, tuple[str, ...], Use]]] = defaultdict(list)
        #: (crate, module path) -> where its ``mod`` item is compiled in debug
        #: builds only: the declaring file and the ``#[cfg(debug_assertions)]`` line
        self.debug: dict[tuple[str, tuple[str, ...]], tuple[str, int]] = {}
        #: (crate, type) -> the modules of ``types`` that declare it, in its
        #: order (``_declaring``; None until asked, and again after an ``add``)
        self._declared: dict[tuple[str, str], list[tuple[str, ...]]] | None = None

    def module_of(self, path: str) -> tuple[str, tuple[str, ...]] | None:
        """(crate, module path) of a file of a crate's ``src``."""
        best: tuple[str, str] | None = None
        for crate, root in self.roots.items():
            src = f"{root}/src/" if root else "src/"
            if path.startswith(src) and (best is None or len(src) > len(best[1])):
                best = (crate, src)
        if best is None or not path.endswith(".rs"):
            return None
        parts = path[len(best[1]) : -3].split("/")
        if parts[-1] == "mod" or parts == ["lib"]:
            parts = parts[:-1]
        if parts[:1] in (["main"], ["bin"]):
            return None
        return best[0], tuple(parts)

    def add(
        self,
        path: str,
        mods: tuple[tuple[str, bool], ...],
        uses: tuple[Use, ...],
        types: tuple[str, ...] = (),
    ) -> None:
        """One file's ``mod`` declarations (name, ``pub``), ``pub use`` items
        and ``pub`` types."""
        at = self.module_of(path)
        if at is None:
            return
        self.files[at] = path
        if types:
            self.types[at] = frozenset(types)
            self._declared = None
        for name, public in mods:
            # `codecs::bmp`: `mod bmp;` inside the inline `mod codecs { … }`
            *inline, leaf = name.split("::")
            self.mods.setdefault((at[0], (*at[1], *inline)), {})[leaf] = public
        for u in uses:
            self.uses[at].append(u)
            head = u[1].split("::", 1)[0] if u[1] else u[2]
            crate = self.idents.get(head)
            if crate is not None and crate != at[0]:
                self.users[crate].append((at[0], at[1], u))

    def add_debug(self, path: str, name: str, line: int) -> None:
        """A ``mod name;`` of the file ``path`` compiled in debug builds only."""
        at = self.module_of(path)
        if at is not None:
            self.debug[at[0], (*at[1], name)] = (path, line)

    def debug_only(self, path: str) -> tuple[str, int] | None:
        """Where the module of the file ``path``, or a module around it, is
        declared under ``#[cfg(debug_assertions)]`` (clap's ``mod
        debug_asserts;``): (file, line); None when a release build has it."""
        at = self.module_of(path)
        if at is None or not self.debug:
            return None
        crate, parts = at
        for n in range(1, len(parts) + 1):
            found = self.debug.get((crate, parts[:n]))
            if found is not None:
                return found
        return None

    def _resolve(self, crate: str, module: tuple[str, ...], path: str) -> tuple[str, ...] | None:
        """The module a ``use`` path names, in ``crate``; None for another crate's."""
        segs = [s for s in path.split("::") if s]
        if not segs:
            return module
        if segs[0] == "crate":
            return tuple(segs[1:])
        base = list(module)
        while segs and segs[0] in ("self", "super"):
            if segs.pop(0) == "super":
                if not base:
                    return None
                base.pop()
        if segs and segs[0] in self.idents and segs[0] not in self.mods.get((crate, module), {}):
            return None  # another crate
        return tuple(base + segs)

    def _reachable(self, crate: str, module: tuple[str, ...]) -> bool:
        return all(
            self.mods.get((crate, module[:i]), {}).get(module[i], False) for i in range(len(module))
        )

    def places(
        self, crate: str, module: tuple[str, ...], name: str
    ) -> list[tuple[list[str], bool, int]]:
        """Where in ``crate`` a user can name ``name`` of ``module``: each as
        its path from the crate root, whether only wholesale re-exports and
        ``pub mod``s lead there (its canonical place, not a shortcut), and
        the line of the last re-export on the way (0: none)."""
        out: list[tuple[list[str], bool, int]] = []
        todo = [(module, name, True, 0)]
        seen: set[tuple[tuple[str, ...], str]] = set()
        while todo and len(seen) < MAX_PLACES:
            m, n, canonical, at = todo.pop()
            if (m, n) in seen:
                continue
            seen.add((m, n))
            if self._reachable(crate, m):
                out.append(([*m, n], canonical, at))
            if not m:
                continue
            parent = m[:-1]
            for shown, src, leaf, line in self.uses.get((crate, parent), ()):
                if self._resolve(crate, parent, src) != m:
                    continue
                if leaf == "*":
                    todo.append((parent, n, canonical, line))
                elif leaf == n:
                    todo.append((parent, shown, False, line))
        return out

    def declares(self, path: str, name: str) -> bool:
        """Whether the crate of ``path`` declares a ``pub`` type ``name``
        (burn's ``DispatchDevice``; not ``Vec``, which a prelude re-exports)."""
        at = self.module_of(path)
        return at is not None and self._declaring(at[0], at[1], name) is not None

    def _declaring(self, crate: str, near: tuple[str, ...], name: str) -> tuple[str, ...] | None:
        """The module of ``crate`` that declares the ``pub`` type ``name``,
        the nearest to ``near`` when several do."""
        declared = self._declared
        if declared is None:
            # every module of every crate was read for each name asked (burn: 1.6%)
            declared = self._declared = {}
            for (c, m), types in self.types.items():
                for t in types:
                    declared.setdefault((c, t), []).append(m)
        found = declared.get((crate, name), [])
        if not found:
            return None

        def shared(m: tuple[str, ...]) -> int:
            n = 0
            while n < min(len(m), len(near)) and m[n] == near[n]:
                n += 1
            return n

        return max(found, key=lambda m: (shared(m), -len(m)))

    def public_path(self, path: str, symbol: str) -> tuple[str, str, int] | None:
        """``burn::tensor::Tensor::backward`` for ``Tensor::backward`` defined
        in ``path``: the outermost crate that re-exports it, through whole
        modules and crates first (``burn::Tensor`` is a shortcut burn-core
        adds), then the shortest; with the file and line of the last
        re-export on the way (the definition's file and line 0 for none).
        None when no user can name it."""
        at = self.module_of(path)
        head, sep, rest = symbol.partition("::")
        trait = _TRAIT_IMPL.fullmatch(head)
        if trait is not None:
            # `<GifDecoder as ImageDecoder>::read_image` is called on a `GifDecoder`
            head = trait.group(1)
        if at is None or not head.isidentifier():
            return None
        if sep:
            # a method is named by its type, where the type is declared
            # (burn's `impl Tensor` in api/autodiff.rs, `Tensor` in api/base.rs)
            home = self._declaring(at[0], at[1], head)
            if home is None:
                return None  # not a `pub` type of this crate (`Vec`'s impl, a private struct)
            at = (at[0], home)
        found: list[tuple[int, bool, int, str, str, int]] = []
        # in its own crate, where its author put it (`pub use self::uniform::Uniform`
        # in rand's `distr` is the place); another crate's shortcut is not
        todo = [
            (at[0], p, True, 0, (self.files.get((at[0], tuple(p[:-1])), path), line))
            for p, _, line in self.places(at[0], at[1], head)
        ]
        while todo:
            crate, segs, canonical, depth, where = todo.pop()
            shown = "::".join([crate.replace("-", "_"), *segs])
            found.append((-depth, not canonical, len(segs), shown, *where))
            if depth >= MAX_CRATES:
                continue
            for user, module, (name, src, leaf, line) in self.users.get(crate, ()):
                tail = src.split("::")[1:] if src else []
                if leaf == "*" and not tail:  # `pub use burn_tensor::*;`
                    inner, ok = segs, canonical
                elif not src and leaf == crate.replace("-", "_"):  # `pub use burn_tensor as t;`
                    inner, ok = [name, *segs], canonical
                elif not tail and leaf == segs[0]:  # `pub use burn_tensor::Tensor;`
                    inner, ok = [name, *segs[1:]], False
                else:
                    continue
                file = self.files.get((user, module), "")
                for p, c, last in self.places(user, module, inner[0]):
                    here = (
                        (self.files.get((user, tuple(p[:-1])), file), last)
                        if last
                        else (file, line)
                    )
                    todo.append((user, [*p, *inner[1:]], ok and c, depth + 1, here))
        if not found:
            return None
        best = min(found)
        return f"{best[3]}{sep}{rest}", best[4], best[5]
