"""``GET /api/v1/players/<name>``: a player's public games and statistics."""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint
from marshmallow import RAISE

from ..db import queries
from ..db.session import get_session
from .errors import ApiError
from .schemas import ErrorSchema, PlayerQuerySchema, PlayerSchema

bp = Blueprint("players", __name__, url_prefix="/api/v1/players",
               description="Players: games, wins, average and best totals.")


@bp.route("/<path:name>")
@bp.arguments(PlayerQuerySchema, location="query", unknown=RAISE)
@bp.response(200, PlayerSchema)
@bp.alt_response(404, schema=ErrorSchema, description="No public game has this player.")
def player(args: dict[str, Any], name: str) -> Any:
    """A player's statistics per game and mode

    Names are compared as the list's `player` filter compares them: case, accents and
    surrounding spaces do not matter (`chloe` finds Chloé), nor full-width letters and zero-width
    or other format characters (`Ｃｌéｏ` is `Cléo`); `exact=true` compares the exact name
    after NFKC. Only public games count; wins, average and best are over complete games (best is
    the lowest total where the lowest total wins).
    """
    session = get_session()
    exact = args["exact"]
    stats = queries.player_stats(session, name, exact=exact)
    if not stats:
        raise ApiError(404, f"No public game has a player named {queries.player_name(name)!r}.")
    pairs = queries.player_games(session, name, exact=exact)
    games = [
        {"id": record.id, "slug": record.slug, "game": record.game, "mode": record.mode,
         "title": record.title, "played_at": record.played_at, "created_at": record.created_at,
         "status": record.status, "score": seat.score, "won": seat.won}
        for record, seat in pairs
    ]
    written = pairs[0][1].name if pairs else queries.player_name(name)
    return {"name": written, "stats": stats, "games": games}
