"""Finding stored games: by slug, hash, number or URL reference; the newest public games; the
players the recorder offers; a game's what-if branches."""

from __future__ import annotations

from typing import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..db.models import GamePlayer, GameRecord
from ..db.queries import MAX_ID, listed
from ..db.types import db_text

__all__ = ["branch_source", "branches_of", "find_by_canonical_hash", "find_by_hash",
           "find_by_id", "find_by_ref", "find_by_slug", "known_players", "recent_public",
           "stored_game"]


def find_by_slug(session: Session, slug: str) -> GameRecord | None:
    """The game with this share slug, unlisted ones too (the link is the key)."""
    return session.scalars(select(GameRecord).where(GameRecord.slug == db_text(slug))).first()


def find_by_hash(session: Session, digest: str) -> GameRecord | None:
    """The game stored with exactly these bytes (SHA-256 ``digest``)."""
    return session.scalars(select(GameRecord).where(GameRecord.content_hash == digest)).first()


def find_by_canonical_hash(session: Session, digest: str) -> GameRecord | None:
    """The game with this content (:func:`~popreplay.store.tokens.canonical_hash`), however it
    was spelt."""
    return session.scalars(select(GameRecord).where(GameRecord.canonical_hash == digest)).first()


def stored_game(session: Session, *, digest: str, identity: str | None) -> GameRecord | None:
    """The duplicate check (ingest, restore, a draft's new log, a lost race to store): the game
    already stored with exactly these bytes (``digest``, its content hash) or with the same
    content in other bytes (``identity``, its canonical hash)."""
    return find_by_hash(session, digest) or (
        None if identity is None else find_by_canonical_hash(session, identity))


def find_by_id(session: Session, game_id: int) -> GameRecord | None:
    if not 0 < game_id <= MAX_ID:
        return None
    return session.get(GameRecord, game_id)


def find_by_ref(session: Session, ref: str) -> GameRecord | None:
    """A game named in a URL: by its slug (any visibility) or by its number (public only, so
    that counting through numbers never reveals an unlisted game). The visibility is part of the
    query, so an unlisted number costs the same as a missing one (no row is loaded for it)."""
    record = find_by_slug(session, ref)
    if record is not None:
        return record
    if ref.isascii() and ref.isdigit() and len(ref) <= len(str(MAX_ID)) and 0 < int(ref) <= MAX_ID:
        return session.scalars(select(GameRecord).where(
            GameRecord.id == int(ref), listed())).first()
    return None


def recent_public(session: Session, *, limit: int = 20) -> Sequence[GameRecord]:
    """The newest public games, newest first."""
    query = (select(GameRecord).where(listed())
             .order_by(GameRecord.created_at.desc(), GameRecord.id.desc()).limit(limit))
    return session.scalars(query).all()


def known_players(session: Session, *, limit: int = 300) -> list[str]:
    """Player names of the public games (the recorder offers them), most frequent first: a
    name seen only in unlisted games or private groups' is never offered (issue 25, finding 5)."""
    query = (select(GamePlayer.name).join(GameRecord, GameRecord.id == GamePlayer.game_id)
             .where(listed()).group_by(GamePlayer.name)
             .order_by(func.count().desc(), GamePlayer.name).limit(limit))
    return list(session.scalars(query).all())


def branches_of(session: Session, record: GameRecord) -> Sequence[GameRecord]:
    """The what-if branches stored from a game, by step then age."""
    query = (select(GameRecord).where(GameRecord.branch_of_id == record.id)
             .order_by(GameRecord.branch_step, GameRecord.created_at, GameRecord.id))
    return session.scalars(query).all()


def branch_source(session: Session, record: GameRecord) -> GameRecord | None:
    """The game ``record`` is a what-if branch of, if any."""
    return None if record.branch_of_id is None else session.get(GameRecord, record.branch_of_id)
