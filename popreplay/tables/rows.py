"""A table's rows and its start as plain values, the engine's choices for a draft and an engine
error as JSON: what the state (``state.py``), the corrections and the service share, below all
three (no import cycle)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db.tables import TableEntry, TableRecord
from ..drafts import draft_shape
from ..engine import get_game
from ..i18n import localize


@dataclass(frozen=True)
class Snapshot:
    """What the state and the views read of a table, as plain values (safe in any thread: no
    lazy load from the database)."""

    id: str
    game: str
    mode: str
    start: Mapping[str, Any]
    status: str
    stored_slug: str | None
    seat_tokens: Mapping[str, str]
    last_seq: int
    keeper: str | None = None  # tables/authority.py

    @classmethod
    def of(cls, table: TableRecord | Snapshot) -> Snapshot:
        if isinstance(table, Snapshot):
            return table
        return cls(id=table.id, game=table.game, mode=table.mode, start=table.start,
                   status=table.status, stored_slug=table.stored_slug,
                   seat_tokens=dict(table.seat_tokens or {}), last_seq=table.last_seq,
                   keeper=table.keeper)


@dataclass(frozen=True)
class Row:
    """One entry of a table (a ``TableEntry`` as plain values)."""

    seq: int
    kind: str
    by: str | None
    body: dict[str, Any]
    client_id: str | None = None
    created_at: Any = None

    @classmethod
    def of(cls, entry: TableEntry | Row) -> Row:
        if isinstance(entry, Row):
            return entry
        return cls(seq=entry.seq, kind=entry.kind, by=entry.by, body=entry.body,
                   client_id=entry.client_id, created_at=entry.created_at)


def entries(session: Session, table_id: str, *, after: int = 0,
            upto: int | None = None) -> list[TableEntry]:
    query = select(TableEntry).where(TableEntry.table_id == table_id, TableEntry.seq > after)
    if upto is not None:
        query = query.where(TableEntry.seq <= upto)
    return list(session.scalars(query.order_by(TableEntry.seq)))


def engine_choices(game: str, log: dict[str, Any]) -> dict[str, Any]:
    exact, errors = draft_shape(log)
    if exact is None:
        return {"error": errors[0].to_dict(), "next": {}}
    return get_game(game).choices(exact)


def plain(error: Mapping[str, Any]) -> dict[str, Any]:
    """An engine error as JSON that keeps its message id (to be put in any language later)."""
    [entry] = localize({"errors": [dict(error)]}, "en")["errors"]
    return entry
