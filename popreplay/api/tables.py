"""``/api/v1/tables``: one game recorded live by several phones (docs/table.md).

The views turn HTTP into calls to ``popreplay.tables`` (the engine checks every entry there) and
back; the stream is Server-Sent Events fed by the table's fan-out (memory or Redis).
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, request
from flask_smorest import Blueprint
from marshmallow import RAISE, Schema, fields, validate

from .. import budget
from ..i18n import localize
from ..groups.errors import Refused as GroupRefused
from ..tables import fanout, group_seats, qr, readings, service, state as states, usecases
from ..tables.outcomes import Appended, Busy, Deps, Refused, Stale
from .errors import ApiError, error_response
from .groups import opened as group_opened, refused as group_refused
from .lang import request_lang
from .represent import game_view
from .schemas import CreatedGameSchema, ErrorSchema, StrictBoolean

bp = Blueprint("tables", __name__, url_prefix="/api/v1/tables",
               description="Record one game together: a phone per seat, entries in one order "
               "checked by the engine, a live stream per table (docs/table.md).")

VARY = {"Vary": "Accept-Language"}
BUSY = {"Retry-After": {"schema": {"type": "integer"}}}
BUSY_WHY = ("The engine's work for this table took longer than POPREPLAY_REPLAY_WAIT (or the "
            "server is busy): `busy`, ask again after Retry-After (nothing was appended; the "
            "answer is being computed and kept).")


class TableGroupSchema(Schema):
    class Meta:
        unknown = RAISE

    slug = fields.String(required=True, validate=validate.Length(min=1, max=80), metadata={
        "description": "the group the game is recorded for (its capability in "
                       "`Authorization: Bearer`: the invite key, the admin token or an API token "
                       "with `write`)", "example": "club-du-jeudi"})
    members = fields.List(fields.Integer(allow_none=True), required=True, metadata={
        "description": "the member at each seat, in the draft's player order (`null`: a guest); "
                       "the stored game joins the group with each seat mapped to its member",
        "example": [1, 2, None]})


class CreateSchema(Schema):
    log = fields.Dict(required=True, metadata={
        "description": "the first draft, as the recorder's setup makes it (popreplay/1)",
        "example": {"format": "popreplay/1", "game": "pop", "mode": "battle",
                    "players": ["Ana", "Bruno", "Chloé"], "rounds": []}})
    record_hands = StrictBoolean(load_default=False, metadata={
        "description": "each seat records its own hand (kept from the others until the round "
                       "is over)"})
    group = fields.Nested(TableGroupSchema, metadata={
        "description": "optional: a table of a group (docs/groups.md); needs the group's "
                       "capability (`Authorization: Bearer`, write)"})


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
    keeper = fields.String(allow_none=True, metadata={
        "description": "the seat that enters what is nobody's own (POP!'s layout and Chief's "
                       "cards, slap's flips) besides the host; null: the host's phone"})
    shared_by = fields.String(metadata={
        "description": "who enters what is nobody's own at this table: `keeper` (one seat at "
                       "a time, the keeper) or `any` seat"})
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
@bp.alt_response(401, schema=ErrorSchema, description="`group`: an unknown or revoked token.")
@bp.alt_response(403, schema=ErrorSchema, description="`group`: a token of another group, or "
                 "without `write`.")
@bp.alt_response(404, schema=ErrorSchema, description="`group`: no such group (a private one "
                 "without its capability), or no such member (`/group/members/<i>`).")
@bp.alt_response(409, schema=ErrorSchema, description="`group`: one member at two seats.")
@bp.alt_response(422, schema=ErrorSchema)
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY)
@bp.doc(security=[{}, {"groupToken": []}])
def create(body: dict[str, Any]) -> Any:
    """Start a table from the recorder's setup

    With `group` (and the group's capability), the table records for a group: `members` says
    who sits at each seat, and the game, once stored, joins the group with its seats mapped.
    """
    group = None
    if body.get("group"):
        session, found, _ = group_opened(body["group"]["slug"], "write",
                                         doing="Recording for a group")
        group = seated(session, found, body["log"], body["group"]["members"])
    return created(body["log"], body["record_hands"], group)


def seated(session: Any, group: Any, log: dict[str, Any], chosen: list[int | None], *,
           path: str = "/group/members") -> dict[str, Any]:
    """The table's group and the member at each seat, checked (an ApiError otherwise)."""
    named = log.get("players")
    players: list[Any] = named if isinstance(named, list) else []
    try:
        return group_seats.kept(group, group_seats.seat_members(session, group, players, chosen,
                                                                   path=path))
    except GroupRefused as error:
        raise group_refused(error) from None


def created(log: dict[str, Any], hands: bool, group: dict[str, Any] | None) -> Any:
    """A new table (201): the API's answer, also the group recorder's (web/group_record.py)."""
    made = answered(usecases.create(deps(), log=log, hands=hands, group=group))
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
@bp.alt_response(403, schema=ErrorSchema, description="A seat names only itself (it takes "
                 "over); the host names any seat or none; a spectator names nobody.")
@bp.alt_response(422, schema=ErrorSchema)
@bp.doc(security=[{"tableToken": []}])
def name_keeper(body: dict[str, Any], table_id: str) -> Any:
    """Name the table's keeper (the host; a seat takes over for itself)"""
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


# --- the live stream: api/table_stream.py (the view), tables/follow.py (the use case) ----------

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
@bp.doc(security=[{"tableToken": []}])
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
