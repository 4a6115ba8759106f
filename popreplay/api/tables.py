"""``/api/v1/tables``: one game recorded live by several phones (docs/table.md).

The views turn HTTP into calls to ``popreplay.tables`` (the engine checks every entry there) and
back; the stream is Server-Sent Events fed by the table's fan-out (memory or Redis).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Response, current_app, request
from flask_smorest import Blueprint
from marshmallow import RAISE, Schema, fields, validate

from .. import budget, store
from ..db.session import get_session
from ..i18n import localize
from ..tables import fanout, qr, service, state as states, views
from .errors import ApiError, error_response
from ..jsonout import compact
from .lang import request_lang
from .record import not_stored, raw_of
from .represent import game_view
from .schemas import CreatedGameSchema, ErrorSchema, StrictBoolean
from .work import work_wait

bp = Blueprint("tables", __name__, url_prefix="/api/v1/tables",
               description="Record one game together: a phone per seat, entries in one order "
               "checked by the engine, a live stream per table (docs/table.md).")

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
    record_hands = StrictBoolean(load_default=False, metadata={
        "description": "each seat records its own hand (kept from the others until the round "
                       "is over)"})


class SeatSchema(Schema):
    player = fields.String(required=True, metadata={"example": "Ana"})


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

def failing(error: service.TableError) -> ApiError:
    lang = request_lang()
    errors = localize({"errors": error.errors}, lang)["errors"] if error.errors else []
    return ApiError(error.status, error.message, errors=errors)


def token() -> str | None:
    """The table token of this request: in the ``Authorization`` header only. A token in the
    URL (``?token=``, ``?key=``: what the stream and the QR code once took) reaches access logs,
    histories and referrers, and is refused (issue 36; docs/table.md, "Streams")."""
    for name in ("token", "key"):
        if name in request.args:
            raise ApiError(400, f"A table's token goes in the 'Authorization: Bearer <token>' "
                           f"header, never in the URL: ?{name}= is refused.", errors=[{
                               "code": "token-in-url", "path": f"/{name}",
                               "message": "a token in the URL"}])
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


def opened(table_id: str) -> tuple[Any, service.Viewer]:
    try:
        table = service.find(get_session(), table_id)
        return table, service.viewer_of(table, token())
    except service.TableError as error:
        raise failing(error) from None


def localized_view(data: dict[str, Any], lang: str) -> dict[str, Any]:
    out = dict(data)
    for key in ("error", "refused"):
        if isinstance(out.get(key), dict):
            item = out[key] if key == "error" else out[key]["error"]
            [item] = localize({"errors": [item]}, lang)["errors"]
            out[key] = item if key == "error" else {**out[key], "error": item}
    if isinstance(out.get("result"), dict):
        out["result"] = localize(out["result"], lang)
    return out


def current_view(table: Any, viewer: service.Viewer) -> dict[str, Any]:
    state = states.load(get_session(), table, wait=work_wait())
    return table_view(table, state, viewer, request_lang(), wait=work_wait())


# The engine's work of a table (its state, each phone's view with the engine's offers, the
# entries as a phone may see them) runs beside the request within its budget (popreplay/budget.py,
# POPREPLAY_REPLAY_WAIT): past it 503 `busy` with Retry-After while it goes on, and what it makes
# is kept for its key (a view: per table, sequence number, seats, viewer and language).

def table_view(table: Any, state: states.State, viewer: service.Viewer, lang: str, *,
               wait: float | None) -> dict[str, Any]:
    """The table as ``viewer`` may see it in ``lang``, computed once per key, beside the request."""
    snap = states.Snapshot.of(table)
    key = ("table-view", snap.id, state.seq, snap.status, snap.stored_slug,
           tuple(sorted(snap.seat_tokens)), viewer.role, viewer.player, lang)
    return json.loads(budget.run(key, _view_bytes, snap, state, viewer, lang, wait=wait))


def _view_bytes(snap: states.Snapshot, state: states.State, viewer: service.Viewer,
                lang: str) -> bytes:
    return compact(localized_view(views.view(snap, state, viewer), lang)).encode("utf-8")


def entries_seen(table: Any, state: states.State, viewer: service.Viewer,
                 rows: list[states.Row], *, after: int, wait: float | None) -> list[dict[str, Any]]:
    """The entries after ``after`` as ``viewer`` may see them, beside the request."""
    snap = states.Snapshot.of(table)
    key = ("table-entries", snap.id, state.seq, viewer.role, viewer.player, after)
    return json.loads(budget.run(key, _entries_bytes, state, viewer, rows, wait=wait))


def _entries_bytes(state: states.State, viewer: service.Viewer, rows: list[states.Row]) -> bytes:
    return compact([views.entry_view(row, state, viewer) for row in rows]).encode("utf-8")


def rows_after(session: Any, table: Any, after: int, upto: int) -> list[states.Row]:
    return [states.Row.of(r) for r in states.entries(session, table.id, after=after, upto=upto)]


def link(path: str) -> str:
    base = current_app.config.get("PUBLIC_BASE_URL") or request.host_url.rstrip("/")
    return base + path


def hub() -> fanout.Fanout:
    return fanout.for_url(current_app.config.get("REDIS_URL"))


# --- create, join, read --------------------------------------------------------------------------

@bp.route("", methods=["POST"])
@bp.arguments(CreateSchema, unknown=RAISE)
@bp.response(201, CreatedSchema, description="The table: `host_token` (this phone is the host; "
             "shown once), the join link with its key and its QR code (SVG, drawn here).")
@bp.alt_response(422, schema=ErrorSchema)
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY)
def create(body: dict[str, Any]) -> Any:
    """Start a table from the recorder's setup"""
    try:
        made = service.create(get_session(), log=body["log"], hands=body["record_hands"],
                              wait=work_wait())
    except service.TableError as error:
        raise failing(error) from None
    url = link(f"/t/{made.table.id}#key={made.join_key}")
    return {"table": made.table.id, "host_token": made.host_token, "join_key": made.join_key,
            "join_url": url, "qr_svg": qr.svg(url, title="Join the table"),
            "view": current_view(made.table, service.Viewer("host"))}, 201, VARY


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
             "new phone (the old phone's token stops working).")
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(409, schema=ErrorSchema, description="The seat is taken.")
@bp.alt_response(422, schema=ErrorSchema)
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY)
@bp.doc(security=[{"tableToken": []}])
def take_seat(body: dict[str, Any], table_id: str) -> Any:
    """Take a seat (or hand it to another phone)"""
    table, viewer = opened(table_id)
    try:
        seat = service.take_seat(get_session(), table, viewer=viewer, player=body["player"])
    except service.TableError as error:
        raise failing(error) from None
    hub().publish({"table": table.id, "seq": table.last_seq, "seats": True})
    return {"player": body["player"], "seat_token": seat,
            "seat_url": link(f"/t/{table.id}#seat={seat}"),
            "view": current_view(table, service.Viewer("seat", body["player"]))}, 201, VARY


