"""The test databases, migrated once per test session and copied per test.

Migrating a database with Alembic takes 0.15–0.8 s on this 2-core machine; hundreds of app tests
on two databases each paid it. Instead each test process (each xdist worker) migrates one
*template* per database kind, once, and every test starts from a copy:

- SQLite: the template is a file; a test's database is a copy of it (``shutil.copyfile``).
- PostgreSQL: the worker's database (``popreplay_test_<run>_<worker>``) has a migrated twin,
  ``…_head``. A test that wants the head revision finds the worker's database either still at head
  (same tables, indexes, sequences, triggers and functions as the template, the same revision):
  then its rows are deleted and its sequences reset, one short transaction (about 5 ms); or in
  any other shape (a migration test left it empty or at an old revision): then it is dropped and
  created again from the template (``CREATE DATABASE … TEMPLATE``, 50–400 ms).

:func:`fresh_head` gives a test a database at head with no rows (the ``app`` fixture);
:func:`upgraded` is ``migrate.upgrade`` that copies the template when the database is empty (a
test that migrates a database it filled at an older revision still runs the real migrations).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path
from typing import Any

PG_HOST, PG_PORT = "127.0.0.1", 5432

# The schema of a PostgreSQL database as compared with its template: every relation of the
# public schema with its kind, the triggers and functions a test may have added, the revision.
FINGERPRINT = """
SELECT (SELECT string_agg(relname::text || ':' || relkind::text, ',' ORDER BY relname)
          FROM pg_class WHERE relnamespace = 'public'::regnamespace),
       (SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          WHERE c.relnamespace = 'public'::regnamespace AND NOT t.tgisinternal),
       (SELECT count(*) FROM pg_proc WHERE pronamespace = 'public'::regnamespace),
       (SELECT count(*) FROM pg_type WHERE typnamespace = 'public'::regnamespace)
