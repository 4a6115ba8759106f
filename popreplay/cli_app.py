"""The command line's Flask app: an app context (a configuration that makes no sense is one clear
line, not a traceback), on a database whose schema is up to date for the commands that need it,
and Alembic's and the database's failures as one clear line. Used by ``service_cli`` and by the
queue's commands (``popreplay jobs``), below both."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

import click

__all__ = ["alembic_errors", "app_context", "database_url", "describe", "not_up_to_date",
           "ready_app_context"]


@contextmanager
def ready_app_context() -> Iterator[Any]:
    """An app context on a database whose schema is up to date (else a clear error)."""
    from .db import migrate

    with app_context() as app:
        url = database_url(app)
        with alembic_errors(url):
            up_to_date = migrate.is_up_to_date(url)
        if not up_to_date:
            raise not_up_to_date(url)
        yield app


@contextmanager
def app_context() -> Iterator[Any]:
    from . import create_app
    from .db.session import get_database

    try:
        app = create_app()
    except ValueError as error:  # a configuration variable that makes no sense
        raise click.ClickException(str(error)) from None
    try:
        with app.app_context():
            yield app
    finally:
        get_database(app).dispose()


def database_url(app: Any) -> str:
    from .db.session import get_database

    return get_database(app).url


def not_up_to_date(url: str) -> click.ClickException:
    return click.ClickException(f"the database schema is not up to date ({describe(url)}); "
                                "run: popreplay db upgrade")


@contextmanager
def alembic_errors(url: str) -> Iterator[None]:
    """Alembic's and the database's failures as one clear line, naming the database, instead of
    a traceback."""
    from alembic.util import CommandError
    from sqlalchemy.exc import OperationalError

    try:
        yield
    except CommandError as error:
        raise click.ClickException(f"migrations: {error} (is the database {describe(url)} "
                                   "newer than this popreplay?)") from None
    except OperationalError as error:
        raise click.ClickException(
            f"the database does not answer ({describe(url)}): {error.orig}") from None


def describe(url: str) -> str:
    from .db.session import describe as describe_database

    return describe_database(url)
