"""``/api/v1/tables``: one game recorded live by several phones (docs/table.md).

The views turn HTTP into calls to ``popreplay.tables`` (the engine checks every entry there) and
back; the stream is Server-Sent Events fed by the table's fan-out (memory or Redis).
"""

from __future__ import annotations

import json
import time
from typing import Any, Iterator

from flask import Response, current_app, request
from flask_smorest import Blueprint
from marshmallow import RAISE, Schema, fields, validate

from .. import budget
from ..db.session import get_database
from ..i18n import localize
from ..tables import fanout, qr, readings, service, state as states, usecases
from ..tables.outcomes import Appended, Busy, Deps, Refused, Stale
from .errors import ApiError, error_response
from .lang import request_lang
from .represent import game_view
from .schemas import CreatedGameSchema, ErrorSchema

bp = Blueprint("tables", __name__, url_prefix="/api/v1/tables",
               description="Record one game together: a phone per seat, entries in one order "
               "checked by the engine, a live stream per table (docs/table.md).")

KEEPALIVE = 15.0  # seconds between keep-alive comments on an idle stream
POLL = 1.0  # in memory (no Redis): also look at the database this often (another worker's entry)
SNAPSHOT_GAP = 50  # a phone further behind than this gets a snapshot, not every entry
STREAM_RETRY = 10  # seconds a phone refused a stream (too many open) waits before it asks again
VARY = {"Vary": "Accept-Language"}
BUSY = {"Retry-After": {"schema": {"type": "integer"}}}
BUSY_WHY = ("The engine's work for this table took longer than POPREPLAY_REPLAY_WAIT (or the "
            "server is busy): `busy`, ask again after Retry-After (nothing was appended; the "
            "answer is being computed and kept).")


class CreateSchema(Schema):
    log = fields.Dict(required=True, metadata={
        "description": "the first draft, as the recorder's setup makes it (popreplay/1)",
        "example": {"format": "popreplay/1", "game": "pop", "mode": "battle",
                    "players": ["Ana", "Bruno", "Chloé"], "rounds": []}})
    record_hands = fields.Boolean(load_default=False, metadata={
        "description": "each seat records its own hand (kept from the others until the round "
                       "is over)"})


class SeatSchema(Schema):
    player = fields.String(required=True, metadata={"example": "Ana"})
    id = fields.String(validate=validate.Length(min=1, max=60), metadata={
        "description": "the phone's own random id for this request (at least 16 characters; "
                       "whoever knows it gets the token): a retry with the same id gets the "
                       "same seat token (the first answer was lost)",
        "example": "c2f1e0b7a9d84f3e"})


class KeeperSchema(Schema):
    player = fields.String(required=True, allow_none=True, metadata={
        "description": "the seat that enters what is nobody's own besides the host (null: the "
                       "host only)", "example": "Ana"})


class EntryBodySchema(Schema):
    id = fields.String(required=True, validate=validate.Length(min=1, max=60), metadata={
        "description": "the phone's own id for this entry: a retry with the same id is counted "
                       "once", "example": "ana-7f3c-0001"})
    seen = fields.Integer(required=True, validate=validate.Range(min=0), metadata={
        "description": "the last sequence number this phone has seen"})
    entry = fields.Dict(required=True, metadata={
        "description": "`{type: part, entry, slots: {slot: [cards]}}` (a seat's part of an "
                       "entry the engine's plan shares out) or `{type: place, at, how, value}` "
                       "(a whole entry)",
        "example": {"type": "part", "entry": "turn", "slots": {"0": [12]}}})


class WholeLogSchema(Schema):
    log = fields.Dict(metadata={"description": "the draft (popreplay/1), hands included"})


class StoreSchema(Schema):
    visibility = fields.String(load_default="public",
                               validate=validate.OneOf(("public", "unlisted")))


class ViewSchema(Schema):
    class Meta:
        unknown = RAISE

    table = fields.String()
    seq = fields.Integer()
    status = fields.String()
    stored = fields.String(allow_none=True)
    game = fields.String()
    mode = fields.String()
    players = fields.List(fields.String())
    hands_recorded = fields.Boolean()
    seats = fields.List(fields.Dict())
    you = fields.Dict()
    log = fields.Dict(metadata={"description": "the draft without the hands of a round still "
                                               "played"})
    result = fields.Dict(allow_none=True)
    over = fields.Boolean()
    error = fields.Dict(allow_none=True)
    hand = fields.List(fields.Raw(), allow_none=True, metadata={"description": "your hand"})
    gathering = fields.Dict(metadata={"description": "entries being filled by the seats: who "
                                                     "filled which slot (your cards only)"})
    refused = fields.Dict(allow_none=True)
    choices = fields.Dict(allow_none=True, metadata={
        "description": "the engine's choices for the draft as you see it (cube, Bloops, slap: "
                       "what the entry panels offer); null for POP! (see gathering)"})
    private = fields.Boolean(metadata={"description": "each seat sees only its own cards "
                                                      "(cube, Bloops) until they are shown"})
    corrections = fields.List(fields.Dict(), metadata={
        "description": "every correction so far: `{seq, who, at, entry, changes: [{path, "
                       "pointer, old, new}]}` (a value the table still hides: `hidden`)"})