"""
REVISION = "SELECT version_num FROM alembic_version"

_sqlite_template: list[Path] = []
_pg_templates: dict[str, tuple[Any, list[str], list[str]]] = {}  # dbname -> what it holds


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (``None`` for another database or an in-memory one)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def sqlite_template() -> Path:
    """This process's migrated SQLite file (made on first use, removed at exit)."""
    if not _sqlite_template:
        from popreplay.db import migrate

        folder = Path(tempfile.mkdtemp(prefix="popreplay-template-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        path = folder / "head.sqlite"
        migrate.upgrade(f"sqlite:///{path}")
        _sqlite_template.append(path)
    return _sqlite_template[0]


def _sqlite_is_empty(path: Path) -> bool:
    import sqlite3

    if not path.exists() or path.stat().st_size == 0:
        return True
    with sqlite3.connect(path) as connection:
        count = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    connection.close()
    return count == 0


def _sqlite_copy(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(sqlite_template(), path)


# --- PostgreSQL ---------------------------------------------------------------------------------

def _pg_parts(url: str) -> tuple[str, str] | None:
    """(user, database) of a PostgreSQL URL on the test server, else ``None``."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "postgresql" or parsed.host != PG_HOST or not parsed.database:
        return None
    return parsed.username or "postgres", parsed.database


def _connect(user: str, dbname: str) -> Any:
    import psycopg

    return psycopg.connect(host=PG_HOST, port=PG_PORT, user=user, dbname=dbname,
                           autocommit=True, connect_timeout=5)


def _admin(user: str, *statements: str) -> None:
    with _connect(user, "test") as connection:
        for statement in statements:
            connection.execute(statement)


def template_name(dbname: str) -> str:
    return f"{dbname}_head"


def pg_template(user: str, dbname: str) -> tuple[Any, list[str], list[str]]:
    """The migrated twin of the worker's database ``dbname`` (made on first use): its
    fingerprint, its tables (children first, the order rows are deleted in) and sequences."""
    if dbname not in _pg_templates:
        from popreplay.db import migrate

        twin = template_name(dbname)
        _admin(user, f'DROP DATABASE IF EXISTS "{twin}" WITH (FORCE)', f'CREATE DATABASE "{twin}"')
        migrate.upgrade(f"postgresql+psycopg://{user}@{PG_HOST}:{PG_PORT}/{twin}")
        with _connect(user, twin) as connection:
            shape = _shape(connection)
            tables = [row[0] for row in connection.execute(_CHILDREN_FIRST)]
            sequences = [row[0] for row in connection.execute(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")]
        _pg_templates[dbname] = (shape, tables, sequences)
    return _pg_templates[dbname]


def drop_pg_template(user: str, dbname: str) -> None:
    _pg_templates.pop(dbname, None)
    _admin(user, f'DROP DATABASE IF EXISTS "{template_name(dbname)}" WITH (FORCE)')


# Tables of the public schema, each after every table that references it (deleting rows in this
# order never breaks a foreign key); alembic_version keeps its row.
_CHILDREN_FIRST = """
WITH RECURSIVE edges AS (
  SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
    FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
      AND c.conrelid <> c.confrelid),
depth(name, level) AS (
  SELECT tablename::text, 0 FROM pg_tables WHERE schemaname = 'public'
  UNION ALL
  SELECT e.parent, d.level + 1 FROM depth d JOIN edges e ON e.child = d.name WHERE d.level < 20)
SELECT name FROM depth WHERE name <> 'alembic_version' GROUP BY name ORDER BY max(level), name
"""


def _shape(connection: Any) -> Any:
    shape = connection.execute(FINGERPRINT).fetchone()
    try:
        revision = connection.execute(REVISION).fetchall()
    except Exception:  # no alembic_version table: not the template's shape anyway
        revision = None
    return (tuple(shape), revision)


def _pg_fresh_head(user: str, dbname: str) -> None:
    shape, tables, sequences = pg_template(user, dbname)
    try:
        with _connect(user, dbname) as connection:
            if _shape(connection) == shape:
                with connection.transaction():
                    connection.execute("SET LOCAL lock_timeout = '5s'")
                    connection.execute("SET LOCAL synchronous_commit = off")
                    for table in tables:
                        connection.execute(f'DELETE FROM "{table}"')
                    for sequence in sequences:
                        connection.execute(f"SELECT setval('\"{sequence}\"', 1, false)")
                return
    except Exception:  # a lock held by a test's leftover connection, say: start again
        pass
    _pg_recreate(user, dbname)


def _pg_recreate(user: str, dbname: str) -> None:
    pg_template(user, dbname)
    _admin(user, f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)',
           f'CREATE DATABASE "{dbname}" TEMPLATE "{template_name(dbname)}"', no_fsync(dbname))


def no_fsync(dbname: str) -> str:
    """Commits on the test database do not wait for the disk (``synchronous_commit = off``):
    what a test sees is the same (only a crash of the PostgreSQL server could lose the last
    commits; the crash tests run their own server, tests/reliability/test_faults.py), and the
    suite stops waiting for thousands of fsyncs on a shared disk."""
    return f'ALTER DATABASE "{dbname}" SET synchronous_commit = off'


def _pg_is_empty(user: str, dbname: str) -> bool:
    with _connect(user, dbname) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace").fetchone()
    return row[0] == 0


def _worker_database(url: str) -> tuple[str, str] | None:
    """(user, database) when ``url`` is a worker's own PostgreSQL database (one the suite made
    and may drop), else ``None``."""
    parts = _pg_parts(url)
    if parts is None or not parts[1].startswith("popreplay_test_") or parts[1].endswith("_head"):
        return None
    return parts


# --- what the fixtures and tests call -------------------------------------------------------------

def fresh_head(url: str) -> None:
    """The database at ``url`` at the head revision with no rows, whatever it held before."""
    path = sqlite_path(url)
    if path is not None:
        _sqlite_copy(path)
        return
    worker = _worker_database(url)
    if worker is not None:
        _pg_fresh_head(*worker)
        return
    _upgrade(url)


def upgraded(url: str) -> None:
    """``migrate.upgrade(url)``: a copy of the template when the database is empty (the same
    schema the migrations would make), the migrations themselves otherwise."""
    path = sqlite_path(url)
    if path is not None and _sqlite_is_empty(path):
        _sqlite_copy(path)
        return
    worker = _worker_database(url)
    if worker is not None and _pg_is_empty(*worker):
        _pg_recreate(*worker)
        return
    _upgrade(url)


def _upgrade(url: str) -> None:
    from popreplay.db import migrate

    migrate.upgrade(url)

