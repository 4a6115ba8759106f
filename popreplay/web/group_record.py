"""The recorder of a group (docs/groups.md, docs/recorder.md): ``/g/<slug>/record`` is the
recorder's page with the group's members offered as players; it lives under the group's pages so
that the phone's group key (the invite link's cookie, ``Path=/g/<slug>``, ``HttpOnly``) comes
with it — the page's script never sees the key. The script then asks, with the same cookie:

- ``POST /g/<slug>/record/games`` ``{game, owner_token, members}``: the game it stored (as
  ``/api/v1/record/games`` stores any draft) joins the group, each seat mapped to its member
  (``members``: a member id per seat, ``null`` for a guest);
- ``POST /g/<slug>/record/table`` ``{log, record_hands, members}``: "Record together" — a table
  of the group, as ``POST /api/v1/tables`` with ``group`` makes it (its answer is the same).

JSON only (a cross-site form cannot send it; the cookie is ``SameSite=Lax``); the API's one
error shape, with JSON Pointers into the body."""

from __future__ import annotations

import re
from typing import Any

from flask import jsonify, request
from werkzeug.wrappers import Response as BaseResponse

from ..api.errors import ApiError, error_response
from ..api.tables import created, seated
from ..engine import GAMES
from ..groups import games, members
from ..groups.errors import Refused
from ..store.lookups import find_by_slug
from ..store.tokens import owner_token_matches
from ..tables import group_seats
from .group_pages import _open, schedule_ratings
from .views import bp, game_title, mode_word, record_page


@bp.get("/g/<string:slug>/record")
def group_record(slug: str) -> str:
    session, group, _allowed = _open(slug, "write")
    people = [{"id": m.id, "name": m.name} for m in members.members(session, group)]
    return record_page({"slug": group.slug, "name": group.name, "private": group.private,
                        "members": people})


def _body(keys: dict[str, type | tuple[type, ...]]) -> dict[str, Any]:
    body = request.get_json(silent=True) if request.is_json else None
    if not isinstance(body, dict):
        raise ApiError(415 if not request.is_json else 422, "A JSON object is expected.",
                       errors=[{"code": "bad-request", "message": "not a JSON object", "path": ""}])
    for key, kind in keys.items():
        if not isinstance(body.get(key), kind) or isinstance(body.get(key), bool) and kind is not bool:
            raise ApiError(422, f"`{key}` is missing or not what it should be.", errors=[
                {"code": "bad-request", "message": f"expected {key}", "path": f"/{key}"}])
    chosen = body.get("members")
    if not all(m is None or isinstance(m, int) and not isinstance(m, bool) for m in chosen or []):
        raise ApiError(422, "`members` holds a member id (or null for a guest) per seat.",
                       errors=[{"code": "bad-request", "message": "member ids", "path": "/members"}])
    return body


def _answer(call: Any) -> BaseResponse:
    try:
        return call()
    except ApiError as error:
        return error_response(int(error.code or 422), str(error.description), error.errors)
    except Refused as error:
        return error_response(error.status, error.message, [error.as_error()])


@bp.post("/g/<string:slug>/record/games")
def group_record_game(slug: str) -> BaseResponse:
    session, group, _allowed = _open(slug, "write")

    def join() -> BaseResponse:
        body = _body({"game": str, "owner_token": str, "members": list})
        record = find_by_slug(session, body["game"])
        if record is None:
            raise ApiError(404, f"No game {body['game']!r}.", errors=[
                {"code": "no-game", "message": "no such game", "path": "/game"}])
        if not owner_token_matches(record, token=body["owner_token"]):
            raise ApiError(403, "Adding a game needs its owner token.", errors=[
                {"code": "not-owner", "message": "not this game's owner token",
                 "path": "/owner_token"}])
        players = [seat.name for seat in record.seats]
        ids = group_seats.seat_members(session, group, players, body["members"], path="/members")
        joined = games.add_game(session, group, record)
        mapping = {name: member for name, member in zip(players, ids) if member is not None}
        if mapping:
            games.map_names(session, group, record, mapping, remember=False)
        schedule_ratings(session, group)
        response = jsonify({"group": group.slug, "game": record.slug,
                            "unmapped": [n for n in joined.unmapped if n not in mapping]})
        response.status_code = 201 if joined.created else 200
        return response

    return _answer(join)


@bp.post("/g/<string:slug>/record/table")
def group_record_table(slug: str) -> BaseResponse:
    session, group, _allowed = _open(slug, "write")

    def make() -> BaseResponse:
        body = _body({"log": dict, "members": list})
        hands = body.get("record_hands", False)
        if not isinstance(hands, bool):
            raise ApiError(422, "`record_hands` is true or false.", errors=[
                {"code": "bad-request", "message": "a boolean", "path": "/record_hands"}])
        answer, status, headers = created(body["log"], hands,
                                          seated(session, group, body["log"], body["members"],
                                                 path="/members"))
        response = jsonify(answer)
        response.status_code = status
        response.headers.update(headers)
        return response

    return _answer(make)


@bp.app_template_global("board_title")
def board_title(board: str, mode: str | None = None) -> str:
    """A leaderboard (``pop/battle``), or a game and mode, as players say it, in the page's
    language: "POP! battle", "Bloops" (a game of one mode: its name alone)."""
    name, _, of_board = board.partition("/")
    mode = mode or of_board or None
    game = GAMES.get(name)
    if game is None:
        return board
    title = re.sub(r" \(.*\)$", "", game_title(game))
    return f"{title} {mode_word(mode)}" if mode and len(game.modes) > 1 else title
