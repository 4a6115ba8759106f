"""Events out: :func:`emit` (the one way in, called by the use cases after their commit) writes
one delivery row per hook of the game's group and hands them over; :func:`attempt` posts one
delivery once and says when to try again.

Nothing here blocks the request that caused the event: with a broker (``POPREPLAY_BROKER_URL``)
each attempt is a task (``popreplay.webhook``, published from a thread of this process, so a
broker that does not answer delays nobody), retried by enqueuing it again with a countdown;
without one, attempts run in threads of this process, retried by a timer. Both call
:func:`attempt`. Backoff: ``WEBHOOK_RETRY`` seconds, doubled after each failure, for
``MAX_ATTEMPTS`` attempts; each attempt waits at most ``WEBHOOK_TIMEOUT`` seconds for each step of
the exchange (connecting, sending, each read of the answer). Without a broker a delivery still
pending when its process stops is not tried again (its row stays ``pending``)."""

from __future__ import annotations

import json
import logging
import os
import threading
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any, Mapping, Sequence

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..db.groups import Group, GroupGame
from ..db.models import GameRecord
from ..db.session import sqlite_writer
from ..db.types import utcnow
from ..db.webhooks import Webhook, WebhookDelivery
from . import signing

__all__ = ["EVENTS", "MAX_ATTEMPTS", "attempt", "emit", "send", "stop"]

log = logging.getLogger(__name__)

EVENTS = ("game.stored", "game.corrected", "game.signed_off", "game.disputed", "game.removed",
          "ping")
MAX_ATTEMPTS = 6  # 1 + 5 retries: with the default 30 s, the last one about 15 minutes later
KEPT = 200  # deliveries kept in a hook's log (the oldest go)
USER_AGENT = "popreplay-webhooks/1"
_pools: dict[int, ThreadPoolExecutor] = {}  # one per process, made there (see _pool)
_pools_lock = threading.Lock()
_timers: set[threading.Timer] = set()  # retries waiting here (without a broker)


def _pool() -> ThreadPoolExecutor:
    """This process's pool of delivery threads, made on first use in it: not at import, which
    ``popreplay serve`` does in gunicorn's master before the fork and before gevent patches the
    worker (a pool made there waits on an unpatched queue, which froze the whole gevent worker
    after its first delivery until gunicorn killed it)."""
    with _pools_lock:
        pool = _pools.get(os.getpid())
        if pool is None:
            pool = _pools[os.getpid()] = ThreadPoolExecutor(
                max_workers=4, thread_name_prefix="popreplay-webhooks")
        return pool


def emit(session: Session, event: str, *, game: GameRecord | None = None, slug: str | None = None,
         group: Group | None = None, data: Mapping[str, Any] | None = None) -> list[int]:
    """Post ``event`` about ``game`` (or the stored game ``slug``) to the hooks of its group
    (``group``, else the group the game is in): the ids of the deliveries made. Called after
    the caller's commit; never raises (a failure here is logged, the caller's work stands)."""
    try:
        if game is None and slug is not None:
            game = session.scalars(select(GameRecord).where(GameRecord.slug == slug)).first()
        if group is None and game is not None:
            link = session.get(GroupGame, game.id)
            group = None if link is None else session.get(Group, link.group_id)
        if group is None:
            return []
        hooks = session.scalars(select(Webhook).where(Webhook.group_id == group.id)
                                .order_by(Webhook.id)).all()
        if not hooks:
            return []
        return send(session, hooks, event_body(event, group, game, data))
    except Exception:  # noqa: BLE001 - an event lost is logged; the request it follows stands
        log.exception("webhook event %s not queued", event)
        session.rollback()
        return []


def event_body(event: str, group: Group, game: GameRecord | None,
               data: Mapping[str, Any] | None) -> dict[str, Any]:
    body: dict[str, Any] = {"id": "evt_" + uuid.uuid4().hex, "type": event,
                            "created_at": utcnow().isoformat(), "group": group.slug}
    if game is not None:
        base = _base_url()
        body["game"] = {"slug": game.slug, "game": game.game, "mode": game.mode,
                        "status": game.status, "legal": game.legal,
                        "title": game.title, "players": list(game.players or []),
                        "api": f"{base}/api/v1/games/{game.slug}", "url": f"{base}/r/{game.slug}"}
    if data:
        body["data"] = dict(data)
    return body


def _base_url() -> str:
    from flask import current_app, has_app_context, has_request_context, request

    if has_app_context() and current_app.config.get("PUBLIC_BASE_URL"):
        return str(current_app.config["PUBLIC_BASE_URL"])
    return request.host_url.rstrip("/") if has_request_context() else ""


def send(session: Session, hooks: Sequence[Webhook], body: dict[str, Any]) -> list[int]:
    """A delivery of ``body`` to each of ``hooks``, written, then handed over: their ids."""
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    with sqlite_writer(session):
        rows = [WebhookDelivery(webhook_id=hook.id, event_id=body["id"], event=body["type"],
                                body=text, state="pending", attempts=0, created_at=utcnow())
                for hook in hooks]
        session.add_all(rows)
        session.flush()
        for hook in hooks:
            _prune(session, hook.id)
        session.commit()
    ids = [row.id for row in rows]
    for delivery_id in ids:
        _hand_over(delivery_id, delay=None)
    return ids


