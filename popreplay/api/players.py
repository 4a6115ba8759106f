"""``GET /api/v1/players/<name>``: a player's public games and statistics."""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint

from ..db import queries
from ..db.session import get_session
from .errors import ApiError
from .schemas import ErrorSchema, PlayerSchema

bp = Blueprint("players", __name__, url_prefix="/api/v1/players",
               description="Players: games, wins, average and best totals.")


@bp.route("/<path:name>")
@bp.response(200, PlayerSchema)
@bp.alt_response(404, schema=ErrorSchema, description="No public game has this player.")
def player(name: str) -> Any:
    """A player's statistics per game and mode

    Names are compared after Unicode NFKC, without zero-width and other format characters
    (`Ｃｌéｏ` is `Cléo`). Only public games count; wins, average and best are
    over complete games (best is the lowest total where the lowest total wins).
    """
    name = queries.player_name(name)
    session = get_session()
    stats = queries.player_stats(session, name)
    if not stats:
        raise ApiError(404, f"No public game has a player named {name!r}.")
    games = [
        {"id": record.id, "slug": record.slug, "game": record.game, "mode": record.mode,
         "title": record.title, "played_at": record.played_at, "created_at": record.created_at,
         "status": record.status, "score": seat.score, "won": seat.won}
        for record, seat in queries.player_games(session, name)
    ]
    return {"name": name, "stats": stats, "games": games}
