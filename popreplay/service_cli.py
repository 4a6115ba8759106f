"""Service commands (serve, db, import, export, revalidate), attached to the main group.

They use the same app, database and ``popreplay.store`` functions as the API (one item of
``popreplay import``: ``popreplay.store.imports``).
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import click

from .greenlets import gevent_patched
from .cli_app import (alembic_errors, app_context, database_url, describe, not_up_to_date,
                      ready_app_context)

EXIT_OK, EXIT_INVALID = 0, 2


def _dumps(value: Any) -> str:
    from .jsonout import compact

    return compact(value)


# --- serve ---------------------------------------------------------------------------------------


WORKER_CLASSES = ("gevent", "gthread")


def serve_options(host: str, port: int, workers: int, threads: int,
                  worker_class: str = "gevent") -> dict[str, Any]:
    """gunicorn's settings. ``gevent`` (the default): each connection is a greenlet, so clients
    that send or read slowly hold no thread (with ``gthread``, 8 of them took every thread of the
    default 2 x 4 and the service stopped answering; docs/reliability.md, finding 2). ``gthread``
    remains for a deployment behind a buffering proxy (docs/deploy.md)."""
    return {
        "bind": f"{host}:{port}",
        "workers": workers,
        "threads": threads,
        # gthread even with one thread: its main loop keeps the worker alive during a long
        # streamed response (NDJSON validation/export), which the sync worker does not
        "worker_class": worker_class,
        # twice TABLE_MAX_STREAMS (1,000 a process): with every stream open, a worker still
        # takes 1,000 other connections (at 1,000 streams and 1,000 connections it took none;
        # docs/table.md, "Measured")
        "worker_connections": 2000,
        "accesslog": "-",
        # no query string of a table's routes, no token parameter's value (issue 36)
        "logger_class": "popreplay.serve_access.AccessLogger",
        "errorlog": "-",
        "timeout": 60,
        "graceful_timeout": 10,
        "proc_name": "popreplay",
        "on_starting": _before_workers,
        "post_worker_init": _worker_ready,
    }


# The objects a process holds once it is up (modules, the app, its schemas: about 120,000) live
# as long as it does. Left to the garbage collector, each full collection walked them all (80-90
# ms here) and the interpreter's own collections at exit cost each process 0.3-0.7 s: a stop
# (Ctrl+C, SIGTERM) took 1.3 s, the master waiting for its worker's exit, then its own. Frozen
# (``gc.freeze``, as the gc module's documentation advises for a process that forks), they are
# left out of every later collection: in the master before it forks its workers (so the workers'
# copies of them are left out too), and in each worker once its app is loaded. What becomes
# garbage later is collected as before. The master collects once first: the app it made to read
# the database's address and the migrations leave ~8,000 objects of garbage (0.1 s), which a
# freeze would keep for good, in the master and in every worker's copy; a worker's loading
# leaves a few dozen.
def _before_workers(_server: Any = None) -> None:
    """gunicorn's ``on_starting``, in the master before its first worker."""
    _guard_forks()
    gc.collect()
    gc.freeze()


def _worker_ready(worker: Any) -> None:
    """gunicorn's ``post_worker_init``, in a worker once its app is loaded."""
    gc.freeze()
    _pass_held_stops(worker)


# A worker runs with the master's signal handlers from its fork until it installs its own (after
# gevent's patching): gunicorn's master handler only queues the signal, in the worker's copy of
# the master, where nothing reads it. A stop in that window was lost and the master killed the
# worker after graceful_timeout (10 s): Ctrl+C just after `serve` printed "serving on" took 10 s.
# The master blocks the stops around each fork (they wait in the kernel, never lost), and the new
# process puts its holding handlers in place before it lets them through; the worker passes a held
# stop on to itself once its own handlers are in place. (A post_fork hook came too late: a stop
# sent between the fork and the hook was still lost — seen once in CI, on a worker forked while
# the master was handling Ctrl+C.)
_STOPS = (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM)
_held: list[int] = []
_forks_guarded = False


