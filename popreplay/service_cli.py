"""Service commands (serve, db, import, export, revalidate), attached to the main group.

They use the same app, database and ``popreplay.store`` functions as the API.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import click

EXIT_OK, EXIT_INVALID = 0, 2


@contextmanager
def _ready_app_context() -> Iterator[Any]:
    """An app context on a database whose schema is up to date (else a clear error)."""
    from .db import migrate

    with _app_context() as app:
        url = _database_url(app)
        with _alembic_errors(url):
            up_to_date = migrate.is_up_to_date(url)
        if not up_to_date:
            raise _not_up_to_date(url)
        yield app


@contextmanager
def _app_context() -> Iterator[Any]:
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


def _database_url(app: Any) -> str:
    from .db.session import get_database

    return get_database(app).url


def _dumps(value: Any) -> str:
    from .api.jsonout import compact

    return compact(value)


# --- serve ---------------------------------------------------------------------------------------


def serve_options(host: str, port: int, workers: int, threads: int) -> dict[str, Any]:
    return {
        "bind": f"{host}:{port}",
        "workers": workers,
        "threads": threads,
        # gthread even with one thread: its main loop keeps the worker alive during a long
        # streamed response (NDJSON validation/export), which the sync worker does not
        "worker_class": "gthread",
        "accesslog": "-",
        "errorlog": "-",
        "timeout": 60,
        "graceful_timeout": 10,
        "proc_name": "popreplay",
    }


def run_gunicorn(options: dict[str, Any]) -> None:
    from gunicorn.app.base import BaseApplication

    class PopreplayServer(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in options.items():
                self.cfg.set(key, value)
            if "control_socket_disable" in self.cfg.settings:  # gunicorn 24+: not needed here
                self.cfg.set("control_socket_disable", True)

        def load(self) -> Any:
            from . import create_app

            return create_app()

    PopreplayServer().run()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64))
@click.option("--threads", default=4, show_default=True, type=click.IntRange(1, 64),
              help="Threads per worker (gunicorn's gthread worker).")
@click.option("--no-migrate", is_flag=True,
              help="Do not apply pending migrations; refuse to start if any are pending.")
def serve(host: str, port: int, workers: int, threads: int, no_migrate: bool) -> None:
    """Serve the API and the viewer with gunicorn (applies pending migrations first)."""
    from .db import migrate

    with _app_context() as app:
        url = _database_url(app)
    if no_migrate:
        with _alembic_errors(url):
            up_to_date = migrate.is_up_to_date(url)
        if not up_to_date:
            raise _not_up_to_date(url)
    else:
        with _alembic_errors(url):
            migrate.upgrade(url)
    click.echo(f"popreplay: serving on http://{host}:{port} (database: {describe(url)})",
               err=True)
    run_gunicorn(serve_options(host, port, workers, threads))


def _not_up_to_date(url: str) -> click.ClickException:
    return click.ClickException(f"the database schema is not up to date ({describe(url)}); "
                                "run: popreplay db upgrade")


@contextmanager
def _alembic_errors(url: str) -> Iterator[None]:
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


# --- db ------------------------------------------------------------------------------------------


@click.group()
def db() -> None:
    """Database schema migrations (Alembic)."""


@db.command("upgrade")
@click.argument("revision", default="head")
def db_upgrade(revision: str) -> None:
    """Upgrade the schema to REVISION (default: the newest)."""
    from .db import migrate

    with _app_context() as app:
        url = _database_url(app)
    with _alembic_errors(url):
        migrate.upgrade(url, revision)
    click.echo(f"database {describe(url)} at revision {migrate.current(url)}", err=True)


@db.command("downgrade")
@click.argument("revision", default="-1")
def db_downgrade(revision: str) -> None:
    """Downgrade the schema to REVISION (default: one step back; 'base' removes everything)."""
    from .db import migrate

    with _app_context() as app:
        url = _database_url(app)
    with _alembic_errors(url):
        migrate.downgrade(url, revision)
    click.echo(f"database {describe(url)} at revision {migrate.current(url) or 'base'}",
               err=True)


@db.command("current")
def db_current() -> None:
    """Print the schema revision of the database and the newest one."""
    from .db import migrate

    with _app_context() as app:
        url = _database_url(app)
    with _alembic_errors(url):
        current = migrate.current(url)
    click.echo(f"database: {describe(url)}\ncurrent: {current or 'base'}\nhead: {migrate.head()}")


@db.command("revision")
@click.option("-m", "--message", required=True)
@click.option("--empty", is_flag=True, help="Do not autogenerate from the models.")
def db_revision(message: str, empty: bool) -> None:
    """Write a new migration (autogenerated from the models; review it by hand)."""
    from .db import migrate

    with _app_context() as app:
        url = _database_url(app)
    migrate.revision(url, message, autogenerate=not empty)


# --- import --------------------------------------------------------------------------------------


@dataclass
class ImportSummary:
    stored: int = 0
    illegal: int = 0
    duplicate: int = 0
    invalid: int = 0
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"stored {self.stored}, illegal {self.illegal} (stored too), "
                f"duplicate {self.duplicate}, invalid {self.invalid}")


def _files(paths: tuple[str, ...]) -> list[Path]:
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*")
                                if p.is_file() and p.suffix in (".json", ".ndjson", ".jsonl")))
        else:
            found.append(path)
    return found


def _items(path: Path) -> Iterator[tuple[str, bytes | None]]:
    """(source, raw bytes) for each log in a file; None when the file cannot be read."""
    try:
        if path.suffix not in (".ndjson", ".jsonl"):
            yield str(path), path.read_bytes()
            return
        with path.open("rb") as stream:
            for number, line in enumerate(stream, start=1):
                if line.strip():
                    yield f"{path}:{number}", line.rstrip(b"\r\n")
    except OSError as error:
        yield str(path), None
        click.echo(f"{path}: cannot read: {error.strerror or error}", err=True)


def _import_one(session: Any, raw: bytes, visibility: str) -> Any:
    from . import store
    from .logformat import ShapeError, parse_json

    try:
        data = parse_json(raw)
    except ShapeError:
        data = None
    if store.is_export_entry(data):
        return store.restore(session, data)
    return store.ingest(session, raw, visibility=visibility)


@click.command("import")
@click.argument("paths", nargs=-1, required=True)
@click.option("--visibility", type=click.Choice(["public", "unlisted"]), default="public",
              show_default=True, help="For plain logs (export lines keep their own).")
def import_(paths: tuple[str, ...], visibility: str) -> None:
    """Store logs from files and folders (*.json: one log; *.ndjson: one log or exported game per
    line). Exit status 2 when any log was invalid or unreadable, else 0."""
    from . import store
    from .db.session import get_session

    summary = ImportSummary()
    files = _files(paths)
    with _ready_app_context():
        session = get_session()
        with click.progressbar(files, label="importing", file=sys.stderr,
                               item_show_func=lambda p: str(p) if p else None) as bar:
            for path in bar:
                for source, raw in _items(path):
                    if raw is None:
                        summary.invalid += 1
                        summary.problems.append(f"{source}: cannot read")
                        continue
                    try:
                        done = _import_one(session, raw, visibility)
                    except store.InvalidLog as invalid:
                        summary.invalid += 1
                        first = invalid.result["errors"][0]
                        summary.problems.append(
                            f"{source}: invalid: {first['path'] or '/'}: {first['message']}")
                        continue
                    except ValueError as error:
                        summary.invalid += 1
                        summary.problems.append(f"{source}: invalid: {error}")
                        continue
                    if not done.created:
                        summary.duplicate += 1
                    elif done.record.legal:
                        summary.stored += 1
                    else:
                        summary.illegal += 1
    for problem in summary.problems:
        click.echo(problem, err=True)
    click.echo(summary.line())
    sys.exit(EXIT_INVALID if summary.invalid else EXIT_OK)


# --- export --------------------------------------------------------------------------------------


@click.command()
@click.option("--game")
@click.option("--mode")
@click.option("--player")
@click.option("--status", type=click.Choice(["complete", "incomplete", "illegal"]))
@click.option("--legal/--illegal", default=None)
@click.option("--claims-differ/--claims-agree", default=None)
@click.option("--played-after", type=click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S"]))
@click.option("--played-before", type=click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S"]))
@click.option("--backup", is_flag=True,
              help="Include unlisted games and owner token hashes (a full backup; keep private).")
def export(backup: bool, **filters: Any) -> None:
    """Write stored games as NDJSON to standard output (public games only, unless --backup).
    `popreplay import` reads the file back into a database."""
    from . import store
    from .db import queries
    from .db.session import get_session

    chosen = queries.Filters(**filters)
    with _ready_app_context():
        for record in queries.export_records(get_session(), chosen, include_unlisted=backup):
            click.echo(_dumps(store.export_entry(record, backup=backup)))


# --- revalidate ----------------------------------------------------------------------------------


@click.command()
@click.option("--dry-run", is_flag=True, help="Report only; store nothing.")
@click.option("--json", "as_json", is_flag=True,
              help="One line per changed game: {id, slug, before, after}.")
def revalidate(dry_run: bool, as_json: bool) -> None:
    """Recompute every stored result with the current engine; report each game whose result
    changed (and store the new results, unless --dry-run)."""
    from . import store
    from .db.session import get_session

    checked = changed = 0
    with _ready_app_context():
        session = get_session()
        for item in store.revalidate(session, dry_run=dry_run):
            checked += 1
            if not item.changed:
                continue
            changed += 1
            record = item.record
            if as_json:
                click.echo(_dumps({"id": record.id, "slug": record.slug,
                                   "before": item.before, "after": item.after}))
            else:
                click.echo(f"{record.id} {record.slug}: {_change(item.before, item.after)}")
        stale = store.drop_stale_replays(session, dry_run=dry_run)
    verb = "would change" if dry_run else "changed"
    dropped = "to drop" if dry_run else "dropped"
    click.echo(f"{checked} games checked, {changed} {verb}; {stale} stored replays of other "
               f"engine versions {dropped}", err=True)


def _change(before: dict[str, Any], after: dict[str, Any]) -> str:
    keys = [k for k in ("status", "legal", "errors", "outcome", "claims") if before[k] != after[k]]
    parts = []
    for key in keys:
        if key in ("status", "legal"):
            parts.append(f"{key} {before[key]} -> {after[key]}")
        else:
            parts.append(f"{key} differs")
    return "; ".join(parts)


def register(group: click.Group) -> None:
    """Add the service commands to ``group``."""
    for command in (serve, db, import_, export, revalidate):
        group.add_command(command)
