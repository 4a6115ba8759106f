"""A group's webhooks (docs/webhooks.md): the URLs its events are posted to, each with the
secret that signs them, and the log of each hook's deliveries (one row per event sent, with its
state, attempts, last error and the receiver's answer).

The secret is kept as it is (not hashed like the tokens): signing needs it. It is shown once, when
the hook is made, and never again by the API. Imported by ``models`` (one metadata for Alembic).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .types import UTCDateTime, utcnow


class Webhook(Base):
    __tablename__ = "webhooks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"),
                                          index=True)
    url: Mapped[str] = mapped_column(String(2000))
    secret: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class WebhookDelivery(Base):
    """One event sent to one hook: ``pending`` (to be tried, again after ``next_at``),
    ``delivered`` (a 2xx answer) or ``failed`` (given up after the last attempt)."""

    __tablename__ = "webhook_deliveries"
    # ids never reused (SQLite would reuse a deleted hook's last ids): a retry still due for a
    # deleted delivery finds nothing, never another hook's delivery
    __table_args__ = (Index(None, "webhook_id", "id"), {"sqlite_autoincrement": True})

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    webhook_id: Mapped[int] = mapped_column(ForeignKey("webhooks.id", ondelete="CASCADE"))
    event_id: Mapped[str] = mapped_column(String(40))
    event: Mapped[str] = mapped_column(String(40))
    body: Mapped[str] = mapped_column(Text)  # the JSON posted, the same bytes at every attempt
    state: Mapped[str] = mapped_column(String(16))  # pending | delivered | failed
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    response_code: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    next_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
