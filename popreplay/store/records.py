"""What a stored game reads from its log and its result: the log parsed and checked like an
upload (:func:`parse_log`), the fields of the game's row that follow the log (:func:`log_fields`)
and the result copied onto the row and its seats (:func:`apply_result`)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Callable, Mapping, TypedDict

from ..checking import check_json
from ..db.models import GamePlayer, GameRecord
from ..db.queries import folded_name, player_name
from ..db.types import db_text
from ..engine import GAMES, Violation, invalid_result
from ..i18n import language_free
from ..logformat import ShapeError, parse_json
from ..logformat.limits import MAX_DEPTH, depth_exceeds
from ..logformat.types import Envelope, Meta, Result
from .tokens import canonical_hash

__all__ = ["Checker", "InvalidLog", "LogFields", "apply_result", "log_fields", "nfc",
           "parse_datetime", "parse_log", "played_at_text", "verify_log"]

Checker = Callable[[Any], Result]

nfc = player_name  # a player's name as stored and searched: NFC, storable


class InvalidLog(Exception):
    """The log is not JSON or not of the right shape; ``result`` is its ``invalid`` result."""

    def __init__(self, result: Mapping[str, Any]) -> None:
        super().__init__("; ".join(f"{e['path'] or '/'}: {e['message']}" for e in result["errors"]))
        self.result = result


def parse_log(raw: bytes) -> tuple[Any, str]:
    """The parsed log and its :func:`canonical_hash`; :class:`InvalidLog` when it is not JSON."""
    try:
        data = parse_json(raw)
    except ShapeError as error:
        raise InvalidLog(invalid_result(error.errors, game=error.game, mode=error.mode)) from None
    if depth_exceeds(data, MAX_DEPTH):  # no log of any game nests that deep (nor can it be hashed)
        raise InvalidLog(invalid_result([Violation(
            "schema", f"nested deeper than {MAX_DEPTH} levels", "")]))
    return data, canonical_hash(data)


def verify_log(data: Any, *, checker: Checker = check_json) -> Result:
    """The parsed log's result, or :class:`InvalidLog` raised when it is ``invalid`` (nothing is
    stored). ``verify_*`` raises; :func:`popreplay.checking.check_log` returns every result."""
    result = checker(data)
    if result["status"] == "invalid":
        raise InvalidLog(result)
    return result


class LogFields(TypedDict):
    """The columns of a game's row that follow its log (:func:`log_fields`)."""

    players: list[str]
    title: str | None
    played_at: datetime | None
    played_at_text: str | None


def log_fields(log: Envelope) -> LogFields:
    """The columns of a game's row read from its log: players, title and date of play."""
    meta: Meta | None = log.get("meta")
    if not isinstance(meta, dict):
        meta = {}
    title = meta.get("title")
    return {"players": list(log["players"]),
            "title": db_text(title) if isinstance(title, str) else None,
            "played_at": parse_datetime(meta.get("played_at")),
            "played_at_text": played_at_text(meta)}


def apply_result(record: GameRecord, *, result: Result) -> None:
    """Copy a result object onto a record, seats included (ingest and revalidate); its messages
    keep their ids (:func:`popreplay.i18n.language_free`)."""
    record.game = result["game"] or record.game  # an invalid result may not know them
    record.mode = result["mode"] or record.mode
    record.status = result["status"]
    record.legal = result["legal"]
    claims = result["claims"]
    stored = language_free(result)  # JSON that keeps the message ids: any language later
    record.errors = stored["errors"]
    record.outcome = stored["outcome"]
    record.claims = None if claims is None else dict(claims)
    record.claims_match = None if claims is None else claims["match"]
    record.engine_version = result["engine"]
    standings = _standings(result, record.players)
    seats = {seat.position: seat for seat in record.seats}
    for extra in [seat for seat in record.seats if seat.position >= len(record.players)]:
        record.seats.remove(extra)  # a draft continued with fewer players (update_log)
    for position, name in enumerate(record.players):
        row = standings.get(name, {})
        seat = seats.get(position)
        if seat is None:
            seat = GamePlayer(position=position)
            record.seats.append(seat)
        seat.name = nfc(name)
        seat.name_folded = folded_name(name)
        seat.score = _int_or_none(row.get("score"))
        seat.won = row.get("won")


def _standings(result: Result, players: list[str]) -> dict[str, Any]:
    game = GAMES.get(result["game"] or "")
    if game is None or not result["legal"] or result["outcome"] is None:
        return {}
    return game.standings(result["outcome"], players)


def _int_or_none(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value)


def played_at_text(meta: Mapping[str, Any]) -> str | None:
    """``meta.played_at`` as written, when it is a date-time this service reads (kept for pages
    that show the local time of play without loading the log)."""
    value = meta.get("played_at")
    if not isinstance(value, str) or len(value.strip()) > 40 or parse_datetime(value) is None:
        return None
    return value.strip()


def parse_datetime(value: Any) -> datetime | None:
    """An ISO 8601 date or date-time; without an offset it is taken as UTC. Else None."""
    if isinstance(value, datetime):
        return value
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value.strip())
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=timezone.utc)
        return parsed.astimezone(timezone.utc)
    except (ValueError, OverflowError):
        return None
