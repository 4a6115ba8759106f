"""Tables recorded together (docs/table.md): one row per table and one per entry, append-only.

Imported by ``models`` (one metadata for Alembic); changed only through Alembic revisions.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .types import UTCDateTime, utcnow


class TableRecord(Base):
    """A table: the first draft (the recorder's setup), who holds which capability, and the
    sequence number of its last entry (bumped with a compare-and-set, so two hosts never give one
    number twice)."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(32))
    start: Mapped[dict[str, Any]] = mapped_column(JSON)  # the empty draft (popreplay/1)
    host_token_hash: Mapped[str] = mapped_column(String(64))
    join_key_hash: Mapped[str] = mapped_column(String(64))  # the join link's key (watching)
    seat_tokens: Mapped[dict[str, str]] = mapped_column(JSON)  # player -> token hash
    last_seq: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="live")  # live | stored
    # the seat that enters what is nobody's own (POP!'s layout and Chief, slap's flips) besides
    # the host: None, none named yet (the host's phone's first seat); "", the host only
    keeper: Mapped[str | None] = mapped_column(String(200))
    stored_slug: Mapped[str | None] = mapped_column(String(32), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)


class TableEntry(Base):
    """One entry of a table, in the server's order: ``seq`` 1, 2, …; ``client_id`` is the sending
    phone's own id for it (a retry finds it and is counted once)."""

    __tablename__ = "table_entries"
    __table_args__ = (Index("uq_table_entries_client", "table_id", "client_id", unique=True),)

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    client_id: Mapped[str] = mapped_column(String(64))
    by: Mapped[str | None] = mapped_column(String(200))  # the seat (player), None: the host/table
    kind: Mapped[str] = mapped_column(String(16))  # place | part | drop
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TableSignoff(Base):
    """A seat's sign-off of its table's result (docs/table.md "Sign-off"): ``confirm``, or
    ``dispute`` with a replay step and a sentence. One per seat (a new one replaces it); ``seq``
    is the table's last entry when it was given (a later correction makes it stale)."""

    __tablename__ = "table_signoffs"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    player: Mapped[str] = mapped_column(String(200), primary_key=True)
    verdict: Mapped[str] = mapped_column(String(16))  # confirm | dispute
    step: Mapped[int | None] = mapped_column(Integer)
    sentence: Mapped[str | None] = mapped_column(String(500))
    claims: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    seq: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
