"""``/api/v1/games``: store, list, read, replay, export and delete games."""

from __future__ import annotations

import gzip
import zlib
from typing import Any, Iterator

from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import RAISE
from werkzeug.routing import BaseConverter

from ..checking import check_text
from ..db import queries
from ..db.session import get_session
from ..engine import ENGINE_VERSION
from ..jsonout import compact
from ..replayformat import FORMATS, LATEST, in_format
from ..store import export as exporting
from ..store.edits import delete_game
from ..store.ingestion import ingest
from ..store.lookups import find_by_ref
from ..store.records import InvalidLog
from ..store.replays import replay_etag, replay_gzip
from .body import read_body
from .errors import ApiError
from .lang import localize, request_lang
from .owner import require_owner
from .represent import base_url, game_view, with_tables
from .schemas import (
    CreatedGameSchema,
    ErrorSchema,
    ExportQuerySchema,
    FilterQuerySchema,
    GamePageSchema,
    GameSchema,
    ListQuerySchema,
    ReplaySchema,
    UploadQuerySchema,
)
from .work import engine_check, within_budget

bp = Blueprint("games", __name__, url_prefix="/api/v1/games",
               description="Stored games: upload, list, read, replay, export, delete.")

RAW_LOG_BODY = {
    "required": True,
    "description": "The log (format popreplay/1), stored byte for byte as sent.",
    "content": {"application/json": {"schema": {"type": "object"}}},
}


class RefConverter(BaseConverter):
    """A game's ``{ref}`` (slug or number): any path segment but the exports' names, so that
    ``/games/export`` answers only what its own route allows (``Allow: GET, HEAD, OPTIONS``, as
    the document says), not a game's ``DELETE`` too."""

    regex = r"(?!export(?:\.csv)?$)[^/]+"


def no_content() -> Response:
    """A 204: no body, so no ``Content-Type`` either."""
    response = Response(status=204)
    response.headers.pop("Content-Type", None)
    return response


def _filters(args: dict[str, Any]) -> queries.Filters:
    names = queries.Filters.__dataclass_fields__
    return queries.Filters(**{k: v for k, v in args.items() if k in names})


def _find(ref: str) -> Any:
    record = find_by_ref(get_session(), ref)
    if record is None:
        raise ApiError(404, f"No game {ref!r}.")
    return record


@bp.after_request
def _etag(response: Response) -> Response:
    """A game and a page of the list carry an entity tag of their body (``If-None-Match`` → 304,
    ``Cache-Control: no-cache``: revalidated on every use, so a delete is seen at once)."""
    if (request.method == "GET" and response.status_code == 200
            and request.endpoint in ("games.Game", "games.Games")):
        response.add_etag()  # of the body: one per language
        response.headers["Cache-Control"] = "no-cache"
        response.vary.add("Accept-Language")
        response.make_conditional(request)
    return response


def _replay_format() -> int:
    """``?format=`` of a replay: 2 (the default: each step after the first carries what changed,
    ``state_patch``) or 1 (every step its whole ``state``, as before format 2)."""
    asked = request.args.get("format")
    if asked is None:
        return LATEST
    if asked.isascii() and asked.isdigit() and int(asked) in FORMATS:
        return int(asked)
    message = f"format must be one of {', '.join(map(str, FORMATS))}"
    raise ApiError(422, message, errors=[{"code": "bad-query", "message": message,
                                          "path": "/format"}])


def localized_replay(log: bytes, lang: str, replay_format: int = LATEST) -> bytes:
    """A replay in ``lang``, gzip-compressed as the stored ones are: replayed by the engine
    (pure Python: the worker's own thread gets its turns), localized, then encoded and
    compressed a step at a time. One ``json.loads`` of the 20 MB English replay or one
    ``json.dumps`` of the French one holds Python's lock for its whole length: a French slap
    replay at its limit held ``/healthz`` 2.7 s that way (issue 25). In ``replay_format``
    (``popreplay.replayformat``); English in the latest format is the stored replay instead."""
    result = in_format(localize(check_text(log, with_steps=True), lang), replay_format)
    steps = result.pop("steps", None) or []
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)  # gzip, no time in the header
    head = compact(result)
    chunks = [head[:-1].encode("utf-8"), b',"steps":[' if len(result) else b'"steps":[']
    for k, step in enumerate(steps):
        chunks.append((b"," if k else b"") + compact(step).encode("utf-8"))
    chunks.append(b"]}")
    return b"".join(packer.compress(chunk) for chunk in chunks) + packer.flush()


