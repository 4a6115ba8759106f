"""The bulk commands' one path (``popreplay revalidate`` / ``import``): cut the work into
chunks, run them (``executor``: here, in ``--jobs`` processes, or on workers through the broker),
and sum up their outcomes as the commands report them; and ``popreplay worker``."""

from __future__ import annotations

import sys
from typing import Any, Callable, Iterable, Iterator

import click

from . import broker_url, executor
from .chunks import DEFAULT_CHUNK, chunk_ranges

Report = Callable[[dict[str, Any]], None]


def _bar(total: int, label: str) -> Any:
    return click.progressbar(length=max(total, 0), label=label, file=sys.stderr)


def _run(chunk_list: Iterable[executor.Chunk], *, kind: str, params: dict[str, Any], jobs: int,
         detach: bool, bar: Any) -> tuple[Iterator[dict[str, Any]], int | None]:
    """The chunks' outcomes in order, and the job's id when it went through the broker."""
    from ..db.session import get_session

    broker = broker_url()
    if broker is None:
        if detach:
            raise click.ClickException("--detach needs a broker (POPREPLAY_BROKER_URL): "
                                       "without one the work runs in this process")
        return executor.run_local(chunk_list, kind=kind, params=params, processes=jobs,
                                  progress=bar.update), None
    session = get_session()
    job_id = executor.submit(session, chunk_list, kind=kind, params=params, broker=broker)
    if detach:
        return iter(()), job_id
    return executor.follow(session, job_id, progress=bar.update), job_id


def revalidate(*, dry_run: bool, jobs: int, chunk: int, detach: bool,
               report: Report) -> dict[str, Any]:
    """Revalidate every stored game: {checked, changed, poison, failed, stale, job}."""
    from ..store.replays import drop_stale_replays
    from ..db.session import get_session

    session = get_session()
    ranges = chunk_ranges(session, size=chunk)
    session.rollback()
    chunk_list = [({"ids": [first, last]}, count) for first, last, count in ranges]
    totals: dict[str, Any] = {"checked": 0, "changed": 0, "poison": [], "failed": [],
                              "stale": None, "job": None}
    with _bar(sum(count for _, count in chunk_list), "revalidating") as bar:
        outcomes, job_id = _run(chunk_list, kind="revalidate", params={"dry_run": dry_run},
                                jobs=jobs, detach=detach, bar=bar)
        for outcome in outcomes:
            if "failed" in outcome:
                totals["failed"].append(outcome["failed"])
                continue
            totals["checked"] += outcome["checked"]
            totals["changed"] += len(outcome["changes"])
            totals["poison"].extend(outcome["poison"])
            for change in outcome["changes"]:
                report(change)
    totals["job"] = job_id
    if job_id is None:
        totals["stale"] = drop_stale_replays(session, dry_run=dry_run)
    elif not detach:
        from .jobs import job_summary

        totals["stale"] = job_summary(session, job_id).get("stale")
    return totals


def import_items(items: Iterable[tuple[str, bytes | None]], *, total: int, visibility: str,
                 jobs: int, chunk: int, detach: bool,
                 count: Callable[[str, tuple[str, str | None, str | None]], None],
                 ) -> dict[str, Any]:
    """Import (source, raw) items in chunks; ``count(source, outcome)`` for each, in order."""
    def cut() -> Iterator[executor.Chunk]:
        part: list[tuple[str, bytes | None]] = []
        for item in items:
            part.append(item)
            if len(part) == chunk:
                yield {"items": part}, len(part)
                part = []
        if part:
            yield {"items": part}, len(part)

    totals: dict[str, Any] = {"poison": [], "failed": [], "job": None}
    with _bar(total, "importing") as bar:
        outcomes, job_id = _run(cut(), kind="import", params={"visibility": visibility},
                                jobs=jobs, detach=detach, bar=bar)
        for outcome in outcomes:
            if "failed" in outcome:
                totals["failed"].append(outcome["failed"])
                continue
            totals["poison"].extend(outcome["poison"])
            for source, kind, problem, slug in outcome["outcomes"]:
                count(source, (kind, problem, slug))
    totals["job"] = job_id
    return totals


@click.command()
@click.option("--concurrency", "-c", type=click.IntRange(1, 256),
              help="Processes that take chunks at once (default: the host's cores).")
@click.option("--loglevel", default="info", show_default=True,
              type=click.Choice(["debug", "info", "warning", "error"]))
def worker(concurrency: int | None, loglevel: str) -> None:
    """Take chunks of bulk jobs and first replays from the broker (POPREPLAY_BROKER_URL), on any
    host that reaches the database and the broker (docs/deploy.md)."""
    import os

    from .. import create_app
    from .worker import worker_main

    try:
        app = create_app()
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    broker = broker_url(app)
    if broker is None:
        raise click.ClickException("popreplay worker needs a broker: set POPREPLAY_BROKER_URL "
                                   "(amqp://... for RabbitMQ, docs/deploy.md)")
    worker_main(broker=broker, queue=app.config.get("QUEUE_NAME") or "popreplay",
                concurrency=concurrency or os.cpu_count() or 1, loglevel=loglevel,
                app_factory=create_app)


@click.command("jobs")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 1000))
def jobs_command(limit: int) -> None:
    """The newest bulk jobs run through the broker: id, kind, state, chunks and games done."""
    from sqlalchemy import func, select

    from ..db.models import Job, JobChunk
    from ..db.session import get_session
    from ..cli_app import ready_app_context

    with ready_app_context():
        session = get_session()
        for job in session.scalars(select(Job).order_by(Job.id.desc()).limit(limit)):
            done, failed, items = session.execute(select(
                func.count().filter(JobChunk.state == "done"),
                func.count().filter(JobChunk.state == "failed"),
                func.coalesce(func.sum(JobChunk.item_count).filter(JobChunk.state != "queued"),
                              0)).where(JobChunk.job_id == job.id)).one()
            click.echo(f"{job.id} {job.kind} {job.state}: chunks {done}/{job.chunk_count} done"
                       f"{f', {failed} given up' if failed else ''}; {items}/{job.item_count} "
                       f"items; created {job.created_at:%Y-%m-%d %H:%M:%S}")


__all__ = ["DEFAULT_CHUNK", "import_items", "jobs_command", "revalidate", "worker"]