def _prune(session: Session, hook_id: int) -> None:
    oldest_kept = session.scalar(select(WebhookDelivery.id).where(
        WebhookDelivery.webhook_id == hook_id).order_by(WebhookDelivery.id.desc())
        .offset(KEPT - 1).limit(1))
    if oldest_kept is not None:
        session.execute(delete(WebhookDelivery).where(WebhookDelivery.webhook_id == hook_id,
                                                      WebhookDelivery.id < oldest_kept))


def _hand_over(delivery_id: int, *, delay: float | None) -> None:
    """Run :func:`attempt` for ``delivery_id`` (after ``delay`` seconds) away from this request:
    a task on the broker, or a thread here."""
    from flask import current_app, has_app_context

    if not has_app_context():
        log.warning("webhook delivery %s left pending: no app", delivery_id)
        return
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    broker = app.config.get("BROKER_URL")
    if broker:
        publish = app.extensions["popreplay_send_task"]
        _pool().submit(_publish, publish, app, broker, delivery_id, delay)
    elif delay:
        def retry() -> None:
            _timers.discard(timer)
            _pool().submit(_run_here, app, delivery_id)

        timer = threading.Timer(delay, retry)
        timer.daemon = True
        with _pools_lock:
            _timers.add(timer)
        timer.start()
    else:
        _pool().submit(_run_here, app, delivery_id)


def stop() -> None:
    """Stop this process's deliveries: the retries waiting are cancelled (their rows stay
    ``pending``, as when the process stops) and the attempts running are waited for. The tests
    call it after each webhook test, so no thread outlives the app it delivers for."""
    with _pools_lock:
        waiting = list(_timers)
        _timers.clear()
        pool = _pools.pop(os.getpid(), None)
    for timer in waiting:
        timer.cancel()
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def _publish(publish: Any, app: Any, broker: str, delivery_id: int, delay: float | None) -> None:
    try:
        with app.app_context():
            publish(broker, "popreplay.webhook", delivery_id, countdown=delay)
    except Exception:  # noqa: BLE001 - the broker is gone: the row stays pending, logged
        log.exception("webhook delivery %s not enqueued", delivery_id)


def _run_here(app: Any, delivery_id: int) -> None:
    from ..db.session import get_database

    try:
        with app.app_context():
            session = get_database(app).session()
            try:
                delay = attempt(session, delivery_id, app.config)
            finally:
                session.close()
            if delay is not None:
                _hand_over(delivery_id, delay=delay)
    except Exception:  # noqa: BLE001 - a thread's failure is logged, never raised into nothing
        log.exception("webhook delivery %s failed to run", delivery_id)


def attempt(session: Session, delivery_id: int, config: Mapping[str, Any]) -> float | None:
    """Post delivery ``delivery_id`` once (unless it is no longer pending) and record what
    happened: the seconds to wait before the next attempt, or None (delivered, given up, gone)."""
    delivery = session.get(WebhookDelivery, delivery_id)
    hook = None if delivery is None else session.get(Webhook, delivery.webhook_id)
    if delivery is None or hook is None or delivery.state != "pending":
        session.rollback()
        return None
    url, secret, body = hook.url, hook.secret, delivery.body.encode()
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT,
               "Popreplay-Event": delivery.event, "Popreplay-Delivery": str(delivery.id)}
    session.rollback()  # no transaction open while the receiver takes its time
    code, error = post(url, body, {**headers, signing.HEADER: signing.sign(secret, body)},
                       timeout=float(config.get("WEBHOOK_TIMEOUT") or 5.0))
    delivery = session.get(WebhookDelivery, delivery_id)
    if delivery is None:
        return None
    retry = float(config.get("WEBHOOK_RETRY") or 30.0)
    with sqlite_writer(session):
        delivery.attempts += 1
        delivery.last_attempt_at = utcnow()
        delivery.response_code, delivery.last_error = code, error
        delay = None
        if code is not None and 200 <= code < 300:
            delivery.state, delivery.next_at = "delivered", None
        elif delivery.attempts >= MAX_ATTEMPTS:
            delivery.state, delivery.next_at = "failed", None
        else:
            delay = retry * 2 ** (delivery.attempts - 1)
            delivery.next_at = utcnow() + timedelta(seconds=delay)
        session.commit()
    return delay


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a redirect is an answer like another (not 2xx: tried again later)


_opener = urllib.request.build_opener(_NoRedirect)


def post(url: str, body: bytes, headers: Mapping[str, str], *,
         timeout: float) -> tuple[int | None, str | None]:
    """(the receiver's status, or None; what went wrong, or None)."""
    request = urllib.request.Request(url, data=body, headers=dict(headers), method="POST")
    try:
        with _opener.open(request, timeout=timeout) as answer:
            answer.read(1024)
            return answer.status, None
    except urllib.error.HTTPError as error:
        return error.code, f"HTTP {error.code}"
    except Exception as error:  # noqa: BLE001 - refused, timed out, TLS: recorded, tried again
        reason = getattr(error, "reason", None) or error
        return None, f"{type(error).__name__}: {reason}"[:500]
