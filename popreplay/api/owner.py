"""The owner token: ``Authorization: Bearer <token>`` proves a request may change a stored game
(delete it, continue its draft). The token is shown once, when the game is stored."""

from __future__ import annotations

from flask import request

from ..db.models import GameRecord
from ..store.tokens import owner_token_matches
from .errors import ApiError


def require_owner(record: GameRecord, doing: str) -> None:
    """401 without a bearer token (``doing`` says what needs it: "Deleting"), 403 with another
    game's token."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, f"{doing} needs 'Authorization: Bearer <owner token>'.",
                       headers={"WWW-Authenticate": 'Bearer realm="popreplay"'})
    if not owner_token_matches(record, token=token):
        raise ApiError(403, "This token does not own this game.")


def is_owner(record: GameRecord) -> bool:
    """Whether the request carries ``record``'s owner token (nothing is refused here)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and owner_token_matches(record, token=token.strip())