def _guard_forks() -> None:
    """In gunicorn's master, before its first worker: every fork of this process holds the
    stops that reach the new process before its own handlers do (once per process)."""
    global _forks_guarded
    if _forks_guarded:
        return
    _forks_guarded = True
    os.register_at_fork(before=_block_stops, after_in_parent=_unblock_stops,
                        after_in_child=_hold_stops)


def _block_stops() -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)


def _unblock_stops() -> None:
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)


def _hold_stops() -> None:
    """In a new process, stops still blocked: keep a stop that comes before the worker's own
    handlers are in place, then let the stops in (one sent since the fork arrives now)."""
    _held.clear()
    for stop in _STOPS:
        signal.signal(stop, lambda number, _frame: _held.append(number))
    _unblock_stops()


def _pass_held_stops(_worker: Any) -> None:
    """Once the worker's handlers are in place: on a graceful stop (SIGTERM) its table streams
    end first, then the worker's own handler runs; and the stop it was sent before is sent to it
    again."""
    handler = signal.getsignal(signal.SIGTERM)
    if callable(handler):
        signal.signal(signal.SIGTERM, _ending_streams(handler))
    if _held:
        os.kill(os.getpid(), _held[0])


def _ending_streams(then: Callable[[int, Any], Any]) -> Callable[[int, Any], Any]:
    """``then`` (gunicorn's graceful stop), after telling every table stream of the process to
    end: a stream waits for its table to change, so it would hold the worker (and the stop) for
    the whole graceful timeout. Under gevent the telling runs in a greenlet of its own (a lock
    taken in a signal handler could be the interrupted greenlet's), as gunicorn's handlers do."""
    from .tables.fanout import end_streams

    def handler(number: int, frame: Any) -> None:
        if gevent_patched():
            import gevent

            gevent.spawn(end_streams)
        else:
            end_streams()
        then(number, frame)

    return handler


def run_gunicorn(options: dict[str, Any]) -> None:
    from gunicorn.app.base import BaseApplication

    from .serve_errors import install

    install()  # gunicorn's own 400, 414 and 431 answers in the error shape (JSON)

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
              help="Threads per worker (with --worker-class gthread).")
@click.option("--worker-class", type=click.Choice(WORKER_CLASSES), default="gevent",
              show_default=True, help="gevent: slow clients hold no thread (the default); "
              "gthread: behind a buffering proxy such as nginx.")
@click.option("--no-migrate", is_flag=True,
              help="Do not apply pending migrations; refuse to start if any are pending.")
def serve(host: str, port: int, workers: int, threads: int, worker_class: str,
          no_migrate: bool) -> None:
    """Serve the API and the viewer with gunicorn (applies pending migrations first)."""
    from .db import migrate

    with app_context() as app:
        url = database_url(app)
    if no_migrate:
        with alembic_errors(url):
            up_to_date = migrate.is_up_to_date(url)
        if not up_to_date:
            raise not_up_to_date(url)
    else:
        with alembic_errors(url):
            migrate.upgrade(url)
    _check_port_free(host, port)
    os.environ["POPREPLAY_PROCESSES"] = str(workers)  # the workers' share of each rate limit
    options = serve_options(host, port, workers, threads, worker_class)
    ready = f"popreplay: serving on http://{host}:{port} (database: {describe(url)})"
    options["when_ready"] = lambda _server: click.echo(ready, err=True)  # once bound
    run_gunicorn(options)


