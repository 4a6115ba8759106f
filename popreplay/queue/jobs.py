"""A brokered job's bookkeeping in the database (``jobs``, ``job_chunks``).

``run_chunk`` is a worker's whole task: count the attempt (its own transaction, so that a chunk
that kills its worker is given up after ``MAX_ATTEMPTS``), do the chunk, and mark it done in the
transaction of its results, only if no other attempt did (``UPDATE ... WHERE state = 'queued'``
takes the row: on PostgreSQL a second attempt waits for the first and then finds it done; on
SQLite the writers take turns). The worker that finishes the last chunk finishes the job.
"""

from __future__ import annotations

import base64
import gzip
import json
import logging
from datetime import datetime
from typing import Any, Iterator, Mapping, TypedDict, TypeVar, cast

from sqlalchemy import CursorResult, Result, func, select, update
from sqlalchemy.orm import Session

from ..db.models import Job, JobChunk
from ..db.session import sqlite_writer
from ..db.types import utcnow
from . import chunks

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 10  # deliveries of one chunk before it is given up (a game that kills its worker;
# a SIGKILL every 5 s on a loaded machine once killed one chunk 5 times: docs/deploy.md)


class AlreadyDone(Exception):
    """Another attempt marked this chunk done first: this one's results are rolled back."""


class ChunkPayload(TypedDict, total=False):
    """A chunk's work as stored (``job_chunks.payload``): a revalidation's ``ids`` (first, last),
    or an import's ``items`` (``[source, base64 log or null]``, :func:`encode_items`)."""

    ids: list[int]
    items: list[list[Any]]


def pack(payload: Mapping[str, Any]) -> bytes:
    return gzip.compress(json.dumps(payload, separators=(",", ":")).encode(), mtime=0)


def unpack(body: bytes | None) -> ChunkPayload:
    assert body is not None  # read from a chunk's row: a payload is always stored
    return cast(ChunkPayload, json.loads(gzip.decompress(body)))


Found = TypeVar("Found", Job, JobChunk)


def _found(row: Found | None) -> Found:
    """A row the worker knows exists (its job, or its chunk: a job's rows are never deleted
    while its chunks run)."""
    assert row is not None
    return row


def _rowcount(result: Result[Any]) -> int:
    """The rows an ``UPDATE`` matched (its result is a ``CursorResult``)."""
    return cast(CursorResult[Any], result).rowcount


def encode_items(items: list[tuple[str, bytes | None]]) -> list[list[Any]]:
    return [[source, None if raw is None else base64.b64encode(raw).decode("ascii")]
            for source, raw in items]


def decode_items(items: list[list[Any]]) -> list[tuple[str, bytes | None]]:
    return [(source, None if raw is None else base64.b64decode(raw)) for source, raw in items]


# --- the submitting side -------------------------------------------------------------------------


def new_job(session: Session, *, kind: str, params: dict[str, Any]) -> int:
    """A job in state ``filling`` (chunks are added, then :func:`seal`)."""
    job = Job(kind=kind, state="filling", params=params, chunk_count=0, item_count=0)
    with sqlite_writer(session):
        session.add(job)
        session.commit()
    return job.id


def add_chunk(session: Session, *, job_id: int, number: int, payload: dict[str, Any],
              item_count: int) -> None:
    with sqlite_writer(session):
        session.add(JobChunk(job_id=job_id, number=number, state="queued", attempts=0,
                             item_count=item_count, payload=pack(payload)))
        session.commit()


def seal(session: Session, *, job_id: int, chunk_count: int, item_count: int) -> None:
    """Every chunk is added: the job is ``running`` (finished at once if its chunks all are)."""
    with sqlite_writer(session):
        session.execute(update(Job).where(Job.id == job_id).values(
            state="running", chunk_count=chunk_count, item_count=item_count))
        session.commit()
    _finish_if_complete(session, job_id)


# --- the worker's side ---------------------------------------------------------------------------