@bp.route("/<string:table_id>/entries", methods=["POST"])
@bp.arguments(EntryBodySchema, unknown=RAISE)
@bp.response(201, AppendedSchema, description="Appended: its sequence number(s) and the table "
             "now. A part that completes its entry also appends the whole entry.")
@bp.alt_response(200, schema=AppendedSchema, description="A retry (same `id`): counted once.")
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(409, schema=ErrorSchema, description="Stale: the draft changed after `seen`; "
                 "`missed` holds the entries this phone has not seen, `view` the table now.")
@bp.alt_response(422, schema=ErrorSchema, description="Refused by the rules (to this phone only: "
                 "nothing is appended), or not an entry, or `table-full`: the table holds "
                 "POPREPLAY_TABLE_MAX_ENTRIES entries (nothing is appended; the host can store "
                 "the game).")
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY + " Rarely, the "
                 "entry was appended but the table after it was not ready: the retry (same `id`) "
                 "is answered `duplicate`.")
@bp.doc(security=[{"tableToken": []}])
def append(body: dict[str, Any], table_id: str) -> Any:
    """Send an entry (seat or host)"""
    table, viewer = opened(table_id)
    session = get_session()
    wait = work_wait()
    try:
        done = service.append(session, table_id, viewer=viewer, client_id=body["id"],
                              seen=body["seen"], entry=body["entry"], wait=wait,
                              max_entries=current_app.config.get("TABLE_MAX_ENTRIES"))
    except service.TableError as error:
        raise failing(error) from None
    if done.status == "appended":
        hub().publish({"table": table_id, "seq": done.seqs[-1]})
    if done.state is None:  # appended, but the table after it is past the budget
        raise done.busy or budget.Busy("the table's state is being computed")
    table = service.find(session, table_id)
    lang = request_lang()
    if done.status == "stale":
        missed = entries_seen(table, done.state, viewer, [states.Row.of(r) for r in done.missed],
                              after=body["seen"], wait=wait)
        return error_response(409, "The table changed since entry "
                              f"{body['seen']}: here is what this phone missed.", [
                                  {"code": "stale", "message": "seen", "path": "/seen"}],
                              missed=missed,
                              view=table_view(table, done.state, viewer, lang, wait=wait))
    answer = {"status": done.status, "seqs": done.seqs,
              "view": table_view(table, done.state, viewer, lang, wait=wait)}
    return answer, 201 if done.status == "appended" else 200, VARY