def dumps_line(value: Any) -> str:
    return compact(value) + "\n"


@bp.route("")
class Games(MethodView):
    @bp.arguments(UploadQuerySchema, location="query", unknown=RAISE)
    @bp.doc(requestBody=RAW_LOG_BODY)
    @bp.response(201, CreatedGameSchema, description="Stored (legal or illegal); the owner token "
                 "is shown this once.")
    @bp.alt_response(200, schema=GameSchema, description="The same log was already stored: "
                     "that game, without an owner token.")
    @bp.alt_response(422, schema=ErrorSchema, description="Not JSON or not of the right shape: "
                     "every problem with its JSON Pointer. Nothing is stored.")
    @bp.alt_response(413, schema=ErrorSchema, description="Body larger than POPREPLAY_MAX_BODY.")
    @bp.alt_response(415, schema=ErrorSchema, description="The body is not declared "
                     "application/json.")
    @bp.alt_response(403, schema=ErrorSchema, description="A browser's cross-site write.")
    def post(self, args: dict[str, Any]) -> Any:
        """Store a log"""
        raw = read_body()
        try:
            done = ingest(get_session(), raw, visibility=args["visibility"],
                                checker=engine_check)
        except InvalidLog as invalid:
            raise ApiError(422, "The log is not valid: nothing was stored.",
                           errors=localize(invalid.result, request_lang())["errors"]) from None
        if not done.created:
            return game_view(done.record), 200
        # a game stored just now has no table behind it: no sign-off to look for
        body = game_view(done.record, fresh=done.result, table=False)
        body.update(signoff=None, corrections=[])
        body["owner_token"] = done.owner_token
        return body, 201, {"Location": body["links"]["self"]}

    @bp.arguments(ListQuerySchema, location="query", unknown=RAISE)
    @bp.response(200, GamePageSchema)
    @bp.alt_response(422, schema=ErrorSchema, description="A filter, sort or cursor is not valid.")
    def get(self, args: dict[str, Any]) -> Any:
        """List public games

        Filters combine with AND. Pagination is by cursor: pass `next_cursor` back as `cursor`
        with the same sort (and the same filters) until it is null.
        """
        try:
            rows, cursor, more = queries.page_more(
                get_session(), _filters(args), sort=args["sort"], cursor=args.get("cursor"),
                limit=args["limit"])
        except queries.BadCursor as error:
            raise ApiError(422, str(error), errors=[
                {"code": "bad-query", "message": str(error), "path": "/cursor"}]) from None
        items = with_tables([game_view(r, recheck=False, table=False) for r in rows])
        return {"items": items, "next_cursor": cursor,
                "has_more": more}


def _stream(lines: Iterator[str], mimetype: str, **headers: str) -> Response:
    # The first batch is read now, before the 200 is sent: a database that does not answer is
    # a 503 in the error shape, not a stream cut after its status line.
    first = next(lines, None)

    def body() -> Iterator[str]:
        if first is not None:
            yield first
            yield from lines

    # content_type, not mimetype: Flask adds "; charset=utf-8" to a text/* mimetype again
    return Response(stream_with_context(body()), content_type=mimetype, headers=headers)


@bp.route("/export")
@bp.arguments(ExportQuerySchema, location="query", unknown=RAISE)
@bp.response(200, description="NDJSON: one game per line in the order this server stored them "
             "(by number); with `with_deleted=true`, the tombstones of the games deleted in the "
             "time window first. `popreplay import` reads it back (and deletes on a tombstone).",
             content_type="application/x-ndjson")
@bp.alt_response(422, schema=ErrorSchema, description="A filter is not valid.")
def export(args: dict[str, Any]) -> Response:
    """Export public games (NDJSON stream)"""
    entries = exporting.ndjson_entries(get_session(), _filters(args),
                                       with_deleted=args["with_deleted"])
    return _stream((dumps_line(entry) for entry in entries), "application/x-ndjson")


@bp.route("/export.csv")
@bp.arguments(FilterQuerySchema, location="query", unknown=RAISE)
@bp.response(200, description="CSV (RFC 4180, UTF-8, a header row): one row per player per "
             "game, games in the order this server stored them: " + ", ".join(
                 f"`{c}`" for c in exporting.CSV_COLUMNS) + ". A cell that a spreadsheet would "
             "take for a formula (starting with `=`, `+`, `-`, `@`) starts with `'`.",
             content_type="text/csv")
