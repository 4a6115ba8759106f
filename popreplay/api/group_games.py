"""``/api/v1/groups/<slug>/games``, names, leaderboards, ratings and a member's statistics: the
routes of ``groups.bp`` about a group's games (docs/groups.md)."""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime
from typing import Any

from flask.views import MethodView
from sqlalchemy.orm import Session

from ..db.groups import Group, GroupGame
from ..db.models import GameRecord
from ..groups import games as group_games
from ..groups import members as group_members
from ..groups import ratings, stats
from ..store.ingestion import ingest
from ..store.lookups import find_by_slug
from ..store.records import InvalidLog
from ..store.tokens import owner_token_matches
from .errors import ApiError
from .group_schemas import (AddGameSchema, GroupGamePageSchema, GroupGamesQuerySchema,
                            HistoryQuerySchema, HistorySchema, JoinedSchema, LeaderboardsSchema,
                            MemberStatsSchema, NamesSchema)
from .groups import (READ_SECURITY, SECURITY, attempt, bp, fresh, later, member_view, opened,
                     ratings_state)
from .lang import localize, request_lang
from .represent import base_url
from .schemas import ErrorSchema
from .work import engine_check

CHECKED = ("complete", "incomplete", "illegal")  # statuses of a game checked move by move


def game_view(row: dict[str, Any]) -> dict[str, Any]:
    record: GameRecord = row["record"]
    return {"slug": record.slug, "game": record.game, "mode": record.mode,
            "title": record.title, "played_at": record.played_at, "order_at": row["order_at"],
            "status": record.status, "checked": record.status in CHECKED,
            "legal": record.legal, "claims_match": record.claims_match, "seats": row["seats"],
            "share_url": f"{base_url()}/r/{record.slug}"}


def _one_row(session: Session, group: Group, record: GameRecord) -> dict[str, Any]:
    link = session.get(GroupGame, record.id)
    return {"record": record, "order_at": link.order_at if link else record.created_at,
            "seats": [{"name": s.name, "member": s.member_id, "member_name": None,
                       "score": None, "won": None}
                      for s in group_games.seats_of(session, record)]}


