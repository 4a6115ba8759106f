"""Shared fixtures: ``db_url`` (SQLite always; PostgreSQL when reachable, mandatory with CI=true),
``app``, ``client``, ``runner`` and example logs.

PostgreSQL: 127.0.0.1:5432, trust auth, user ``postgres`` or ``root``. Each xdist worker gets its
own database ``popreplay_test_<run>_<worker>`` (dropped at the end, with its migrated twin
``…_head``); every test starts from an empty schema, or, when it asks for ``head_url`` (``app`` and
``client`` do), from the head revision without rows, copied from a template migrated once per
worker (``tests/databases.py``).
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import pytest

from tests.databases import drop_pg_template, fresh_head, no_fsync, upgraded

PG_HOST, PG_PORT = "127.0.0.1", 5432
PG_USERS = ("postgres", "root")

_pg_user: list[str | None] = []


def _find_pg_user() -> str | None:
    """The first user that can connect to the ``test`` database, cached for the session."""
    if _pg_user:
        return _pg_user[0]
    import psycopg

    found = None
    for user in PG_USERS:
        try:
            with psycopg.connect(host=PG_HOST, port=PG_PORT, user=user, dbname="test",
                                 connect_timeout=3):
                found = user
                break
        except psycopg.Error:
            continue
    _pg_user.append(found)
    return found


def _require_pg() -> str:
    user = _find_pg_user()
    if user is None:
        message = f"PostgreSQL is not reachable at {PG_HOST}:{PG_PORT} (users {PG_USERS})"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{message}; with CI=true the PostgreSQL leg is mandatory")
        pytest.skip(message)
    return user


def pg_admin(sql: str, *, dbname: str = "test") -> None:
    import psycopg

    user = _require_pg()
    with psycopg.connect(host=PG_HOST, port=PG_PORT, user=user, dbname=dbname,
                         autocommit=True) as connection:
        connection.execute(sql)


def pg_url(dbname: str) -> str:
    return f"postgresql+psycopg://{_require_pg()}@{PG_HOST}:{PG_PORT}/{dbname}"


def fresh_pg_database(name: str) -> str:
    """Create (or recreate) database ``name``, its commits not waiting for the disk
    (``tests/databases.py``, ``no_fsync``); its URL."""
    pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    pg_admin(f'CREATE DATABASE "{name}"')
    pg_admin(no_fsync(name))
    return pg_url(name)


@pytest.fixture(scope="session")
def pg_database(worker_id: str, testrun_uid: str) -> Iterator[str]:
    """This xdist worker's own PostgreSQL database, named for the test run too, so that two runs
    on one machine (two developers' sessions, say) never drop each other's database."""
    name = f"popreplay_test_{testrun_uid[:10]}_{worker_id}"
    url = fresh_pg_database(name)
    yield url
    pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    drop_pg_template(_require_pg(), name)


def empty_pg_schema(url: str) -> None:
    dbname = url.rsplit("/", 1)[-1]
    pg_admin("DROP SCHEMA public CASCADE; CREATE SCHEMA public", dbname=dbname)


@pytest.fixture(scope="session", autouse=True)
def own_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The default database lives in the user's data folder (``$XDG_DATA_HOME/popreplay``): the
    tests get their own, never the one a service on this machine serves from."""
    before = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("xdg-data"))
    yield
    if before is None:
        os.environ.pop("XDG_DATA_HOME", None)
    else:
        os.environ["XDG_DATA_HOME"] = before


DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(params=DATABASES)
def db_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """An empty database (no tables): a SQLite file, or this worker's PostgreSQL database. In a
    test that asks for ``head_url`` (``app`` and ``client`` do) it is the same database, which
    ``head_url`` brings to the head revision (emptying it first would only cost time)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    url = request.getfixturevalue("pg_database")
    if "head_url" not in request.fixturenames:
        empty_pg_schema(url)
    return url


@pytest.fixture
def head_url(db_url: str) -> str:
    """``db_url`` at the head revision, with no rows (a copy of the migrated template)."""
    fresh_head(db_url)
    return db_url


@contextmanager
def made_app(config: dict[str, Any]) -> Iterator[Any]:
    """``create_app(config)``, its engine disposed after: a pooled PostgreSQL connection left to
    the garbage collector would fail whichever later test it is collected in (ResourceWarning)."""
    from popreplay import create_app
    from popreplay.db.session import get_database

    application = create_app(config)
    try:
        yield application
    finally:
        get_database(application).dispose()


def app_on(url: str) -> Iterator[Any]:
    """A test app on ``url`` (already migrated); its engine disposed after."""
    with made_app({"DATABASE_URL": url, "TESTING": True,
                   "SECRET_KEY": "test", "PUBLIC_BASE_URL": None}) as application:
        yield application


def migrated_app(db_url: str) -> Iterator[Any]:
    """A test app on ``db_url``, migrated to the head revision (:func:`upgraded`: a copy of the
    template when the database is empty); its engine disposed after."""
    upgraded(db_url)
    yield from app_on(db_url)


@pytest.fixture
def app(head_url: str) -> Iterator[Any]:
    yield from app_on(head_url)


@pytest.fixture
def sqlite_app(tmp_path: Any) -> Iterator[Any]:
    """A test app on a SQLite file of its own, for a test that needs one database only (what it
    checks reads none, or is SQLite's own: its writers' turns)."""
    yield from migrated_app(f"sqlite:///{tmp_path / 'app.sqlite'}")


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
def runner(db_url: str) -> Any:
    """Invokes the ``popreplay`` command line against ``db_url``: ``runner.invoke([...])``."""
    from click.testing import CliRunner

    from popreplay.cli import main

    class Runner:
        def __init__(self) -> None:
            self.cli = CliRunner(env={"POPREPLAY_DATABASE_URL": db_url})

        def invoke(self, args: list[str], **kwargs: Any) -> Any:
            return self.cli.invoke(main, args, catch_exceptions=False, **kwargs)

    return Runner()


def simulated(mode: str = "battle", players: int = 3, seed: int = 1,
              **changes: Any) -> dict[str, Any]:
    """A random legal, complete POP! log (same arguments, same log); ``changes`` replace keys."""
    from popreplay.engine import get_game

    options = {"difficulty": 2} if mode == "solo" else None
    log = get_game("pop").simulate(mode=mode, players=players, seed=seed, options=options)
    log.update(changes)
    return log


def as_bytes(log: dict[str, Any]) -> bytes:
    return json.dumps(log, ensure_ascii=False).encode("utf-8")


@pytest.fixture
def make_log() -> Callable[..., bytes]:
    """``make_log(mode="battle", players=3, seed=1, **changes)`` -> the log's JSON bytes."""
    return lambda *args, **kwargs: as_bytes(simulated(*args, **kwargs))


def gzip_negotiated(client: Any, url: str, *, shrinks: float) -> tuple[Any, Any]:
    """GET ``url`` without and with ``Accept-Encoding: gzip`` (as a browser asks); check that only
    the second is compressed, to the same bytes, at least ``shrinks`` times smaller, and that both
    say they vary with ``Accept-Encoding``. Returns both answers."""
    import gzip

    plain = client.get(url)
    packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) * shrinks < len(plain.data)
    assert "Accept-Encoding" in plain.headers["Vary"] and "Accept-Encoding" in packed.headers["Vary"]
    return plain, packed


@pytest.fixture(scope="session", autouse=True)
def limits_off_unless_asked() -> Iterator[None]:
    """The suite's load (hundreds of uploads from 127.0.0.1 a minute) would meet the per-client
    rate limits: they are off (POPREPLAY_LIMITS=off, seen by test apps and by the servers tests
    start) except where a test turns them on (tests/api/test_rate_limits.py)."""
    before = os.environ.get("POPREPLAY_LIMITS")
    os.environ["POPREPLAY_LIMITS"] = "off"
    yield
    if before is None:
        os.environ.pop("POPREPLAY_LIMITS", None)
    else:
        os.environ["POPREPLAY_LIMITS"] = before


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` (the long ones: up to a minute or so each) run first, the rest
    after, in collection order otherwise.

    ``scripts/test`` runs pytest-xdist with ``--dist worksteal``: it hands worker ``i`` the
    ``i``-th of ``workers`` equal parts of this list, and a worker that runs out takes the last
    half of the longest queue left. So each part is made of its share of the slow tests (every
    ``workers``-th one) and then short ones: every worker starts on long tests, and what is
    taken from a queue's end, and what is run last, is short. (The slow tests all in the first
    half left the other worker only short ones: it took them from the first's end until only
    slow tests were left there, and the run ended on one worker finishing a long test alone.
    ``--dist load`` deals the first quarter of the list out at once and never moves it.)"""
    slow = [item for item in items if item.get_closest_marker("slow")]
    fast = [item for item in items if not item.get_closest_marker("slow")]
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))  # (xdist's worker)
    if workers < 2:
        items[:] = slow + fast
        return
    ordered: list[pytest.Item] = []
    left = len(items)
    for worker in range(workers):
        size = left // (workers - worker)  # what xdist's first schedule sends this worker
        mine = slow[worker::workers]
        if len(mine) > size:  # (more slow tests than a part holds: no parts to shape)
            items[:] = slow + fast
            return
        ordered += mine + fast[:size - len(mine)]
        del fast[:size - len(mine)]
        left -= size
    items[:] = ordered
