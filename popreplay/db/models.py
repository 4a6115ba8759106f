"""The stored games (SQLAlchemy 2, typed ``Mapped[...]``).

``games`` holds one uploaded log byte for byte with what the engine computed from it;
``game_players`` holds one row per seat, so that the player filter and player statistics are
queries, not replays. Both tables change only through Alembic revisions (``migrations/``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import NAMING_CONVENTION, Base  # noqa: F401  (re-exported: db.Base, migrations)
from .types import UTCDateTime, utcnow

VISIBILITIES = ("public", "unlisted")


def _stored_at(context: Any) -> datetime:
    """A new game's ``updated_at``: its ``stored_at``."""
    return context.get_current_parameters()["stored_at"]


class GameRecord(Base):
    """One stored game: the log as uploaded and its result as computed at ingest."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint("visibility IN ('public', 'unlisted')", name="visibility"),
        Index(None, "game", "mode"),
        Index(None, "visibility", "created_at"),
        Index("uq_games_canonical_hash", "canonical_hash", unique=True),
        # SQLite: ids of deleted games are never given again (an old link must not open another
        # game); PostgreSQL's sequence never reuses them anyway.
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String(32), unique=True)
    content_hash: Mapped[str] = mapped_column(String(64), unique=True)  # SHA-256 of the bytes
    # SHA-256 of the canonical content (``store.canonical_hash``): one game, however it is spelt.
    # NULL only for a duplicate stored before revision 0004 (kept so that its links still work).
    canonical_hash: Mapped[str | None] = mapped_column(String(64))
    # Loaded only when read (a list or a lookup never needs the log: up to 1 MiB a game)
    log: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(32))
    players: Mapped[list[str]] = mapped_column(JSON)
    title: Mapped[str | None] = mapped_column(Text)
    played_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    # ``meta.played_at`` as the log wrote it (local time and offset), for pages: lists never load
    # the log (revision 0005)
    played_at_text: Mapped[str | None] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(16), index=True)
    legal: Mapped[bool] = mapped_column(Boolean)
    claims_match: Mapped[bool | None] = mapped_column(Boolean)
    errors: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    claims: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    engine_version: Mapped[str] = mapped_column(String(32))
    visibility: Mapped[str] = mapped_column(String(16), default="public")
    owner_token_hash: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # When this database stored the game (``created_at`` is kept from an export by ``import``),
    # and when its log or result last changed here (revalidate, a correction): what incremental
    # pulls (``since``/``until``, ``updated_since``) filter on (revision 0006)
    stored_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_stored_at, index=True)
    # a what-if branch (the recorder): the game and the step it branched from
    branch_of_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), index=True)
    branch_step: Mapped[int | None] = mapped_column(Integer)

    seats: Mapped[list[GamePlayer]] = relationship(
        back_populates="record",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="GamePlayer.position",
    )

    @property
    def result(self) -> dict[str, Any]:
        """The stored result object (``spec/pop.md`` section 6), without steps."""
        return {
            "game": self.game,
            "mode": self.mode,
            "engine": self.engine_version,
            "status": self.status,
            "legal": self.legal,
            "errors": self.errors,
            "outcome": self.outcome,
            "claims": self.claims,
        }

    def __repr__(self) -> str:
        return f"<GameRecord {self.id} {self.slug} {self.game}/{self.mode} {self.status}>"


class GamePlayer(Base):
    """One seat of a stored game: the player's name (NFC) and, for legal games, the standings."""

    __tablename__ = "game_players"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text, index=True)
    # the name as people type it (``queries.folded_name``): what ``player=`` matches
    name_folded: Mapped[str] = mapped_column(Text, index=True)
    score: Mapped[int | None] = mapped_column(Integer)
    won: Mapped[bool | None] = mapped_column(Boolean)

    record: Mapped[GameRecord] = relationship(back_populates="seats")


class StoredReplay(Base):
    """A game's replay (the result with its steps) as served, encoded once per engine version.

    Replays are immutable for one engine version, so the bytes are computed on the first fetch and
    kept; a new engine version simply computes and keeps its own. Deleting the game deletes them.
    """

    __tablename__ = "replays"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    engine_version: Mapped[str] = mapped_column(String(32), primary_key=True)
    body: Mapped[bytes] = mapped_column(LargeBinary)
    step_count: Mapped[int] = mapped_column(Integer)  # what a page needs without parsing body


class DeletedGame(Base):
    """A tombstone: a game that was deleted, so that an incremental export can tell a mirror
    (``?with_deleted=true``). Keeps the game's number, slug, hash and visibility only."""

    __tablename__ = "deleted_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    slug: Mapped[str] = mapped_column(String(32), index=True)
    content_hash: Mapped[str] = mapped_column(String(64))
    visibility: Mapped[str] = mapped_column(String(16))
    deleted_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)

    @classmethod
    def of(cls, record: GameRecord) -> DeletedGame:
        return cls(id=record.id, slug=record.slug, content_hash=record.content_hash,
                   visibility=record.visibility, deleted_at=utcnow())


class Job(Base):
    """A bulk job (``popreplay revalidate`` / ``import``) split into chunks (``popreplay.queue``):
    what the command that follows it reads, whichever workers on whichever hosts do the chunks.
    Written only when the work goes through a broker (revision 0008)."""

    __tablename__ = "jobs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # revalidate | import
    state: Mapped[str] = mapped_column(String(16), default="running")  # running | done
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    chunk_count: Mapped[int] = mapped_column(Integer)
    item_count: Mapped[int] = mapped_column(Integer)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class JobChunk(Base):
    """One chunk of a job: its work (``payload``: gzip JSON), how often a worker took it
    (``attempts``: a chunk that killed its worker too often is given up, not retried forever) and,
    once done, what it found (``outcome``: JSON), written in the transaction of its results."""

    __tablename__ = "job_chunks"

    job_id: Mapped[int] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"),
                                        primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[str] = mapped_column(String(16), default="queued")  # queued | done | failed
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    item_count: Mapped[int] = mapped_column(Integer)
    payload: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


from . import tables as _tables  # noqa: E402,F401  (the tables recorded together, same metadata)
from . import groups as _groups  # noqa: E402,F401  (groups, their members, games and ratings)
from . import webhooks as _webhooks  # noqa: E402,F401  (groups' webhooks and their deliveries)
