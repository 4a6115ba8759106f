"""Column types shared by the models."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware datetime stored in UTC (SQLite keeps no offset, PostgreSQL timestamptz).

    Values are converted to UTC on the way in and come back aware (UTC) on the way out; naive
    values are taken to be UTC already.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        value = value.astimezone(timezone.utc)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc)


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def db_text(value: str) -> str:
    """Text every database can store: NUL characters and lone surrogates (possible in JSON
    strings, refused by PostgreSQL and by UTF-8) become U+FFFD. Applied to stored names and titles
    and to the strings queries compare with them."""
    if value.isascii() and "\x00" not in value:
        return value
    text = value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text.replace("\x00", "\ufffd")
