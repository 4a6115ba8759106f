"""Changing a stored game: a saved draft continued by its owner (:func:`update_log`), a what-if
branch linked to its source (:func:`link_branch`), a game deleted (:func:`delete_game`)."""

from __future__ import annotations

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..checking import check_json
from ..logformat.types import Result
from ..db.models import DeletedGame, GamePlayer, GameRecord, StoredReplay
from ..db.session import sqlite_writer
from ..db.types import utcnow
from ..webhooks.delivery import emit
from .lookups import stored_game
from .records import Checker, apply_result, verify_log, log_fields, parse_log
from .tokens import content_hash

__all__ = ["LogTaken", "delete_game", "link_branch", "update_log"]


class LogTaken(Exception):
    """Another stored game already has exactly this log."""


def update_log(session: Session, record: GameRecord, *, raw: bytes,
               checker: Checker = check_json) -> Result:
    """Replace a game's log (a saved draft continued by its owner): checked like an upload, the
    result recomputed, the stored replays dropped; the slug, owner token, visibility and branch
    link stay; everything read from the log (players and seats, title, date of play) follows the
    new log. Raises :class:`~popreplay.store.records.InvalidLog` (nothing changed) or
    :class:`LogTaken`."""
    data, identity = parse_log(raw)
    result = verify_log(data, checker=checker)
    digest = content_hash(raw)
    if digest == record.content_hash:
        return result
    other = stored_game(session, digest=digest, identity=identity)
    if other is not None and other.id != record.id:
        raise LogTaken(other.slug)
    fields = log_fields(data)
    with sqlite_writer(session):
        record.log, record.content_hash, record.canonical_hash = raw, digest, identity
        for name, value in fields.items():
            setattr(record, name, value)
        apply_result(record, result=result)
        record.updated_at = utcnow()  # incremental pulls: updated_since
        try:
            # the game's row first (on PostgreSQL it is locked from now on: a replay of the old
            # log being stored meanwhile waits, then sees the new log; see replays.save_replay),
            # then its replays go
            session.flush()
            session.execute(delete(StoredReplay).where(StoredReplay.game_id == record.id))
            session.commit()
        except IntegrityError:
            session.rollback()
            raise LogTaken(digest) from None
    emit(session, "game.corrected", game=record)  # to its group's webhooks, if it has any
    return result


def link_branch(session: Session, record: GameRecord, *, source: GameRecord, step: int) -> None:
    """Mark ``record`` as a what-if branch of ``source`` at ``step``."""
    with sqlite_writer(session):
        record.branch_of_id, record.branch_step = source.id, step
        session.commit()


def delete_game(session: Session, record: GameRecord) -> None:
    """Delete a game, leaving its tombstone (an export ``with_deleted`` tells mirrors)."""
    with sqlite_writer(session):
        session.execute(delete(GamePlayer).where(GamePlayer.game_id == record.id))
        session.merge(DeletedGame.of(record))
        session.delete(record)
        session.commit()