class CreatedSchema(Schema):
    table = fields.String()
    host_token = fields.String()
    join_key = fields.String()
    join_url = fields.String()
    qr_svg = fields.String()
    view = fields.Nested(ViewSchema)


class SeatTakenSchema(Schema):
    player = fields.String()
    seat_token = fields.String()
    seat_url = fields.String()
    view = fields.Nested(ViewSchema)


class AppendedSchema(Schema):
    status = fields.String(metadata={"description": "`appended` or `duplicate` (a retry)"})
    seqs = fields.List(fields.Integer())
    view = fields.Nested(ViewSchema)


class EntriesSchema(Schema):
    entries = fields.List(fields.Dict())


# --- helpers -------------------------------------------------------------------------------------

# a refusal's reason (tables/outcomes.py) -> its HTTP status
STATUS = {"invalid": 422, "rules": 422, "forbidden": 403, "filled": 409, "correction": 403,
          "no-token": 401, "not-found": 404, "closed": 409, "seat-taken": 409, "full": 422,
          "conflict": 409}


def deps() -> Deps:
    """The table's use cases' dependencies, built once by the app factory (popreplay/app.py)."""
    return current_app.extensions["popreplay_tables"]


def failing(error: service.TableError | Refused) -> ApiError:
    """A refusal as the API's error, its messages in the phone's language."""
    lang = request_lang()
    errors = list(error.errors)
    errors = localize({"errors": errors}, lang)["errors"] if errors else []
    status = error.status if isinstance(error, service.TableError) else STATUS[error.reason]
    return ApiError(status, error.message, errors=errors)


def answered(outcome: Any) -> Any:
    """An outcome that is no success raised as its response: a refusal, the engine busy."""
    if isinstance(outcome, Refused):
        raise failing(outcome)
    if isinstance(outcome, Busy):
        raise budget.Busy(outcome.why or "the table's state is being computed")
    return outcome


def token() -> str | None:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return request.args.get("token") or None


def opened(table_id: str) -> tuple[Any, service.Viewer]:
    return answered(usecases.opened(deps(), table_id, token()))


localized_view = readings.localized_view
rows_after = readings.rows_after


def current_view(table: Any, viewer: service.Viewer) -> dict[str, Any]:
    return answered(readings.table_now(deps(), table, viewer, request_lang()))


def table_view(table: Any, state: states.State, viewer: service.Viewer, lang: str, *,
               wait: float | None) -> dict[str, Any]:
    """The table as ``viewer`` may see it in ``lang`` (tables/readings.py)."""
    return readings.view(table, state, viewer, lang, wait=wait)


def entries_seen(table: Any, state: states.State, viewer: service.Viewer,
                 rows: list[states.Row], *, after: int, wait: float | None) -> list[dict[str, Any]]:
    """The entries after ``after`` as ``viewer`` may see them (tables/readings.py)."""
    return readings.entries_seen(table, state, viewer, rows, after=after, wait=wait)


def link(path: str) -> str:
    base = current_app.config.get("PUBLIC_BASE_URL") or request.host_url.rstrip("/")
    return base + path


def hub() -> fanout.Fanout:
    return fanout.for_url(current_app.config.get("REDIS_URL"))


def stale(done: Stale, viewer: service.Viewer, seen: int, lang: str) -> Any:
    """409: what this phone missed since ``seen``, and the table now."""
    wait = deps().wait
    missed = entries_seen(done.table, done.state, viewer, list(done.missed), after=seen,
                          wait=wait)
    return error_response(409, f"The table changed since entry {seen}: here is what this phone "
                          "missed.", [{"code": "stale", "message": "seen", "path": "/seen"}],
                          missed=missed, view=table_view(done.table, done.state, viewer, lang,
                                                         wait=wait))


def appended(done: Any, viewer: service.Viewer, lang: str) -> Any:
    """201 appended or 200 duplicate (a retry), with the table now."""
    view = table_view(done.table, done.state, viewer, lang, wait=deps().wait)
    status = "appended" if isinstance(done, Appended) else "duplicate"
    return ({"status": status, "seqs": list(done.seqs), "view": view},
            201 if status == "appended" else 200, VARY)