def _check_port_free(host: str, port: int) -> None:
    """One clear error for a taken port (gunicorn would retry for 5 s, then print a traceback)."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise click.ClickException(f"cannot serve on {host}:{port}: {error.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise click.ClickException(
                    f"port {port} on {host} is already in use (another popreplay serve?); "
                    f"stop it or choose another with --port") from None
            raise click.ClickException(
                f"cannot serve on {host}:{port}: {error.strerror or error}") from None


# --- db ------------------------------------------------------------------------------------------


@click.group()
def db() -> None:
    """Database schema migrations (Alembic)."""


@db.command("upgrade")
@click.argument("revision", default="head")
def db_upgrade(revision: str) -> None:
    """Upgrade the schema to REVISION (default: the newest)."""
    from .db import migrate

    with app_context() as app:
        url = database_url(app)
    with alembic_errors(url):
        migrate.upgrade(url, revision)
    click.echo(f"database {describe(url)} at revision {migrate.current(url)}", err=True)


@db.command("downgrade")
@click.argument("revision", default="-1")
def db_downgrade(revision: str) -> None:
    """Downgrade the schema to REVISION (default: one step back; 'base' removes everything)."""
    from .db import migrate

    with app_context() as app:
        url = database_url(app)
    with alembic_errors(url):
        migrate.downgrade(url, revision)
    click.echo(f"database {describe(url)} at revision {migrate.current(url) or 'base'}",
               err=True)


@db.command("current")
def db_current() -> None:
    """Print the schema revision of the database and the newest one."""
    from .db import migrate

    with app_context() as app:
        url = database_url(app)
    with alembic_errors(url):
        current = migrate.current(url)
    click.echo(f"database: {describe(url)}\ncurrent: {current or 'base'}\nhead: {migrate.head()}")


@db.command("revision")
@click.option("-m", "--message", required=True)
@click.option("--empty", is_flag=True, help="Do not autogenerate from the models.")
def db_revision(message: str, empty: bool) -> None:
    """Write a new migration (autogenerated from the models; review it by hand)."""
    from .db import migrate

    with app_context() as app:
        url = database_url(app)
    migrate.revision(url, message, autogenerate=not empty)


# --- import --------------------------------------------------------------------------------------


@contextmanager
def migrated_app_context() -> Iterator[Any]:
    """An app context on a database created or upgraded to the newest revision (as serve)."""
    from .db import migrate

    with app_context() as app:
        url = database_url(app)
        with alembic_errors(url):
            migrate.upgrade(url)
        yield app


@dataclass
class ImportSummary:
    stored: int = 0
    illegal: int = 0
    duplicate: int = 0
    invalid: int = 0
    updated: int = 0  # export lines of games changed at the source
    deleted: int = 0  # tombstones applied
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        synced = "".join(f", {kind} {count}" for kind, count in
                         (("updated", self.updated), ("deleted", self.deleted)) if count)
        return (f"stored {self.stored}, illegal {self.illegal} (stored too), "
                f"duplicate {self.duplicate}, invalid {self.invalid}{synced}")


def _files(paths: tuple[str, ...]) -> list[Path]:
    found: list[Path] = []
    if list(paths).count("-") > 1:
        raise click.UsageError("standard input ('-') can be read once")
    for name in paths:
        path = Path(name)
        if path == STDIN:
            found.append(STDIN)
        elif path.is_dir():
            found.extend(sorted(p for p in path.rglob("*")
                                if p.is_file() and p.suffix in (".json", ".ndjson", ".jsonl")))
        else:
            found.append(path)
    return found


STDIN = Path("-")  # `popreplay import -`: NDJSON on standard input


def _lines(stream: Any, name: str) -> Iterator[tuple[str, bytes | None]]:
    for number, line in enumerate(stream, start=1):
        if line.strip():
            yield f"{name}:{number}", line.rstrip(b"\r\n")


def _items(path: Path) -> Iterator[tuple[str, bytes | None]]:
    """(source, raw bytes) for each log in a file (``-``: NDJSON lines of standard input); None
    when the file cannot be read."""
    if path == STDIN:
        yield from _lines(sys.stdin.buffer, "<stdin>")
        return
    try:
        if path.suffix not in (".ndjson", ".jsonl"):
            yield str(path), path.read_bytes()
            return
        with path.open("rb") as stream:
            yield from _lines(stream, str(path))
    except OSError as error:
        yield str(path), None
        click.echo(f"{path}: cannot read: {error.strerror or error}", err=True)


def _count(summary: ImportSummary, links: Any, source: str,
           outcome: tuple[str, str | None, str | None]) -> None:
    """Count one item's outcome (``popreplay.store.imports.import_item``)."""
    kind, problem, slug = outcome
    setattr(summary, kind, getattr(summary, kind) + 1)
    if problem:
        summary.problems.append(problem)
    if slug and links is not None:
        links.write(f"{_share_base()}/r/{slug}\t{source}\n")


