"""Alembic environment: the URL comes from ``config.attributes`` (see popreplay/db/migrate.py)."""

from __future__ import annotations

from typing import Any

from alembic import context

from popreplay.db.models import Base
from popreplay.db.session import make_engine

config = context.config
target_metadata = Base.metadata


def _configure(**kwargs: Any) -> None:
    context.configure(target_metadata=target_metadata, compare_type=True,
                      render_as_batch=True, **kwargs)


def run_offline() -> None:
    _configure(url=config.attributes["url"], literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection=connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = make_engine(config.attributes["url"], pooled=False)
    try:
        with engine.connect() as connection:
            sqlite = connection.dialect.name == "sqlite"
            if sqlite:
                # A revision that rebuilds a table (SQLite has no ALTER for most changes) drops
                # the old one; with foreign keys on, that would delete the rows that point to it.
                # Off for the migration (it only takes effect outside a transaction), checked
                # after it.
                connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
                connection.commit()
            _configure(connection=connection)
            with context.begin_transaction():
                context.run_migrations()
            if sqlite:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                connection.commit()
                if broken:
                    raise RuntimeError(f"migration left rows without their parent: {broken[:5]}")
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