# --- create, join, read --------------------------------------------------------------------------

@bp.route("", methods=["POST"])
@bp.arguments(CreateSchema, unknown=RAISE)
@bp.response(201, CreatedSchema, description="The table: `host_token` (this phone is the host; "
             "shown once), the join link with its key and its QR code (SVG, drawn here).")
@bp.alt_response(422, schema=ErrorSchema)
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY)
def create(body: dict[str, Any]) -> Any:
    """Start a table from the recorder's setup"""
    made = answered(usecases.create(deps(), log=body["log"], hands=body["record_hands"]))
    url = link(f"/t/{made.table.id}#key={made.join_key}")
    return {"table": made.table.id, "host_token": made.host_token, "join_key": made.join_key,
            "join_url": url, "qr_svg": qr.svg(url, title="Join the table"),
            "view": table_view(made.table, made.state, service.Viewer("host"), request_lang(),
                               wait=deps().wait)}, 201, VARY


@bp.route("/<string:table_id>", methods=["GET"])
@bp.response(200, ViewSchema, description="The table as this token may see it.")
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY)
@bp.doc(security=[{"tableToken": []}])
def read(table_id: str) -> Any:
    """The table now (host, seat or the join link's key)"""
    table, viewer = opened(table_id)
    return current_view(table, viewer), 200, VARY


@bp.route("/<string:table_id>/seats", methods=["POST"])
@bp.arguments(SeatSchema, unknown=RAISE)
@bp.response(201, SeatTakenSchema, description="This phone's seat token (keep it: never the "
             "host's). With the join link's key: a free seat; the host may hand any seat to a "
             "new phone (the old phone's token stops working). A retry with the same `id` gets "
             "the same token (200).")
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(409, schema=ErrorSchema, description="The seat is taken.")
@bp.alt_response(422, schema=ErrorSchema)
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY)
@bp.doc(security=[{"tableToken": []}])
def take_seat(body: dict[str, Any], table_id: str) -> Any:
    """Take a seat (or hand it to another phone)"""
    _, viewer = opened(table_id)
    done = answered(usecases.take_seat(deps(), table_id, viewer, player=body["player"],
                                       request_id=body.get("id")))
    return {"player": done.player, "seat_token": done.token,
            "seat_url": link(f"/t/{done.table.id}#seat={done.token}"),
            "view": table_view(done.table, done.state, done.viewer, request_lang(),
                               wait=deps().wait)}, 200 if done.again else 201, VARY


@bp.route("/<string:table_id>/keeper", methods=["POST"])
@bp.arguments(KeeperSchema, unknown=RAISE)
@bp.response(200, KeeperSchema, description="The seat that enters what is nobody's own (POP!'s "
             "layout and Chief's cards, slap's flips) besides the host; `null`: the host only "
             "(docs/table.md \"Who may make which entry\").")
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema, description="Only the host names the keeper.")
@bp.alt_response(422, schema=ErrorSchema)
@bp.doc(security=[{"tableToken": []}])
def name_keeper(body: dict[str, Any], table_id: str) -> Any:
    """Name the table's keeper (host only)"""
    _, viewer = opened(table_id)
    done = answered(usecases.name_keeper(deps(), table_id, viewer, player=body["player"]))
    return {"player": done.keeper}, 200, VARY


@bp.route("/<string:table_id>/entries", methods=["POST"])
@bp.arguments(EntryBodySchema, unknown=RAISE)
@bp.response(201, AppendedSchema, description="Appended: its sequence number(s) and the table "
             "now. A part that completes its entry also appends the whole entry.")
@bp.alt_response(200, schema=AppendedSchema, description="A retry (same `id`): counted once.")
@bp.alt_response(403, schema=ErrorSchema, description="Not this phone's entry (docs/table.md "
                 "\"Who may make which entry\"), or a change of the past (`correction`: send a "
                 "correction).")
@bp.alt_response(409, schema=ErrorSchema, description="Stale: the draft changed after `seen`; "
                 "`missed` holds the entries this phone has not seen, `view` the table now. Or "
                 "`filled`: the slot is filled already (the error names by whom).")
@bp.alt_response(422, schema=ErrorSchema, description="Refused by the rules (to this phone only: "
                 "nothing is appended), or not an entry (too deep or too big included), or "
                 "`table-full`: the table holds POPREPLAY_TABLE_MAX_ENTRIES entries or its draft "
                 "POPREPLAY_TABLE_MAX_DRAFT_BYTES (nothing is appended; the host can store the "
                 "game).")
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY + " Rarely, the "
                 "entry was appended but the table after it was not ready: the retry (same `id`) "
                 "is answered `duplicate`.")
