"""What a table's requests are made of: who asks (:class:`Viewer`), a request the table cannot
take (:class:`TableError`), the players of a table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..db.tables import TableRecord
from .rows import Snapshot


class TableError(Exception):
    """A request the table cannot take: ``status`` (HTTP), a sentence, the error entries."""

    def __init__(self, status: int, message: str, errors: list[dict[str, Any]] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.errors = errors or []


@dataclass(frozen=True)
class Viewer:
    role: str  # host | seat | watch
    player: str | None = None
    keeper: bool = False  # this seat enters what is nobody's own (tables/authority.py)

    @property
    def host(self) -> bool:
        return self.role == "host"


def players_of(table: TableRecord | Snapshot) -> list[str]:
    return [str(p) for p in table.start["log"].get("players") or []]