def _share_base() -> str:
    """Where share links point: ``POPREPLAY_PUBLIC_URL``, else ``popreplay serve``'s default."""
    from flask import current_app

    return current_app.config.get("PUBLIC_BASE_URL") or "http://127.0.0.1:8000"


def _rate(count: int, seconds: float, what: str) -> str:
    per_second = count / seconds if seconds > 0 else float("inf")
    return f"{count} {what} in {seconds:.1f} s ({per_second:,.0f}/s)"


def _item_count(files: list[Path]) -> int:
    """How many logs the files hold (for the progress bar): NDJSON lines that are not blank."""
    total = 0
    for path in files:
        if path == STDIN:  # not known before it is read: the bar counts the files only
            continue
        if path.suffix not in (".ndjson", ".jsonl"):
            total += 1
            continue
        try:
            with path.open("rb") as stream:
                total += sum(1 for line in stream if line.strip())
        except OSError:
            total += 1
    return total


_JOBS_HELP = ("Processes of this host that do chunks at once (without a broker; with "
              "POPREPLAY_BROKER_URL the workers do them: popreplay worker).")
_CHUNK_HELP = "Games (logs) per chunk of work."
_DETACH_HELP = "With a broker: enqueue the job and return at once (its id on standard output)."


@click.command("import")
@click.argument("paths", nargs=-1, required=True)
@click.option("--visibility", type=click.Choice(["public", "unlisted"]), default="public",
              show_default=True, help="For plain logs (export lines keep their own).")
@click.option("--jobs", "-j", default=1, show_default=True, type=click.IntRange(1, 64),
              help=_JOBS_HELP)
@click.option("--chunk", default=200, show_default=True, type=click.IntRange(1, 100_000),
              help=_CHUNK_HELP)
@click.option("--detach", is_flag=True, help=_DETACH_HELP)
@click.option("--links", type=click.File("w", encoding="utf-8"),
              help="Write the share link of each game stored, with its source, one per line "
              "(POPREPLAY_PUBLIC_URL, else http://127.0.0.1:8000); '-' for standard output.")
@click.option("--no-migrate", is_flag=True,
              help="Do not create or upgrade the database; refuse if it is not up to date.")
def import_(paths: tuple[str, ...], visibility: str, jobs: int, chunk: int, detach: bool,
            links: Any, no_migrate: bool) -> None:
    """Store logs from files and folders (*.json: one log; *.ndjson: one log or exported game per
    line; '-': NDJSON on standard input). Creates or upgrades the database first, as serve does
    (--no-migrate: refuse instead). Exit status 2 when any log was invalid or unreadable, else
    0. The rate goes to standard error. With POPREPLAY_BROKER_URL the chunks are done by workers
    on any host."""
    import time

    from .queue import commands

    summary = ImportSummary()
    files = _files(paths)
    started = time.monotonic()
    with (ready_app_context() if no_migrate else migrated_app_context()):
        work = ((source, raw) for path in files for source, raw in _items(path))
        totals = commands.import_items(
            work, total=_item_count(files), visibility=visibility, jobs=jobs, chunk=chunk,
            detach=detach, count=lambda source, outcome: _count(summary, links, source, outcome))
    if detach:
        click.echo(f"job {totals['job']} enqueued", err=True)
        click.echo(totals["job"])
        return
    seconds = time.monotonic() - started
    for problem in summary.problems + totals["failed"]:
        click.echo(problem, err=True)
    done = (summary.stored + summary.illegal + summary.duplicate + summary.invalid
            + summary.updated + summary.deleted)
    click.echo(f"{_rate(done, seconds, 'logs')} {_by(jobs, totals['job'])}", err=True)
    click.echo(summary.line())
    sys.exit(EXIT_INVALID if summary.invalid or totals["failed"] else EXIT_OK)


def _by(jobs: int, job_id: int | None) -> str:
    if job_id is not None:
        return f"by the workers (job {job_id})"
    return f"with {jobs} process{'es' * (jobs > 1)}"


# --- export --------------------------------------------------------------------------------------


UTC_TIME = click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M:%S.%f",
                           "%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%dT%H:%M:%S.%f%z"])