@bp.doc(security=[{"tableToken": []}])
def append(body: dict[str, Any], table_id: str) -> Any:
    """Send an entry (seat or host)"""
    _, viewer = opened(table_id)
    done = answered(usecases.append(deps(), table_id, viewer, client_id=body["id"],
                                    seen=body["seen"], entry=body["entry"]))
    if isinstance(done, Stale):
        return stale(done, viewer, body["seen"], request_lang())
    return appended(done, viewer, request_lang())


@bp.route("/<string:table_id>/entries", methods=["GET"])
@bp.response(200, EntriesSchema, description="The entries after `after`, as this token may see "
             "them (another seat's cards are left out until its entry is whole).")
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.alt_response(422, schema=ErrorSchema, description="`after` is not a sequence number.")
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY)
@bp.doc(security=[{"tableToken": []}])
def list_entries(table_id: str) -> Any:
    """The table's entries in the server's order"""
    table, viewer = opened(table_id)
    after = request.args.get("after", "0")
    if not after.isdigit() or len(after) > 12:
        raise ApiError(422, "`after` is a sequence number.", errors=[
            {"code": "bad-query", "message": "not a whole number", "path": "/after"}])
    return {"entries": answered(readings.entries_after(deps(), table, viewer, int(after)))}


# --- the live stream -----------------------------------------------------------------------------

def sse(event: str, data: Any, *, id_: int | None = None) -> str:
    head = f"id: {id_}\n" if id_ is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


@bp.route("/<string:table_id>/stream", methods=["GET"])
@bp.response(200, description="`text/event-stream`: `entry` events (id = sequence number), then "
             "a `table` event (the table now, as this token may see it); a `snapshot` (id = the "
             "last sequence number) when the phone has no `Last-Event-ID` or is more than "
             f"{SNAPSHOT_GAP} entries behind; a keep-alive comment every {KEEPALIVE:.0f} s. "
             "`?token=` (EventSource sends no header); `?wait=0` answers what there is and ends.",
             content_type="text/event-stream")
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description="`busy`: this process holds "
                 "POPREPLAY_TABLE_MAX_STREAMS open streams already; poll with `?wait=0` and "
                 "open the stream again after Retry-After.")
def stream(table_id: str) -> Any:
    """Follow the table live (Server-Sent Events)"""
    table, viewer = opened(table_id)
    last = request.headers.get("Last-Event-ID") or request.args.get("last") or ""
    last_id = int(last) if last.strip().isdigit() else None
    wait = request.args.get("wait")
    seconds = 0.0 if wait == "0" else float(current_app.config.get("TABLE_STREAM_SECONDS", 300))
    slot = None
    if seconds:  # a lasting stream holds a place; a poll (?wait=0) is a short request
        slot = fanout.streams.take(current_app.config.get("TABLE_MAX_STREAMS"))
        if slot is None:
            raise ApiError(503, "Too many live streams are open on this server: poll the table "
                           f"(?wait=0) and open the stream again in {STREAM_RETRY} seconds.",
                           errors=[{"code": "busy", "path": "",
                                    "message": "too many open streams"}],
                           headers={"Retry-After": str(STREAM_RETRY)})
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    lang = request_lang()
    try:
        sub = hub().subscribe(table_id) if seconds else None
    except Exception:
        if slot is not None:
            slot.release()
        raise
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no", **VARY}
    response = Response(follow(app, table.id, viewer, last_id, lang, sub, seconds, slot),
                        mimetype="text/event-stream", headers=headers)
    if slot is not None:  # also when the stream never started (the phone went away at once)
        response.call_on_close(slot.release)
    return response


