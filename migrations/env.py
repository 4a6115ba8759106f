"""Alembic environment: the URL comes from ``config.attributes`` (see popreplay/db/migrate.py)."""

from __future__ import annotations

from alembic import context

from popreplay.db.models import Base
from popreplay.db.session import make_engine

config = context.config
target_metadata = Base.metadata


def _configure(**kwargs: object) -> None:
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
            _configure(connection=connection)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