@click.command()
@click.option("--game")
@click.option("--mode")
@click.option("--player")
@click.option("--status", type=click.Choice(["complete", "incomplete", "illegal"]))
@click.option("--legal/--illegal", default=None)
@click.option("--claims-differ/--claims-agree", default=None)
@click.option("--played-after", type=click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S"]))
@click.option("--played-before", type=click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S"]))
@click.option("--since", type=UTC_TIME, help="Stored here at or after this time (UTC).")
@click.option("--until", type=UTC_TIME, help="Stored here before this time (UTC).")
@click.option("--updated-since", type=UTC_TIME,
              help="Stored, corrected or re-checked with another result at or after this time.")
@click.option("--with-deleted", is_flag=True,
              help="Also the tombstones of the games deleted in the time window (first).")
@click.option("--csv", "as_csv", is_flag=True,
              help="A table instead: one row per player per game (CSV, UTF-8, a header row).")
@click.option("--backup", is_flag=True,
              help="Include unlisted games and owner token hashes (a full backup; keep private).")
def export(backup: bool, with_deleted: bool, as_csv: bool, **filters: Any) -> None:
    """Write stored games as NDJSON to standard output (public games only, unless --backup).
    `popreplay import` reads the file back into a database (and keeps a copy in step: a
    tombstone deletes there)."""
    from .db import queries
    from .db.session import get_session
    from .store import export as exporting

    chosen = queries.Filters(**filters)
    with ready_app_context():
        if as_csv:
            for text in exporting.csv_lines(get_session(), chosen, share_base=_share_base(),
                                            backup=backup):
                click.echo(text.encode("utf-8"), nl=False)  # bytes: UTF-8 whatever the locale
            return
        for entry in exporting.ndjson_entries(get_session(), chosen, with_deleted=with_deleted,
                                              backup=backup):
            click.echo(_dumps(entry))


# --- revalidate ----------------------------------------------------------------------------------


@click.command()
@click.option("--dry-run", is_flag=True, help="Report only; store nothing.")
@click.option("--json", "as_json", is_flag=True,
              help="One line per changed game: {id, slug, before, after}.")
@click.option("--jobs", "-j", default=1, show_default=True, type=click.IntRange(1, 64),
              help=_JOBS_HELP)
@click.option("--chunk", default=500, show_default=True, type=click.IntRange(1, 100_000),
              help=_CHUNK_HELP)
@click.option("--detach", is_flag=True, help=_DETACH_HELP)
def revalidate(dry_run: bool, as_json: bool, jobs: int, chunk: int, detach: bool) -> None:
    """Recompute every stored result with the current engine; report each game whose result
    changed (and store the new results, unless --dry-run). The rate goes to standard error.
    With POPREPLAY_BROKER_URL the chunks are done by workers on any host."""
    import time

    from .queue import commands

    started = time.monotonic()

    def report(change: dict[str, Any]) -> None:
        if as_json:
            click.echo(_dumps(change))
        else:
            click.echo(f"{change['id']} {change['slug']}: "
                       f"{_change(change['before'], change['after'])}")

    with ready_app_context():
        totals = commands.revalidate(dry_run=dry_run, jobs=jobs, chunk=chunk, detach=detach,
                                     report=report)
    if detach:
        click.echo(f"job {totals['job']} enqueued", err=True)
        click.echo(totals["job"])
        return
    seconds = time.monotonic() - started
    for poison in totals["poison"]:
        click.echo(f"{poison['id']} {poison['slug']}: not revalidated, the engine crashed: "
                   f"{poison['error']}", err=True)
    for failed in totals["failed"]:
        click.echo(failed, err=True)
    verb = "would change" if dry_run else "changed"
    dropped = "to drop" if dry_run else "dropped"
    click.echo(f"{totals['checked']} games checked, {totals['changed']} {verb}; "
               f"{totals['stale']} stored replays of other engine versions {dropped}", err=True)
    click.echo(f"{_rate(totals['checked'], seconds, 'games')} {_by(jobs, totals['job'])}",
               err=True)
    if totals["poison"] or totals["failed"]:
        sys.exit(EXIT_INVALID)


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
    from .queue.commands import jobs_command, worker

    for command in (serve, db, import_, export, revalidate, worker, jobs_command):
        group.add_command(command)