def _cursor(row: dict[str, Any]) -> str:
    raw = json.dumps([row["order_at"].isoformat(), row["record"].id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _after(cursor: str | None) -> tuple[datetime, int] | None:
    if cursor is None:
        return None
    try:
        when, last = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        return datetime.fromisoformat(when), int(last)
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
        raise ApiError(422, "The cursor is not one this server gave out.", errors=[
            {"code": "bad-query", "message": "not a cursor of this list",
             "path": "/cursor"}]) from None


def _in_group(session: Session, group: Group, record: GameRecord) -> bool:
    link = session.get(GroupGame, record.id)
    return link is not None and link.group_id == group.id


def _game_in(session: Session, group: Group, ref: str) -> GameRecord:
    record = find_by_slug(session, ref)
    if record is None or not _in_group(session, group, record):
        raise ApiError(404, f"This group has no game {ref!r}.")
    return record


@bp.route("/<string:slug>/games")
class GroupGames(MethodView):
    @bp.arguments(GroupGamesQuerySchema, location="query")
    @bp.response(200, GroupGamePageSchema)
    @bp.alt_response(404, schema=ErrorSchema)
    @bp.alt_response(422, schema=ErrorSchema, description="A cursor not given out here.")
    @bp.doc(security=READ_SECURITY)
    def get(self, args: dict[str, Any], slug: str) -> Any:
        """A group's games, who sat where (a page; pass `next_cursor` back as `cursor`)

        `order=played` lists them oldest first, in the order the ratings count them: what a
        data user pulls a group's whole history with.
        """
        session, group, _ = opened(slug, "read", doing="Reading the games")
        rows = stats.game_rows(session, group, after=_after(args.get("cursor")),
                               limit=args["limit"] + 1, newest_first=args["order"] == "newest")
        more = len(rows) > args["limit"]
        rows = rows[:args["limit"]]
        return {"items": [game_view(r) for r in rows],
                "next_cursor": _cursor(rows[-1]) if more else None}

    @bp.arguments(AddGameSchema)
    @bp.response(201, JoinedSchema, description="The game joined the group.")
    @bp.alt_response(200, schema=JoinedSchema, description="It was in the group already.")
    @bp.alt_response(403, schema=ErrorSchema, description="Not the game's owner token, or no "
                     "write scope.")
    @bp.alt_response(409, schema=ErrorSchema, description="The game is in another group.")
    @bp.alt_response(422, schema=ErrorSchema, description="Neither `game` nor `log`, or a log "
                     "that is not valid (nothing stored).")
    @bp.doc(security=SECURITY)
    def post(self, args: dict[str, Any], slug: str) -> Any:
        """Add a game: a stored one (with its owner token) or a new log

        Each name of the game is mapped to the member it is an alias of; the others are
        returned in `unmapped`, to ask (`PUT .../names`). Never guessed.
        """
        session, group, _ = opened(slug, "write", doing="Adding a game")
        record = self._record(session, group, args)
        joined = attempt(group_games.add_game, session, group, record)
        ratings.schedule(session, group, later=later())
        body = {"game": game_view(_one_row(session, group, record)), "created": joined.created,
                "unmapped": joined.unmapped}
        return body, 201 if joined.created else 200

    @staticmethod
    def _record(session: Session, group: Group, args: dict[str, Any]) -> GameRecord:
        if ("game" in args) == ("log" in args):
            raise ApiError(422, "Give either `game` (a stored game's slug, with its "
                           "`owner_token`) or `log`.", errors=[
                               {"code": "bad-request", "message": "one of game, log",
                                "path": ""}])
        if "log" in args:
            attempt(group_games.require_room, session, group)
            raw = json.dumps(args["log"], ensure_ascii=False).encode("utf-8")
            try:
                done = ingest(session, raw, checker=engine_check,
                              visibility="unlisted" if group.private else "public")
            except InvalidLog as invalid:
                errors = localize(invalid.result, request_lang())["errors"]
                for error in errors:
                    error["path"] = "/log" + (error.get("path") or "")
                raise ApiError(422, "The log is not valid: nothing was stored.",
                               errors=errors) from None
            return done.record
        record = find_by_slug(session, args["game"])
        if record is None:
            raise ApiError(404, f"No game {args['game']!r}.")
        if not _in_group(session, group, record) and not owner_token_matches(
                record, token=args.get("owner_token")):
            raise ApiError(403, "Adding a stored game needs its owner token (`owner_token`).",
                           errors=[{"code": "not-owner", "message": "not this game's owner "
                                    "token", "path": "/owner_token"}])
        return record


@bp.route("/<string:slug>/games/<string:ref>", methods=["DELETE"])
@bp.response(204)
@bp.alt_response(403, schema=ErrorSchema, description="Not the admin token.")
@bp.alt_response(404, schema=ErrorSchema)
@bp.doc(security=SECURITY)
def remove(slug: str, ref: str) -> Any:
    """Take a game out of a group (admin token); the game stays stored"""
    session, group, _ = opened(slug, "admin", doing="Taking a game out")
    attempt(group_games.remove_game, session, group, _game_in(session, group, ref))
    ratings.schedule(session, group, later=later())
    return ""


@bp.route("/<string:slug>/games/<string:ref>/names", methods=["PUT"])
@bp.arguments(NamesSchema)
@bp.response(200, JoinedSchema)
@bp.alt_response(404, schema=ErrorSchema, description="No such game in the group, or an "
                 "unknown member.")
@bp.alt_response(409, schema=ErrorSchema, description="A member at two seats, or a name that "
                 "is already another member's. Nothing changed.")
@bp.alt_response(422, schema=ErrorSchema, description="A name no seat of the game has.")
@bp.doc(security=SECURITY)
def names(args: dict[str, Any], slug: str, ref: str) -> Any:
    """Say which member sat at each named seat of a game (all or nothing)"""
    session, group, _ = opened(slug, "write", doing="Mapping names")
    record = _game_in(session, group, ref)
    attempt(group_games.map_names, session, group, record, args["names"],
            remember=args["remember"])
    ratings.schedule(session, group, later=later())
    row = _one_row(session, group, record)
    return {"game": game_view(row), "created": False,
            "unmapped": [s["name"] for s in row["seats"] if s["member"] is None]}


def standing_view(standing: stats.Standing, *, name: str | None = None) -> dict[str, Any]:
    return {"member": standing.member_id, "name": name or standing.name, "mu": standing.mu,
            "sigma": standing.sigma, "ordinal": standing.ordinal, "games": standing.games,
            "wins": standing.wins}


@bp.route("/<string:slug>/leaderboards")
@bp.response(200, LeaderboardsSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.doc(security=READ_SECURITY)
def leaderboards(slug: str) -> Any:
    """The group's leaderboards: one per game (or game and mode), best first

    OpenSkill (Plackett–Luce) ratings over the group's games in played order; cooperative and
    solo games count as results, not ratings. `ratings.up_to_date` is false while a recompute
    runs on a worker (`done` of `total` games).
    """
    session, group, _ = opened(slug, "read", doing="Reading the leaderboards")
    fresh(session, group)
    return {"ratings": ratings_state(group),
            "boards": [{"board": board, "standings": [standing_view(s) for s in
                                                      stats.leaderboard(session, group, board)]}
                       for board in stats.boards(session, group)]}


@bp.route("/<string:slug>/members/<int:member_id>/stats")
@bp.response(200, MemberStatsSchema)
@bp.alt_response(404, schema=ErrorSchema, description="No such member in this group.")
@bp.doc(security=READ_SECURITY)
def member_stats(slug: str, member_id: int) -> Any:
    """A member's statistics: per game and mode, ratings, head-to-head, streaks"""
    session, group, _ = opened(slug, "read", doing="Reading a member's statistics")
    member = attempt(group_members.member_of, session, group, member_id)
    fresh(session, group)
    return stats.kept(group, ("stats", member.id), lambda: _member_stats(session, group, member))


def _member_stats(session: Session, group: Group, member: Any) -> dict[str, Any]:
    boards = [standing_view(s, name=board) for board in stats.boards(session, group)
              for s in stats.leaderboard(session, group, board) if s.member_id == member.id]
    return {"member": member_view(session, member),
            "stats": stats.member_stats(session, group, member), "ratings": boards,
            "head_to_head": stats.head_to_head(session, group, member),
            "streaks": stats.streaks(session, group, member)}


@bp.route("/<string:slug>/members/<int:member_id>/ratings")
@bp.arguments(HistoryQuerySchema, location="query")
@bp.response(200, HistorySchema)
@bp.alt_response(404, schema=ErrorSchema, description="No such member in this group.")
@bp.doc(security=READ_SECURITY)
def rating_history(args: dict[str, Any], slug: str, member_id: int) -> Any:
    """A member's rating on a board after each rated game, in played order"""
    session, group, _ = opened(slug, "read", doing="Reading a member's ratings")
    member = attempt(group_members.member_of, session, group, member_id)
    fresh(session, group)
    return {"member": member.id, "board": args["board"],
            "history": stats.history(session, group, member, args["board"])}