@bp.alt_response(422, schema=ErrorSchema, description="A filter is not valid.")
def export_csv(args: dict[str, Any]) -> Response:
    """Export public games' results as a table (CSV stream)"""
    lines = exporting.csv_lines(get_session(), _filters(args), share_base=base_url())
    return _stream(lines, "text/csv; charset=utf-8; header=present",
                   **{"Content-Disposition": 'attachment; filename="games.csv"'})


@bp.route("/<ref:ref>")
class Game(MethodView):
    @bp.response(200, GameSchema)
    @bp.alt_response(404, schema=ErrorSchema)
    def get(self, ref: str) -> Any:
        """A game's metadata and result

        `ref` is the game's slug (any visibility) or its number (public games only).
        """
        return game_view(_find(ref))

    @bp.response(204)
    @bp.alt_response(401, schema=ErrorSchema, description="No bearer token.")
    @bp.alt_response(403, schema=ErrorSchema, description="Not this game's owner token.")
    @bp.alt_response(404, schema=ErrorSchema)
    @bp.doc(security=[{"ownerToken": []}])
    def delete(self, ref: str) -> Any:
        """Delete a game (owner token required)"""
        record = _find(ref)
        require_owner(record, "Deleting")
        delete_game(get_session(), record)
        return no_content()


@bp.route("/<ref:ref>/log")
@bp.response(200, description="The log exactly as uploaded.", content_type="application/json")
@bp.alt_response(404, schema=ErrorSchema)
def log(ref: str) -> Response:
    """A game's log, byte for byte"""
    record = _find(ref)
    response = Response(record.log, mimetype="application/json")
    response.set_etag(record.content_hash)
    response.headers["Content-Disposition"] = f'inline; filename="{record.slug}.json"'
    response.make_conditional(request)
    return response


@bp.route("/<ref:ref>/replay")
@bp.doc(parameters=[{"name": "format", "in": "query", "required": False,
                     "schema": {"type": "integer", "enum": [1, 2], "default": 2},
                     "description": "The replay format: 2, each step after the first carries "
                                    "`state_patch` (JSON Patch against the step before); 1, every "
                                    "step its whole `state` (docs/log-format.md)."}])
@bp.response(200, ReplaySchema, description="The result with its annotated steps, computed by "
             "the running engine. Carries an ETag: a replay never changes for one engine version "
             "and format.")
@bp.alt_response(304, description="Not modified (If-None-Match).")
@bp.alt_response(404, schema=ErrorSchema)
@bp.alt_response(503, schema=ErrorSchema, description="The first replay of this game takes longer "
                 "than POPREPLAY_REPLAY_WAIT: it goes on being computed; ask again after "
                 "Retry-After seconds. (Also: the database does not answer.)",
                 headers={"Retry-After": {"schema": {"type": "integer"}}})
def replay(ref: str) -> Response:
    """A game's annotated replay"""
    record = _find(ref)
    lang = request_lang()
    replay_format = _replay_format()
    # Replays are stored gzip-compressed: sent as they are to a client that accepts gzip (with
    # its own entity tag, as a different representation), decompressed for any other. In English
    # they are the stored bytes; in another language the notes and messages are rendered once per
    # log and engine (beside the request, within its budget), gzip-compressed and kept (issue 25,
    # finding 7). The entity tag says which language, and is answered before any work.
    gzipped = request.accept_encodings.quality("gzip") > 0
    etag = replay_etag(record, replay_format) + (".gz" if gzipped else "") + (
        "" if lang == "en" else f".{lang}")
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        session, wait = get_session(), current_app.config["REPLAY_WAIT"]
        if lang == "en" and replay_format == LATEST:
            body = replay_gzip(session, record, wait=wait)
        else:
            body = within_budget(("replay", record.content_hash, ENGINE_VERSION, lang,
                                  replay_format), localized_replay, record.log, lang,
                                 replay_format)
        if not gzipped:
            body = gzip.decompress(body)
        response = Response(body, mimetype="application/json")
        if gzipped:
            response.headers["Content-Encoding"] = "gzip"
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept-Encoding")
    response.vary.add("Accept-Language")
    return response

