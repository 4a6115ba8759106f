"""``GET /api/v1/tables/{id}/stream``: following a table live, as Server-Sent Events
(docs/table.md, "Streams"), on the tables' blueprint (``api/tables.py``).

The use case is ``tables/follow.py`` (an event generator that knows who asks); this view turns
the request into a :class:`follow.Follower` and its :class:`follow.Sources`, takes the stream's
place (``tables/fanout.py``'s limits) and writes the events out.
"""

from __future__ import annotations

import json
import socket
import threading
from typing import Any, Callable, Iterator

from flask import Response, current_app, request

from ..db.session import get_database
from ..tables import fanout, follow as following, service
from .errors import ApiError
from .lang import request_lang
from .ratelimit import client_key
from .schemas import ErrorSchema
from . import tables as table_api
from .tables import VARY, bp, entries_seen, opened, table_view, token

STREAM_RETRY = 10  # seconds a phone refused a stream (too many open) waits before it asks again
RETRY = {"Retry-After": {"schema": {"type": "integer"}}}
SEND_BUFFER = 32 * 1024  # bytes a stream's socket may hold unread (the kernel doubles it)
LINGER = 5.0  # seconds past its lifetime before the connection of a stream still open is shut


def sse(event: following.Event) -> str:
    """One event as the wire carries it."""
    if event.kind == "comment":
        return f": {event.data}\n\n"
    if event.kind == "retry":
        return f"retry: {event.data}\n\n"
    head = f"id: {event.id}\n" if event.id is not None else ""
    return f"{head}event: {event.kind}\ndata: {json.dumps(event.data, ensure_ascii=False)}\n\n"


@bp.route("/<string:table_id>/stream", methods=["GET"])
@bp.doc(security=[{"tableToken": []}])
@bp.response(200, description="`text/event-stream`: `entry` events (id = sequence number), then "
             "a `table` event (the table now, as this token may see it); a `snapshot` (id = the "
             "last sequence number) when the phone has no `Last-Event-ID` or is more than "
             f"{following.SNAPSHOT_GAP} entries behind; a keep-alive comment every "
             f"{following.KEEPALIVE:.0f} s; an `end` event (`reason`) when the token no longer "
             "stands for its seat (handed to another phone). The token goes in the "
             "`Authorization` header (never in the URL); `?wait=0` answers what there is and "
             "ends.", content_type="text/event-stream")
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.alt_response(429, schema=ErrorSchema, headers=RETRY, description="`too-many-streams`: "
                 "this client holds POPREPLAY_TABLE_MAX_STREAMS_PER_CLIENT open streams in this "
                 "process already; poll with `?wait=0` and open the stream again after "
                 "Retry-After.")
@bp.alt_response(503, schema=ErrorSchema, headers=RETRY, description="`busy`: this process "
                 "holds POPREPLAY_TABLE_MAX_STREAMS open streams already, or "
                 "POPREPLAY_TABLE_MAX_STREAMS_PER_TABLE of this table; poll with `?wait=0` and "
                 "open the stream again after Retry-After.")
@bp.doc(security=[{"tableToken": []}])
def stream(table_id: str) -> Any:
    """Follow the table live (Server-Sent Events)"""
    table, viewer = opened(table_id)
    last = request.headers.get("Last-Event-ID") or request.args.get("last") or ""
    last_id = int(last) if last.strip().isdigit() else None
    seconds = 0.0 if request.args.get("wait") == "0" else float(
        current_app.config.get("TABLE_STREAM_SECONDS", 300))
    slot = place(table.id) if seconds else None  # a poll (?wait=0) is a short request
    sub = None
    try:
        sub = table_api.hub().subscribe(table.id) if seconds else None
        events = following.follow(
            table.id, following.Follower(viewer, token() or "", request_lang()),
            last_id=last_id, seconds=seconds, sources=sources(sub))
    except Exception:
        let_go(sub, slot)
        raise
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no", **VARY}
    response = Response(written(events, sub, slot), mimetype="text/event-stream",
                        headers=headers)
    # also when the stream never started (the phone went away at once): a generator never
    # started runs no `finally`
    response.call_on_close(closer(seconds))
    response.call_on_close(lambda: let_go(sub, slot))
    return response


def place(table_id: str) -> fanout.Slot:
    """This stream's place within the limits (per process: in all, per client, per table), or
    the refusal: 429 past the client's own limit, 503 past the table's or the server's."""
    config = current_app.config
    got = fanout.streams.claim(client=client_key(), table=table_id, limits=fanout.Limits(
        total=config.get("TABLE_MAX_STREAMS"),
        per_client=config.get("TABLE_MAX_STREAMS_PER_CLIENT"),
        per_table=config.get("TABLE_MAX_STREAMS_PER_TABLE")))
    if isinstance(got, fanout.Slot):
        return got
    then = f"poll the table (?wait=0) and open the stream again in {STREAM_RETRY} seconds."
    retry = {"Retry-After": str(STREAM_RETRY)}
    if got.scope == "client":
        raise ApiError(429, "This client holds too many live streams open: close one, " + then,
                       errors=[{"code": "too-many-streams", "path": "",
                                "message": "too many open streams from this client"}],
                       headers=retry)
    where = "follow this table" if got.scope == "table" else "are open"
    raise ApiError(503, f"Too many live streams {where} on this server: " + then,
                   errors=[{"code": "busy", "path": "", "message": "too many open streams"}],
                   headers=retry)


def closer(seconds: float) -> Callable[[], None]:
    """Close the connection ``LINGER`` seconds past the stream's lifetime if it is still open:
    a client that does not read blocks the write of its next event, and a blocked write never
    gives the stream back its turn to end itself (issue 36: such a stream held its place for
    good). Shutting the socket down ends the blocked write; the server then closes the response,
    which frees the place. The cancel function it returns is called when the stream ends."""
    sock = request.environ.get("gunicorn.socket")  # the client's connection (popreplay serve)
    if sock is None or not seconds:
        return lambda: None
    try:  # what the kernel keeps for a client that does not read: bounded, not autotuned to MiBs
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
    except OSError:
        pass

    def shut() -> None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:  # closed already
            pass

    timer = threading.Timer(seconds + LINGER, shut)  # a greenlet under gevent
    timer.daemon = True
    timer.start()
    return timer.cancel


def sources(sub: fanout.Subscription | None) -> following.Sources:
    """What following a table needs, from this app's dependencies."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    carrier = table_api.hub()
    return following.Sources(
        sessions=get_database(app).session, view=table_view, entries=entries_seen,
        subscription=sub, polled=carrier.polled, work=app.config.get("REPLAY_WAIT"),
        viewer_of=service.viewer_of, polling_note=lambda: fallback(carrier))


def fallback(carrier: fanout.Fanout) -> str | None:
    """What the stream says (a comment) while it looks at the database because Redis is not
    heard (issue 36: with Redis down the streams were silent)."""
    if isinstance(carrier, fanout.RedisFanout) and carrier.polled():
        return (f"polling: Redis is not reachable; this stream reads the table every "
                f"{following.POLL:g} s")
    return None


def written(events: Iterator[following.Event], sub: fanout.Subscription | None,
            slot: fanout.Slot | None) -> Iterator[str]:
    """The events on the wire; the subscription left and the place freed however it ends."""
    try:
        for event in events:
            yield sse(event)
    finally:
        let_go(sub, slot)


def let_go(sub: fanout.Subscription | None, slot: fanout.Slot | None) -> None:
    """Leave the table's followers and free the stream's place (both: once, however often)."""
    if sub is not None:
        sub.close()
    if slot is not None:
        slot.release()
