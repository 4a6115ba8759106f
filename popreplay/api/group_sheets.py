"""``/api/v1/groups/<slug>/sheets`` and ``.../games/<ref>/log``: quick score-sheet plays and the
full log attached to one later (routes of ``groups.bp``; docs/log-format.md "Score sheets")."""

from __future__ import annotations

import json
from typing import Any

from ..db.models import GameRecord
from ..groups import ratings
from ..groups import sheets as group_sheets
from ..store.records import InvalidLog
from .errors import ApiError
from .group_games import _game_in, _one_row, game_view
from .group_schemas import AttachLogSchema, JoinedSchema, SheetSchema
from .groups import SECURITY, attempt, bp, later, opened
from .lang import localize, request_lang
from .schemas import ErrorSchema
from .work import engine_check


@bp.route("/<string:slug>/sheets", methods=["POST"])
@bp.arguments(SheetSchema)
@bp.response(201, JoinedSchema, description="Stored as a game whose status is `sheet` (score "
             "sheet, not checked move by move) and added to the group.")
@bp.alt_response(200, schema=JoinedSchema, description="The same sheet was stored already.")
@bp.alt_response(422, schema=ErrorSchema, description="Not what this game's score sheet holds: "
                 "every problem with its JSON Pointer. Nothing is stored.")
@bp.doc(security=SECURITY)
def sheet(args: dict[str, Any], slug: str) -> Any:
    """Record a play from its score sheet (about 30 seconds at the table)"""
    session, group, _ = opened(slug, "write", doing="Recording a score sheet")
    document = group_sheets.sheet_document(
        game=args["game"], mode=args["mode"], players=args["players"], claimed=args["claimed"],
        played_at=args.get("played_at"), title=args.get("title"))
    try:
        joined = attempt(group_sheets.record_sheet, session, group, document,
                         checker=engine_check)
    except InvalidLog as invalid:
        errors = localize(invalid.result, request_lang())["errors"]
        raise ApiError(422, "The score sheet is not valid: nothing was stored.",
                       errors=errors) from None
    ratings.schedule(session, group, later=later())
    record = session.get_one(GameRecord, joined.link.game_id)
    return ({"game": game_view(_one_row(session, group, record)), "created": joined.created,
             "unmapped": joined.unmapped}, 201 if joined.created else 200)


@bp.route("/<string:slug>/games/<string:ref>/log", methods=["PUT"])
@bp.arguments(AttachLogSchema)
@bp.response(200, JoinedSchema, description="Checked move by move; `claims_match` in the game "
             "says whether the sheet and the replay agree.")
@bp.alt_response(409, schema=ErrorSchema, description="The game is no score sheet.")
@bp.alt_response(422, schema=ErrorSchema, description="Not a log of this sheet's game, mode and "
                 "players, or not a valid log. Nothing changed.")
@bp.doc(security=SECURITY)
def attach_log(args: dict[str, Any], slug: str, ref: str) -> Any:
    """Attach the full log to a score sheet (then checked, and the two compared)"""
    session, group, _ = opened(slug, "write", doing="Attaching a log")
    record = _game_in(session, group, ref)
    raw = json.dumps(args["log"], ensure_ascii=False).encode("utf-8")
    attempt(group_sheets.upgrade_sheet, session, record, raw=raw, checker=engine_check)
    ratings.schedule(session, group, later=later())
    return {"game": game_view(_one_row(session, group, record)), "created": False,
            "unmapped": []}