def run_chunk(session: Session, *, job_id: int, number: int) -> str:
    """Do chunk ``number`` of job ``job_id`` unless it is done: what happened (done, skipped,
    given-up, gone)."""
    chunk = session.get(JobChunk, (job_id, number))
    if chunk is None:
        return "gone"  # the job was deleted
    if chunk.state != "queued":
        session.rollback()
        return "skipped"  # done by an earlier delivery: acknowledged, nothing twice
    first_started: datetime | None = chunk.started_at
    with sqlite_writer(session):
        chunk.attempts += 1
        chunk.started_at = first_started or utcnow()
        attempts = chunk.attempts
        session.commit()
    if attempts > MAX_ATTEMPTS:
        give_up(session, job_id, number, f"its worker died {attempts - 1} times on it")
        return "given-up"
    job = _found(session.get(Job, job_id))
    payload = unpack(session.scalar(select(JobChunk.payload).where(
        JobChunk.job_id == job_id, JobChunk.number == number)))
    kind, params = job.kind, dict(job.params)

    def mark_done(inner: Session, outcome: dict[str, Any]) -> None:
        claimed = _rowcount(inner.execute(update(JobChunk).where(
            JobChunk.job_id == job_id, JobChunk.number == number, JobChunk.state == "queued")
            .values(state="done", outcome=outcome, payload=b"", finished_at=utcnow())))
        if not claimed:
            raise AlreadyDone()

    try:
        if kind == "revalidate":
            first, last = payload["ids"]
            chunks.revalidate_chunk(session, first=first, last=last, dry_run=params["dry_run"],
                                    before_commit=mark_done)
        else:
            outcome = chunks.import_chunk(
                session, items=decode_items(payload["items"]),
                visibility=params["visibility"],
                stored_since=first_started if attempts > 1 else None)
            with sqlite_writer(session):
                mark_done(session, outcome)
                session.commit()
    except AlreadyDone:
        session.rollback()
        return "skipped"
    _finish_if_complete(session, job_id)
    return "done"


def give_up(session: Session, job_id: int, number: int, why: str) -> None:
    chunk = _found(session.get(JobChunk, (job_id, number)))
    payload = unpack(session.scalar(select(JobChunk.payload).where(
        JobChunk.job_id == job_id, JobChunk.number == number)))
    what = (f"games {payload['ids'][0]}..{payload['ids'][1]}" if "ids" in payload
            else ", ".join(source for source, _ in payload["items"]))
    with sqlite_writer(session):
        chunk.state = "failed"
        chunk.outcome = {"failed": f"chunk {number} ({what}) given up: {why}"}
        chunk.finished_at = utcnow()
        session.commit()
    log.error("job %s chunk %s given up: %s", job_id, number, why)
    _finish_if_complete(session, job_id)


def _finish_if_complete(session: Session, job_id: int) -> None:
    """The job is done when all its chunks are: the one caller that moves it to ``done`` does
    the job's last step (revalidate: drop the stored replays of other engine versions)."""
    from ..store.replays import drop_stale_replays

    job = _found(session.get(Job, job_id))
    session.refresh(job)
    if job.state != "running":
        session.rollback()
        return
    open_chunks = session.scalar(select(func.count()).select_from(JobChunk).where(
        JobChunk.job_id == job_id, JobChunk.state == "queued"))
    if open_chunks:
        session.rollback()
        return
    with sqlite_writer(session):
        won = _rowcount(session.execute(update(Job).where(
            Job.id == job_id, Job.state == "running").values(state="finishing")))
        session.commit()
    if not won:
        return
    summary: dict[str, Any] = {}
    if job.kind == "revalidate":
        summary["stale"] = drop_stale_replays(session, dry_run=job.params["dry_run"])
    with sqlite_writer(session):
        session.execute(update(Job).where(Job.id == job_id).values(
            state="done", summary=summary, finished_at=utcnow()))
        session.commit()


# --- the following side --------------------------------------------------------------------------


def progress(session: Session, job_id: int) -> tuple[str, int, int]:
    """(job state, items in finished chunks, items in all chunks)."""
    session.rollback()  # a fresh snapshot
    job = _found(session.get(Job, job_id))
    session.refresh(job)
    done = session.scalar(select(func.coalesce(func.sum(JobChunk.item_count), 0)).where(
        JobChunk.job_id == job_id, JobChunk.state != "queued")) or 0
    return job.state, int(done), job.item_count


def finished_outcomes(session: Session, job_id: int, *, after: int) -> Iterator[tuple[int, Any]]:
    """(number, outcome) of the finished chunks numbered ``after`` + 1, + 2 ... in order, up to
    the first unfinished one."""
    rows = session.execute(select(JobChunk.number, JobChunk.state, JobChunk.outcome).where(
        JobChunk.job_id == job_id, JobChunk.number > after).order_by(JobChunk.number)).all()
    expected = after + 1
    for number, state, outcome in rows:
        if number != expected or state == "queued":
            return
        yield number, outcome
        expected += 1


def job_summary(session: Session, job_id: int) -> dict[str, Any]:
    job = _found(session.get(Job, job_id))
    return dict(job.summary or {})
