"""Run a job's chunks: in this process, in ``--jobs`` processes of this host, or on workers
through the broker. Each way yields the chunks' outcomes in chunk order and reports progress in
items; the command that started the job sums them up the same way whichever ran them."""

from __future__ import annotations

import time
from typing import Any, Callable, Iterable, Iterator

from . import chunks, jobs

Progress = Callable[[int], None]  # items just finished
# a chunk as the commands describe it: (kind-specific payload, number of items)
Chunk = tuple[dict[str, Any], int]


def run_local(chunk_list: Iterable[Chunk], *, kind: str, params: dict[str, Any], processes: int,
              progress: Progress) -> Iterator[dict[str, Any]]:
    """The chunks done here: one by one in this process, or by ``processes`` spawned processes
    (each with its own app and session), the same chunk functions as a worker's."""
    if processes == 1:
        from ..db.session import get_session

        session = get_session()
        for payload, count in chunk_list:
            outcome = do_chunk(session, kind, params, payload)
            progress(count)
            yield outcome
        return
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(processes, _process_start) as pool:
        work = ((kind, params, payload, count) for payload, count in chunk_list)
        for outcome, count in pool.imap(_process_chunk, work):
            progress(count)
            yield outcome


def do_chunk(session: Any, kind: str, params: dict[str, Any],
             payload: dict[str, Any]) -> dict[str, Any]:
    if kind == "revalidate":
        first, last = payload["ids"]
        return chunks.revalidate_chunk(session, first=first, last=last,
                                       dry_run=params["dry_run"])
    return chunks.import_chunk(session, items=payload["items"], visibility=params["visibility"])


_process_session: Any = None


def _process_start() -> None:
    global _process_session
    from .. import create_app
    from ..db.session import get_database

    app = create_app()
    app.app_context().push()
    _process_session = get_database(app).session()


def _process_chunk(work: tuple[str, dict[str, Any], dict[str, Any], int]) -> tuple[Any, int]:
    kind, params, payload, count = work
    return do_chunk(_process_session, kind, params, payload), count


# --- through the broker --------------------------------------------------------------------------


def submit(session: Any, chunk_list: Iterable[Chunk], *, kind: str, params: dict[str, Any],
           broker: str) -> int:
    """Write the job and its chunks to the database and enqueue each chunk: the job's id."""
    from .worker import enqueue

    job_id = jobs.new_job(session, kind=kind, params=params)
    number = items = 0
    for payload, count in chunk_list:
        number += 1
        items += count
        if kind == "import":
            payload = {"items": jobs.encode_items(payload["items"])}
        jobs.add_chunk(session, job_id=job_id, number=number, payload=payload, item_count=count)
        enqueue(broker, "popreplay.chunk", job_id, number)
    jobs.seal(session, job_id=job_id, chunk_count=number, item_count=items)
    return job_id


def follow(session: Any, job_id: int, *, progress: Progress,
           poll: float = 0.25) -> Iterator[dict[str, Any]]:
    """The outcomes of a job's chunks in order, as workers finish them, until the job is done."""
    last = reported = 0
    while True:
        state, done_items, _ = jobs.progress(session, job_id)
        if done_items > reported:
            progress(done_items - reported)
            reported = done_items
        for number, outcome in list(jobs.finished_outcomes(session, job_id, after=last)):
            last = number
            yield outcome
        if state == "done":
            for number, outcome in list(jobs.finished_outcomes(session, job_id, after=last)):
                last = number
                yield outcome
            return
        time.sleep(poll)
