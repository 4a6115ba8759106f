"""Alembic, driven from code: the scripts live in ``migrations/`` (installed as the package
``popreplay.migrations``), the database URL comes from the app's configuration."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from .session import make_engine, normalise_url


def script_location() -> str:
    return str(Path(str(files("popreplay.migrations"))))


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", script_location())
    config.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    config.attributes["url"] = normalise_url(url)
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "-1") -> None:
    command.downgrade(alembic_config(url), revision)


def revision(url: str, message: str, *, autogenerate: bool = True) -> None:
    command.revision(alembic_config(url), message=message, autogenerate=autogenerate)


def head() -> str | None:
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def current(url: str) -> str | None:
    engine = make_engine(url, pooled=False)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()


def is_up_to_date(url: str) -> bool:
    return current(url) == head()