@bp.route("/<string:table_id>/entries", methods=["GET"])
@bp.response(200, EntriesSchema, description="The entries after `after`, as this token may see "
             "them (another seat's cards are left out until its entry is whole).")
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY)
@bp.doc(security=[{"tableToken": []}])
def list_entries(table_id: str) -> Any:
    """The table's entries in the server's order"""
    table, viewer = opened(table_id)
    after = request.args.get("after", "0")
    if not after.isdigit():
        raise ApiError(422, "`after` is a sequence number.", errors=[
            {"code": "bad-query", "message": "not a whole number", "path": "/after"}])
    session = get_session()
    state = states.load(session, table, wait=work_wait())
    rows = rows_after(session, table, int(after), state.seq)
    return {"entries": entries_seen(table, state, viewer, rows, after=int(after),
                                    wait=work_wait())}


# --- the live stream: api/table_stream.py (the view), tables/follow.py (the use case) ----------

# --- the end: store the game, or continue in the recorder ----------------------------------------

def host_only(table_id: str) -> Any:
    table, viewer = opened(table_id)
    if not viewer.host:
        raise ApiError(403, "Only the table's host may do this.")
    return table


@bp.route("/<string:table_id>/log", methods=["GET"])
@bp.response(200, WholeLogSchema, description="`{log}`: the whole draft, hands included, for the host to "
             "continue alone in the recorder.")
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY)
@bp.doc(security=[{"tableToken": []}])
def whole_log(table_id: str) -> Any:
    """The whole draft (host only)"""
    table = host_only(table_id)
    return {"log": states.load(get_session(), table, wait=work_wait()).log}


@bp.route("/<string:table_id>/store", methods=["POST"])
@bp.arguments(StoreSchema, unknown=RAISE)
@bp.response(201, CreatedGameSchema, description="Stored as the recorder stores a draft "
             "(complete or not); `owner_token` shown this once. The table takes no more entries.")
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(409, schema=ErrorSchema)
@bp.alt_response(422, schema=ErrorSchema)
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY)
@bp.doc(security=[{"tableToken": []}])
def store_game(body: dict[str, Any], table_id: str) -> Any:
    """Store the table's game (host only)"""
    table = host_only(table_id)
    session = get_session()
    if table.status != "live":
        raise ApiError(409, f"This table's game is stored already: {table.stored_slug}.")
    log = states.load(session, table, wait=work_wait()).log
    try:
        done = store.ingest(session, raw_of(log), visibility=body["visibility"])
    except store.InvalidLog as invalid:
        raise not_stored(invalid) from None
    if not done.created:
        raise ApiError(409, "This exact log is already stored.")
    service.mark_stored(session, table, done.record.slug)
    hub().publish({"table": table.id, "seq": table.last_seq, "seats": True})
    view = game_view(done.record)
    view["owner_token"] = done.owner_token
    return view, 201, VARY


@bp.route("/<string:table_id>/qr.svg", methods=["GET"])
@bp.response(200, description="The join link's QR code (SVG, drawn here): the join key in the "
             "`Authorization` header (never `?key=`: refused, 400 `token-in-url`).",
             content_type="image/svg+xml")
@bp.alt_response(400, schema=ErrorSchema)
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.doc(security=[{"tableToken": []}])
def join_qr(table_id: str) -> Any:
    """The join link's QR code"""
    table, viewer = opened(table_id)
    if viewer.role != "watch":
        raise ApiError(403, "The QR code is asked with the table's join key.")
    url = link(f"/t/{table.id}#key={token()}")
    return Response(qr.svg(url, title="Join the table"), mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=3600", "Vary": "Authorization"})
