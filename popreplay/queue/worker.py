"""The Celery app (broker ``POPREPLAY_BROKER_URL``) and its tasks: a chunk of a job, a game's
first replay, a group's ratings recomputed,
and one attempt of a webhook delivery. No result backend: results go to the database.

Delivery: a task is acknowledged after it ran (``acks_late``), one message at a time per worker
process (prefetch 1), requeued when its worker process is killed (``reject_on_worker_lost``);
queues are durable and messages persistent, so a job survives a broker restart. On Redis the
visibility timeout (a message not acknowledged by then is given to another worker) is set well
above a chunk's time (``VISIBILITY_TIMEOUT``); RabbitMQ needs none (it requeues a message the
moment its consumer's connection is lost), and is what docs/deploy.md recommends.
"""

from __future__ import annotations

import os
import time
from typing import Any

from celery import Celery
from kombu import Exchange, Queue

QUEUE = "popreplay"  # the default (POPREPLAY_QUEUE: deployments or test runs sharing a broker)
VISIBILITY_TIMEOUT = 3600  # seconds (Redis only): a chunk takes well under a minute
_app: Any = None  # the Flask app of this worker process (created on its first task)
_factory: Any = None  # what makes it: popreplay.create_app, handed in by worker_main


def make_celery(broker: str | None, queue: str = QUEUE) -> Celery:
    celery = Celery("popreplay", broker=broker, set_as_current=False)
    exchange = Exchange(queue, type="direct", durable=True)
    celery.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_acks_on_failure_or_timeout=True,  # a task that raised is reported, not redelivered
        worker_prefetch_multiplier=1,
        task_default_queue=queue,
        task_queues=[Queue(queue, exchange, routing_key=queue, durable=True)],
        task_default_exchange=queue,
        task_default_routing_key=queue,
        task_default_delivery_mode="persistent",
        task_ignore_result=True,
        task_serializer="json",
        accept_content=["json"],
        broker_connection_retry_on_startup=True,
        broker_connection_max_retries=None,  # a broker restart: reconnect, however long
        broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT,
                                  "confirm_publish": True},
        task_publish_retry=True,
        task_publish_retry_policy={"max_retries": 30, "interval_start": 0.5,
                                   "interval_step": 0.5, "interval_max": 3},
        worker_hijack_root_logger=False,
        worker_send_task_events=False,
        worker_enable_remote_control=False,  # no pidbox queue per worker: nothing to clean up
    )
    from sqlalchemy.exc import InterfaceError, OperationalError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    # the database does not answer: the same chunk again later (a new message, this one acked)
    retried = {"autoretry_for": (OperationalError, InterfaceError, PoolTimeout),
               "retry_backoff": 2, "retry_backoff_max": 60, "max_retries": None}
    celery.task(name="popreplay.chunk", **retried)(run_chunk_task)
    celery.task(name="popreplay.replay", **retried)(replay_task)
    celery.task(name="popreplay.ratings", **retried)(ratings_task)
    celery.task(name="popreplay.webhook", **retried)(webhook_task)
    return celery


_celery: dict[tuple[str, str], Celery] = {}


def celery_for(broker: str, queue: str = QUEUE) -> Celery:
    """One Celery app per broker URL and queue in a process."""
    if (broker, queue) not in _celery:
        _celery[broker, queue] = make_celery(broker, queue)
    return _celery[broker, queue]


def _flask_app() -> Any:
    global _app
    if _app is None:
        if _factory is None:
            raise RuntimeError("a popreplay worker is started by worker_main(app_factory=...) "
                               "(`popreplay worker`)")
        _app = _factory()
    return _app


def _session() -> Any:
    from ..db.session import get_database

    return get_database(_flask_app()).session()


def run_chunk_task(job_id: int, number: int) -> str:
    from . import jobs

    with _flask_app().app_context():
        from sqlalchemy.exc import InterfaceError, OperationalError
        from sqlalchemy.exc import TimeoutError as PoolTimeout

        session = _session()
        try:
            return jobs.run_chunk(session, job_id=job_id, number=number)
        except (OperationalError, InterfaceError, PoolTimeout):
            raise  # retried (make_celery)
        except Exception as error:  # a bug, not a game: the chunk is reported, the job ends
            from .chunks import error_line

            session.rollback()
            jobs.give_up(session, job_id, number, f"it raised {error_line(error)}")
            return "given-up"
        finally:
            session.close()


