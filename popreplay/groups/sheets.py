"""Quick score-sheet plays (docs/log-format.md, "Score sheets"): a game entered as its score
sheet joins a group in one call; later the full log can be attached (then the game is checked
move by move, and the sheet's numbers are compared with the replay's as its claims)."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any, Sequence

from sqlalchemy.orm import Session

from ..db.groups import Group
from ..db.models import GameRecord
from ..logformat.sheet import FORMAT
from ..logformat.types import Result
from ..store.edits import LogTaken, update_log
from ..store.ingestion import ingest
from ..store.records import Checker, InvalidLog, parse_log
from .errors import Refused
from .games import Joined, add_game, require_room

__all__ = ["record_sheet", "sheet_document", "upgrade_sheet"]


def sheet_document(*, game: str, mode: str, players: Sequence[str], claimed: dict[str, Any],
                   played_at: datetime | None = None, title: str | None = None
                   ) -> dict[str, Any]:
    when = (played_at or datetime.now(timezone.utc)).astimezone(timezone.utc)
    meta: dict[str, Any] = {"played_at": when.isoformat(timespec="seconds"), "source": "sheet"}
    if title:
        meta["title"] = title
    return {"format": FORMAT, "game": game, "mode": mode, "players": list(players),
            "meta": meta, "claimed": claimed}


def record_sheet(session: Session, group: Group, sheet: dict[str, Any], *,
                 checker: Checker) -> Joined:
    """Store a score sheet (``sheet_document``) and add it to ``group``. Raises
    :class:`~popreplay.store.records.InvalidLog` (nothing stored) for a sheet that does not
    hold what the game's score sheet holds."""
    require_room(session, group)
    raw = json.dumps(sheet, ensure_ascii=False).encode("utf-8")
    done = ingest(session, raw, checker=checker,
                  visibility="unlisted" if group.private else "public")
    return add_game(session, group, done.record)


def upgrade_sheet(session: Session, record: GameRecord, *, raw: bytes,
                  checker: Checker) -> Result:
    """Attach the full log to a score sheet: checked move by move like an upload; the sheet's
    numbers become the log's claims when it has none, so the result compares the two."""
    if record.status != "sheet":
        raise Refused(409, "not-a-sheet", "This game is not a score sheet: it has its log.")
    try:
        data, _ = parse_log(raw)
    except InvalidLog as invalid:
        raise Refused(422, "invalid-log", str(invalid), path="/log") from None
    if not isinstance(data, dict) or data.get("format") == FORMAT:
        raise Refused(422, "not-a-log", "Attach a full log (popreplay/1), not a sheet.",
                      path="/log")
    if data.get("players") != record.players or (data.get("game"), data.get("mode")) != (
            record.game, record.mode):
        raise Refused(422, "other-game", "The log's game, mode and players are not the sheet's.",
                      path="/log/players")
    if "claimed" not in data:
        data["claimed"] = json.loads(record.log)["claimed"]
        raw = json.dumps(data, ensure_ascii=False).encode("utf-8")
    try:
        return update_log(session, record, raw=raw, checker=checker)
    except InvalidLog as invalid:
        raise Refused(422, "invalid-log", str(invalid), path="/log") from None
    except LogTaken:
        raise Refused(409, "log-taken", "Another stored game already has this log.",
                      path="/log") from None
