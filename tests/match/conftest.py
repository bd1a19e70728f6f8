from collections.abc import Iterator

import pytest

from errordex.model import ErrorEntry, Repo, Snapshot, ThrowSite
from errordex.store.sqlite import SqliteStore
from errordex.store.writer import SnapshotData
from errordex.template import Hole, Template, Text


def entry(
    entry_id: str,
    template: Template,
    types: tuple[str, ...] = (),
    paths: tuple[str, ...] = ("src/lib.rs",),
    repo: str = "o/r",
) -> ErrorEntry:
    sites = tuple(
        ThrowSite(
            path=p,
            line=10 + i,
            column=5,
            end_line=10 + i,
            language="python" if p.endswith(".py") else "rust",
            kind="raise" if p.endswith(".py") else "panic",
            template=template,
            exception_type=types[0] if types else None,
        )
        for i, p in enumerate(paths)
    )
    return ErrorEntry(
        id=entry_id,
        repo=repo,
        template=template,
        kinds=tuple(dict.fromkeys(s.kind for s in sites)),
        exception_types=types,
        sites=sites,
    )


def fmt(*parts: str | Hole, syntax: str = "rust-fmt") -> Template:
    return Template.of(syntax, *(Text(p) if isinstance(p, str) else p for p in parts))


def corpus() -> list[ErrorEntry]:
    """A few real-looking entries and many distractors."""
    real = [
        entry(
            "aaaaaaaaaaaaaaa1",
            fmt(
                "Expecting value: line ",
                Hole("lineno", "%d"),
                " column ",
                Hole("colno", "%d"),
                " (char ",
                Hole("pos", "%d"),
                ")",
                syntax="py-percent",
            ),
            ("json.decoder.JSONDecodeError",),
            ("Lib/json/decoder.py",),
        ),
        entry(
            "aaaaaaaaaaaaaaa2",
            fmt(
                "index out of bounds: the len is ",
                Hole("len", "{len}"),
                " but the index is ",
                Hole("index", "{index}"),
            ),
        ),
        entry(
            "aaaaaaaaaaaaaaa3",
            Template.literal("Requires autodiff tensor."),
            (),
            ("crates/burn/src/backend.rs",),
        ),
        entry("aaaaaaaaaaaaaaa4", fmt(Hole("", "{}"), ": ", Hole("", "{}"))),
        entry(
            "aaaaaaaaaaaaaaa5",
            Template.runtime("msg"),
            ("KeyError",),
            ("Lib/collections/__init__.py",),
        ),
        entry("aaaaaaaaaaaaaaa6", Template.empty(), ("StopIteration",), ("Lib/itertools.py",)),
    ]
    words = ["tensor", "value", "index", "column", "shape", "device", "backend", "line", "invalid"]
    noise = [
        entry(
            f"{i:016x}",
            fmt(f"{words[i % 9]} {words[(i // 9) % 9]} w{i} mismatch for ", Hole("x", "{x:?}")),
            ("ValueError",) if i % 2 else (),
            (f"src/m{i % 50}.rs",),
        )
        for i in range(3000)
    ]
    return real + noise


@pytest.fixture(scope="session")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SqliteStore]:
    """One store for the whole session: the matcher only reads it."""
    s = SqliteStore(tmp_path_factory.mktemp("match") / "db.sqlite")
    snap = Snapshot(
        repo=Repo("o/r"), commit="c" * 40, commit_date=None, indexed_at="t", tool_version="0"
    )
    s.save(
        SnapshotData(
            snapshot=snap,
            forge_ref=None,
            entries=corpus(),
            packages=[],
            classes=[],
            skips=[],
            files={},
        )
    )
    yield s
    s.close()
