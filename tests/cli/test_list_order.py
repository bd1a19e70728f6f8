"""`errordex list` orders its entries for users as the catalog does (issue
16, point 7), and a method that returns the exception it raises is not
listed as an exception class."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from errordex.cli import main
from errordex.pipeline import index
from errordex.store.sqlite import SqliteStore
from tests.repo_files import index_files


@pytest.fixture(scope="module")
def click_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, SqliteStore, int]:
    path = tmp_path_factory.mktemp("click") / "db.sqlite"
    store = SqliteStore(path)
    return str(path), store, index("pkg:click", store, jobs=1).snapshot_id


def test_list_with_no_options_is_in_the_catalogs_order(
    click_db: tuple[str, SqliteStore, int],
) -> None:
    db, store, sid = click_db
    res = CliRunner().invoke(main, ["list", "--json", "--db", db])
    assert res.exit_code == 0, res.output
    listed = [e["id"] for e in json.loads(res.stdout)]
    assert listed == store.catalog_order(sid)
    # click's generic entries (an empty message) come after its own errors
    messages = [e["message"] for e in json.loads(res.stdout)]
    first_empty = next(i for i, m in enumerate(messages) if not m.strip())
    assert all(m.strip() for m in messages[:first_empty])
    assert first_empty > len(messages) // 2


def test_click_lists_its_errors_before_its_deprecation_warnings(
    click_db: tuple[str, SqliteStore, int],
) -> None:
    """`make run` lists click's first 20 entries: click's module
    ``__getattr__`` warns at two places for each deprecated name, which used
    to put eleven deprecation warnings ahead of the errors a user meets."""
    db, store, _ = click_db
    res = CliRunner().invoke(main, ["list", "--limit", "20", "--json", "--db", db])
    kinds = [e["kinds"] for e in json.loads(res.stdout)]
    assert ["warning"] not in kinds
    every = [e.kinds for e in store.entries(include_test_only=False)]
    assert every.count(("warning",)) >= 5  # click does warn: they come later


def test_list_limit_takes_the_first_in_the_catalogs_order(
    click_db: tuple[str, SqliteStore, int],
) -> None:
    db, store, sid = click_db
    res = CliRunner().invoke(main, ["list", "--limit", "5", "--json", "--db", db])
    assert [e["id"] for e in json.loads(res.stdout)] == store.catalog_order(sid)[:5]


#: errordex's own Celery task (src/errordex/queue/app.py) retries as Celery
#: documents it: `raise self.retry(...)` raises what `Task.retry` returns
_TASK = {
    "jobs/tasks.py": (
        "from celery import Celery\n\n"
        "app = Celery('jobs')\n\n\n"
        "class Transient(Exception):\n    pass\n\n\n"
        "@app.task(bind=True)\n"
        "def fetch(self, url):\n"
        "    try:\n"
        "        return download(url)\n"
        "    except Transient as exc:\n"
        "        raise self.retry(countdown=5, max_retries=3) from None\n\n\n"
        "def download(url):\n"
        "    if not url:\n"
        "        raise Transient('no url')\n"
        "    return url\n"
    ),
}


def test_a_method_that_returns_the_exception_is_not_an_exception_class(tmp_path: Path) -> None:
    store, _ = index_files(tmp_path, _TASK, "acme/jobs")
    (retry,) = [e for e in store.entries() if any(s.line == 15 for s in e.sites)]
    assert retry.exception_types == ()
    assert "self.retry" not in retry.exception_types
    assert retry.template.dynamic  # what the method returns is read at run time
    res = CliRunner().invoke(main, ["list", "--db", str(tmp_path / "db.sqlite")])
    assert "retry" not in [
        line.split()[2] for line in res.stdout.splitlines()[1:] if line[:1] != " "
    ]