def replay_task(game_id: int) -> str:
    """Compute and store a game's replay for this engine version, unless it is stored."""
    from sqlalchemy import select

    from ..budget import cyclic_gc_paused
    from ..db.models import GameRecord, StoredReplay
    from ..engine import ENGINE_VERSION
    from ..store.replays import encode_replay, save_replay

    with _flask_app().app_context():
        session = _session()
        try:
            if session.scalar(select(StoredReplay.game_id).where(
                    StoredReplay.game_id == game_id,
                    StoredReplay.engine_version == ENGINE_VERSION)) is not None:
                return "stored"
            record = session.get(GameRecord, game_id)
            if record is None:
                return "gone"
            digest, raw = record.content_hash, record.log  # one version of the log, read once
            with cyclic_gc_paused():
                stored = encode_replay(raw)
            save_replay(session, record, stored=stored, of=digest)  # only if still its log
            return "computed"
        finally:
            session.close()


def ratings_task(group_id: int) -> str:
    """Recompute a group's ratings from its stale point on (groups/ratings.py); its progress is
    on the group's row (``ratings_done`` of ``ratings_total``)."""
    from ..db.groups import Group
    from ..groups.ratings import recompute

    with _flask_app().app_context():
        session = _session()
        try:
            group = session.get(Group, group_id)
            if group is None:
                return "gone"
            return f"rated {recompute(session, group)}"
        finally:
            session.close()


def webhook_task(delivery_id: int) -> str:
    """One attempt of a webhook delivery (webhooks/delivery.py); a failed one is enqueued again
    to run after its backoff (the same function the in-process path calls)."""
    from ..webhooks.delivery import attempt

    app = _flask_app()
    with app.app_context():
        session = _session()
        try:
            delay = attempt(session, delivery_id, app.config)
        finally:
            session.close()
        if delay is not None:
            enqueue(app.config["BROKER_URL"], "popreplay.webhook", delivery_id, countdown=delay)
        return "again" if delay is not None else "done"


def enqueue(broker: str, name: str, *args: Any, queue: str | None = None,
            countdown: float | None = None) -> None:
    if queue is None:
        from flask import current_app, has_app_context

        queue = (current_app.config.get("QUEUE_NAME") if has_app_context() else None) or QUEUE
    celery_for(broker, queue).send_task(name, args=list(args), queue=queue, routing_key=queue,
                                        countdown=countdown)


class RemoteReplay:
    """A first replay computed by a worker, with ``budget.Background``'s interface: the request
    waits for the row to appear in the ``replays`` table (polled on a connection of its own)."""

    POLL = 0.05

    def __init__(self, record: Any, *, of: str) -> None:
        from flask import current_app

        from ..db.session import get_database

        self.game_id, self.digest = record.id, of
        self.engine = get_database(current_app).engine
        self.found: Any = None
        enqueue(current_app.config["BROKER_URL"], "popreplay.replay", record.id)

    def _look(self) -> bool:
        from sqlalchemy import select

        from ..db.models import GameRecord, StoredReplay
        from ..engine import ENGINE_VERSION
        from ..store.replays import StoredBytes

        with self.engine.connect() as connection:  # the replay of this log, not of an older one
            row = connection.execute(select(StoredReplay.body, StoredReplay.step_count).join(
                GameRecord, GameRecord.id == StoredReplay.game_id).where(
                StoredReplay.game_id == self.game_id, GameRecord.content_hash == self.digest,
                StoredReplay.engine_version == ENGINE_VERSION)).first()
        if row is not None:
            self.found = StoredBytes(row[0], row[1])
        return row is not None

    def wait(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while not self._look():
            if time.monotonic() >= deadline:
                return False
            time.sleep(self.POLL)
        return True

    def value(self) -> Any:
        return self.found

    def when_done(self, callback: Any) -> None:
        """The worker stores it: the next fetch finds it in the table."""
        callback(None)


def worker_main(*, broker: str, queue: str, concurrency: int, loglevel: str,
                app_factory: Any) -> None:
    """Run a Celery worker; each of its processes makes its Flask app with ``app_factory``
    (``popreplay.create_app``: handed in, the queue does not import the app that imports it)."""
    global _factory
    _factory = app_factory
    os.environ.setdefault("POPREPLAY_BROKER_URL", broker)
    celery_for(broker, queue).worker_main(["worker", f"--concurrency={concurrency}",
                                    f"--loglevel={loglevel}", f"--queues={queue}",
                                    "--without-gossip", "--without-mingle", "--pool=prefork"])