def follow(app: Any, table_id: str, viewer: service.Viewer, last_id: int | None, lang: str,
           sub: fanout.Subscription | None, seconds: float,
           slot: fanout.Slot | None = None) -> Iterator[str]:
    database = get_database(app)
    end = time.monotonic() + seconds
    work = app.config.get("REPLAY_WAIT")  # the engine's budget (popreplay/budget.py)
    # one process's memory does not hear the other workers: without Redis, poll the database too
    polled = isinstance(fanout.for_url(app.config.get("REDIS_URL")), fanout.MemoryFanout)
    try:
        yield "retry: 2000\n\n"
        seen = last_id
        tries = 0  # engine work found busy in a row
        pushed = False  # a seat taken, the game stored, a sign-off: the table again, same seq
        while True:
            with database.session() as session:  # reads only, given back before the engine
                table = states.Snapshot.of(service.find(session, table_id))
                compute = states.loader(session, table)
                rows = rows_after(session, table, seen, table.last_seq) if (
                    seen is not None and 0 <= seen < table.last_seq
                    and table.last_seq - seen <= SNAPSHOT_GAP) else []
            try:
                state = compute(work)
                if seen is None or seen > state.seq or state.seq - seen > SNAPSHOT_GAP or (
                        sub is not None and sub.overflowed):
                    if sub is not None:
                        sub.overflowed = False
                    out = [sse("snapshot", table_view(table, state, viewer, lang, wait=work),
                               id_=state.seq)]
                elif seen < state.seq or seen == last_id or pushed:
                    items = entries_seen(table, state, viewer, rows, after=seen, wait=work)
                    out = [sse("entry", localize_entry(item, lang), id_=item["seq"])
                           for item in items]
                    out.append(sse("table", table_view(table, state, viewer, lang, wait=work)))
                else:
                    out = []
            except budget.Busy:  # the engine is busy: say so, and try again (kept meanwhile)
                yield ": busy\n\n"
                pause = min(budget.RETRY_SECONDS, 0.25 * 2 ** tries)  # soon: it may be queued
                tries += 1
                if sub is None or time.monotonic() + pause >= end:
                    return
                time.sleep(pause)
                continue
            tries = 0
            yield from out
            seen = state.seq
            last_id, pushed = -1, False
            if sub is None:
                return
            quiet = time.monotonic()
            while True:
                left = end - time.monotonic()
                if left <= 0:
                    return
                wait = min(KEEPALIVE, left, POLL if polled else KEEPALIVE)
                message = sub.get(timeout=wait)
                if message is None:
                    if polled and last_seq(database, table_id) > seen:
                        break
                    if time.monotonic() - quiet >= KEEPALIVE:
                        quiet = time.monotonic()
                        yield ": keep-alive\n\n"
                    continue
                if int(message.get("seq") or 0) > seen or message.get("seats"):
                    pushed = bool(message.get("seats"))
                    break
    finally:
        if sub is not None:
            sub.close()
        if slot is not None:
            slot.release()


def last_seq(database: Any, table_id: str) -> int:
    with database.session() as session:
        table = session.get(service.TableRecord, table_id)
        return table.last_seq if table is not None else 0


def localize_entry(item: dict[str, Any], lang: str) -> dict[str, Any]:
    if isinstance(item.get("error"), dict):
        [error] = localize({"errors": [item["error"]]}, lang)["errors"]
        return {**item, "error": error}
    return item


# --- the end: store the game, or continue in the recorder ----------------------------------------

@bp.route("/<string:table_id>/log", methods=["GET"])
@bp.response(200, WholeLogSchema, description="`{log}`: the whole draft, hands included, for the host to "
             "continue alone in the recorder.")
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY)
@bp.doc(security=[{"tableToken": []}])
def whole_log(table_id: str) -> Any:
    """The whole draft (host only)"""
    table, viewer = opened(table_id)
    return {"log": answered(readings.whole_log(deps(), table, viewer))}


@bp.route("/<string:table_id>/store", methods=["POST"])
@bp.arguments(StoreSchema, unknown=RAISE)
@bp.response(201, CreatedGameSchema, description="Stored as the recorder stores a draft "
             "(complete or not), and the table closed, in one transaction; `owner_token` shown "
             "to the host (a retry, the answer lost: 200 with the same token). The table takes "
             "no more entries.")
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(409, schema=ErrorSchema)
@bp.alt_response(422, schema=ErrorSchema)
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY)
@bp.doc(security=[{"tableToken": []}])
def store_game(body: dict[str, Any], table_id: str) -> Any:
    """Store the table's game (host only)"""
    _, viewer = opened(table_id)
    done = answered(usecases.store_game(deps(), table_id, viewer, visibility=body["visibility"]))
    view = game_view(done.record)
    view["owner_token"] = done.owner_token
    return view, 200 if done.again else 201, VARY


@bp.route("/<string:table_id>/qr.svg", methods=["GET"])
@bp.response(200, description="The join link's QR code (SVG, drawn here) for `?key=<join key>`.",
             content_type="image/svg+xml")
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
def join_qr(table_id: str) -> Any:
    """The join link's QR code"""
    key = request.args.get("key") or ""
    table, viewer = answered(usecases.opened(deps(), table_id, key))
    if viewer.role != "watch":
        raise ApiError(403, "`key` is not this table's join key.")
    url = link(f"/t/{table.id}#key={key}")
    return Response(qr.svg(url, title="Join the table"), mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=3600"})
