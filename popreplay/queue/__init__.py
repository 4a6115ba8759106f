"""Bulk work in chunks, in-process or through a broker (Celery), and first replays on workers.

``chunks`` holds the work itself (a chunk of games to revalidate, of logs to import): the one
implementation, called directly in-process (no broker: ``popreplay serve`` on a laptop, the
``--jobs`` processes of one host) or by a Celery worker on any host (``POPREPLAY_BROKER_URL``).
``jobs`` keeps a brokered job's progress in the database (tables ``jobs`` and ``job_chunks``):
each chunk's results and its "done" mark are one transaction, so a chunk redelivered after its
worker died is done again from the start, and one already done is skipped (nothing twice).
``executor`` runs a job's chunks one way or the other; ``worker`` is the Celery app.
docs/deploy.md ("Workers and the queue") tells how to run it.
"""

from __future__ import annotations

from typing import Any


def broker_url(app: Any = None) -> str | None:
    """The broker of this app (``POPREPLAY_BROKER_URL``), None when work runs in-process."""
    if app is None:
        from flask import current_app, has_app_context

        if not has_app_context():
            return None
        app = current_app
    return app.config.get("BROKER_URL") or None


def remote_replay(record: Any, *, of: str) -> Any:
    """A first replay computed by a worker (``worker.RemoteReplay``) when a broker is configured;
    None without one (the caller computes it in-process)."""
    if broker_url() is None:
        return None
    from .worker import RemoteReplay

    return RemoteReplay(record, of=of)


def send_task(broker: str, name: str, *args: Any, countdown: float | None = None) -> None:
    """Enqueue task ``name`` on ``broker`` (to run ``countdown`` seconds from now): what the app
    hands the modules below the queue that hand work over (``app.extensions``)."""
    from .worker import enqueue

    enqueue(broker, name, *args, countdown=countdown)
